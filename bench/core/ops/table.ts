/**
 * The families' ops as tables: per op, its columns (a library, its call,
 * how it gets its output), and one generic adapter per call shape (keyed
 * call on a message, a cipher's two directions, a hash and its keyed form).
 * Every column does the same work: one whole message a call, its cipher
 * built for its key and nonce, no associated data, throughput in message
 * bytes (not a tag).
 */
import { bytes, fill } from '../fixtures.js';
import { NATIVE, PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED } from '../libraries.js';
import { type Call, defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

/** Bytes of a Poly1305 tag. */
export const TAG = 16;

/** A shape's inputs, from a label's streams: a 32-byte key, a nonce, the message; `sealed`, the message sealed by a trusted library, to open. */
export interface Inputs {
  readonly shape: Shape;
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  readonly message: Uint8Array;
  readonly sealed?: Uint8Array;
}

/** The message of a shape from `label`'s stream, in a buffer of its own, as an application's single message would be. */
export const messageOf = (label: string, shape: Shape): Uint8Array => fill(`${label} ${shape.size}`, new Uint8Array(shape.size));

/** Whether the engine (or page) has SharedArrayBuffer, for fourfold/parallel's shared-memory columns. */
export const hasSharedMemory = (): boolean => typeof SharedArrayBuffer === 'function';

/** The shared copies made so far, by what they copy (an input) or whose they are (a case's shape, for an output), and length. */
const sharedCopies = new WeakMap<object, Map<number, Uint8Array>>();

/**
 * `content` (or `length` zero bytes) in a SharedArrayBuffer, made once per
 * input or per case for an output (`owner`), so a case's shared columns
 * (the page has one per worker count) use the same memory.
 */
function sharedBuffer(owner: object, length: number, content?: Uint8Array): Uint8Array {
  let copies = sharedCopies.get(owner);
  if (copies === undefined) sharedCopies.set(owner, (copies = new Map()));
  let view = copies.get(length);
  if (view === undefined) {
    view = new Uint8Array(new SharedArrayBuffer(length));
    if (content !== undefined) view.set(content);
    copies.set(length, view);
  }
  return view;
}

/** `source` as a stream of views of `piece` bytes: by default 64 KiB, as a file's ReadableStream comes in Node. */
export function piecesOf(source: Uint8Array, piece = 64 << 10): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= source.length) return controller.close();
      const end = Math.min(at + piece, source.length);
      controller.enqueue(source.subarray(at, end));
      at = end;
    },
  });
}

/** The inputs of a shape from `label`'s streams. */
export const inputsOf = (label: string, shape: Shape, nonceLength: number): Inputs => ({
  shape,
  key: bytes(`${label} key`, 32),
  nonce: bytes(`${label} nonce`, nonceLength),
  message: messageOf(`${label} message`, shape),
});

/** One call: `data` under `key` and `nonce`, into `output` where given. */
export type KeyCall = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array) => ReturnType<Call>;
/** A cipher's two directions. */
export interface Cipher {
  readonly encrypt: KeyCall;
  readonly decrypt: KeyCall;
}
/** How a column's call gets its output: its own ('new'), one caller buffer ('output'), one reused with its pages written ('reused'), input and output on SharedArrayBuffers ('shared'). */
export type Style = 'new' | 'output' | 'reused' | 'shared';
/** A column: its library, its call and style; falsy where the library is not loaded here. */
export type Column<C> = readonly [library: string, call: C, style?: Style] | false | undefined;

/** An AEAD (or a secretbox) of @noble/ciphers' and fourfold's shape: built for a key and nonce, then one call. */
type AeadFactory = (
  key: Uint8Array,
  nonce: Uint8Array,
) => { encrypt(data: Uint8Array, output?: Uint8Array): ReturnType<Call>; decrypt(data: Uint8Array, output?: Uint8Array): ReturnType<Call> };

/** An AeadFactory as a Cipher. */
export const aead = (factory: AeadFactory): Cipher => ({
  encrypt: (key, nonce, data, output) => factory(key, nonce).encrypt(data, output),
  decrypt: (key, nonce, data, output) => factory(key, nonce).decrypt(data, output),
});

/** libsodium's stream call, (message, nonce, key), as a KeyCall. */
export function sodiumXor(xor: (message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array): KeyCall {
  return (key, nonce, data) => xor(data, nonce, key);
}

/** A peer's column, and its '(output)' one: a caller-supplied output, reused. */
export const withOutput = <C>(library: string, call: C): Column<C>[] => [
  [library, call],
  [`${library} (output)`, call, 'output'],
];

/** fourfold's columns of a call: each tier, the '(output)' style unless `output` is false, and with `native` ready() naming no tier. */
export function ours<C>(call: C | undefined, { output = true, native = false } = {}): Column<C>[] {
  if (call === undefined) return [];
  return [['fourfold', call], output && ['fourfold (output)', call, 'output'], ['fourfold-js', call], native && [NATIVE, call]];
}

/** fourfold/parallel's columns: a new output, a reused one, and shared memory where the engine has it. */
export function pooled<C>(call: C | undefined): Column<C>[] {
  if (call === undefined) return [];
  return [[PARALLEL, call], [PARALLEL_REUSED, call, 'reused'], hasSharedMemory() && [PARALLEL_SHARED, call, 'shared']];
}

/** A column's entry: `outLength` the output's bytes for a shape (none: a MAC's or a hash's, which take no output buffer). */
function entry(column: Column<KeyCall>, outLength?: (size: number) => number): OpEntry<Inputs> | [] {
  if (!column) return [];
  const [library, call, style = 'new'] = column;
  return {
    library,
    bind: ({ shape, key, nonce, message, sealed }) => {
      let data = sealed ?? message;
      let out: Uint8Array | undefined;
      const length = outLength?.(shape.size);
      if (style === 'shared') {
        data = sharedBuffer(data, data.length, data);
        if (length !== undefined) out = sharedBuffer(shape, length);
      } else if (style !== 'new' && length !== undefined) {
        out = new Uint8Array(length);
        // A reused output has its pages written once now, as it has after its first call.
        if (style === 'reused') out.fill(1);
      }
      return () => call(key, nonce, data, out);
    },
  };
}

/** What every op builder takes besides its columns: the inputs' label (default: the op's name), entries made by hand, the sizes it takes. */
interface Extra {
  readonly label?: string;
  readonly entries?: readonly OpEntry<Inputs>[];
  readonly takesSize?: (size: number) => boolean;
}

/** A keyed call on a message, its output as long (a stream cipher), or with `mac` a tag. */
export function keyedOp(op: string, nonceLength: number, columns: Column<KeyCall>[], extra: Extra & { mac?: boolean } = {}): OpDefinition<unknown> {
  const label = extra.label ?? op;
  return defineOp<Inputs>({
    op,
    inputs: (shape) => inputsOf(label, shape, nonceLength),
    takesSize: extra.takesSize,
    entries: [...columns.flatMap((c) => entry(c, extra.mac ? undefined : (size) => size)), ...(extra.entries ?? [])],
  });
}

/**
 * A cipher's `name`-encrypt and `name`-decrypt on the same inputs: `sealer`
 * (a trusted library's cipher; none: the plaintext stands in) makes the
 * decrypt op's from them, adding `overhead` bytes (a Poly1305 tag by default).
 */
export function cipherOps(
  name: string,
  nonceLength: number,
  sealer: Cipher | undefined,
  columns: Column<Cipher>[],
  extra: Omit<Extra, 'entries'> & { overhead?: number; encrypt?: OpEntry<Inputs>[]; decrypt?: OpEntry<Inputs>[] } = {},
): OpDefinition<unknown>[] {
  const { overhead = TAG, label = name, takesSize } = extra;
  const plain = (shape: Shape) => inputsOf(label, shape, nonceLength);
  const sealed = (shape: Shape): Inputs => {
    const i = plain(shape);
    // A copy in a buffer of its own, as a message received would be.
    return { ...i, sealed: sealer === undefined ? i.message : (sealer.encrypt(i.key, i.nonce, i.message) as Uint8Array).slice() };
  };
  const way = (direction: keyof Cipher) => columns.map((c): Column<KeyCall> => c && [c[0], c[1][direction], c[2]]);
  return [
    defineOp<Inputs>({
      op: `${name}-encrypt`,
      inputs: plain,
      takesSize,
      entries: [...way('encrypt').flatMap((c) => entry(c, (size) => size + overhead)), ...(extra.encrypt ?? [])],
    }),
    defineOp<Inputs>({
      op: `${name}-decrypt`,
      inputs: sealed,
      takesSize,
      entries: [...way('decrypt').flatMap((c) => entry(c, (size) => size)), ...(extra.decrypt ?? [])],
    }),
  ];
}

/** A library's one-shot hash, keyed when given a key. */
export type Hash = (message: Uint8Array, key?: Uint8Array) => ReturnType<Call>;

/** A hash of fourfold's and @noble's shape, the key in an options object, as a Hash. */
export function keyedHash(hash: (message: Uint8Array, opts?: { key?: Uint8Array }) => ReturnType<Hash>): Hash {
  return (message, key) => (key === undefined ? hash(message) : hash(message, { key }));
}

/** A hasher object (hash-wasm's synchronous one: its one-shot functions return promises), made once and timed as init, update, digest. */
export const hasher =
  (h: { init(): unknown; update(data: Uint8Array): unknown; digest(format: 'binary'): Uint8Array }): Hash =>
  (message) => {
    h.init();
    h.update(message);
    return h.digest('binary');
  };

/** A hash `op` and `op`-keyed: `keyed` columns have both, `plain` ones (a hasher, a shared message) the plain op only. */
export function hashOps(op: string, keyed: Column<Hash>[], plain: Column<Hash>[] = []): OpDefinition<unknown>[] {
  const call = (c: Column<Hash>, withKey: boolean): Column<KeyCall> => {
    if (!c) return c;
    const hash = c[1];
    return [c[0], withKey ? (key, _nonce, data) => hash(data, key) : (_key, _nonce, data) => hash(data), c[2]];
  };
  const inputs = (shape: Shape) => inputsOf(op, shape, 0);
  return [
    defineOp<Inputs>({ op, inputs, entries: [...keyed, ...plain].flatMap((c) => entry(call(c, false))) }),
    defineOp<Inputs>({ op: `${op}-keyed`, inputs, entries: keyed.flatMap((c) => entry(call(c, true))) }),
  ];
}

/** One call of a key derivation (scrypt, Argon2id) on its inputs. */
export type Derive<I> = (inputs: I) => ReturnType<Call>;

/** The entries of the derivations loaded here (a column whose library is not: undefined). */
export const kdfEntries = <I>(columns: readonly (readonly [library: string, derive: Derive<I> | undefined])[]): OpEntry<I>[] =>
  columns.flatMap(([library, derive]) => (derive === undefined ? [] : [{ library, bind: (inputs: I) => () => derive(inputs) }]));
