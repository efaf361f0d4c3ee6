/**
 * crypto_kdf_hkdf_sha256_* and crypto_kdf_hkdf_sha512_* (RFC 5869 HKDF):
 * extract (one-shot, or init/update/final over the input keying material
 * in pieces), expand and keygen, in the shape libsodium.js's current
 * source gives them (its 0.8.4 release on npm has the constants only).
 * HMAC is @noble/hashes'; expand, a loop of it, is written here (noble's
 * hkdf module cost the default export's page 0.25 KB of gzip).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { format, formatOf, from_string, type Input, input, optional, type Out, ranged, sized, type OutputFormat } from './codecs.js';
import { randombytes_buf } from './random.js';
import { endState, openState, type State, liveState } from './states.js';

/** crypto_kdf_hkdf_sha256: the pseudorandom key's length (SHA-256's). */
export const crypto_kdf_hkdf_sha256_KEYBYTES: number = 32;
/** crypto_kdf_hkdf_sha256: the shortest output. */
export const crypto_kdf_hkdf_sha256_BYTES_MIN: number = 0;
/** crypto_kdf_hkdf_sha256: the longest output, 255 blocks (RFC 5869 §2.3). */
export const crypto_kdf_hkdf_sha256_BYTES_MAX: number = 255 * 32;
/** crypto_kdf_hkdf_sha512: the pseudorandom key's length (SHA-512's). */
export const crypto_kdf_hkdf_sha512_KEYBYTES: number = 64;
/** crypto_kdf_hkdf_sha512: the shortest output. */
export const crypto_kdf_hkdf_sha512_BYTES_MIN: number = 0;
/** crypto_kdf_hkdf_sha512: the longest output, 255 blocks (RFC 5869 §2.3). */
export const crypto_kdf_hkdf_sha512_BYTES_MAX: number = 255 * 64;

/** An HKDF extraction in pieces (crypto_kdf_hkdf_*_extract_init): pass it to _update and _final. */
export type HkdfState = State;

type Hash = typeof sha256 | typeof sha512;

/**
 * HKDF-Expand (RFC 5869 §2.3): the first `length` bytes of T(1) || T(2) ||
 * ..., T(i) = HMAC(PRK, T(i - 1) || info || i), T(0) empty; `length` at
 * most 255 blocks (the caller's check). Each T is wiped once copied out.
 */
function expand(hash: Hash, prk: Uint8Array, info: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const keyed = hmac.create(hash, prk);
  let t = new Uint8Array(0);
  try {
    for (let i = 1, at = 0; at < length; i++, at += t.length) {
      const next = keyed.clone().update(t).update(info).update(Uint8Array.of(i)).digest();
      t.fill(0);
      t = next;
      out.set(t.subarray(0, length - at), at);
    }
  } finally {
    keyed.destroy();
    t.fill(0);
  }
  return out;
}

/** One HKDF's calls; `bytes` is its hash's output length, the PRK's. */
function hkdfCalls(kind: string, hash: Hash, bytes: number) {
  // RFC 5869 §2.2: no salt is HashLen zero bytes, which HMAC pads to the same key as an empty one.
  const saltOf = (salt: unknown): Uint8Array => optional(salt, 'salt') ?? new Uint8Array(0);
  return {
    extract: <F extends OutputFormat | null = 'uint8array'>(salt: Input | null, ikm: Input, outputFormat?: F): Out<F> => {
      formatOf(outputFormat);
      const s = saltOf(salt);
      return format(hmac(hash, s, input(ikm, 'ikm')), outputFormat);
    },
    init: (salt: Input | null, outputFormat?: OutputFormat | null): HkdfState => {
      formatOf(outputFormat);
      return openState(kind, hmac.create(hash, saltOf(salt)));
    },
    update: (state_address: HkdfState, ikm: Input, outputFormat?: OutputFormat | null): void => {
      formatOf(outputFormat);
      liveState<ReturnType<typeof hmac.create>>(state_address, kind).update(input(ikm, 'ikm'));
    },
    final: <F extends OutputFormat | null = 'uint8array'>(state_address: HkdfState, outputFormat?: F): Out<F> => {
      formatOf(outputFormat);
      const prk = liveState<ReturnType<typeof hmac.create>>(state_address, kind).digest();
      endState(state_address);
      return format(prk, outputFormat);
    },
    expand: <F extends OutputFormat | null = 'uint8array'>(out_len: number, ctx: string, prk: Uint8Array, outputFormat?: F): Out<F> => {
      formatOf(outputFormat);
      const length = ranged(out_len, 'out_len', 0, 255 * bytes);
      if (typeof ctx !== 'string') throw new TypeError('ctx must be a string');
      const info = from_string(ctx);
      const key = sized(prk, 'prk', bytes);
      return format(expand(hash, key, info, length), outputFormat);
    },
    keygen: <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(bytes, outputFormat),
  };
}

const h256 = /*#__PURE__*/ hkdfCalls('crypto_kdf_hkdf_sha256', sha256, 32);
const h512 = /*#__PURE__*/ hkdfCalls('crypto_kdf_hkdf_sha512', sha512, 64);

/** HKDF-SHA-256's extract: the 32-byte PRK of `ikm` under `salt` (none: empty). */
export const crypto_kdf_hkdf_sha256_extract = h256.extract;
/** Starts an HKDF-SHA-256 extraction under `salt`, the input keying material to come in pieces. */
export const crypto_kdf_hkdf_sha256_extract_init = h256.init;
/** Adds a piece of the input keying material. */
export const crypto_kdf_hkdf_sha256_extract_update = h256.update;
/** The 32-byte PRK; the state ends here. */
export const crypto_kdf_hkdf_sha256_extract_final = h256.final;
/** HKDF-SHA-256's expand: `out_len` bytes (0 to 8160) from a 32-byte PRK and the context string `ctx` (its UTF-8 bytes as info). */
export const crypto_kdf_hkdf_sha256_expand = h256.expand;
/** A random 32-byte PRK. */
export const crypto_kdf_hkdf_sha256_keygen = h256.keygen;
/** HKDF-SHA-512's extract: the 64-byte PRK of `ikm` under `salt` (none: empty). */
export const crypto_kdf_hkdf_sha512_extract = h512.extract;
/** Starts an HKDF-SHA-512 extraction under `salt`, the input keying material to come in pieces. */
export const crypto_kdf_hkdf_sha512_extract_init = h512.init;
/** Adds a piece of the input keying material. */
export const crypto_kdf_hkdf_sha512_extract_update = h512.update;
/** The 64-byte PRK; the state ends here. */
export const crypto_kdf_hkdf_sha512_extract_final = h512.final;
/** HKDF-SHA-512's expand: `out_len` bytes (0 to 16320) from a 64-byte PRK and the context string `ctx` (its UTF-8 bytes as info). */
export const crypto_kdf_hkdf_sha512_expand = h512.expand;
/** A random 64-byte PRK. */
export const crypto_kdf_hkdf_sha512_keygen = h512.keygen;
