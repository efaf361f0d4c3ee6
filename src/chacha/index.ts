/**
 * The ChaCha family: ChaCha20 (RFC 8439), the original ChaCha20 with a
 * 64-bit counter, XChaCha20 (draft-irtf-cfrg-xchacha-03), ChaCha8/12, and
 * the ChaCha20-Poly1305 and XChaCha20-Poly1305 AEADs. Call shapes follow
 * @noble/ciphers, so switching is a changed import.
 */
import { chachaAead, CHACHA12, CHACHA20, CHACHA20_ORIG, CHACHA8, openArgs, sealArgs, XCHACHA20 } from './args.js';
import { engine } from './tiers.js';
import * as check from '../runtime/assert.js';
import { streamCipher as stream, type StreamVariant } from '../runtime/stream-cipher.js';
import { type Aead, type AeadMethods, type AeadParams, aeadParams } from '../runtime/aead.js';
import { type Bytes, EMPTY } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';

export type { XorStream } from '../runtime/stream-cipher.js';
export type { Aead, AeadParams } from '../runtime/aead.js';

/** A ChaCha stream cipher of one of the variants in args.ts. */
const streamCipher = (variant: StreamVariant) => stream(variant, () => engine().xor);

/**
 * ChaCha20 of RFC 8439: a 32-byte key, a 12-byte nonce, a 32-bit block
 * counter (at most 256 GiB per nonce). XORs the keystream into `data`:
 * the same call encrypts and decrypts. Unauthenticated: for messages,
 * use xchacha20poly1305.
 *
 * @example
 * ```ts
 * import { chacha20 } from 'fourfold/chacha';
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const nonce = new Uint8Array(12); // never twice under one key
 * const encrypted = chacha20(key, nonce, new TextEncoder().encode('hello'));
 * const decrypted = chacha20(key, nonce, encrypted); // the same call
 * chacha20(key, nonce, encrypted, encrypted); // in place
 * ```
 */
export const chacha20 = /*#__PURE__*/ streamCipher(CHACHA20);
/** ChaCha with 8 rounds, in RFC 8439's layout (12-byte nonce, 32-bit counter): faster, with a thinner margin. */
export const chacha8 = /*#__PURE__*/ streamCipher(CHACHA8);
/** ChaCha with 12 rounds, in RFC 8439's layout (12-byte nonce, 32-bit counter). */
export const chacha12 = /*#__PURE__*/ streamCipher(CHACHA12);
/** The original ChaCha20 (Bernstein; libsodium's crypto_stream_chacha20): 8-byte nonce, 64-bit block counter; 32-byte (or 16-byte) key. */
export const chacha20orig = /*#__PURE__*/ streamCipher(CHACHA20_ORIG);
/** XChaCha20 (as libsodium's crypto_stream_xchacha20): 32-byte key, 24-byte nonce (safe to pick at random), 64-bit block counter. */
export const xchacha20 = /*#__PURE__*/ streamCipher(XCHACHA20);

/** HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2): the 32-byte subkey for a 32-byte `key` and a 16-byte `nonce`. */
export function hchacha20(key: Uint8Array, nonce: Uint8Array): Bytes {
  const out = new Uint8Array(32);
  engine().hchacha(check.key(key, [32]), check.bytes(nonce, 'nonce', 16), out);
  return out;
}

/**
 * The RFC 8439 AEAD; with a 24-byte nonce, XChaCha20-Poly1305 (the engines
 * derive the subkey, draft-irtf-cfrg-xchacha-03 §2.3). The key, nonce and
 * aad are copied at construction: the object outlives that call, and the
 * caller may wipe or reuse its arrays, or write an output over them.
 */
class ChachaPoly1305 implements AeadMethods {
  private readonly key: Uint8Array;
  private readonly nonce: Uint8Array;
  private readonly aad: Uint8Array;

  constructor(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array) {
    this.key = key.slice();
    this.nonce = nonce.slice();
    this.aad = aad.length === 0 ? EMPTY : aad.slice();
  }

  encrypt(plaintext: Uint8Array, output?: Uint8Array): Uint8Array {
    const a = sealArgs(plaintext, output);
    const sealed = engine().seal(this.key, this.nonce, this.aad, a.input, a.output);
    // The caller's own output object (written through a plain view of it).
    return output ?? sealed;
  }

  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array {
    const { body, tag, output: out } = openArgs(ciphertext, output, true);
    let plaintext: Uint8Array | undefined;
    try {
      plaintext = engine().open(this.key, this.nonce, this.aad, body, tag, out);
    } finally {
      if (plaintext === undefined) out?.fill(0);
    }
    if (plaintext === undefined) throw new AuthenticationError();
    return output ?? plaintext;
  }
}

/**
 * ChaCha20-Poly1305 (RFC 8439 §2.8): a 32-byte key, a 12-byte nonce that
 * must never repeat under one key (a counter, not a random value: use
 * xchacha20poly1305 for random nonces), optional associated data
 * (authenticated, not encrypted). `encrypt` returns ciphertext || 16-byte tag.
 */
export const chacha20poly1305: ((key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array) => Aead) & AeadParams = /*#__PURE__*/ aeadParams(
  /*#__PURE__*/ chachaAead('chacha20poly1305', 12, (key, nonce, aad): AeadMethods => new ChachaPoly1305(key, nonce, aad)),
  12,
);

/**
 * XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 §2.3): a 32-byte key, a
 * 24-byte nonce (random nonces are safe), optional associated data
 * (authenticated, not encrypted). `encrypt` returns ciphertext || 16-byte
 * tag; `decrypt` throws AuthenticationError if anything was changed. Store
 * the nonce beside the ciphertext: decryption needs it.
 *
 * @example
 * ```ts
 * import { xchacha20poly1305 } from 'fourfold/chacha';
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const nonce = crypto.getRandomValues(new Uint8Array(24));
 * const sealed = xchacha20poly1305(key, nonce).encrypt(new TextEncoder().encode('hello'));
 * const opened = xchacha20poly1305(key, nonce).decrypt(sealed); // AuthenticationError if changed
 * ```
 */
export const xchacha20poly1305: ((key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array) => Aead) & AeadParams = /*#__PURE__*/ aeadParams(
  /*#__PURE__*/ chachaAead('xchacha20poly1305', 24, (key, nonce, aad): AeadMethods => new ChachaPoly1305(key, nonce, aad)),
  24,
);
