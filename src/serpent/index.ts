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

export { PaddingError, type BlockModeOptions } from './args.js';

/** A cipher in @noble/ciphers' shape: returns `output` (new, or the caller's, which may be the input). */
export interface Cipher {
  encrypt(data: Uint8Array, output?: Uint8Array): Uint8Array;
  decrypt(data: Uint8Array, output?: Uint8Array): Uint8Array;
}

/** ECB or CBC (with an IV), with or without PKCS#7 padding. */
class BlockMode implements Cipher {
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
  return new BlockMode(keyOf(key), undefined, paddingOption(opts));
}

/**
 * Serpent-CBC (SP 800-38A §6.2) with a 16-byte IV (unpredictable, fresh
 * per message). PKCS#7 padding unless `disablePadding`; decryption with
 * bad padding throws PaddingError. Unauthenticated: pair it with a MAC.
 */
export function cbc(key: Uint8Array, iv: Uint8Array, opts?: BlockModeOptions): Cipher {
  return new BlockMode(keyOf(key), ivOf(iv), paddingOption(opts));
}

/**
 * Serpent-CTR (SP 800-38A §6.5): the 16-byte IV is the first counter
 * block, incremented as a big-endian integer (wrapping at 2^128). Any
 * length; encrypt and decrypt are the same. Never reuse a counter under
 * one key. Unauthenticated: pair it with a MAC.
 */
export function ctr(key: Uint8Array, iv: Uint8Array): Cipher {
  return new Ctr(keyOf(key), ivOf(iv));
}

class Ctr implements Cipher {
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
