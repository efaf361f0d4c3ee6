/**
 * The Salsa20 family: Salsa20 and its reduced-round Salsa20/12 and /8
 * (Bernstein, "Salsa20 specification"; 64-bit block counter, as libsodium's
 * crypto_stream_salsa20*), XSalsa20 and HSalsa20 ("Extending the Salsa20
 * nonce"), and NaCl's secretbox, XSalsa20-Poly1305. Call shapes follow
 * @noble/ciphers' salsa.js, so switching is a changed import; outputs are
 * byte for byte libsodium's.
 */
import { SALSA20, SALSA2012, SALSA208, writesAhead, XSALSA20 } from './args.js';
import { engine } from './tiers.js';
import * as check from '../runtime/assert.js';
import { type Aead, type AeadMethods, type AeadParams, TAG_LENGTH, tooShort, aeadParams } from '../runtime/aead.js';
import type { Bytes } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';
import { streamCipher as stream, type StreamVariant, type XorStream } from '../runtime/stream-cipher.js';

const streamCipher = (variant: StreamVariant): XorStream => stream(variant, () => engine().xor);

/** Salsa20 (20 rounds): 32-byte (or 16-byte) key, 8-byte nonce, 64-bit block counter; libsodium's crypto_stream_salsa20_xor_ic. XORs the keystream into `data`: the same call encrypts and decrypts. */
export const salsa20 = /*#__PURE__*/ streamCipher(SALSA20);
/** Salsa20/12: 12 rounds, as libsodium's crypto_stream_salsa2012. */
export const salsa2012 = /*#__PURE__*/ streamCipher(SALSA2012);
/** Salsa20/8: 8 rounds, as libsodium's crypto_stream_salsa208. */
export const salsa208 = /*#__PURE__*/ streamCipher(SALSA208);
/** XSalsa20: 32-byte key, 24-byte nonce (safe to pick at random), 64-bit block counter; libsodium's crypto_stream_xsalsa20_xor_ic. */
export const xsalsa20 = /*#__PURE__*/ streamCipher(XSALSA20);

/** HSalsa20 (libsodium's crypto_core_hsalsa20 with the default constant): the 32-byte subkey for `key` and a 16-byte input. */
export function hsalsa20(key: Uint8Array, nonce: Uint8Array): Bytes {
  const out = new Uint8Array(32);
  engine().hsalsa(check.key(key, [32]), check.bytes(nonce, 'nonce', 16), out);
  return out;
}

/**
 * Secretbox: XSalsa20-Poly1305 with the tag in front ("Cryptography in
 * NaCl" §9, libsodium's crypto_secretbox_easy, @noble/ciphers'
 * xsalsa20poly1305). In place works as in libsodium: `output` may start
 * where the input does, or anywhere else in the same buffer.
 */
class SecretBox implements AeadMethods {
  private readonly key: Uint8Array;
  private readonly nonce: Uint8Array;

  /** The key and nonce are copied: the object outlives this call, and the caller may wipe or reuse its arrays. */
  constructor(key: Uint8Array, nonce: Uint8Array) {
    this.key = key.slice();
    this.nonce = nonce.slice();
  }

  /** tag || ciphertext, `plaintext.length + 16` bytes (in `output` when given). */
  encrypt(plaintext: Uint8Array, output?: Uint8Array): Uint8Array {
    let input = check.bytes(plaintext, 'plaintext');
    const target = output === undefined ? undefined : check.output(output, input.length + TAG_LENGTH);
    // Ciphertext goes to target[16..]: where that starts inside the plaintext, slices would
    // overwrite plaintext not yet read, so work from a copy (wiped afterwards).
    const copied = target !== undefined && writesAhead(input, target.subarray(TAG_LENGTH));
    if (copied) input = input.slice();
    try {
      const sealed = engine().seal(this.key, this.nonce, input, target);
      return output ?? sealed;
    } finally {
      if (copied) input.fill(0);
    }
  }

  /** The plaintext of tag || ciphertext, `ciphertext.length - 16` bytes (in `output` when given); throws AuthenticationError on a wrong tag. */
  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array {
    const input = check.bytes(ciphertext, 'ciphertext');
    if (input.length < TAG_LENGTH) throw tooShort(input.length);
    const target = output === undefined ? undefined : check.output(output, input.length - TAG_LENGTH);
    // Copy the tag first: an output inside the same buffer may overwrite it.
    const tag = input.slice(0, TAG_LENGTH);
    let body = input.subarray(TAG_LENGTH);
    if (target !== undefined && writesAhead(body, target)) body = body.slice();
    let plaintext: Uint8Array | undefined;
    try {
      plaintext = engine().open(this.key, this.nonce, body, tag, target);
    } finally {
      if (plaintext === undefined) target?.fill(0);
    }
    if (plaintext === undefined) throw new AuthenticationError();
    return output ?? plaintext;
  }
}

/**
 * XSalsa20-Poly1305 (secretbox) in @noble/ciphers' AEAD shape: a 32-byte
 * key, a 24-byte nonce (random nonces are safe); encrypt returns the
 * 16-byte tag followed by the ciphertext. It has no associated data.
 */
export const xsalsa20poly1305: ((key: Uint8Array, nonce: Uint8Array, aad?: undefined) => Aead) & AeadParams = /*#__PURE__*/ aeadParams(
  // biome-ignore lint/suspicious/noShadow: the function is named as its constant, for stack traces; it is the same function.
  function xsalsa20poly1305(key: Uint8Array, nonce: Uint8Array, aad?: undefined): AeadMethods {
    const k = check.key(key, [32]);
    const n = check.bytes(nonce, 'nonce', 24);
    if (aad !== undefined) throw new TypeError('xsalsa20poly1305 takes no associated data');
    return new SecretBox(k, n);
  },
  24,
);

/** libsodium's names for xsalsa20poly1305: seal is crypto_secretbox_easy, open crypto_secretbox_open_easy (but throws AuthenticationError on a wrong tag). */
export interface SecretBoxApi {
  /** Returns a new array: the 16-byte tag, then the ciphertext (`plaintext.length + 16` bytes). */
  seal(plaintext: Uint8Array, output?: undefined): Bytes;
  /** Seals into `output` (exactly `plaintext.length + 16` bytes; any overlap with the plaintext works) and returns it. */
  seal<T extends Uint8Array>(plaintext: Uint8Array, output: T): T;
  /** Seals into `output` when one is given, else into a new array. */
  seal(plaintext: Uint8Array, output?: Uint8Array): Uint8Array;
  /** Returns the plaintext in a new array; throws AuthenticationError, releasing nothing, if the box was changed or the key or nonce is wrong. */
  open(ciphertext: Uint8Array, output?: undefined): Bytes;
  /** Opens into `output` (exactly `ciphertext.length - 16` bytes) and returns it; on AuthenticationError `output` is zeroed. */
  open<T extends Uint8Array>(ciphertext: Uint8Array, output: T): T;
  /** Opens into `output` when one is given, else into a new array. */
  open(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array;
}

/**
 * NaCl's secretbox (libsodium's crypto_secretbox_easy / _open_easy,
 * @noble/ciphers' secretbox): XSalsa20-Poly1305 under a 32-byte key and a
 * 24-byte nonce (random nonces are safe). The box is the 16-byte tag
 * followed by the ciphertext; store the nonce beside it.
 *
 * @example
 * ```ts
 * import { secretbox } from 'fourfold/salsa';
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const nonce = crypto.getRandomValues(new Uint8Array(24));
 * const box = secretbox(key, nonce).seal(new TextEncoder().encode('hello'));
 * const opened = secretbox(key, nonce).open(box); // AuthenticationError if changed
 * ```
 */
export function secretbox(key: Uint8Array, nonce: Uint8Array, aad?: undefined): SecretBoxApi {
  // Associated data given here is refused, as xsalsa20poly1305 refuses it: nothing would authenticate it.
  const box = xsalsa20poly1305(key, nonce, aad);
  const api: { seal(plaintext: Uint8Array, output?: Uint8Array): Uint8Array; open(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array } = {
    seal: (plaintext, output) => box.encrypt(plaintext, output),
    open: (ciphertext, output) => box.decrypt(ciphertext, output),
  };
  // A new array over an ArrayBuffer, or the caller's own output: what SecretBoxApi's overloads say.
  return api as SecretBoxApi;
}
