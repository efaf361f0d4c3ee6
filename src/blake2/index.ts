/**
 * BLAKE2b (RFC 7693): a hash of 1 to 64 bytes, a MAC with a key of up to
 * 64 bytes, with the parameter block's salt and personalization. Call
 * shapes follow @noble/hashes' blake2b, so switching is a changed import.
 *
 * BLAKE2b has no tree mode: a message is one chain of compressions, so
 * fourfold/parallel has no BLAKE2b (BLAKE3 is the hash that uses every
 * core).
 */
import type { Blake2bState } from './engine.js';
import { READ_CHAIN } from './final-chain.js';
import { BLOCK, IV_BYTES, MAX_KEY, MAX_OUTPUT, PERSONALIZATION, SALT } from './layout.js';
import { hashFrom, parameterState } from './one-shot.js';
import { engine } from './tiers.js';
import * as check from '../runtime/assert.js';
import { EMPTY, type Bytes, slabBytes } from '../runtime/bytes.js';

/** BLAKE2b's options (those of @noble/hashes' blake2b). Any other property is refused (TypeError). */
export interface Blake2Opts {
  /** Digest length in bytes, 1..64 (default 64). */
  dkLen?: number;
  /** A MAC key of up to 64 bytes (a secret, not a password); an empty key is no key (RFC 7693's kk = 0). */
  key?: Uint8Array;
  /** 16 bytes of the parameter block (BLAKE2 §2.8): a salt, as for a KDF. */
  salt?: Uint8Array;
  /** 16 bytes of the parameter block: the application's and purpose's name, so that two uses never share a hash. */
  personalization?: Uint8Array;
}

const OPTIONS = ['dkLen', 'key', 'salt', 'personalization'];
const DEFAULT_LENGTH = MAX_OUTPUT;

/** What the options make: the initial state, the key (the caller's bytes, to copy at once; undefined for none), the digest length. */
interface Start {
  h0: Uint8Array;
  key: Uint8Array | undefined;
  dkLen: number;
}

/**
 * The options, each read once and checked before any work: h0 is the IV
 * XOR the parameter block (RFC 7693 §2.5; BLAKE2 §2.8 for the salt and
 * personalization), written into `h0` (64 bytes). The callers copy the
 * key into its zero-padded block at once, so a caller's later change to it
 * changes nothing.
 */
function startOf(opts: unknown, h0: Uint8Array): Start {
  const { dkLen, key, salt, personalization } = (check.options(opts, 'opts', OPTIONS) ?? {}) as Blake2Opts;
  const length = dkLen === undefined ? DEFAULT_LENGTH : check.count(dkLen, 'dkLen');
  if (length < 1 || length > MAX_OUTPUT) throw new RangeError(`dkLen must be 1..${MAX_OUTPUT}, got ${length}`);
  const k = key === undefined ? undefined : check.bytes(key, 'key');
  if (k !== undefined && k.length > MAX_KEY) throw new RangeError(`key must be at most ${MAX_KEY} bytes, got ${k.length}`);
  const s = salt === undefined ? undefined : check.bytes(salt, 'salt', SALT);
  const p = personalization === undefined ? undefined : check.bytes(personalization, 'personalization', PERSONALIZATION);
  const keyLength = k === undefined ? 0 : k.length;
  parameterState(h0, length, keyLength, s, p);
  return { h0, key: keyLength > 0 ? k : undefined, dkLen: length };
}

/** The initial state of one-shot calls, one array for all (as one-shot.ts's key block): both engines copy it in when a call starts and keep no reference. */
const oneShotH0 = new Uint8Array(IV_BYTES.length);

/**
 * Input an incremental hasher buffers: short updates are gathered so the
 * engine gets many blocks per call (the kernel's loop then runs long, and
 * its per-call costs are paid once per 16 KiB). The buffer starts at one
 * block and grows when more is buffered.
 */
const PENDING = 16 * 1024;

/**
 * A hasher's one-block buffer, from the runtime's slabs (bytes.ts
 * slabBytes): a new 128-byte array of its own took 40% of a 64-byte
 * crypto_generichash_init / update / final in Node 20 (its CPU profile),
 * more than the compression. Each hasher wipes its block (destroy, digest).
 */
const blockBuffer = (): Bytes => slabBytes(BLOCK);

/**
 * An incremental BLAKE2b: update any number of times with any split, then
 * digest once. The last block is compressed with the final flag, so the
 * input's last block (1..128 bytes, or the key block) is held back until
 * more input shows it is not the last.
 */
export class Blake2b {
  /** BLAKE2b's block: 128 bytes (as @noble/hashes' field). */
  readonly blockLen = BLOCK;
  /** Bytes digest() returns: 64, or the `dkLen` given to create(). */
  readonly outputLen: number;
  /** As @noble/hashes' field: the output is not extendable. */
  readonly canXOF = false;
  #state: Blake2bState;
  /** Input not yet compressed (the last block's at least, once any came; the key block first): BLOCK or PENDING bytes. */
  #pending = EMPTY;
  #filled = 0;
  /** Bytes of `pending` ever written: what wiping must clear. */
  #dirty = 0;
  #destroyed = false;

  /** A hasher with a digest of 64 bytes or `dkLen`, keyed with `key`, with `salt` and `personalization` in its parameter block. */
  constructor(opts?: Blake2Opts) {
    const start = startOf(opts, new Uint8Array(IV_BYTES.length));
    this.outputLen = start.dkLen;
    this.#state = { h: start.h0, t: 0 };
    if (start.key !== undefined) {
      // The key block is the first block, held back like any other until more input comes.
      this.#pending = blockBuffer();
      this.#pending.set(start.key);
      this.#filled = this.#dirty = BLOCK;
    }
  }

  #keep(input: Uint8Array, at: number): void {
    const end = at + input.length;
    if (end > this.#pending.length) {
      const grown = end <= BLOCK ? blockBuffer() : new Uint8Array(PENDING);
      grown.set(this.#pending.subarray(0, this.#filled));
      this.#pending.fill(0);
      this.#pending = grown;
      this.#dirty = this.#filled;
    }
    this.#pending.set(input, at);
    if (end > this.#dirty) this.#dirty = end;
  }

  #usable(): void {
    if (this.#destroyed) throw new Error('blake2b: the hasher was destroyed (digest() destroys it)');
  }

  /** Adds `data` to the input; returns this hasher, for chained calls. */
  update(data: Uint8Array): this {
    const input = check.bytes(data, 'data');
    this.#usable();
    const n = input.length;
    // Kept where it fits the buffer as it is, or is shorter than a block (gathered into a PENDING buffer):
    // an update of a block or more that would grow the buffer goes to the engine at once, as allocating
    // and wiping 16 KiB cost a 1 KiB hasher three times its compressions (crypto_generichash_update).
    if (this.#filled + n <= this.#pending.length || (n < BLOCK && n <= PENDING - this.#filled)) {
      // Fits: kept, even if it fills the buffer (it may hold the last block).
      this.#keep(input, this.#filled);
      this.#filled += n;
      return this;
    }
    // More than fits: the buffer is completed to whole blocks and goes in
    // with the input's whole blocks, keeping at least one byte back.
    const top = Math.min((BLOCK - (this.#filled % BLOCK)) % BLOCK, n);
    this.#keep(input.subarray(0, top), this.#filled);
    const head = this.#filled + top;
    const whole = Math.floor((n - top - 1) / BLOCK) * BLOCK;
    if (head > 0) engine().update(this.#state, input.subarray(top, top + whole), this.#pending.subarray(0, head));
    else if (whole > 0) engine().update(this.#state, input.subarray(0, whole));
    this.#keep(input.subarray(top + whole), 0);
    this.#filled = n - top - whole;
    return this;
  }

  /**
   * The outputLen-byte digest into the start of `out` (at least outputLen
   * bytes); the hasher is destroyed afterwards.
   */
  digestInto<T extends Uint8Array>(out: T): T {
    const target = check.bytes(out, 'output');
    this.#usable();
    if (target.length < this.outputLen) throw new RangeError(`output must be at least ${this.outputLen} bytes, got ${target.length}`);
    this.#finish(target, this.outputLen);
    return out;
  }

  /** Writes the first out.length bytes of the final h into `out` (fourfold/sodium's generichash_final reads them), then destroys the hasher: under a symbol the package does not export. */
  [READ_CHAIN](out: Uint8Array): void {
    this.#usable();
    this.#finish(out, out.length);
  }

  /** The first `length` bytes of the final h into `target`; the hasher is destroyed. */
  #finish(target: Uint8Array, length: number): void {
    try {
      const whole = this.#filled > BLOCK ? Math.floor((this.#filled - 1) / BLOCK) * BLOCK : 0;
      if (whole > 0) engine().update(this.#state, this.#pending.subarray(0, whole));
      engine().finish(this.#state, this.#pending.subarray(whole, this.#filled));
      // Byte by byte: subarray() of h, an array on V8's heap, would move its bytes off the heap first (0.7 us).
      const h = this.#state.h;
      for (let i = 0; i < length; i++) target[i] = h[i];
    } finally {
      this.destroy();
    }
  }

  /** The outputLen-byte digest; the hasher is destroyed afterwards. */
  digest(): Bytes {
    this.#usable();
    const out = new Uint8Array(this.outputLen);
    this.digestInto(out);
    return out;
  }

  /** An independent copy of the current state. */
  clone(): Blake2b {
    this.#usable();
    const copy = new Blake2b({ dkLen: this.outputLen });
    copy.#state = { h: this.#state.h.slice(), t: this.#state.t };
    copy.#pending = this.#pending.slice();
    copy.#filled = this.#filled;
    copy.#dirty = this.#dirty;
    return copy;
  }

  /** Wipes the state; the hasher cannot be used again. */
  destroy(): void {
    this.#destroyed = true;
    // Ours, never on shared memory: fill. zeroize's loop, which short arrays of one kind make cheaper, took
    // 0.45 us for 64 bytes here, its stores made polymorphic by every kind of array the process wipes.
    this.#pending.fill(0, 0, this.#dirty);
    this.#dirty = this.#filled = 0;
    this.#state.h.fill(0);
  }
}

/**
 * BLAKE2b of `data` (RFC 7693): 64 bytes, or `dkLen` (1..64); with `key`
 * (up to 64 bytes), a MAC; `salt` and `personalization` (16 bytes each)
 * go into the parameter block. `blake2b.create(opts)` is the incremental
 * form.
 *
 * @example
 * ```ts
 * import { blake2b } from 'fourfold/blake2';
 * const data = new TextEncoder().encode('hello');
 * const hash = blake2b(data); // 64 bytes
 * const short = blake2b(data, { dkLen: 32 });
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const mac = blake2b(data, { key, dkLen: 32 });
 * const hasher = blake2b.create({ key }).update(data).update(data);
 * const macOfBoth = hasher.digest();
 * ```
 */
export const blake2b: ((data: Uint8Array, opts?: Blake2Opts) => Bytes) & {
  /** An incremental hasher with the same options: update(), then digest(). */
  create(opts?: Blake2Opts): Blake2b;
  /** Bytes of the default digest: 64 (as @noble/hashes' field). */
  readonly outputLen: number;
  /** BLAKE2b's block: 128 bytes (as @noble/hashes' field). */
  readonly blockLen: number;
  /** As @noble/hashes' field: the output is not extendable. */
  readonly canXOF: boolean;
} = Object.assign(
  (data: Uint8Array, opts?: Blake2Opts): Bytes => {
    // The options first: reading them may run the caller's getters, which then cannot change the data once checked.
    const start = startOf(opts, oneShotH0);
    return hashFrom(start.h0, start.key, check.bytes(data, 'data'), start.dkLen);
  },
  {
    create: (opts?: Blake2Opts): Blake2b => new Blake2b(opts),
    outputLen: DEFAULT_LENGTH,
    blockLen: BLOCK,
    canXOF: false,
  },
);
