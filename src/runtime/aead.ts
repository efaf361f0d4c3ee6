/**
 * The AEAD shape of @noble/ciphers, shared by ChaCha20-Poly1305,
 * XChaCha20-Poly1305 and XSalsa20-Poly1305, so that code written for
 * noble works after a changed import.
 *
 * The public interfaces (Aead, ParallelAead) type a result the call
 * allocates as Bytes (over an ArrayBuffer) and a caller's `output` as
 * that caller's own type; the classes behind them return one or the
 * other, typed plainly (AeadMethods), and aeadParams gives them the public
 * type. test/exports.test.ts checks both at run time.
 */
import type { Bytes } from './bytes.js';
import { AuthenticationError } from './errors.js';

/** Poly1305's tag (RFC 8439 §2.5): 16 bytes. */
export const TAG_LENGTH = 16;

/**
 * The error for a ciphertext of `length` bytes, too short to hold its tag:
 * it fails authentication as any forgery does (as in libsodium, Go's
 * x/crypto and RustCrypto), so code that catches AuthenticationError around
 * untrusted input catches it too.
 */
export function tooShort(length: number): AuthenticationError {
  return new AuthenticationError(`ciphertext of ${length} bytes is shorter than its ${TAG_LENGTH}-byte tag: it cannot be authentic`);
}

/**
 * An AEAD bound to a key and nonce (and associated data where the cipher
 * has it). Never give one (key, nonce) pair two different messages.
 */
export interface Aead {
  /**
   * Encrypts and authenticates `plaintext`. Returns a new array of
   * `plaintext.length + 16` bytes: the ciphertext followed by the
   * 16-byte tag (secretbox: the tag first).
   */
  encrypt(plaintext: Uint8Array, output?: undefined): Bytes;
  /**
   * Encrypts `plaintext` into `output` (exactly `plaintext.length + 16`
   * bytes; it may be the plaintext's own buffer), and returns `output`.
   */
  encrypt<T extends Uint8Array>(plaintext: Uint8Array, output: T): T;
  /** Encrypts `plaintext` into `output` when one is given, else into a new array. */
  encrypt(plaintext: Uint8Array, output?: Uint8Array): Uint8Array;
  /**
   * Verifies and decrypts `ciphertext` (as encrypt returned it). Returns
   * a new array of `ciphertext.length - 16` bytes; throws
   * AuthenticationError, releasing nothing, if the ciphertext, the
   * associated data, the key or the nonce is not the one encrypt had
   * (a ciphertext shorter than the tag included).
   */
  decrypt(ciphertext: Uint8Array, output?: undefined): Bytes;
  /**
   * Verifies and decrypts `ciphertext` into `output` (exactly
   * `ciphertext.length - 16` bytes), and returns `output`; on
   * AuthenticationError `output` is zeroed.
   */
  decrypt<T extends Uint8Array>(ciphertext: Uint8Array, output: T): T;
  /** Verifies and decrypts `ciphertext` into `output` when one is given, else into a new array. */
  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array;
}

/**
 * An AEAD of fourfold/parallel: the same methods as Aead, each resolving
 * to the bytes the synchronous one returns. Inputs must not change until
 * the Promise settles.
 */
export interface ParallelAead {
  /** Resolves to a new array: the ciphertext and its 16-byte tag (secretbox: the tag first). */
  encrypt(plaintext: Uint8Array, output?: undefined): Promise<Bytes>;
  /** Encrypts into `output` (exactly `plaintext.length + 16` bytes) and resolves to it. */
  encrypt<T extends Uint8Array>(plaintext: Uint8Array, output: T): Promise<T>;
  /** Encrypts into `output` when one is given, else into a new array. */
  encrypt(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
  /** Resolves to the plaintext in a new array, or rejects with AuthenticationError before any plaintext is made. */
  decrypt(ciphertext: Uint8Array, output?: undefined): Promise<Bytes>;
  /**
   * Decrypts into `output` (exactly `ciphertext.length - 16` bytes) and
   * resolves to it. While pending, `output` holds no plaintext before the
   * tag is verified (the ciphertext is copied there first, unless it is
   * the ciphertext itself); on AuthenticationError it is zeroed.
   */
  decrypt<T extends Uint8Array>(ciphertext: Uint8Array, output: T): Promise<T>;
  /** Decrypts into `output` when one is given, else into a new array. */
  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
}

/** @noble/ciphers' fields on an AEAD's constructor function, which code written for it may read. */
export interface AeadParams {
  /** Bytes of a nonce: 12 (ChaCha20-Poly1305) or 24 (XChaCha20-Poly1305, XSalsa20-Poly1305). */
  readonly nonceLength: number;
  /** Bytes of the tag: 16. */
  readonly tagLength: number;
  /** The underlying stream cipher's block: 64 bytes for ChaCha20 and Salsa20. */
  readonly blockSize: number;
}

/** What the classes behind Aead have: methods returning a new array or the caller's `output`. */
export interface AeadMethods {
  encrypt(plaintext: Uint8Array, output?: Uint8Array): Uint8Array;
  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array;
}

/** And those behind ParallelAead. */
export interface ParallelAeadMethods {
  encrypt(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
}

/** An AEAD's arguments: key, nonce, and associated data where the cipher takes it. */
type AeadArgs = [key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array];

/**
 * `make` with the AeadParams of a 64-byte-block cipher with a Poly1305 tag
 * and `nonceLength`-byte nonces, typed as it is public: its objects return
 * a new array (over an ArrayBuffer) or the caller's own `output`.
 */
export function aeadParams<A extends AeadArgs>(make: (...args: A) => AeadMethods, nonceLength: number): ((...args: A) => Aead) & AeadParams;
export function aeadParams<A extends AeadArgs>(make: (...args: A) => ParallelAeadMethods, nonceLength: number): ((...args: A) => ParallelAead) & AeadParams;
export function aeadParams(make: (...args: AeadArgs) => AeadMethods | ParallelAeadMethods, nonceLength: number): object {
  return Object.assign(make, { nonceLength, tagLength: TAG_LENGTH, blockSize: 64 });
}
