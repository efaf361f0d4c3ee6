/**
 * crypto_box (X25519, HSalsa20 and XSalsa20-Poly1305: easy, detached,
 * open, beforenm / afternm, keypair, seed_keypair), crypto_box_seal and
 * seal_open, crypto_scalarmult in libsodium-wrappers' shape: X25519 from
 * x25519.ts, the rest on fourfold/salsa's kernels.
 */
import { hsalsa20 } from '../salsa/index.js';
import { hashBlake2b } from './blake2b.js';
import { type Detached, format, formatObject, formatOf, type Input, input, type Out, type OutObject, sized, type OutputFormat } from './codecs.js';
import { joinDetached, open, seal } from './secretbox.js';
import { boxSeedKey, dh, ephemeralKey, type KeyPair, publicOf, x25519Pair } from './x25519.js';

const MACBYTES = 16;
const ZERO16 = /*#__PURE__*/ new Uint8Array(16);
const invalidUsage = (): Error => new Error('invalid usage');
const wrongPair = (): Error => new Error('incorrect key pair for the given ciphertext');

/** crypto_box's shared key: HSalsa20 of the X25519 secret; a low-order public key is refused (invalid usage). */
function boxKey(publicKey: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const s = dh(privateKey, publicKey);
  if (s === undefined) throw invalidUsage();
  const k = hsalsa20(s, ZERO16);
  s.fill(0);
  return k;
}

const keys = (publicKey: unknown, privateKey: unknown) => ({ pk: sized(publicKey, 'publicKey', 32), sk: sized(privateKey, 'privateKey', 32) });

/** A new random key pair (keyType 'x25519'). */
export function crypto_box_keypair<F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): OutObject<KeyPair, F> {
  formatOf(outputFormat);
  return x25519Pair('x25519', outputFormat);
}

/** The key pair of a 32-byte seed: the private key is SHA-512(seed)'s first 32 bytes. */
export function crypto_box_seed_keypair<F extends OutputFormat | null = 'uint8array'>(seed: Uint8Array, outputFormat?: F): OutObject<KeyPair, F> {
  formatOf(outputFormat);
  return x25519Pair('x25519', outputFormat, boxSeedKey(sized(seed, 'seed', 32)));
}

/** The shared key of a public and a private key, for the _afternm calls. */
export function crypto_box_beforenm<F extends OutputFormat | null = 'uint8array'>(publicKey: Uint8Array, privateKey: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const { pk, sk } = keys(publicKey, privateKey);
  return format(boxKey(pk, sk), outputFormat);
}

function boxWith<F>(k: Uint8Array, message: Uint8Array, nonce: Uint8Array, outputFormat: F | undefined): Out<F> {
  const box = seal(k, nonce, message);
  k.fill(0);
  return format(box, outputFormat);
}

/** The box of `message` from `privateKey` to `publicKey` under a 24-byte nonce: 16-byte tag || ciphertext. */
export function crypto_box_easy<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  nonce: Uint8Array,
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  const n = sized(nonce, 'nonce', 24);
  const { pk, sk } = keys(publicKey, privateKey);
  return boxWith(boxKey(pk, sk), m, n, outputFormat);
}

/** The box of `message` under a shared key from crypto_box_beforenm. */
export function crypto_box_easy_afternm<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  nonce: Uint8Array,
  sharedKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  const n = sized(nonce, 'nonce', 24);
  return boxWith(sized(sharedKey, 'sharedKey', 32).slice(), m, n, outputFormat);
}

/** The box as `{ ciphertext, mac }`. */
export function crypto_box_detached<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  nonce: Uint8Array,
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): OutObject<Detached, F> {
  formatOf(outputFormat);
  const box = crypto_box_easy(message, nonce, publicKey, privateKey);
  return formatObject({ ciphertext: box.slice(MACBYTES), mac: box.slice(0, MACBYTES) }, outputFormat);
}

function openWith<F>(k: Uint8Array, box: Uint8Array, nonce: Uint8Array, failure: () => Error, outputFormat: F | undefined): Out<F> {
  const opened = open(k, nonce, box);
  k.fill(0);
  if (opened === undefined) throw failure();
  return format(opened, outputFormat);
}

/** The plaintext of a box to `privateKey` from `publicKey`; throws Error if it does not open. */
export function crypto_box_open_easy<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  nonce: Uint8Array,
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const box = input(ciphertext, 'ciphertext');
  if (box.length < MACBYTES) throw new TypeError('ciphertext is too short');
  const n = sized(nonce, 'nonce', 24);
  const { pk, sk } = keys(publicKey, privateKey);
  return openWith(boxKey(pk, sk), box, n, wrongPair, outputFormat);
}

/** The plaintext of a box under a shared key; throws Error if it does not open. */
export function crypto_box_open_easy_afternm<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  nonce: Uint8Array,
  sharedKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const box = input(ciphertext, 'ciphertext');
  const n = sized(nonce, 'nonce', 24);
  const k = sized(sharedKey, 'sharedKey', 32).slice();
  // After the nonce and key, where libsodium-wrappers' allocation for a short box fails.
  if (box.length < MACBYTES) throw new TypeError('ciphertext is too short');
  return openWith(k, box, n, () => new Error('incorrect secret key for the given ciphertext'), outputFormat);
}

/** The plaintext of a detached box; throws Error if it does not open. */
export function crypto_box_open_detached<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  mac: Uint8Array,
  nonce: Uint8Array,
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const c = input(ciphertext, 'ciphertext');
  return crypto_box_open_easy(joinDetached(c, sized(mac, 'mac', MACBYTES)), nonce, publicKey, privateKey, outputFormat);
}

/** The nonce of a sealed box: BLAKE2b-192 of the ephemeral public key and the recipient's. */
export function sealNonce(ephemeral: Uint8Array, recipient: Uint8Array): Uint8Array {
  const both = new Uint8Array(64);
  both.set(ephemeral);
  both.set(recipient, 32);
  return hashBlake2b(both, { dkLen: 24 });
}

/**
 * A sealed box to `pk`: a fresh key pair's public key || the box `sealWith`
 * makes under the key `derive` makes of the X25519 secret (HSalsa20 for
 * crypto_box, HChaCha20 for its XChaCha20 variant); a low-order `pk` is
 * refused (invalid usage).
 */
export function sealTo(
  pk: Uint8Array,
  message: Uint8Array,
  derive: (secret: Uint8Array, zero: Uint8Array) => Uint8Array,
  sealWith: (key: Uint8Array, nonce: Uint8Array, message: Uint8Array) => Uint8Array,
): Uint8Array {
  const { publicKey: epk, shared } = ephemeralKey(pk);
  if (shared === undefined) throw invalidUsage();
  const k = derive(shared, ZERO16);
  shared.fill(0);
  const box = sealWith(k, sealNonce(epk, pk), message);
  k.fill(0);
  const out = new Uint8Array(32 + box.length);
  out.set(epk);
  out.set(box, 32);
  return out;
}

/** A sealed box's bytes, refused first where shorter than a public key and a tag, as libsodium-wrappers checks them. */
export function sealedBox(ciphertext: unknown): Uint8Array {
  const c = input(ciphertext, 'ciphertext');
  if (c.length < 32 + MACBYTES) throw new TypeError('ciphertext is too short');
  return c;
}

/** The message of a sealed box (sealedBox's) for (pk, sk): the key from X25519 with its public key by `derive`, opened by `openBox`; throws Error if it does not open. */
export function openSealed(
  c: Uint8Array,
  pk: Uint8Array,
  sk: Uint8Array,
  derive: (secret: Uint8Array, zero: Uint8Array) => Uint8Array,
  openBox: (key: Uint8Array, nonce: Uint8Array, box: Uint8Array) => Uint8Array | undefined,
): Uint8Array {
  const epk = c.subarray(0, 32);
  const s = dh(sk, epk);
  if (s === undefined) throw wrongPair();
  const k = derive(s, ZERO16);
  s.fill(0);
  const opened = openBox(k, sealNonce(epk, pk), c.subarray(32));
  k.fill(0);
  if (opened === undefined) throw wrongPair();
  return opened;
}

/** An anonymous box to `publicKey`: a fresh key pair's public key || the box from it (48 bytes more than the message). */
export function crypto_box_seal<F extends OutputFormat | null = 'uint8array'>(message: Input, publicKey: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const m = input(message, 'message');
  return format(sealTo(sized(publicKey, 'publicKey', 32), m, hsalsa20, seal), outputFormat);
}

/** The message of a sealed box, for the recipient's key pair; throws Error if it does not open. */
export function crypto_box_seal_open<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  publicKey: Uint8Array,
  privateKey: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const c = sealedBox(ciphertext);
  const { pk, sk } = keys(publicKey, privateKey);
  return format(openSealed(c, pk, sk, hsalsa20, open), outputFormat);
}

/** X25519: the shared secret of a private key and a public key; throws Error ('weak public key') where it is all zeros. */
export function crypto_scalarmult<F extends OutputFormat | null = 'uint8array'>(privateKey: Uint8Array, publicKey: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const sk = sized(privateKey, 'privateKey', 32);
  const pk = sized(publicKey, 'publicKey', 32);
  const s = dh(sk, pk);
  if (s === undefined) throw new Error('weak public key');
  return format(s, outputFormat);
}

/** X25519 of a private key and the base point: its public key. */
export function crypto_scalarmult_base<F extends OutputFormat | null = 'uint8array'>(privateKey: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return format(publicOf(sized(privateKey, 'privateKey', 32)), outputFormat);
}
