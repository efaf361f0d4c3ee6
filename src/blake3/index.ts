/**
 * BLAKE3: hash, keyed_hash (a MAC) and derive_key (a KDF), with output of
 * any length (the XOF). Call shapes follow @noble/hashes' blake3, so
 * switching is a changed import.
 */
import type { TreeState } from './engine.js';
import { ROOT_BYTES } from './layout.js';
import { DEFAULT_LENGTH, hashOnce, modeOf, type Blake3Opts } from './args.js';
import { engine } from './tiers.js';
import * as check from '../runtime/assert.js';
import { EMPTY, zeroize, type Bytes } from '../runtime/bytes.js';

export type { Blake3Opts } from './args.js';

const CHUNK = 1024;
/**
 * Input an incremental hasher buffers: short updates are gathered so the
 * kernel gets several chunks per call (hashed four at a time) rather than
 * one, and pays its per-call costs once per 16 KiB. The buffer starts at
 * one chunk and grows when more is buffered, so short messages stay cheap.
 */
const PENDING = 16 * CHUNK;
/**
 * Typed arrays up to 64 bytes live on V8's heap; larger ones allocate an
 * ArrayBuffer outside it, which costs about a microsecond (and GC work).
 * So the buffer starts at 64 bytes, and a digest of at most 64 bytes uses
 * this shared root node (wiped after use) instead of allocating one.
 */
const SMALL = 64;
const scratchRoot = new Uint8Array(ROOT_BYTES);
const BLOCK = 64;

/**
 * An incremental BLAKE3: update any number of times with any split, then
 * digest once, or read the output stream with xof / xofInto as far as
 * wanted (successive calls continue it).
 *
 * Short updates are gathered in a buffer of up to 16 KiB. The last chunk
 * (up to 1 KiB) is held back until more input shows it is not the last;
 * whole chunks before it go into the tree, whose stack of chaining values
 * stays at most popcount(chunks) + 1 entries.
 */
export class Blake3 {
  /** BLAKE3's block: 64 bytes (as @noble/hashes' field). */
  readonly blockLen = BLOCK;
  /** Bytes digest() returns: 32, or the `dkLen` given to create(). */
  readonly outputLen: number;
  /** As @noble/hashes' field: the output is extendable (xof(), xofInto()). */
  readonly canXOF = true;
  #state: TreeState;
  /** Input not yet in the tree (at least the last chunk's once any came): SMALL, CHUNK or PENDING bytes as needed. */
  #pending = EMPTY;
  #filled = 0;
  /** Bytes of `pending` ever written: what wiping must clear. */
  #dirty = 0;
  /** Set by the first digest or xof: the root node (the engine's RootNode). */
  #root: Uint8Array | undefined;
  /** The output block `block` holds (counter - 1), and how much of it was read. */
  #counter = 0;
  #block = new Uint8Array(BLOCK);
  #used = BLOCK;
  #digested = false;
  #destroyed = false;

  /** A hasher for hash (no options), keyed_hash (`key`) or derive_key (`context`), with a digest of 32 bytes or `dkLen`. */
  constructor(opts?: Blake3Opts) {
    const mode = modeOf(opts);
    this.outputLen = mode.dkLen;
    this.#state = {
      key: mode.derived ? mode.key : mode.key.slice(),
      flags: mode.flags,
      chunks: 0,
      base: 0,
      depth: 0,
      stack: EMPTY,
    };
  }

  #keep(input: Uint8Array, at: number): void {
    const end = at + input.length;
    if (end > this.#pending.length) {
      const grown = new Uint8Array(end <= SMALL ? SMALL : end <= CHUNK ? CHUNK : PENDING);
      grown.set(this.#pending.subarray(0, this.#filled));
      zeroize(this.#pending);
      this.#pending = grown;
      this.#dirty = this.#filled;
    }
    this.#pending.set(input, at);
    if (end > this.#dirty) this.#dirty = end;
  }

  #usable(): void {
    if (this.#destroyed) throw new Error('blake3: the hasher was destroyed (digest() destroys it)');
  }

  /** Adds `data` to the input; returns this hasher, for chained calls. */
  update(data: Uint8Array): this {
    const input = check.bytes(data, 'data');
    this.#usable();
    if (this.#root !== undefined) throw new Error('blake3: update() after xof()');
    const n = input.length;
    if (n <= PENDING - this.#filled) {
      // Fits: kept, even if it fills the buffer (it may hold the last chunk).
      this.#keep(input, this.#filled);
      this.#filled += n;
      return this;
    }
    // More than fits: the buffer is completed to whole chunks and goes in
    // with the input's whole chunks, keeping at least one byte back.
    const top = Math.min((CHUNK - (this.#filled % CHUNK)) % CHUNK, n);
    this.#keep(input.subarray(0, top), this.#filled);
    const head = this.#filled + top;
    const whole = Math.floor((n - top - 1) / CHUNK) * CHUNK;
    if (head > 0) engine().update(this.#state, input.subarray(top, top + whole), this.#pending.subarray(0, head));
    else engine().update(this.#state, input.subarray(0, whole));
    this.#keep(input.subarray(top + whole), 0);
    this.#filled = n - top - whole;
    return this;
  }

  /**
   * The root node (into `root`), and the first output block into `block`:
   * one engine call for a short message.
   */
  #finish(root: Uint8Array): Uint8Array {
    const whole = this.#filled > CHUNK ? Math.floor((this.#filled - 1) / CHUNK) * CHUNK : 0;
    if (whole > 0) engine().update(this.#state, this.#pending.subarray(0, whole));
    engine().finish(this.#state, this.#pending.subarray(whole, this.#filled), root, this.#block);
    this.#counter = 1;
    this.#used = 0;
    this.#wipeInput();
    return root;
  }

  #wipeInput(): void {
    zeroize(this.#pending, this.#dirty);
    this.#dirty = this.#filled = 0;
    zeroize(this.#state.stack);
    zeroize(this.#state.key);
  }

  /** The next `out.length` bytes of the output stream, into `out`, which is returned. */
  xofInto<T extends Uint8Array>(out: T): T {
    const target = check.bytes(out, 'output');
    this.#usable();
    if (this.#digested) throw new Error('blake3: xof() after digest()');
    this.#squeeze(target);
    return out;
  }

  /** The next target.length bytes of the output stream (the root node made on first use). */
  #squeeze(target: Uint8Array): void {
    const root = (this.#root ??= this.#finish(new Uint8Array(ROOT_BYTES)));
    const n = target.length;
    let pos = 0;
    if (this.#used < BLOCK) {
      pos = Math.min(BLOCK - this.#used, n);
      target.set(this.#block.subarray(this.#used, this.#used + pos));
      this.#used += pos;
    }
    const whole = Math.floor((n - pos) / BLOCK) * BLOCK;
    if (whole > 0) {
      engine().output(root, this.#counter, target.subarray(pos, pos + whole));
      this.#counter += whole / BLOCK;
      pos += whole;
    }
    if (pos < n) {
      engine().output(root, this.#counter++, this.#block);
      this.#used = n - pos;
      target.set(this.#block.subarray(0, this.#used), pos);
    }
  }

  /** The next `bytes` bytes of the output stream (successive calls continue it), in a new array. */
  xof(bytes: number): Bytes {
    return this.xofInto(check.allocate(check.count(bytes, 'bytes'), 'bytes'));
  }

  /**
   * The outputLen-byte digest into the start of `out` (at least outputLen
   * bytes); the hasher is destroyed afterwards.
   */
  digestInto<T extends Uint8Array>(out: T): T {
    const target = check.bytes(out, 'output');
    this.#usable();
    if (target.length < this.outputLen) throw new RangeError(`output must be at least ${this.outputLen} bytes, got ${target.length}`);
    if (this.#root !== undefined) throw new Error('blake3: digest() after xof()');
    try {
      if (this.outputLen <= BLOCK) {
        // The first output block is all a short digest needs: no root node to keep.
        try {
          this.#finish(scratchRoot);
        } finally {
          zeroize(scratchRoot);
        }
        for (let i = 0; i < this.outputLen; i++) target[i] = this.#block[i];
      } else {
        this.#squeeze(target.subarray(0, this.outputLen));
      }
    } finally {
      this.#digested = true;
      this.destroy();
    }
    return out;
  }

  /** The outputLen-byte digest; the hasher is destroyed afterwards. */
  digest(): Bytes {
    this.#usable();
    const out = check.allocate(this.outputLen, 'dkLen');
    this.digestInto(out);
    return out;
  }

  /** An independent copy of the current state (input absorbed and output position). */
  clone(): Blake3 {
    this.#usable();
    const copy = new Blake3({ dkLen: this.outputLen });
    const s = this.#state;
    copy.#state = { ...s, key: s.key.slice(), stack: s.stack.slice() };
    copy.#pending = this.#pending.slice();
    copy.#filled = this.#filled;
    copy.#dirty = this.#dirty;
    copy.#root = this.#root?.slice();
    copy.#counter = this.#counter;
    copy.#block = this.#block.slice();
    copy.#used = this.#used;
    copy.#digested = this.#digested;
    return copy;
  }

  /** Wipes the state; the hasher cannot be used again. */
  destroy(): void {
    this.#destroyed = true;
    this.#wipeInput();
    zeroize(this.#block);
    if (this.#root !== undefined) zeroize(this.#root);
  }
}

/**
 * BLAKE3 of `data`: 32 bytes, or `dkLen` (any length: the output is a
 * stream); with `key`, a MAC (keyed_hash); with `context`, a key derived
 * from `data` as key material (derive_key). `blake3.create(opts)` is the
 * incremental form; fourfold/parallel's blake3 gives the same bytes on
 * several threads.
 *
 * @example
 * ```ts
 * import { blake3 } from 'fourfold/blake3';
 * const data = new TextEncoder().encode('hello');
 * const hash = blake3(data); // 32 bytes
 * const long = blake3(data, { dkLen: 64 });
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const mac = blake3(data, { key });
 * const subkey = blake3(key, { context: 'example.com 2026-01-01 file encryption' });
 * ```
 */
export const blake3: ((data: Uint8Array, opts?: Blake3Opts) => Bytes) & {
  /** An incremental hasher with the same options: update(), then digest(). */
  create(opts?: Blake3Opts): Blake3;
  /** Bytes of the default digest: 32 (as @noble/hashes' field). */
  readonly outputLen: number;
  /** BLAKE3's block: 64 bytes (as @noble/hashes' field). */
  readonly blockLen: number;
  /** As @noble/hashes' field: the output is extendable (xof(), dkLen). */
  readonly canXOF: boolean;
} = Object.assign(
  (data: Uint8Array, opts?: Blake3Opts): Bytes => {
    if (opts === undefined) return engine().hash(undefined, 0, check.bytes(data, 'data'), DEFAULT_LENGTH) as Bytes;
    // The options first: reading them may run the caller's getters, which then cannot change the data once checked.
    return hashOnce(modeOf(opts), data) as Bytes;
  },
  {
    create: (opts?: Blake3Opts): Blake3 => new Blake3(opts),
    outputLen: DEFAULT_LENGTH,
    blockLen: BLOCK,
    canXOF: true,
  },
);
