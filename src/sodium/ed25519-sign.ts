/**
 * Ed25519 and Ed25519ph signing and verification as libsodium computes
 * them (crypto_sign/ed25519/ref10's sign.c and open.c), on @noble/curves'
 * group and scalars: RFC 8032 §5.1.6 and §5.1.7, with libsodium's choices
 * where the RFC leaves room. The public key hashed into a signature is the
 * second half of the 64-byte private key, not one derived from its seed
 * (so a private key whose halves disagree signs as libsodium signs), and
 * verification is cofactorless: [S]B - [k]A must encode to R's bytes.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js';
import { hash, start } from './sha2.js';

const { Point } = ed25519;
const L = Point.Fn.ORDER;

/** RFC 8032 §5.1: dom2(1, "") for Ed25519ph; Ed25519 has no prefix. */
const DOM2_PH = /*#__PURE__*/ Uint8Array.from([...'SigEd25519 no Ed25519 collisions'].map((c) => c.charCodeAt(0)).concat(1, 0));

/** SHA-512 of the parts (after dom2 for Ed25519ph), as a scalar mod L. */
function scalarHash(prehashed: boolean, ...parts: Uint8Array[]): bigint {
  const h = start('sha512');
  if (prehashed) h.update(DOM2_PH);
  for (const p of parts) h.update(p);
  const digest = h.digest();
  const n = bytesToNumberLE(digest) % L;
  digest.fill(0);
  return n;
}

/**
 * The signature of `message` (SHA-512 of the message for Ed25519ph) under
 * a 64-byte private key: seed || public key.
 */
export function signDetached(message: Uint8Array, privateKey: Uint8Array, prehashed: boolean): Uint8Array {
  const az = hash('sha512', privateKey.subarray(0, 32));
  const r = scalarHash(prehashed, az.subarray(32), message);
  const signature = new Uint8Array(64);
  signature.set(Point.BASE.multiply(r).toBytes());
  signature.set(privateKey.subarray(32, 64), 32);
  const k = scalarHash(prehashed, signature, message);
  // RFC 8032 §5.1.5: the scalar is the first half of the seed's hash, clamped.
  az[0] &= 248;
  az[31] &= 127;
  az[31] |= 64;
  const a = bytesToNumberLE(az.subarray(0, 32));
  az.fill(0);
  signature.set(numberToBytesLE((r + k * a) % L, 32), 32);
  return signature;
}

/**
 * Whether `signature` is the signature of `message` (its SHA-512 for
 * Ed25519ph) under `publicKey`: S below L, A a point, and [S]B - [k]A
 * encoding to R. The caller has refused the encodings libsodium refuses
 * first (small order, y not below p): sign.ts's refusedEncoding.
 */
export function verifyDetached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array, prehashed: boolean): boolean {
  const s = bytesToNumberLE(signature.subarray(32, 64));
  // constant-time: public: a signature and a public key are public.
  if (s >= L) return false;
  let A: InstanceType<typeof Point>;
  try {
    A = Point.fromBytes(publicKey);
  } catch {
    return false;
  }
  const R = signature.subarray(0, 32);
  const k = scalarHash(prehashed, R, publicKey, message);
  const check = Point.BASE.multiplyUnsafe(s).subtract(A.multiplyUnsafe(k)).toBytes();
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= check[i] ^ R[i];
  return diff === 0;
}
