/**
 * crypto_sign (Ed25519: keypair, seed_keypair, combined and detached
 * signatures, open, verify_detached; Ed25519ph through init / update /
 * final_create / final_verify) and the Ed25519-to-X25519 key conversions
 * in libsodium-wrappers' shape, on node:crypto where the runtime has it
 * (native.ts), else libsodium's formulas on @noble/curves
 * (ed25519-sign.ts). Verification is libsodium's: canonical encodings
 * (RFC 8032's rules, not ZIP 215's), a public key or R of small order
 * refused, cofactorless.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { signDetached, verifyDetached } from './ed25519-sign.js';
import { nativeCurves } from './native.js';
import { type Incremental, sha512, start } from './sha2.js';
import { format, formatObject, formatOf, type Input, input, once, type Out, type OutObject, sized, type OutputFormat } from './codecs.js';
import { endState, openState, type State, liveState } from './states.js';
import type { KeyPair } from './x25519.js';

const invalidSignature = (): Error => new Error('incorrect signature for the given public key');

/** Whether a 32-byte encoding is a point of small order (or none at all). */
function smallOrder(encoded: Uint8Array): boolean {
  try {
    return ed25519.Point.fromBytes(encoded).isSmallOrder();
  } catch {
    return true;
  }
}

/**
 * The y coordinates (little-endian, bit 255 clear) of the eight points of
 * order dividing 8: 1 (the identity), -1, 0 (two points) and the two of
 * order 8 (two points each); sign.test.ts refuses each, with either sign.
 */
const SMALL_ORDER_Y = /*#__PURE__*/ [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
].map((hex) => Uint8Array.from({ length: 32 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16)));

/**
 * Whether libsodium refuses an encoded point before any arithmetic: y
 * (bit 255 aside) not below p = 2^255 - 19, or the y of a point of small
 * order, whatever x's sign. What no point decodes to, OpenSSL refuses.
 */
function refusedEncoding(encoded: Uint8Array): boolean {
  // constant-time: public: a public key and a signature's R are public.
  let top = (encoded[31] & 0x7f) === 0x7f && encoded[0] >= 0xed;
  for (let i = 1; top && i < 31; i++) top = encoded[i] === 0xff;
  if (top) return true;
  return SMALL_ORDER_Y.some((y) => y.every((b, i) => b === (i === 31 ? encoded[31] & 0x7f : encoded[i])));
}

/** libsodium's verification of an Ed25519 signature, or of Ed25519ph's over the message's SHA-512 (`prehashed`). */
function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array, prehashed = false): boolean {
  // constant-time: public: a signature, its message and a public key are public.
  if (refusedEncoding(publicKey) || refusedEncoding(signature)) return false;
  const native = prehashed ? undefined : nativeCurves();
  // OpenSSL's equation is libsodium's (cofactorless, S below L).
  return native !== undefined ? native.ed25519Verify(signature, message, publicKey) : verifyDetached(signature, message, publicKey, prehashed);
}

/** A key pair of a 32-byte seed: the private key is seed || public key, 64 bytes, as libsodium's. */
function pairOf<F>(seed: Uint8Array, outputFormat: F | undefined): OutObject<KeyPair, F> {
  const publicKey = nativeCurves()?.ed25519Public(seed) ?? ed25519.getPublicKey(seed);
  const privateKey = new Uint8Array(64);
  privateKey.set(seed);
  privateKey.set(publicKey, 32);
  return formatObject({ publicKey, privateKey, keyType: 'ed25519' }, outputFormat);
}

/** A new random key pair (keyType 'ed25519'; the private key is 64 bytes: seed || public key). */
export function crypto_sign_keypair<F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): OutObject<KeyPair, F> {
  formatOf(outputFormat);
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const pair = pairOf(seed, outputFormat);
  seed.fill(0);
  return pair;
}

/** The key pair of a 32-byte seed. */
export function crypto_sign_seed_keypair<F extends OutputFormat | null = 'uint8array'>(seed: Uint8Array, outputFormat?: F): OutObject<KeyPair, F> {
  formatOf(outputFormat);
  return pairOf(sized(seed, 'seed', 32), outputFormat);
}

/**
 * Ed25519's signature of `message` under a 64-byte private key. OpenSSL
 * hashes the public key of the seed, libsodium the private key's second
 * half: node:crypto signs where they are the same key.
 */
function signWith(message: Uint8Array, privateKey: unknown): Uint8Array {
  const sk = sized(privateKey, 'privateKey', 64);
  return nativeCurves()?.ed25519Sign(sk.subarray(0, 32), message, sk.subarray(32)) ?? signDetached(message, sk, false);
}

/** The 64-byte signature of `message` under a 64-byte private key. */
export function crypto_sign_detached<F extends OutputFormat | null = 'uint8array'>(message: Input, privateKey: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  return format(signWith(m, privateKey), outputFormat);
}

/** signature || message. */
export function crypto_sign<F extends OutputFormat | null = 'uint8array'>(message: Input, privateKey: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  const signed = new Uint8Array(64 + m.length);
  signed.set(signWith(m, privateKey));
  signed.set(m, 64);
  return format(signed, outputFormat);
}

/** Whether `signature` is the signature of `message` under `publicKey`. */
export function crypto_sign_verify_detached(signature: Uint8Array, message: Input, publicKey: Uint8Array): boolean {
  const sig = sized(signature, 'signature', 64);
  const m = input(message, 'message');
  return verify(sig, m, sized(publicKey, 'publicKey', 32));
}

/** The message of a signed message; throws Error if the signature does not verify. */
export function crypto_sign_open<F extends OutputFormat | null = 'uint8array'>(signedMessage: Input, publicKey: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const sm = input(signedMessage, 'signedMessage');
  // libsodium-wrappers' order: the signed message's length before the public key.
  if (sm.length < 64) throw new TypeError('signedMessage is too short');
  const pk = sized(publicKey, 'publicKey', 32);
  if (!verify(sm.subarray(0, 64), sm.subarray(64), pk)) throw invalidSignature();
  return format(sm.slice(64), outputFormat);
}

/** The X25519 public key of an Ed25519 public key; throws Error ('invalid key') for one that is not a valid point of the main subgroup. */
export function crypto_sign_ed25519_pk_to_curve25519<F extends OutputFormat | null = 'uint8array'>(edPk: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const pk = sized(edPk, 'edPk', 32);
  if (smallOrder(pk)) throw new Error('invalid key');
  let montgomery: Uint8Array;
  try {
    if (!ed25519.Point.fromBytes(pk).isTorsionFree()) throw new Error('invalid key');
    montgomery = ed25519.utils.toMontgomery(pk);
  } catch {
    throw new Error('invalid key');
  }
  // Formatted outside the try: text that is not UTF-8 throws its own error, as in libsodium-wrappers.
  return format(montgomery, outputFormat);
}

/** The X25519 private key of an Ed25519 private key: SHA-512 of its seed, the first 32 bytes, clamped. */
export function crypto_sign_ed25519_sk_to_curve25519<F extends OutputFormat | null = 'uint8array'>(edSk: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const h = sha512(sized(edSk, 'edSk', 64).subarray(0, 32));
  const sk = h.slice(0, 32);
  h.fill(0);
  sk[0] &= 248;
  sk[31] &= 127;
  sk[31] |= 64;
  return format(sk, outputFormat);
}

/** The public key inside a 64-byte private key. */
export function crypto_sign_ed25519_sk_to_pk<F extends OutputFormat | null = 'uint8array'>(privateKey: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return format(sized(privateKey, 'privateKey', 64).slice(32), outputFormat);
}

/** The seed inside a 64-byte private key. */
export function crypto_sign_ed25519_sk_to_seed<F extends OutputFormat | null = 'uint8array'>(privateKey: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return format(sized(privateKey, 'privateKey', 64).slice(0, 32), outputFormat);
}

/** An Ed25519ph signing or verifying state (crypto_sign_init): the message's SHA-512 so far. Any state's type (StateAddress), as in libsodium-wrappers. */
export type SignState = State;

const prehash = (state: SignState): Incremental => liveState<Incremental>(state, 'crypto_sign');

/** PH(M), the message's SHA-512, the state ended (a second _final throws, as libsodium.js's current source). */
function finalPrehash(state: SignState): Uint8Array {
  const digest = prehash(state).digest();
  endState(state);
  return digest;
}

/** Starts an Ed25519ph (pre-hashed, SHA-512) signature or verification. */
export function crypto_sign_init(outputFormat?: OutputFormat | null): SignState {
  formatOf(outputFormat);
  return openState<SignState>('crypto_sign', start('sha512'));
}

/** Adds `message_chunk` to the message. */
export function crypto_sign_update(state_address: SignState, message_chunk: Input, outputFormat?: OutputFormat | null): void {
  formatOf(outputFormat);
  prehash(state_address).update(once(message_chunk, 'message_chunk'));
}

/** The Ed25519ph signature of the message under a 64-byte private key; the state ends here. */
export function crypto_sign_final_create<F extends OutputFormat | null = 'uint8array'>(
  state_address: SignState,
  privateKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  prehash(state_address);
  const sk = sized(privateKey, 'privateKey', 64);
  return format(signDetached(finalPrehash(state_address), sk, true), outputFormat);
}

/** Whether `signature` is the Ed25519ph signature of the message under `publicKey`; the state ends here. */
export function crypto_sign_final_verify(state_address: SignState, signature: Uint8Array, publicKey: Uint8Array, outputFormat?: OutputFormat | null): boolean {
  formatOf(outputFormat);
  prehash(state_address);
  const sig = sized(signature, 'signature', 64);
  const pk = sized(publicKey, 'publicKey', 32);
  return verify(sig, finalPrehash(state_address), pk, true);
}
