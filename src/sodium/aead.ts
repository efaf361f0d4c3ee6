/**
 * crypto_aead_chacha20poly1305 (the original construction: 8-byte nonce),
 * crypto_aead_chacha20poly1305_ietf and crypto_aead_xchacha20poly1305_ietf,
 * combined and detached, in libsodium-wrappers' shape: the ietf ones on
 * fourfold/chacha's AEAD engine, the original beside it
 * (chacha/original.ts).
 */
import { openOriginal, sealOriginal } from '../chacha/original.js';
import { engine } from '../chacha/tiers.js';
import { EMPTY } from '../runtime/bytes.js';
import {
  type Detached,
  format,
  formatObject,
  formatOf,
  type Input,
  input,
  once,
  optionalOnce,
  type Out,
  type OutObject,
  sized,
  sizedOnce,
  type OutputFormat,
} from './codecs.js';
import { randombytes_buf } from './random.js';

const ABYTES = 16;

/** The error libsodium-wrappers throws when an AEAD's tag does not verify. */
const failed = (): Error => new Error('ciphertext cannot be decrypted using that key');

/** How one AEAD seals (ciphertext || tag) and opens (the ciphertext and its tag apart: undefined on a wrong tag). */
interface Construction {
  readonly nonceBytes: number;
  /** ciphertext || tag, into `out` when given (message.length + 16 bytes). */
  seal(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, message: Uint8Array, out?: Uint8Array): Uint8Array;
  open(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): Uint8Array | undefined;
}

/** RFC 8439 §2.8: the AEADs take up to 2^32 - 1 blocks of 64 bytes. */
const MAX_MESSAGE = (2 ** 32 - 1) * 64;
const tooLong = (): Error => new RangeError('plaintext is longer than RFC 8439 allows (2^32 - 1 blocks)');

/**
 * The RFC 8439 AEAD (12-byte nonce) or XChaCha20-Poly1305 (24-byte), on
 * fourfold/chacha's engine (node:crypto past its crossovers) called
 * directly: fourfold/chacha's AEAD objects copy the key, nonce and aad to
 * outlive the call, and take the tag joined to the ciphertext, which a
 * detached open had to allocate and copy. Nothing runs between the checks
 * and the engine's work.
 */
function ietf(nonceBytes: number): Construction {
  return {
    nonceBytes,
    seal: (key, nonce, aad, message, out) => {
      if (message.length > MAX_MESSAGE) throw tooLong();
      return engine().seal(key, nonce, aad, message, out);
    },
    open: (key, nonce, aad, ciphertext, tag) => {
      if (ciphertext.length > MAX_MESSAGE) throw tooLong();
      return engine().open(key, nonce, aad, ciphertext, tag);
    },
  };
}

/** The original construction: its 64-bit counter takes any length an array has. */
const original: Construction = { nonceBytes: 8, seal: sealOriginal, open: openOriginal };

/**
 * Up to this many message bytes, a detached seal goes through a kept
 * array: the ciphertext and tag are then copied out as the two results,
 * without a joined array of their own (a new array over 64 bytes is an
 * ArrayBuffer outside V8's heap, about a quarter of a 64-byte call).
 * What it holds is ciphertext only.
 */
const DETACHED_SCRATCH = 4096;
let scratch: Uint8Array | undefined;

/**
 * The secret nonce libsodium's AEADs take and never use (NSECBYTES is 0):
 * libsodium-wrappers checks only its type, so a wrong one throws as there.
 */
const unusedSecretNonce = (secret_nonce: Input | null): void => void optionalOnce(secret_nonce, 'secret_nonce');

/** The five calls of one AEAD, checked as libsodium-wrappers checks them. */
function calls(c: Construction) {
  /** A seal's checks, in libsodium-wrappers' order: a seal reads each input once. */
  const sealing = (message: Input, additional_data: Input | null, secret_nonce: Input | null, public_nonce: Uint8Array, key: Uint8Array) => ({
    m: once(message, 'message'),
    aad: optionalOnce(additional_data, 'additional_data') ?? EMPTY,
    // Checked in its place among the arguments, as libsodium-wrappers checks it.
    nsec: unusedSecretNonce(secret_nonce),
    n: sizedOnce(public_nonce, 'public_nonce', c.nonceBytes),
    k: sizedOnce(key, 'key', 32),
  });
  const encrypt = <F extends OutputFormat | null = 'uint8array'>(
    message: Input,
    additional_data: Input | null,
    _secret_nonce: Input | null,
    public_nonce: Uint8Array,
    key: Uint8Array,
    outputFormat?: F,
  ): Out<F> => {
    formatOf(outputFormat);
    const { m, aad, n, k } = sealing(message, additional_data, _secret_nonce, public_nonce, key);
    return format(c.seal(k, n, aad, m), outputFormat);
  };
  const encryptDetached = <F extends OutputFormat | null = 'uint8array'>(
    message: Input,
    additional_data: Input | null,
    _secret_nonce: Input | null,
    public_nonce: Uint8Array,
    key: Uint8Array,
    outputFormat?: F,
  ): OutObject<Detached, F> => {
    formatOf(outputFormat);
    const { m, aad, n, k } = sealing(message, additional_data, _secret_nonce, public_nonce, key);
    // A short message sealed into the kept array: the two results are the call's only new arrays.
    const into = m.length <= DETACHED_SCRATCH ? (scratch ??= new Uint8Array(DETACHED_SCRATCH + ABYTES)).subarray(0, m.length + ABYTES) : undefined;
    const sealed = c.seal(k, n, aad, m, into);
    const cut = sealed.length - ABYTES;
    return formatObject({ ciphertext: sealed.slice(0, cut), mac: sealed.slice(cut) }, outputFormat);
  };
  /**
   * The checks after the ciphertext's (and a detached tag's), in
   * libsodium-wrappers' order. The engine reads the key, nonce and
   * associated data once: only the ciphertext and tag are copied if shared.
   */
  const opening = (additional_data: Input | null, public_nonce: Uint8Array, key: Uint8Array) => ({
    aad: optionalOnce(additional_data, 'additional_data') ?? EMPTY,
    n: sizedOnce(public_nonce, 'public_nonce', c.nonceBytes),
    k: sizedOnce(key, 'key', 32),
  });
  const opened = <F>(plaintext: Uint8Array | undefined, outputFormat: F | undefined): Out<F> => {
    if (plaintext === undefined) throw failed();
    return format(plaintext, outputFormat);
  };
  const decrypt = <F extends OutputFormat | null = 'uint8array'>(
    _secret_nonce: Input | null,
    ciphertext: Input,
    additional_data: Input | null,
    public_nonce: Uint8Array,
    key: Uint8Array,
    outputFormat?: F,
  ): Out<F> => {
    formatOf(outputFormat);
    unusedSecretNonce(_secret_nonce);
    const sealed = input(ciphertext, 'ciphertext');
    // libsodium-wrappers' order: the ciphertext's length before the other arguments.
    if (sealed.length < ABYTES) throw new TypeError('ciphertext is too short');
    const { aad, n, k } = opening(additional_data, public_nonce, key);
    const cut = sealed.length - ABYTES;
    return opened(c.open(k, n, aad, sealed.subarray(0, cut), sealed.subarray(cut)), outputFormat);
  };
  /** The tag apart: read where it is, as a combined one, with no joined copy. */
  const decryptDetached = <F extends OutputFormat | null = 'uint8array'>(
    _secret_nonce: Input | null,
    ciphertext: Input,
    mac: Uint8Array,
    additional_data: Input | null,
    public_nonce: Uint8Array,
    key: Uint8Array,
    outputFormat?: F,
  ): Out<F> => {
    formatOf(outputFormat);
    unusedSecretNonce(_secret_nonce);
    const body = input(ciphertext, 'ciphertext');
    const tag = sized(mac, 'mac', ABYTES);
    const { aad, n, k } = opening(additional_data, public_nonce, key);
    return opened(c.open(k, n, aad, body, tag), outputFormat);
  };
  const keygen = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(32, outputFormat);
  return { encrypt, encryptDetached, decrypt, decryptDetached, keygen };
}

const chachaOriginal = /*#__PURE__*/ calls(original);
const chachaIetf = /*#__PURE__*/ calls(/*#__PURE__*/ ietf(12));
const xchachaIetf = /*#__PURE__*/ calls(/*#__PURE__*/ ietf(24));

/** The original ChaCha20-Poly1305 (8-byte nonce): ciphertext || 16-byte tag. */
export const crypto_aead_chacha20poly1305_encrypt = chachaOriginal.encrypt;
/** The original ChaCha20-Poly1305: `{ ciphertext, mac }`. */
export const crypto_aead_chacha20poly1305_encrypt_detached = chachaOriginal.encryptDetached;
/** The original ChaCha20-Poly1305's plaintext; throws Error if the tag does not verify. */
export const crypto_aead_chacha20poly1305_decrypt = chachaOriginal.decrypt;
/** The original ChaCha20-Poly1305's plaintext from a detached tag; throws Error if it does not verify. */
export const crypto_aead_chacha20poly1305_decrypt_detached = chachaOriginal.decryptDetached;
/** A random 32-byte key. */
export const crypto_aead_chacha20poly1305_keygen = chachaOriginal.keygen;

/** ChaCha20-Poly1305 of RFC 8439 (12-byte nonce): ciphertext || 16-byte tag. */
export const crypto_aead_chacha20poly1305_ietf_encrypt = chachaIetf.encrypt;
/** ChaCha20-Poly1305 of RFC 8439: `{ ciphertext, mac }`. */
export const crypto_aead_chacha20poly1305_ietf_encrypt_detached = chachaIetf.encryptDetached;
/** ChaCha20-Poly1305 of RFC 8439's plaintext; throws Error if the tag does not verify. */
export const crypto_aead_chacha20poly1305_ietf_decrypt = chachaIetf.decrypt;
/** ChaCha20-Poly1305 of RFC 8439's plaintext from a detached tag. */
export const crypto_aead_chacha20poly1305_ietf_decrypt_detached = chachaIetf.decryptDetached;
/** A random 32-byte key. */
export const crypto_aead_chacha20poly1305_ietf_keygen = chachaIetf.keygen;

/** XChaCha20-Poly1305 (24-byte nonce, safe at random): ciphertext || 16-byte tag. */
export const crypto_aead_xchacha20poly1305_ietf_encrypt = xchachaIetf.encrypt;
/** XChaCha20-Poly1305: `{ ciphertext, mac }`. */
export const crypto_aead_xchacha20poly1305_ietf_encrypt_detached = xchachaIetf.encryptDetached;
/** XChaCha20-Poly1305's plaintext; throws Error if the tag does not verify. */
export const crypto_aead_xchacha20poly1305_ietf_decrypt = xchachaIetf.decrypt;
/** XChaCha20-Poly1305's plaintext from a detached tag. */
export const crypto_aead_xchacha20poly1305_ietf_decrypt_detached = xchachaIetf.decryptDetached;
/** A random 32-byte key. */
export const crypto_aead_xchacha20poly1305_ietf_keygen = xchachaIetf.keygen;
