/**
 * Serpent (Anderson, Biham, Knudsen; the AES finalist with the widest
 * security margin) in the ECB, CBC and CTR modes of NIST SP 800-38A, with
 * @noble/ciphers' AES call shapes, so switching is a changed import. Keys
 * of 16, 24 or 32 bytes; key, plaintext and ciphertext bytes in NESSIE's
 * order (memory order, as Botan and Crypto++).
 */
import type { SerpentEngine } from './engine.js';
import { jsSerpent } from './js.js';
import { simdSerpent } from './simd.js';
import * as check from '../runtime/assert.js';
import { activeTier } from '../runtime/kernels.js';

const engine = (): SerpentEngine => (activeTier() === 'js' ? jsSerpent : simdSerpent);

const BLOCK = 16;

/** A cipher in @noble/ciphers' shape: returns `output` (new, or the caller's, which may be the input). */
export interface Cipher {
  encrypt(data: Uint8Array, output?: Uint8Array): Uint8Array;
  decrypt(data: Uint8Array, output?: Uint8Array): Uint8Array;
}

export interface BlockModeOptions {
  /** No PKCS#7 padding: inputs must then be whole blocks. */
  disablePadding?: boolean;
}

/**
 * Thrown when CBC or ECB decryption with padding finds no valid PKCS#7
 * padding (wrong key or IV, or a modified ciphertext). The plaintext is
 * never returned, and a caller-supplied output is wiped first.
 */
export class PaddingError extends Error {
  constructor(message = 'invalid PKCS#7 padding: the key or IV is wrong, or the ciphertext was modified') {
    super(message);
    this.name = 'PaddingError';
  }
}

const keyOf = (key: unknown): Uint8Array => check.key(key, [16, 24, 32]).slice();

const ivOf = (iv: unknown): Uint8Array => check.bytes(iv, 'iv', BLOCK).slice();

function paddingOption(opts: unknown): boolean {
  if (opts === undefined) return true;
  if (typeof opts !== 'object' || opts === null) throw new TypeError('options must be an object');
  return !(opts as BlockModeOptions).disablePadding;
}

/**
 * The PKCS#7 padding length (RFC 5652 §6.3) of the block ending at `end`,
 * or 0 when it is not valid: 1 to 16 bytes, each equal to the length.
 * Every byte of the block is examined, whatever it holds.
 */
function paddingLength(b: Uint8Array, end: number): number {
  const pad = b[end - 1];
  // bad != 0 when pad is 0 or above 16.
  let bad = ((pad - 1) | (BLOCK - pad)) & 0x100;
  for (let i = 0; i < BLOCK; i++) {
    const inside = ((i - pad) >> 8) & 1; // 1 when i < pad
    bad |= (b[end - 1 - i] ^ pad) * inside;
  }
  return bad === 0 ? pad : 0;
}

/** ECB or CBC (with an IV), with or without PKCS#7 padding. */
class BlockMode implements Cipher {
  constructor(
    private readonly key: Uint8Array,
    private readonly iv: Uint8Array | undefined,
    private readonly padding: boolean,
  ) {}

  encrypt(plaintext: Uint8Array, output?: Uint8Array): Uint8Array {
    const input = check.bytes(plaintext, 'plaintext');
    const n = input.length;
    const whole = n - (n % BLOCK);
    if (!this.padding && whole !== n) throw new RangeError(`plaintext must be a multiple of ${BLOCK} bytes without padding, got ${n}`);
    // PKCS#7 always adds 1..16 bytes: a whole block when the message ends on a block boundary.
    if (output !== undefined) check.noPartialOverlap(input, check.output(output, this.padding ? whole + BLOCK : n).subarray(0, n));
    let final: Uint8Array | undefined;
    if (this.padding) {
      final = new Uint8Array(BLOCK).fill(BLOCK - (n - whole));
      final.set(input.subarray(whole));
    }
    try {
      return engine().encrypt(this.key, this.iv, whole === n ? input : input.subarray(0, whole), final, output);
    } finally {
      final?.fill(0);
    }
  }

  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array {
    const input = check.bytes(ciphertext, 'ciphertext');
    const n = input.length;
    if (n % BLOCK !== 0) throw new RangeError(`ciphertext must be a multiple of ${BLOCK} bytes, got ${n}`);
    if (this.padding && n === 0) throw new RangeError(`ciphertext must be at least ${BLOCK} bytes with padding, got 0`);
    if (output !== undefined) check.noPartialOverlap(input, check.output(output, n));
    const out = engine().decrypt(this.key, this.iv, input, output);
    if (!this.padding) return out;
    const pad = paddingLength(out, n);
    if (pad === 0) {
      out.fill(0);
      throw new PaddingError();
    }
    return out.subarray(0, n - pad);
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
    if (output !== undefined) check.noPartialOverlap(input, check.output(output, input.length));
    return engine().ctr(this.key, this.iv, input, output);
  }
}
