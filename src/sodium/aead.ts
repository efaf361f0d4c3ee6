/**
 * crypto_aead_chacha20poly1305 (the original construction: 8-byte nonce),
 * crypto_aead_chacha20poly1305_ietf and crypto_aead_xchacha20poly1305_ietf,
 * combined and detached, in libsodium-wrappers' shape: the ietf ones on
 * fourfold/chacha's AEADs, the original on its ChaCha20 (64-bit counter)
 * and fourfold/poly1305.
 */
import { chacha20orig, chacha20poly1305, xchacha20poly1305 } from '../chacha/index.js';
import { Poly1305, poly1305 } from '../poly1305/index.js';
import { EMPTY, equalBytes, lengthBlock } from '../runtime/bytes.js';
import { type Detached, format, formatObject, formatOf, type Input, input, optional, type Out, type OutObject, sized, type OutputFormat } from './codecs.js';
import { randombytes_buf } from './random.js';

const ABYTES = 16;

/** The error libsodium-wrappers throws when an AEAD's tag does not verify. */
const failed = (): Error => new Error('ciphertext cannot be decrypted using that key');

/** How one AEAD seals and opens (combined: ciphertext || tag), or undefined on a wrong tag. */
interface Construction {
  readonly nonceBytes: number;
  seal(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, message: Uint8Array): Uint8Array;
  open(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Uint8Array | undefined;
}

/** fourfold/chacha's AEAD of RFC 8439 (12-byte nonce) or XChaCha20-Poly1305 (24-byte nonce). */
function ietf(aead: typeof chacha20poly1305, nonceBytes: number): Construction {
  return {
    nonceBytes,
    seal: (key, nonce, aad, message) => aead(key, nonce, aad).encrypt(message),
    open: (key, nonce, aad, sealed) => {
      try {
        return aead(key, nonce, aad).decrypt(sealed);
      } catch (e) {
        // constant-time: public: a tag that fails is the verdict the caller gets.
        if (e instanceof Error && e.name === 'AuthenticationError') return undefined;
        throw e;
      }
    },
  };
}

/**
 * Up to this many bytes of aad and ciphertext, the original construction's
 * tag is one Poly1305 call over the four pieces copied into one buffer:
 * Poly1305's incremental state costs about 1.3 us a message (four
 * updates and a digest; 112 ns for the one call of 96 bytes, Node 20),
 * which copying 16 KiB costs about as much as.
 */
const ONE_CALL_TAG = 16384;

/**
 * libsodium's original ChaCha20-Poly1305: the one-time key from block 0 of
 * ChaCha20 (8-byte nonce, 64-bit counter), the message from block 1, and
 * Poly1305 over aad || len(aad) || ciphertext || len(ciphertext), lengths
 * as 64-bit little-endian words, no padding.
 */
function originalTag(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const polyKey = chacha20orig(key, nonce, new Uint8Array(32));
  const lengths = lengthBlock(aad.length, ciphertext.length);
  let tag: Uint8Array;
  // constant-time: public: the lengths of aad and ciphertext choose the way, not their bytes.
  if (aad.length + ciphertext.length <= ONE_CALL_TAG) {
    const data = new Uint8Array(aad.length + ciphertext.length + 16);
    data.set(aad);
    data.set(lengths.subarray(0, 8), aad.length);
    data.set(ciphertext, aad.length + 8);
    data.set(lengths.subarray(8), aad.length + 8 + ciphertext.length);
    tag = poly1305(data, polyKey);
  } else {
    const mac = new Poly1305(polyKey);
    mac.update(aad).update(lengths.subarray(0, 8)).update(ciphertext).update(lengths.subarray(8));
    tag = mac.digest();
  }
  polyKey.fill(0);
  return tag;
}

const original: Construction = {
  nonceBytes: 8,
  seal(key, nonce, aad, message) {
    const out = new Uint8Array(message.length + ABYTES);
    const body = out.subarray(0, message.length);
    // A short message's ciphertext in an array of its own, then copied: ChaCha20 into a view of a larger array
    // costs about 360 ns more a call (550 against 190 ns for 64 bytes, Node 20), more than the copy does.
    // constant-time: public: the message's length chooses the way, not its bytes.
    if (message.length <= ONE_CALL_TAG) body.set(chacha20orig(key, nonce, message, undefined, 1));
    else chacha20orig(key, nonce, message, body, 1);
    out.set(originalTag(key, nonce, aad, body), message.length);
    return out;
  },
  open(key, nonce, aad, sealed) {
    const body = sealed.subarray(0, sealed.length - ABYTES);
    const tag = originalTag(key, nonce, aad, body);
    // constant-time: public: a tag that fails is the verdict the caller gets.
    if (!equalBytes(tag, 0, sealed, body.length, ABYTES)) return undefined;
    return chacha20orig(key, nonce, body, undefined, 1);
  },
};

/** The five calls of one AEAD, checked as libsodium-wrappers checks them. */
function calls(c: Construction) {
  const encrypt = <F extends OutputFormat | null = 'uint8array'>(
    message: Input,
    additional_data: Input | null,
    _secret_nonce: Input | null,
    public_nonce: Uint8Array,
    key: Uint8Array,
    outputFormat?: F,
  ): Out<F> => {
    formatOf(outputFormat);
    const m = input(message, 'message');
    const aad = optional(additional_data, 'additional_data') ?? EMPTY;
    const n = sized(public_nonce, 'public_nonce', c.nonceBytes);
    const k = sized(key, 'key', 32);
    return format(c.seal(k, n, aad, m), outputFormat);
  };
  const encryptDetached = <F extends OutputFormat | null = 'uint8array'>(
    message: Input,
    additional_data: Input | null,
    secret_nonce: Input | null,
    public_nonce: Uint8Array,
    key: Uint8Array,
    outputFormat?: F,
  ): OutObject<Detached, F> => {
    formatOf(outputFormat);
    const sealed = encrypt(message, additional_data, secret_nonce, public_nonce, key);
    const cut = sealed.length - ABYTES;
    return formatObject({ ciphertext: sealed.slice(0, cut), mac: sealed.slice(cut) }, outputFormat);
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
    const sealed = input(ciphertext, 'ciphertext');
    const aad = optional(additional_data, 'additional_data') ?? EMPTY;
    const n = sized(public_nonce, 'public_nonce', c.nonceBytes);
    const k = sized(key, 'key', 32);
    if (sealed.length < ABYTES) throw new TypeError('ciphertext is too short');
    const opened = c.open(k, n, aad, sealed);
    if (opened === undefined) throw failed();
    return format(opened, outputFormat);
  };
  const decryptDetached = <F extends OutputFormat | null = 'uint8array'>(
    secret_nonce: Input | null,
    ciphertext: Input,
    mac: Uint8Array,
    additional_data: Input | null,
    public_nonce: Uint8Array,
    key: Uint8Array,
    outputFormat?: F,
  ): Out<F> => {
    formatOf(outputFormat);
    const body = input(ciphertext, 'ciphertext');
    const tag = sized(mac, 'mac', ABYTES);
    const sealed = new Uint8Array(body.length + ABYTES);
    sealed.set(body);
    sealed.set(tag, body.length);
    return decrypt(secret_nonce, sealed, additional_data, public_nonce, key, outputFormat);
  };
  const keygen = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(32, outputFormat);
  return { encrypt, encryptDetached, decrypt, decryptDetached, keygen };
}

const chachaOriginal = /*#__PURE__*/ calls(original);
const chachaIetf = /*#__PURE__*/ calls(/*#__PURE__*/ ietf(chacha20poly1305, 12));
const xchachaIetf = /*#__PURE__*/ calls(/*#__PURE__*/ ietf(xchacha20poly1305, 24));

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
