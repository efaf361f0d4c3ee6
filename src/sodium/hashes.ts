/**
 * crypto_generichash (BLAKE2b: one-shot, keyed, 1 to 64 bytes, and
 * init/update/final), crypto_generichash_blake2b_salt_personal, crypto_kdf
 * (BLAKE2b with the subkey's id as salt and the context as
 * personalization) and crypto_shorthash (SipHash-2-4, and _siphashx24) in
 * libsodium-wrappers' shape.
 */
import { type Blake2b, hashBlake2b, startBlake2b } from './blake2b.js';
import { format, formatOf, from_string, type Input, input, optional, type Out, sized, unsigned, type OutputFormat } from './codecs.js';
import { randombytes_buf } from './random.js';
import { siphash24 } from './siphash.js';

/** libsodium's error for arguments outside what the primitive takes. */
const invalidUsage = (): Error => new Error('invalid usage');

/** A BLAKE2b output length, 1..64 (libsodium's bounds; its _BYTES_MIN of 16 is advice). */
function hashLength(value: unknown): number {
  const n = unsigned(value, 'hash_length');
  if (n < 1 || n > 64) throw invalidUsage();
  return n;
}

/** An optional BLAKE2b key of up to 64 bytes (empty: none). */
function hashKey(value: unknown): Uint8Array | undefined {
  const k = optional(value, 'key');
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
  const m = input(message, 'message');
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
  const dkLen = unsigned(subkey_len, 'subkey_len');
  if (dkLen < 1 || dkLen > 64) throw invalidUsage();
  const k = hashKey(key);
  const salt = id === null || id === undefined ? new Uint8Array(16) : sized(id, 'id', 16);
  const personalization = ctx === null || ctx === undefined ? new Uint8Array(16) : sized(ctx, 'ctx', 16);
  return format(hashBlake2b(new Uint8Array(0), { dkLen, key: k, salt, personalization }), outputFormat);
}

/** An incremental BLAKE2b's state, as crypto_generichash_init gives it. */
export interface GenerichashState {
  /** What the state is for: only the calls of crypto_generichash take it. */
  readonly kind: 'crypto_generichash';
}
const generichashStates = /*#__PURE__*/ new WeakMap<GenerichashState, { hasher: Blake2b; length: number }>();

function liveGenerichash(state: GenerichashState): { hasher: Blake2b; length: number } {
  const s = generichashStates.get(state);
  if (s === undefined) throw invalidUsage();
  return s;
}

/** Starts an incremental BLAKE2b of `hash_length` bytes, keyed when `key` is given. */
export function crypto_generichash_init(key: Input | null, hash_length: number): GenerichashState {
  const length = hashLength(hash_length);
  const state: GenerichashState = Object.freeze({ kind: 'crypto_generichash' });
  generichashStates.set(state, { hasher: startBlake2b({ dkLen: length, key: hashKey(key) }), length });
  return state;
}

/** Adds `message_chunk` to the message. */
export function crypto_generichash_update(state_address: GenerichashState, message_chunk: Input): void {
  liveGenerichash(state_address).hasher.update(input(message_chunk, 'message_chunk'));
}

/**
 * The hash: the first `hash_length` bytes of the one crypto_generichash_init
 * asked for (more than that throws invalid usage). The state ends here.
 */
export function crypto_generichash_final<F extends OutputFormat | null = 'uint8array'>(
  state_address: GenerichashState,
  hash_length: number,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const { hasher, length } = liveGenerichash(state_address);
  const n = hashLength(hash_length);
  if (n > length) throw invalidUsage();
  generichashStates.delete(state_address);
  const digest = hasher.digest();
  return format(n === length ? digest : digest.slice(0, n), outputFormat);
}

/** A random 32-byte key for crypto_generichash. */
export const crypto_generichash_keygen = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(32, outputFormat);

/** The subkey id as libsodium-wrappers takes it: a number below 2^31, or a bigint of up to 64 bits. */
function subkeyId(value: unknown): bigint {
  if (typeof value === 'bigint') {
    if (value < 0n) throw new TypeError('subkey_id must be an unsigned integer or bigint');
    if (value >= 1n << 64n) throw new TypeError('subkey_id cannot be more than 64 bits');
    return value;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0x7fffffff) {
    throw new TypeError('subkey_id must be an unsigned integer or bigint');
  }
  return BigInt(value);
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
  const dkLen = unsigned(subkey_len, 'subkey_len');
  const id = subkeyId(subkey_id);
  if (typeof ctx !== 'string') throw new TypeError('ctx must be a string');
  const context = from_string(ctx);
  if (context.length !== 8) throw new TypeError('invalid ctx length');
  const k = sized(key, 'key', 32);
  if (dkLen < 16 || dkLen > 64) throw invalidUsage();
  const salt = new Uint8Array(16);
  for (let i = 0; i < 8; i++) salt[i] = Number((id >> BigInt(8 * i)) & 0xffn);
  const personalization = new Uint8Array(16);
  personalization.set(context);
  return format(hashBlake2b(new Uint8Array(0), { dkLen, key: k, salt, personalization }), outputFormat);
}

/** A random 32-byte master key for crypto_kdf. */
export const crypto_kdf_keygen = crypto_generichash_keygen;

/** SipHash-2-4 of `message` under a 16-byte key: 8 bytes. */
export function crypto_shorthash<F extends OutputFormat | null = 'uint8array'>(message: Input, key: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  return format(siphash24(m, sized(key, 'key', 16), false), outputFormat);
}

/** SipHash-2-4 with a 128-bit output (libsodium's siphashx24) of `message` under a 16-byte key: 16 bytes. */
export function crypto_shorthash_siphashx24<F extends OutputFormat | null = 'uint8array'>(message: Input, key: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  return format(siphash24(m, sized(key, 'key', 16), true), outputFormat);
}

/** A random 16-byte key for crypto_shorthash. */
export const crypto_shorthash_keygen = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(16, outputFormat);
