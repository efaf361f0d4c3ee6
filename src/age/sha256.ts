/**
 * HKDF-SHA-256 (RFC 5869) and HMAC-SHA-256 (RFC 2104) for the keys age
 * derives itself: the header's MAC, the payload key, the X25519 stanza's
 * wrap key. node:crypto's where the runtime has it (runtime/native.ts:
 * Node, Deno, Bun), else @noble/hashes', imported by sha256Ready(), which
 * sealHeader and openHeader await before any of these: in a fresh Node,
 * @noble/hashes' SHA-2 module and the first calls through it cost some
 * 15 ms, as long as the rest of a small file's encryption. Both give the
 * same bytes. What node:crypto copies of a key is its own to free, as
 * with WebCrypto's X25519 (x25519.ts).
 */
import { nativeSha256, type Sha256Kdf } from '../runtime/native.js';

/** @noble/hashes' HKDF-SHA-256 and HMAC-SHA-256, imported now (each namespace destructured where imported, so that a bundle keeps only these). */
export async function nobleSha256(): Promise<Sha256Kdf> {
  const [nobleHkdf, nobleHmac, nobleSha256Hash] = await Promise.all([
    // biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
    import(('@noble/hashes/hkdf.js')).then(({ hkdf }) => hkdf),
    // biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
    import(('@noble/hashes/hmac.js')).then(({ hmac }) => hmac),
    // biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
    import(('@noble/hashes/sha2.js')).then(({ sha256 }) => sha256),
  ]);
  return {
    hkdf: (ikm, salt, info, length) => nobleHkdf(nobleSha256Hash, ikm, salt, info, length),
    hmac: (key, message) => nobleHmac(nobleSha256Hash, key, message),
  };
}

let kdf: Sha256Kdf | undefined;

/** Makes hkdfSha256 and hmacSha256 usable: at once where node:crypto is, after @noble/hashes' import elsewhere. */
export async function sha256Ready(): Promise<void> {
  kdf ??= nativeSha256() ?? (await nobleSha256());
}

function ready(): Sha256Kdf {
  kdf ??= nativeSha256();
  if (kdf === undefined) throw new Error('fourfold: SHA-256 called before sha256Ready()');
  return kdf;
}

/** HKDF-SHA-256: `length` bytes from `ikm`, `salt` (empty: HashLen zeros) and `info`. */
export const hkdfSha256 = (ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Uint8Array => ready().hkdf(ikm, salt, info, length);

/** HMAC-SHA-256 of `message` under `key`. */
export const hmacSha256 = (key: Uint8Array, message: Uint8Array): Uint8Array => ready().hmac(key, message);
