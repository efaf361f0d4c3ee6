/**
 * crypto_box_curve25519xchacha20poly1305_* in libsodium-wrappers' shape:
 * crypto_box with HChaCha20 for the shared key and libsodium's
 * XChaCha20-Poly1305 secretbox (the one-time key from the keystream's
 * first 32 bytes, the message from byte 32 on, the tag over the ciphertext
 * alone, put first), on fourfold/chacha's XChaCha20 and fourfold/poly1305.
 */
import { hchacha20, xchacha20 } from '../chacha/index.js';
import { poly1305 } from '../poly1305/index.js';
import { equalBytes } from '../runtime/bytes.js';
import { openSealed, sealedBox, sealTo } from './box.js';
import { type Detached, format, formatObject, formatOf, type Input, input, type Out, type OutObject, sized, type OutputFormat } from './codecs.js';
import { joinDetached } from './secretbox.js';
import { boxSeedKey, dh, type KeyPair, x25519Pair } from './x25519.js';

const MACBYTES = 16;
const ZERO16 = /*#__PURE__*/ new Uint8Array(16);
const wrongPair = (): Error => new Error('incorrect key pair for the given ciphertext');
const wrongKey = (): Error => new Error('incorrect secret key for the given ciphertext');

/** tag || ciphertext of `message` under a 32-byte key and a 24-byte nonce. */
function sealX(key: Uint8Array, nonce: Uint8Array, message: Uint8Array): Uint8Array {
  const stream = new Uint8Array(32 + message.length);
  stream.set(message, 32);
  xchacha20(key, nonce, stream, stream);
  const out = new Uint8Array(MACBYTES + message.length);
  out.set(stream.subarray(32), MACBYTES);
  out.set(poly1305(out.subarray(MACBYTES), stream.subarray(0, 32)));
  stream.fill(0, 0, 32);
  return out;
}

/** The message of tag || ciphertext, or undefined when the tag is wrong. */
function openX(key: Uint8Array, nonce: Uint8Array, box: Uint8Array): Uint8Array | undefined {
  const polyKey = xchacha20(key, nonce, new Uint8Array(32));
  const tag = poly1305(box.subarray(MACBYTES), polyKey);
  polyKey.fill(0);
  // constant-time: public: a tag that fails is the verdict the caller gets.
  if (!equalBytes(tag, 0, box, 0, MACBYTES)) return undefined;
  const stream = new Uint8Array(32 + box.length - MACBYTES);
  stream.set(box.subarray(MACBYTES), 32);
  xchacha20(key, nonce, stream, stream);
  return stream.slice(32);
}

function boxKey(publicKey: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const s = dh(privateKey, publicKey);
  if (s === undefined) throw new Error('invalid usage');
  const k = hchacha20(s, ZERO16);
  s.fill(0);
  return k;
}

const keys = (publicKey: unknown, privateKey: unknown) => ({ pk: sized(publicKey, 'publicKey', 32), sk: sized(privateKey, 'privateKey', 32) });
const nonceOf = (nonce: unknown) => sized(nonce, 'nonce', 24);

function sealed<F>(k: Uint8Array, m: Uint8Array, n: Uint8Array, outputFormat: F | undefined): Out<F> {
  const box = sealX(k, n, m);
  k.fill(0);
  return format(box, outputFormat);
}

function opened<F>(k: Uint8Array, box: Uint8Array, n: Uint8Array, failure: () => Error, outputFormat: F | undefined): Out<F> {
  if (box.length < MACBYTES) throw new TypeError('ciphertext is too short');
  const m = openX(k, n, box);
  k.fill(0);
  if (m === undefined) throw failure();
  return format(m, outputFormat);
}

const detached = <F>(box: Uint8Array, outputFormat: F | undefined): OutObject<Detached, F> =>
  formatObject({ ciphertext: box.slice(MACBYTES), mac: box.slice(0, MACBYTES) }, outputFormat);

/** A new random key pair (keyType 'curve25519', as libsodium-wrappers names it here). */
export function crypto_box_curve25519xchacha20poly1305_keypair<F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): OutObject<KeyPair, F> {
  formatOf(outputFormat);
  return x25519Pair('curve25519', outputFormat);
}

/** The key pair of a 32-byte seed (SHA-512(seed)'s first 32 bytes; keyType 'x25519'). */
export function crypto_box_curve25519xchacha20poly1305_seed_keypair<F extends OutputFormat | null = 'uint8array'>(
  seed: Uint8Array,
  outputFormat?: F,
): OutObject<KeyPair, F> {
  formatOf(outputFormat);
  // libsodium-wrappers names this pair's type 'x25519', and a random pair's 'curve25519'.
  return x25519Pair('x25519', outputFormat, boxSeedKey(sized(seed, 'seed', 32)));
}

/** The shared key: HChaCha20 of the X25519 secret. */
export function crypto_box_curve25519xchacha20poly1305_beforenm<F extends OutputFormat | null = 'uint8array'>(
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const { pk, sk } = keys(publicKey, privateKey);
  return format(boxKey(pk, sk), outputFormat);
}

/** The box of `message` from `privateKey` to `publicKey`: tag || ciphertext. */
export function crypto_box_curve25519xchacha20poly1305_easy<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  nonce: Uint8Array,
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  const n = nonceOf(nonce);
  const { pk, sk } = keys(publicKey, privateKey);
  return sealed(boxKey(pk, sk), m, n, outputFormat);
}

/** The box of `message` under a shared key. */
export function crypto_box_curve25519xchacha20poly1305_easy_afternm<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  nonce: Uint8Array,
  sharedKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  return sealed(sized(sharedKey, 'sharedKey', 32).slice(), m, nonceOf(nonce), outputFormat);
}

/** The box as `{ ciphertext, mac }`. */
export function crypto_box_curve25519xchacha20poly1305_detached<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  nonce: Uint8Array,
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): OutObject<Detached, F> {
  formatOf(outputFormat);
  return detached(crypto_box_curve25519xchacha20poly1305_easy(message, nonce, publicKey, privateKey), outputFormat);
}

/** The box under a shared key as `{ ciphertext, mac }`. */
export function crypto_box_curve25519xchacha20poly1305_detached_afternm<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  nonce: Uint8Array,
  sharedKey: Uint8Array,
  outputFormat?: F,
): OutObject<Detached, F> {
  formatOf(outputFormat);
  return detached(crypto_box_curve25519xchacha20poly1305_easy_afternm(message, nonce, sharedKey), outputFormat);
}

/** The plaintext of a box; throws Error if it does not open. */
export function crypto_box_curve25519xchacha20poly1305_open_easy<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  nonce: Uint8Array,
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const box = input(ciphertext, 'ciphertext');
  // libsodium-wrappers' order: the ciphertext's length before the other arguments.
  if (box.length < MACBYTES) throw new TypeError('ciphertext is too short');
  const n = nonceOf(nonce);
  const { pk, sk } = keys(publicKey, privateKey);
  return opened(boxKey(pk, sk), box, n, wrongPair, outputFormat);
}

/** The plaintext of a box under a shared key; throws Error if it does not open. */
export function crypto_box_curve25519xchacha20poly1305_open_easy_afternm<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  nonce: Uint8Array,
  sharedKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const box = input(ciphertext, 'ciphertext');
  // The nonce, then the key, then the box's length (in opened()), as libsodium-wrappers reads them.
  const n = nonceOf(nonce);
  return opened(sized(sharedKey, 'sharedKey', 32).slice(), box, n, wrongKey, outputFormat);
}

/** The plaintext of a detached box; throws Error if it does not open. */
export function crypto_box_curve25519xchacha20poly1305_open_detached<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  mac: Uint8Array,
  nonce: Uint8Array,
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const box = joinDetached(input(ciphertext, 'ciphertext'), sized(mac, 'mac', MACBYTES));
  return crypto_box_curve25519xchacha20poly1305_open_easy(box, nonce, publicKey, privateKey, outputFormat);
}

/** The plaintext of a detached box under a shared key; throws Error if it does not open. */
export function crypto_box_curve25519xchacha20poly1305_open_detached_afternm<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  mac: Uint8Array,
  nonce: Uint8Array,
  sharedKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const box = joinDetached(input(ciphertext, 'ciphertext'), sized(mac, 'mac', MACBYTES));
  return crypto_box_curve25519xchacha20poly1305_open_easy_afternm(box, nonce, sharedKey, outputFormat);
}

/** An anonymous box to `publicKey`: a fresh public key || the box from it. */
export function crypto_box_curve25519xchacha20poly1305_seal<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  publicKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  return format(sealTo(sized(publicKey, 'publicKey', 32), m, hchacha20, sealX), outputFormat);
}

/** The message of a sealed box; throws Error if it does not open (libsodium-wrappers returns bytes there: fourfold does not). */
export function crypto_box_curve25519xchacha20poly1305_seal_open<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  publicKey: Uint8Array,
  secretKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const c = sealedBox(ciphertext);
  // libsodium-wrappers names this argument secretKey (crypto_box_seal_open's is privateKey).
  const pk = sized(publicKey, 'publicKey', 32);
  const sk = sized(secretKey, 'secretKey', 32);
  return format(openSealed(c, pk, sk, hchacha20, openX), outputFormat);
}
