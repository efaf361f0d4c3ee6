/**
 * crypto_aead_chacha20poly1305 (the original construction: 8-byte nonce),
 * crypto_aead_chacha20poly1305_ietf and crypto_aead_xchacha20poly1305_ietf,
 * combined and detached, in libsodium-wrappers' shape: the ietf ones on
 * fourfold/chacha's AEAD engine, the original on its ChaCha20 engine
 * (64-bit counter) and fourfold/poly1305.
 */
import { engine } from '../chacha/tiers.js';
import { Poly1305, poly1305 } from '../poly1305/index.js';
import { EMPTY, equalBytes, isShared, lengthBlock, writeLE32 } from '../runtime/bytes.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';
import { type Detached, format, formatObject, formatOf, type Input, input, optional, type Out, type OutObject, sized, type OutputFormat } from './codecs.js';
import { randombytes_buf } from './random.js';

const ABYTES = 16;

/** The error libsodium-wrappers throws when an AEAD's tag does not verify. */
const failed = (): Error => new Error('ciphertext cannot be decrypted using that key');

/** How one AEAD seals (ciphertext || tag) and opens (the ciphertext and its tag apart: undefined on a wrong tag). */
interface Construction {
  readonly nonceBytes: number;
  seal(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, message: Uint8Array): Uint8Array;
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
 * detached open had to allocate and copy (0.25x-0.87x libsodium.js at
 * 64 B). Nothing runs between the checks and the engine's work.
 */
function ietf(nonceBytes: number): Construction {
  return {
    nonceBytes,
    seal: (key, nonce, aad, message) => {
      if (message.length > MAX_MESSAGE) throw tooLong();
      return engine().seal(key, nonce, aad, message);
    },
    open: (key, nonce, aad, ciphertext, tag) => {
      if (ciphertext.length > MAX_MESSAGE) throw tooLong();
      return engine().open(key, nonce, aad, ciphertext, tag);
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
 * as 64-bit little-endian words, no padding. The keystream from the ChaCha
 * engine itself, as the ietf AEADs: the arguments are checked already.
 */
function originalTag(polyKey: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const total = aad.length + ciphertext.length;
  // constant-time: public: the lengths of aad and ciphertext choose the way, not their bytes.
  if (total <= ONE_CALL_TAG) {
    const data = (macInput ??= new Uint8Array(ONE_CALL_TAG + 16));
    data.set(aad);
    lengthAt(data, aad.length, aad.length);
    data.set(ciphertext, aad.length + 8);
    lengthAt(data, total + 8, ciphertext.length);
    return poly1305(data.subarray(0, total + 16), polyKey);
  }
  const lengths = lengthBlock(aad.length, ciphertext.length);
  const mac = new Poly1305(polyKey);
  mac.update(aad).update(lengths.subarray(0, 8)).update(ciphertext).update(lengths.subarray(8));
  return mac.digest();
}

/** A length as a 64-bit little-endian word at data[at..at + 8]. */
function lengthAt(data: Uint8Array, at: number, length: number): void {
  writeLE32(data, at, length);
  writeLE32(data, at + 4, Math.floor(length / 0x100000000));
}

/**
 * The short calls' working arrays, made at first use and kept: a new
 * array past 64 bytes is an ArrayBuffer of its own, outside V8's heap, and
 * three of them a call (the keystream, the tag's input, the lengths' views)
 * made the garbage collector 16% of a 64-byte seal. No caller code runs
 * while they hold data. `stream` holds block 0 (Poly1305's key), wiped
 * after each use, then ciphertext; `macInput` aad and ciphertext.
 */
let stream: Uint8Array | undefined;
let macInput: Uint8Array | undefined;

/** ChaCha20 (the original: 8-byte nonce, 64-bit counter) of `data` from block `counter`, into `out` when given. */
const keystream = (key: Uint8Array, nonce: Uint8Array, counter: number, data: Uint8Array, out?: Uint8Array): Uint8Array =>
  engine().xor(key, nonce, counter, 0, DOUBLE_ROUNDS, data, out);

const original: Construction = {
  nonceBytes: 8,
  seal(key, nonce, aad, message) {
    const out = new Uint8Array(message.length + ABYTES);
    const body = out.subarray(0, message.length);
    // constant-time: public: the message's length chooses the way, not its bytes.
    if (message.length <= ONE_CALL_TAG) {
      // Block 0 (Poly1305's key in its first 32 bytes) and the message from block 1 in one keystream call.
      const s = (stream ??= new Uint8Array(64 + ONE_CALL_TAG)).subarray(0, 64 + message.length);
      s.fill(0, 0, 64);
      s.set(message, 64);
      keystream(key, nonce, 0, s, s);
      body.set(s.subarray(64));
      out.set(originalTag(s.subarray(0, 32), aad, body), message.length);
      s.fill(0, 0, 64);
      return out;
    }
    keystream(key, nonce, 1, message, body);
    const polyKey = keystream(key, nonce, 0, new Uint8Array(32));
    out.set(originalTag(polyKey, aad, body), message.length);
    polyKey.fill(0);
    return out;
  },
  open(key, nonce, aad, ciphertext, tag) {
    // Read twice (into the keystream, and for the tag): bytes another thread can change are copied first.
    const body = isShared(ciphertext) ? ciphertext.slice() : ciphertext;
    // constant-time: public: the ciphertext's length chooses the way, not its bytes.
    if (body.length <= ONE_CALL_TAG) {
      // One keystream call, as seal: the plaintext stays in `stream` until the tag verified, and is wiped there.
      const s = (stream ??= new Uint8Array(64 + ONE_CALL_TAG)).subarray(0, 64 + body.length);
      s.fill(0, 0, 64);
      s.set(body, 64);
      keystream(key, nonce, 0, s, s);
      const verified = equalBytes(originalTag(s.subarray(0, 32), aad, body), 0, tag, 0, ABYTES);
      // constant-time: public: a tag that fails is the verdict the caller gets.
      const plaintext = verified ? s.slice(64) : undefined;
      s.fill(0);
      return plaintext;
    }
    const polyKey = keystream(key, nonce, 0, new Uint8Array(32));
    const expected = originalTag(polyKey, aad, body);
    polyKey.fill(0);
    // constant-time: public: a tag that fails is the verdict the caller gets.
    if (!equalBytes(expected, 0, tag, 0, ABYTES)) return undefined;
    return keystream(key, nonce, 1, body);
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
  /** The checks after the ciphertext's (and a detached tag's), in libsodium-wrappers' order. */
  const opening = (additional_data: Input | null, public_nonce: Uint8Array, key: Uint8Array) => ({
    aad: optional(additional_data, 'additional_data') ?? EMPTY,
    n: sized(public_nonce, 'public_nonce', c.nonceBytes),
    k: sized(key, 'key', 32),
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
    const sealed = input(ciphertext, 'ciphertext');
    const { aad, n, k } = opening(additional_data, public_nonce, key);
    if (sealed.length < ABYTES) throw new TypeError('ciphertext is too short');
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
