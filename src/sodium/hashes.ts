/**
 * crypto_generichash (BLAKE2b: one-shot, keyed, 1 to 64 bytes, and
 * init/update/final), crypto_generichash_blake2b_salt_personal, crypto_kdf
 * (BLAKE2b with the subkey's id as salt and the context as
 * personalization) and crypto_shorthash (SipHash-2-4, and _siphashx24) in
 * libsodium-wrappers' shape.
 */
import { type Blake2b, finishBlake2b, hashBlake2b, startBlake2b } from './blake2b.js';
import {
  format,
  formatOf,
  from_string,
  type Input,
  once,
  optional,
  optionalOnce,
  type Out,
  ranged,
  sizedOnce,
  unsigned64,
  type OutputFormat,
} from './codecs.js';
import { endState, openState, type State, liveState } from './states.js';
import { randombytes_buf } from './random.js';
import { siphashOnTier } from './siphash-simd.js';
import { EMPTY } from '../runtime/bytes.js';

/** libsodium's error for arguments outside what the primitive takes. */
const invalidUsage = (): Error => new Error('invalid usage');

/**
 * A BLAKE2b output length, 16..64: crypto_generichash_BYTES_MIN and _MAX,
 * which libsodium.js enforces after its 0.8.4 release (a TypeError);
 * libsodium's C calls and libsodium-wrappers 0.8.4 take 1..64.
 */
const hashLength = (value: unknown, name = 'hash_length'): number => ranged(value, name, 16, 64);

/** An optional BLAKE2b key of up to 64 bytes (empty: none); `copied`: a private copy, for a state that outlives the call. */
function hashKey(value: unknown, copied = false): Uint8Array | undefined {
  const k = copied ? optional(value, 'key') : optionalOnce(value, 'key');
  if (k !== null && k.length > 64) throw invalidUsage();
  return k === null || k.length === 0 ? undefined : k;
}

/** BLAKE2b of `message`, `hash_length` bytes (1 to 64), keyed by `key` (up to 64 bytes) when given. */
export function crypto_generichash<F extends OutputFormat | null = 'uint8array'>(
  hash_length: number,
  message: Input,
  key?: Input | null,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const dkLen = hashLength(hash_length);
  const m = once(message, 'message');
  return format(hashBlake2b(m, { dkLen, key: hashKey(key) }), outputFormat);
}

/** BLAKE2b of the empty message with a key, a 16-byte salt (`id`) and a 16-byte personalization (`ctx`), as libsodium-wrappers takes them. */
export function crypto_generichash_blake2b_salt_personal<F extends OutputFormat | null = 'uint8array'>(
  subkey_len: number,
  key: Input | null,
  id: Uint8Array | null,
  ctx: Uint8Array | null,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const dkLen = hashLength(subkey_len, 'subkey_len');
  const keyBytes = optionalOnce(key, 'key');
  const salt = id === null || id === undefined ? new Uint8Array(16) : sizedOnce(id, 'id', 16);
  const personalization = ctx === null || ctx === undefined ? new Uint8Array(16) : sizedOnce(ctx, 'ctx', 16);
  // A key past 64 bytes is libsodium's own refusal ("invalid usage"), after libsodium-wrappers' checks of every argument.
  const k = hashKey(keyBytes);
  return format(hashBlake2b(EMPTY, { dkLen, key: k, salt, personalization }), outputFormat);
}

/**
 * Up to this many bytes in all, an incremental BLAKE2b gathers its input
 * (a copy) and hashes it in one call at the end: the incremental hasher's
 * start, update and digest (two engine calls, each writing and reading
 * the state) cost about 0.5 us more than one call, a third of a 1 KiB
 * hash, where the extra copy of 4 KiB costs a twentieth of its hash. Past
 * it, the input goes to an incremental hasher.
 */
const GATHER = 4096;

/**
 * Gathering buffers of 128 to GATHER bytes, powers of two, kept wiped for
 * the next hash once one has ended with them: a new array of more than 64
 * bytes costs more than hashing it, most in Chromium (a new 4 KiB array
 * 3.8 us there, against 3.3 us for its BLAKE2b; a 64 KiB slab's share
 * 2.5 us). A few of each size; what more states at once use is left to
 * the garbage collector.
 */
const KEPT = 8;
const kept: Uint8Array[][] = [[], [], [], [], [], []];
/** The size class of a buffer for `n` bytes (1 to GATHER): 128 << class bytes. */
const sizeClass = (n: number): number => Math.max(0, 25 - Math.clz32(n - 1));

const takeBuffer = (n: number): Uint8Array => kept[sizeClass(n)].pop() ?? new Uint8Array(128 << sizeClass(n));

/**
 * A first input of at most this many bytes is gathered in an array of its
 * own length: V8 makes one that short on its heap, for less than taking a
 * kept buffer and giving it back (at 64 bytes, a fifth of init/update/final
 * in Node 20 went to the kept buffers and to a view of the used part).
 */
const SHORT = 64;

/** Wipes the first `used` bytes of `buffer` (one takeBuffer gave, a SHORT copy, or EMPTY) and keeps one takeBuffer gave for the next hash while there is room. */
function giveBack(buffer: Uint8Array, used: number): void {
  if (buffer.length === 0) return;
  buffer.fill(0, 0, used);
  if (buffer.length < 128) return;
  const list = kept[sizeClass(buffer.length)];
  if (list.length < KEPT) list.push(buffer);
}

/** crypto_generichash_init's hasher: its input gathered while it is short (GATHER), else fourfold/blake2's incremental BLAKE2b. */
class Generichash {
  #gathered: Uint8Array = EMPTY;
  #used = 0;
  #hasher: Blake2b | undefined;

  /** `key`: the caller's, copied here and wiped at digest() or destroy(). */
  constructor(
    private readonly key: Uint8Array | undefined,
    readonly length: number,
  ) {}

  update(data: Uint8Array): void {
    const end = this.#used + data.length;
    if (end <= SHORT && this.#used === 0 && this.#hasher === undefined) {
      this.#forgetGathered();
      this.#gathered = new Uint8Array(data);
      this.#used = end;
      return;
    }
    if (this.#hasher === undefined && end <= GATHER) {
      if (end > this.#gathered.length) this.#grow(end);
      this.#gathered.set(data, this.#used);
      this.#used = end;
      return;
    }
    if (this.#hasher === undefined) {
      this.#hasher = startBlake2b({ dkLen: this.length, key: this.key });
      if (this.#used > 0) this.#hasher.update(this.#gathered.subarray(0, this.#used));
      this.#forgetGathered();
    }
    this.#hasher.update(data);
  }

  /** A bigger buffer for `end` bytes (at least twice the last), what was gathered moved into it. */
  #grow(end: number): void {
    const bigger = takeBuffer(Math.max(end, 2 * this.#gathered.length));
    if (this.#used > 0) bigger.set(this.#gathered.subarray(0, this.#used));
    giveBack(this.#gathered, this.#used);
    this.#gathered = bigger;
  }

  /**
   * The hash of everything given: `outputLength` bytes (16..64) of the final
   * chain value, the hash of `length` bytes or a prefix of it or more, as
   * libsodium's final reads it. The key and what was gathered are wiped.
   */
  digest(outputLength: number): Uint8Array {
    try {
      if (this.#hasher !== undefined) return finishBlake2b(this.#hasher, outputLength);
      const gathered = this.#used === this.#gathered.length ? this.#gathered : this.#gathered.subarray(0, this.#used);
      return hashBlake2b(gathered, { dkLen: this.length, key: this.key }, outputLength);
    } finally {
      this.destroy();
    }
  }

  /** Wipes the key, what was gathered and the hasher's state (endState calls it, also for a state freed unfinished). */
  destroy(): void {
    this.#forgetGathered();
    this.key?.fill(0);
    this.#hasher?.destroy();
  }

  #forgetGathered(): void {
    giveBack(this.#gathered, this.#used);
    this.#gathered = EMPTY;
    this.#used = 0;
  }
}

/** An incremental BLAKE2b's state, as crypto_generichash_init gives it. Any state's type (StateAddress), as in libsodium-wrappers. */
export type GenerichashState = State;
const liveGenerichash = (state: GenerichashState) => liveState<Generichash>(state, 'crypto_generichash');

/** Starts an incremental BLAKE2b of `hash_length` bytes, keyed when `key` is given. */
export function crypto_generichash_init(key: Input | null, hash_length: number, outputFormat?: OutputFormat | null): GenerichashState {
  formatOf(outputFormat);
  optionalOnce(key, 'key');
  const length = hashLength(hash_length);
  // hashKey's copy (input() copies an array of 64 bytes or less; a longer key throws) is the state's own.
  return openState<GenerichashState>('crypto_generichash', new Generichash(hashKey(key, true), length));
}

/** Adds `message_chunk` to the message. */
export function crypto_generichash_update(state_address: GenerichashState, message_chunk: Input, outputFormat?: OutputFormat | null): void {
  formatOf(outputFormat);
  liveGenerichash(state_address).update(once(message_chunk, 'message_chunk'));
}

/**
 * The hash: `hash_length` bytes (16..64) of BLAKE2b's final chain value,
 * as libsodium's final copies them: the hash crypto_generichash_init asked
 * for when the lengths agree, else a prefix of it or more of the chain
 * (the parameter block names init's length). The state ends here.
 */
export function crypto_generichash_final<F extends OutputFormat | null = 'uint8array'>(
  state_address: GenerichashState,
  hash_length: number,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const hasher = liveGenerichash(state_address);
  const digest = hasher.digest(hashLength(hash_length));
  endState(state_address);
  return format(digest, outputFormat);
}

/** A random 32-byte key for crypto_generichash. */
export const crypto_generichash_keygen = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(32, outputFormat);

/**
 * crypto_kdf's context, 8 bytes of UTF-8, into `out`: an ASCII context
 * (the usual kind) byte by byte, as a TextEncoder costs more than the
 * hash here; any other through UTF-8. Throws "invalid ctx length" for
 * another length. A context is a public label.
 */
function contextInto(ctx: string, out: Uint8Array): void {
  let ascii = ctx.length === 8;
  for (let i = 0; ascii && i < 8; i++) ascii = ctx.charCodeAt(i) < 0x80;
  // constant-time: public: a context's characters are a label, not a secret.
  if (ascii) for (let i = 0; i < 8; i++) out[i] = ctx.charCodeAt(i);
  else {
    const bytes = from_string(ctx);
    if (bytes.length !== 8) throw new TypeError('invalid ctx length');
    out.set(bytes);
  }
}

/** A subkey's id, little-endian, into out[0..8]: a number (below 2^31) without BigInt arithmetic. A subkey id is public. */
function idInto(id: number | bigint, out: Uint8Array): void {
  if (typeof id === 'number') for (let i = 0; i < 4; i++) out[i] = id >>> (8 * i);
  else for (let i = 0; i < 8; i++) out[i] = Number((id >> BigInt(8 * i)) & 0xffn);
}

/** Subkey `subkey_id` (16 to 64 bytes) of a 32-byte master key, in the 8-byte context `ctx`: BLAKE2b keyed, the id as salt, the context as personalization. */
export function crypto_kdf_derive_from_key<F extends OutputFormat | null = 'uint8array'>(
  subkey_len: number,
  subkey_id: number | bigint,
  ctx: string,
  key: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  // libsodium.js checks the length first, a TypeError, after its 0.8.4 release (0.8.4: "invalid usage", last).
  const dkLen = ranged(subkey_len, 'subkey_len', 16, 64);
  const id = unsigned64(subkey_id, 'subkey_id');
  if (typeof ctx !== 'string') throw new TypeError('ctx must be a string');
  const personalization = new Uint8Array(16);
  contextInto(ctx, personalization);
  const k = sizedOnce(key, 'key', 32);
  const salt = new Uint8Array(16);
  idInto(typeof subkey_id === 'number' ? subkey_id : id, salt);
  return format(hashBlake2b(EMPTY, { dkLen, key: k, salt, personalization }), outputFormat);
}

/** A random 32-byte master key for crypto_kdf. */
export const crypto_kdf_keygen = crypto_generichash_keygen;

/** SipHash-2-4 of `message` under a 16-byte key: 8 bytes. */
export function crypto_shorthash<F extends OutputFormat | null = 'uint8array'>(message: Input, key: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const m = once(message, 'message');
  return format(siphashOnTier()(m, sizedOnce(key, 'key', 16), false), outputFormat);
}

/** SipHash-2-4 with a 128-bit output (libsodium's siphashx24) of `message` under a 16-byte key: 16 bytes. */
export function crypto_shorthash_siphashx24<F extends OutputFormat | null = 'uint8array'>(message: Input, key: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const m = once(message, 'message');
  return format(siphashOnTier()(m, sizedOnce(key, 'key', 16), true), outputFormat);
}

/** A random 16-byte key for crypto_shorthash. */
export const crypto_shorthash_keygen = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(16, outputFormat);
