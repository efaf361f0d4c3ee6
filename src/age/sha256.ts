/**
 * HKDF-SHA-256 (RFC 5869) and HMAC-SHA-256 (RFC 2104) for the keys age
 * derives itself: the header's MAC, the payload key, the X25519 stanza's
 * wrap key. node:crypto's where the runtime has it (runtime/native.ts:
 * Node, Deno, Bun), else fourfold's own in JavaScript (sha256-js.ts), a
 * kilobyte of gzip where @noble/hashes' modules were seven in every page
 * that reads or writes age files. Both give the same bytes. What
 * node:crypto copies of a key is its own to free, as with WebCrypto's
 * X25519 (x25519.ts).
 */
import { nativeSha256, type Sha256Kdf } from '../runtime/native.js';
import { jsSha256 } from './sha256-js.js';

let kdf: Sha256Kdf | undefined;

/** The one in use: node:crypto's where it is, chosen at the first call. */
const ready = (): Sha256Kdf => (kdf ??= nativeSha256() ?? jsSha256);

/** Kept for the callers that await it before a header: both implementations are ready at once. */
export async function sha256Ready(): Promise<void> {
  ready();
}

/** HKDF-SHA-256: `length` bytes from `ikm`, `salt` (empty: HashLen zeros) and `info`. */
export const hkdfSha256 = (ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Uint8Array => ready().hkdf(ikm, salt, info, length);

/** HMAC-SHA-256 of `message` under `key`. */
export const hmacSha256 = (key: Uint8Array, message: Uint8Array): Uint8Array => ready().hmac(key, message);
