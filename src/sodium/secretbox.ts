/**
 * crypto_secretbox (XSalsa20-Poly1305: easy, detached, open) in
 * libsodium-wrappers' shape, on fourfold/salsa's engine called directly:
 * fourfold/salsa's secretbox objects copy the key and nonce to outlive the
 * call, and take the tag joined to the ciphertext. Nothing runs between
 * the checks and the engine's work.
 */
import { engine } from '../salsa/tiers.js';
import {
  format,
  formatObject,
  formatOf,
  type Input,
  input,
  once,
  type Out,
  type OutObject,
  type SecretboxDetached,
  sized,
  sizedOnce,
  type OutputFormat,
} from './codecs.js';
import { randombytes_buf } from './random.js';

const MACBYTES = 16;

/** The error libsodium-wrappers throws when a secretbox does not open. */
const failed = (): Error => new Error('wrong secret key for the given ciphertext');

/** The box (16-byte tag || ciphertext) of `message`, in `out` when given (message.length + 16 bytes, apart from `message`). */
export function seal(key: Uint8Array, nonce: Uint8Array, message: Uint8Array, out?: Uint8Array): Uint8Array {
  return engine().seal(key, nonce, message, out);
}

/** The plaintext of `box` (16-byte tag || ciphertext), undefined when its tag is wrong. */
export function open(key: Uint8Array, nonce: Uint8Array, box: Uint8Array): Uint8Array | undefined {
  return engine().open(key, nonce, box.subarray(MACBYTES), box.subarray(0, MACBYTES));
}

/**
 * Up to this many message bytes, a detached seal goes through a kept
 * array, so that the tag and the ciphertext are the call's only new
 * arrays (a new array over 64 bytes is an ArrayBuffer outside V8's heap).
 * What it holds is the box only.
 */
const DETACHED_SCRATCH = 4096;
let scratch: Uint8Array | undefined;

/** mac || ciphertext from the detached parts. */
export function joinDetached(ciphertext: Uint8Array, mac: Uint8Array): Uint8Array {
  const box = new Uint8Array(ciphertext.length + MACBYTES);
  box.set(mac);
  box.set(ciphertext, MACBYTES);
  return box;
}

/** The box of `message` under a 24-byte nonce and a 32-byte key: 16-byte tag || ciphertext. */
export function crypto_secretbox_easy<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  nonce: Uint8Array,
  key: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  // A seal reads each input once.
  const m = once(message, 'message');
  const n = sizedOnce(nonce, 'nonce', 24);
  return format(seal(sizedOnce(key, 'key', 32), n, m), outputFormat);
}

/** The box of `message` as `{ mac, cipher }`. */
export function crypto_secretbox_detached<F extends OutputFormat | null = 'uint8array'>(
  message: Input,
  nonce: Uint8Array,
  key: Uint8Array,
  outputFormat?: F,
): OutObject<SecretboxDetached, F> {
  formatOf(outputFormat);
  const m = once(message, 'message');
  const n = sizedOnce(nonce, 'nonce', 24);
  const k = sizedOnce(key, 'key', 32);
  const into = m.length <= DETACHED_SCRATCH ? (scratch ??= new Uint8Array(DETACHED_SCRATCH + MACBYTES)).subarray(0, m.length + MACBYTES) : undefined;
  const box = seal(k, n, m, into);
  return formatObject({ mac: box.slice(0, MACBYTES), cipher: box.slice(MACBYTES) }, outputFormat);
}

/** The plaintext of a box; throws Error ('wrong secret key for the given ciphertext') if it does not verify. */
export function crypto_secretbox_open_easy<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  nonce: Uint8Array,
  key: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  // The box is copied if shared; the engine reads the nonce and key once.
  const box = input(ciphertext, 'ciphertext');
  // libsodium-wrappers' order: the ciphertext's length before the other arguments.
  if (box.length < MACBYTES) throw new TypeError('ciphertext is too short');
  const n = sizedOnce(nonce, 'nonce', 24);
  const k = sizedOnce(key, 'key', 32);
  const opened = open(k, n, box);
  if (opened === undefined) throw failed();
  return format(opened, outputFormat);
}

/** The plaintext of a detached box; throws Error if it does not verify. */
export function crypto_secretbox_open_detached<F extends OutputFormat | null = 'uint8array'>(
  ciphertext: Input,
  mac: Uint8Array,
  nonce: Uint8Array,
  key: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const c = input(ciphertext, 'ciphertext');
  const tag = sized(mac, 'mac', MACBYTES);
  const n = sizedOnce(nonce, 'nonce', 24);
  const k = sizedOnce(key, 'key', 32);
  const opened = engine().open(k, n, c, tag);
  if (opened === undefined) throw failed();
  return format(opened, outputFormat);
}

/** A random 32-byte key. */
export const crypto_secretbox_keygen = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(32, outputFormat);
