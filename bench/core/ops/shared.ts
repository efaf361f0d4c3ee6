/** Input builders and call shapes every family uses. */
import { bytes, fill } from '../fixtures.js';
import { PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED } from '../libraries.js';
import { defineOp, type Call, type OpDefinition, type OpEntry, type Shape } from './types.js';

/**
 * `count` views of `length` bytes, each at byteOffset `offset` modulo 16
 * (packed 16-byte aligned in one buffer), filled by `write`. One view gets
 * a buffer of its own, as an application's single message would.
 */
export function packed(count: number, length: number, offset: number, write: (i: number, view: Uint8Array) => void): Uint8Array[] {
  if (count === 1) {
    const one = new Uint8Array(length + offset).subarray(offset);
    write(0, one);
    return [one];
  }
  const stride = Math.ceil((length + offset) / 16) * 16;
  const buffer = new Uint8Array(count * stride);
  const views: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const view = buffer.subarray(i * stride + offset, i * stride + offset + length);
    write(i, view);
    views.push(view);
  }
  return views;
}

/** `count` keys of `length` bytes from `label`'s stream. */
export function keySet(label: string, count: number, length = 32): Uint8Array[] {
  const stream = bytes(label, count * length);
  return packed(count, length, 0, (i, view) => view.set(stream.subarray(i * length, (i + 1) * length)));
}

/** The message of a shape, at its byteOffset. */
export function messageOf(label: string, shape: Shape): Uint8Array {
  return packed(1, shape.size, shape.offset, (_, view) => fill(`${label} ${shape.size}`, view))[0]!;
}

/** A zeroed buffer for a caller-supplied output, at the shape's byteOffset. */
export function outputBuffer(length: number, shape: Shape): Uint8Array {
  return new Uint8Array(length + shape.offset).subarray(shape.offset);
}

/** An output reused from call to call: its pages written once now, as a reused buffer's are after its first call. */
export function reusedBuffer(length: number, shape: Shape): Uint8Array {
  return outputBuffer(length, shape).fill(1);
}

/** The shared copies made so far, by what they copy (an input) or whose they are (a case's shape, for an output). */
const sharedCopies = new WeakMap<object, Map<string, Uint8Array>>();

/**
 * `bytes` (or `length` zero bytes) in a SharedArrayBuffer, at the shape's
 * byteOffset: memory the pool's workers read and write directly. Made once
 * per input, or per case for an output: the shared columns of a case (the
 * benchmark page has one per worker count) use the same memory, so a
 * 64 MiB case holds one shared copy of its input and one output.
 */
export function sharedBuffer(length: number, shape: Shape, content?: Uint8Array): Uint8Array {
  const owner: object = content ?? shape;
  const key = `${content === undefined ? 'output' : 'input'} ${length} ${shape.offset}`;
  let copies = sharedCopies.get(owner);
  if (copies === undefined) sharedCopies.set(owner, (copies = new Map()));
  let view = copies.get(key);
  if (view === undefined) {
    view = new Uint8Array(new SharedArrayBuffer(length + shape.offset), shape.offset, length);
    if (content !== undefined) view.set(content);
    copies.set(key, view);
  }
  return view;
}

/** fourfold/parallel's further columns (libraries.ts): a reused output, and SharedArrayBuffer input and output where the engine has it. */
export const hasSharedMemory = (): boolean => typeof SharedArrayBuffer === 'function';

/*
 * The nonce-based ciphers' ops (chacha.ts, salsa.ts): the call shapes
 * @noble/ciphers and fourfold share, their inputs, and their entries.
 */

/** A stream cipher call: XORs the keystream of `key` and `nonce` into `data` (fourfold/parallel's resolves to it). */
export type StreamCipher = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array) => ReturnType<Call>;

/** An AEAD (or a secretbox) built for one key and nonce; fourfold/parallel's resolves to its output. */
export interface Aead {
  encrypt(plaintext: Uint8Array, output?: Uint8Array): ReturnType<Call>;
  decrypt(ciphertext: Uint8Array, output?: Uint8Array): ReturnType<Call>;
}
export type AeadFactory = (key: Uint8Array, nonce: Uint8Array) => Aead;

/** Bytes of a Poly1305 tag. */
export const TAG = 16;

/** Encrypt inputs: the shape's keys, one nonce, one message. */
export interface NonceInputs {
  readonly shape: Shape;
  readonly keys: Uint8Array[];
  readonly nonce: Uint8Array;
  readonly message: Uint8Array;
}

/** Decrypt inputs: sealed[i] is the message sealed under keys[i]; the message is kept for reference. */
export interface SealedInputs extends NonceInputs {
  readonly sealed: Uint8Array[];
}

/** The encrypt inputs of a shape, from `label`'s streams. */
export function nonceInputs(label: string, shape: Shape, nonceLength: number): NonceInputs {
  return {
    shape,
    keys: keySet(`${label} key`, shape.keys),
    nonce: bytes(`${label} nonce`, nonceLength),
    message: messageOf(`${label} message`, shape),
  };
}

/**
 * Decrypt inputs: `seal`, a trusted library's, seals the message under
 * each key, adding `overhead` bytes (a Poly1305 tag by default).
 */
export function sealedInputs(inputs: NonceInputs, seal: (message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array, overhead = TAG): SealedInputs {
  const { shape, keys, nonce, message } = inputs;
  const sealed = packed(keys.length, shape.size + overhead, shape.offset, (k, view) => view.set(seal(message, nonce, keys[k]!)));
  return { ...inputs, sealed };
}

/** A bind whose call uses the inputs' key 0, `use(inputs)(k)` being the call with key k (a shape has one key: Shape.keys). */
export const perKey =
  <I extends { readonly keys: readonly unknown[] }>(use: (inputs: I) => (key: number) => ReturnType<Call>) =>
  (inputs: I): Call => {
    const call = use(inputs);
    return () => call(0);
  };

/** `stream`'s entry for `library`, and with `withOutput` its '(output)' entry, writing into one caller-supplied buffer. */
export function addStreamEntries(entries: OpEntry<NonceInputs>[], library: string, stream: StreamCipher, withOutput: boolean): void {
  entries.push({
    library,
    bind: perKey(
      ({ keys, nonce, message }) =>
        (k) =>
          stream(keys[k]!, nonce, message),
    ),
  });
  if (!withOutput) return;
  entries.push({
    library: `${library} (output)`,
    bind: perKey(({ keys, nonce, message, shape }) => {
      const out = outputBuffer(shape.size, shape);
      return (k) => stream(keys[k]!, nonce, message, out);
    }),
  });
}

/**
 * A stream op's entries for the libraries that take (key, nonce, data,
 * output?), fourfold (both tiers, and fourfold/parallel's function) and
 * @noble/ciphers, and for libsodium's `sodium(message, nonce, key)` where
 * it has one.
 */
export function streamEntries(
  fourfold: StreamCipher | undefined,
  noble: StreamCipher,
  sodium: ((message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array) | undefined,
  parallel?: StreamCipher,
): OpEntry<NonceInputs>[] {
  const entries: OpEntry<NonceInputs>[] = [];
  if (fourfold !== undefined) {
    addStreamEntries(entries, 'fourfold', fourfold, true);
    addStreamEntries(entries, 'fourfold-js', fourfold, false);
  }
  if (parallel !== undefined) {
    addStreamEntries(entries, PARALLEL, parallel, false);
    entries.push({
      library: PARALLEL_REUSED,
      bind: perKey(({ keys, nonce, message, shape }) => {
        const out = reusedBuffer(shape.size, shape);
        return (k) => parallel(keys[k]!, nonce, message, out);
      }),
    });
    if (hasSharedMemory()) {
      entries.push({
        library: PARALLEL_SHARED,
        bind: perKey(({ keys, nonce, message, shape }) => {
          const input = sharedBuffer(shape.size, shape, message);
          const out = sharedBuffer(shape.size, shape);
          return (k) => parallel(keys[k]!, nonce, input, out);
        }),
      });
    }
  }
  addStreamEntries(entries, 'noble', noble, true);
  if (sodium !== undefined)
    entries.push({
      library: 'sodium',
      bind: perKey(
        ({ keys, nonce, message }) =>
          (k) =>
            sodium(message, nonce, keys[k]!),
      ),
    });
  return entries;
}

/** `factory`'s sealing and opening entries for `library`, and with `withOutput` its '(output)' ones. */
export function addAeadEntries(seal: OpEntry<NonceInputs>[], open: OpEntry<SealedInputs>[], library: string, factory: AeadFactory, withOutput: boolean): void {
  seal.push({
    library,
    bind: perKey(
      ({ nonce, message, keys }) =>
        (k) =>
          factory(keys[k]!, nonce).encrypt(message),
    ),
  });
  open.push({
    library,
    bind: perKey(
      ({ nonce, sealed, keys }) =>
        (k) =>
          factory(keys[k]!, nonce).decrypt(sealed[k]!),
    ),
  });
  if (!withOutput) return;
  seal.push({
    library: `${library} (output)`,
    bind: perKey(({ nonce, message, shape, keys }) => {
      const out = outputBuffer(shape.size + TAG, shape);
      return (k) => factory(keys[k]!, nonce).encrypt(message, out);
    }),
  });
  open.push({
    library: `${library} (output)`,
    bind: perKey(({ nonce, sealed, shape, keys }) => {
      const out = outputBuffer(shape.size, shape);
      return (k) => factory(keys[k]!, nonce).decrypt(sealed[k]!, out);
    }),
  });
}

/** fourfold/parallel's AEAD entries: a new output, a reused one, and shared memory in and out where the engine has it. */
export function addParallelAeadEntries(seal: OpEntry<NonceInputs>[], open: OpEntry<SealedInputs>[], factory: AeadFactory): void {
  addAeadEntries(seal, open, PARALLEL, factory, false);
  seal.push({
    library: PARALLEL_REUSED,
    bind: perKey(({ nonce, message, shape, keys }) => {
      const out = reusedBuffer(shape.size + TAG, shape);
      return (k) => factory(keys[k]!, nonce).encrypt(message, out);
    }),
  });
  open.push({
    library: PARALLEL_REUSED,
    bind: perKey(({ nonce, sealed, shape, keys }) => {
      const out = reusedBuffer(shape.size, shape);
      return (k) => factory(keys[k]!, nonce).decrypt(sealed[k]!, out);
    }),
  });
  if (!hasSharedMemory()) return;
  seal.push({
    library: PARALLEL_SHARED,
    bind: perKey(({ nonce, message, shape, keys }) => {
      const input = sharedBuffer(shape.size, shape, message);
      const out = sharedBuffer(shape.size + TAG, shape);
      return (k) => factory(keys[k]!, nonce).encrypt(input, out);
    }),
  });
  open.push({
    library: PARALLEL_SHARED,
    bind: perKey(({ nonce, sealed, shape, keys }) => {
      const inputs = sealed.map((s) => sharedBuffer(s.length, shape, s));
      const out = sharedBuffer(shape.size, shape);
      return (k) => factory(keys[k]!, nonce).decrypt(inputs[k]!, out);
    }),
  });
}

/** A hash's inputs: the message, and the keys of its keyed form. */
export interface HashInputs {
  readonly keys: Uint8Array[];
  readonly message: Uint8Array;
}

/** A library's one-shot hash, keyed when given a key. */
export type KeyedHash = (message: Uint8Array, key?: Uint8Array) => ReturnType<Call>;

/**
 * A hash `op` and its keyed form (`op`-keyed): `add` gives a library both columns, `plain` an entry
 * of the plain op only, `hasher` hash-wasm's synchronous hasher object
 * (its one-shot functions return promises), created once and timed as
 * init, update, digest; it takes a key only when created, so it has no
 * keyed column.
 */
export function hashPair(op: string) {
  const plain: OpEntry<HashInputs>[] = [];
  const keyed: OpEntry<HashInputs>[] = [];
  return {
    add(library: string, hash: KeyedHash): void {
      plain.push({
        library,
        bind:
          ({ message }) =>
          () =>
            hash(message),
      });
      keyed.push({
        library,
        bind: perKey(
          ({ keys, message }) =>
            (k) =>
              hash(message, keys[k]!),
        ),
      });
    },
    plain: (entry: OpEntry<HashInputs>) => plain.push(entry),
    hasher(library: string, h: { init(): unknown; update(data: Uint8Array): unknown; digest(format: 'binary'): Uint8Array }): void {
      plain.push({
        library,
        bind:
          ({ message }) =>
          () => {
            h.init();
            h.update(message);
            return h.digest('binary');
          },
      });
    },
    ops(): OpDefinition<unknown>[] {
      const inputs = (shape: Shape): HashInputs => ({ keys: keySet(`${op} key`, shape.keys), message: messageOf(`${op} message`, shape) });
      return [defineOp<HashInputs>({ op, inputs, entries: plain }), defineOp<HashInputs>({ op: `${op}-keyed`, inputs, entries: keyed })];
    },
  };
}
