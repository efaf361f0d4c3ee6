/**
 * Serpent (Anderson, Biham, Knudsen; the AES finalist with the widest
 * security margin) in the ECB, CBC and CTR modes of NIST SP 800-38A, with
 * @noble/ciphers' AES call shapes, so switching is a changed import. Keys
 * of 16, 24 or 32 bytes; key, plaintext and ciphertext bytes in NESSIE's
 * order (memory order, as Botan and Crypto++).
 */
import { type BlockModeOptions, decryptArgs, encryptArgs, ivOf, keyOf, paddingOption, unpad } from './args.js';
import { engine } from './tiers.js';
import * as check from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';

export { PaddingError, type BlockModeOptions } from './args.js';

/** A Serpent cipher in @noble/ciphers' shape, bound to a key (and IV). */
export interface Cipher {
  /** Returns the ciphertext in a new array (with padding: the length rounded up to the next whole 16-byte block). */
  encrypt(data: Uint8Array, output?: undefined): Bytes;
  /** Encrypts into `output` (exactly the ciphertext's length; it may be the input itself) and returns it. */
  encrypt<T extends Uint8Array>(data: Uint8Array, output: T): T;
  /** Encrypts into `output` when one is given, else into a new array. */
  encrypt(data: Uint8Array, output?: Uint8Array): Uint8Array;
  /** Returns the plaintext in a new array; with padding, throws PaddingError on a padding that is not PKCS#7's. */
  decrypt(data: Uint8Array, output?: undefined): Bytes;
  /**
   * Decrypts into `output` (exactly the ciphertext's length; it may be the
   * input itself) and returns the plaintext: `output`, or with padding the
   * view of its first bytes.
   */
  decrypt(data: Uint8Array, output?: Uint8Array): Uint8Array;
}

/** What the classes behind Cipher have: methods returning a new array or the caller's `output`. */
interface CipherMethods {
  encrypt(data: Uint8Array, output?: Uint8Array): Uint8Array;
  decrypt(data: Uint8Array, output?: Uint8Array): Uint8Array;
}

/** ECB or CBC (with an IV), with or without PKCS#7 padding. */
class BlockMode implements CipherMethods {
  constructor(
    private readonly key: Uint8Array,
    private readonly iv: Uint8Array | undefined,
    private readonly padding: boolean,
  ) {}

  encrypt(plaintext: Uint8Array, output?: Uint8Array): Uint8Array {
    const a = encryptArgs(plaintext, output, this.padding);
    try {
      const sealed = engine().encrypt(this.key, this.iv, a.body, a.final, a.output);
      // The caller's own output object (written through a plain view of it).
      return output ?? sealed;
    } finally {
      a.final?.fill(0);
    }
  }

  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array {
    const a = decryptArgs(ciphertext, output, this.padding);
    const out = engine().decrypt(this.key, this.iv, a.input, a.output);
    return this.padding ? unpad(out, true) : (output ?? out);
  }
}

/**
 * Serpent-ECB (SP 800-38A §6.1): each block on its own. PKCS#7 padding
 * unless `disablePadding`. ECB shows which blocks are equal: use it only
 * as a building block.
 */
export function ecb(key: Uint8Array, opts?: BlockModeOptions): Cipher {
  return new BlockMode(keyOf(key), undefined, paddingOption(opts)) as Cipher;
}

/**
 * Serpent-CBC (SP 800-38A §6.2) with a 16-byte IV (unpredictable, fresh
 * per message). PKCS#7 padding unless `disablePadding`; decryption with
 * bad padding throws PaddingError. Unauthenticated: pair it with a MAC
 * (encrypt, then MAC the IV and ciphertext), or a service that reveals
 * padding failures is a padding oracle.
 *
 * @example
 * ```ts
 * import { cbc } from 'fourfold/serpent';
 * const key = crypto.getRandomValues(new Uint8Array(32)); // 16, 24 or 32 bytes
 * const iv = crypto.getRandomValues(new Uint8Array(16));
 * const encrypted = cbc(key, iv).encrypt(new TextEncoder().encode('hello')); // 16 bytes: padded
 * const decrypted = cbc(key, iv).decrypt(encrypted); // PaddingError on a wrong key or IV
 * ```
 */
export function cbc(key: Uint8Array, iv: Uint8Array, opts?: BlockModeOptions): Cipher {
  return new BlockMode(keyOf(key), ivOf(iv), paddingOption(opts)) as Cipher;
}

/**
 * Serpent-CTR (SP 800-38A §6.5): the 16-byte IV is the first counter
 * block, incremented as a big-endian integer (wrapping at 2^128). Any
 * length; encrypt and decrypt are the same. Never reuse a counter under
 * one key. Unauthenticated: pair it with a MAC.
 *
 * @example
 * ```ts
 * import { ctr } from 'fourfold/serpent';
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const iv = crypto.getRandomValues(new Uint8Array(16));
 * const encrypted = ctr(key, iv).encrypt(new TextEncoder().encode('hello'));
 * const decrypted = ctr(key, iv).decrypt(encrypted);
 * ```
 */
export function ctr(key: Uint8Array, iv: Uint8Array): Cipher {
  return new Ctr(keyOf(key), ivOf(iv)) as Cipher;
}

class Ctr implements CipherMethods {
  constructor(
    private readonly key: Uint8Array,
    private readonly iv: Uint8Array,
  ) {}

  encrypt(plaintext: Uint8Array, output?: Uint8Array): Uint8Array {
    return this.xor(check.bytes(plaintext, 'plaintext'), output);
  }

  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array {
    return this.xor(check.bytes(ciphertext, 'ciphertext'), output);
  }

  private xor(input: Uint8Array, output: Uint8Array | undefined): Uint8Array {
    const out = output === undefined ? undefined : check.output(output, input.length);
    if (out !== undefined) check.noPartialOverlap(input, out);
    const result = engine().ctr(this.key, this.iv, input, out);
    return output ?? result;
  }
}
