/**
 * What Serpent's synchronous API (index.ts) and fourfold/parallel's
 * (parallel/serpent.ts) share: argument checks and PKCS#7 padding.
 */
import * as check from '../runtime/assert.js';

export const BLOCK_BYTES = 16;

/** The options of Serpent's ECB and CBC modes. */
export interface BlockModeOptions {
  /** No PKCS#7 padding: inputs must then be whole 16-byte blocks. */
  disablePadding?: boolean;
}

/**
 * Thrown when CBC or ECB decryption with padding finds no valid PKCS#7
 * padding (wrong key or IV, or a modified ciphertext). The plaintext is
 * never returned, and a caller-supplied output is wiped first.
 */
export class PaddingError extends Error {
  /** An error whose message says what may have happened (the default names every cause). */
  constructor(message = 'invalid PKCS#7 padding: the key or IV is wrong, or the ciphertext was modified') {
    super(message);
    this.name = 'PaddingError';
  }
}

export const keyOf = (key: unknown): Uint8Array => check.key(key, [16, 24, 32]).slice();

export const ivOf = (iv: unknown): Uint8Array => check.bytes(iv, 'iv', BLOCK_BYTES).slice();

/** Whether PKCS#7 padding is on (BlockModeOptions; each option read once). */
export function paddingOption(opts: unknown): boolean {
  const disable = (check.options(opts, 'options', ['disablePadding']) as BlockModeOptions | undefined)?.disablePadding;
  if (disable === undefined) return true;
  if (typeof disable !== 'boolean') throw new TypeError(`disablePadding must be a boolean, got ${check.describe(disable)}`);
  return !disable;
}

/**
 * The PKCS#7 padding length (RFC 5652 §6.3) of the block ending at `end`,
 * or 0 when it is not valid: 1 to 16 bytes, each equal to the length.
 * Every byte of the block is examined, whatever it holds.
 */
export function paddingLength(b: Uint8Array, end: number): number {
  const pad = b[end - 1];
  // bad != 0 when pad is 0 or above 16.
  let bad = ((pad - 1) | (BLOCK_BYTES - pad)) & 0x100;
  for (let i = 0; i < BLOCK_BYTES; i++) {
    const inside = ((i - pad) >> 8) & 1; // 1 when i < pad
    bad |= (b[end - 1 - i] ^ pad) * inside;
  }
  return bad === 0 ? pad : 0;
}

/**
 * An ECB or CBC encryption's checked arguments: the plaintext's whole
 * blocks, the padded last block (PKCS#7, RFC 5652 §6.3) when padding is
 * on, and the output when given (the ciphertext's length).
 */
export function encryptArgs(
  plaintext: unknown,
  output: unknown,
  padding: boolean,
): { body: Uint8Array; final: Uint8Array | undefined; output: Uint8Array | undefined } {
  const input = check.bytes(plaintext, 'plaintext');
  const n = input.length;
  const whole = n - (n % BLOCK_BYTES);
  if (!padding && whole !== n) throw new RangeError(`plaintext must be a multiple of ${BLOCK_BYTES} bytes without padding, got ${n}`);
  // PKCS#7 always adds 1..16 bytes: a whole block when the message ends on a block boundary.
  const out = output === undefined ? undefined : check.output(output, padding ? whole + BLOCK_BYTES : n);
  if (out !== undefined) check.noPartialOverlap(input, out.subarray(0, n));
  let final: Uint8Array | undefined;
  if (padding) {
    final = new Uint8Array(BLOCK_BYTES).fill(BLOCK_BYTES - (n - whole));
    final.set(input.subarray(whole));
  }
  return { body: whole === n ? input : input.subarray(0, whole), final, output: out };
}

/** An ECB or CBC decryption's checked arguments. */
export function decryptArgs(ciphertext: unknown, output: unknown, padding: boolean): { input: Uint8Array; output: Uint8Array | undefined } {
  const input = check.bytes(ciphertext, 'ciphertext');
  const n = input.length;
  if (n % BLOCK_BYTES !== 0) throw new RangeError(`ciphertext must be a multiple of ${BLOCK_BYTES} bytes, got ${n}`);
  if (padding && n === 0) throw new RangeError(`ciphertext must be at least ${BLOCK_BYTES} bytes with padding, got 0`);
  const out = output === undefined ? undefined : check.output(output, n);
  if (out !== undefined) check.noPartialOverlap(input, out);
  return { input, output: out };
}

/** The plaintext without its padding when padding is on; else `out` itself. A bad padding wipes `out` and throws PaddingError. */
export function unpad(out: Uint8Array, padding: boolean): Uint8Array {
  if (!padding) return out;
  const n = out.length;
  const pad = paddingLength(out, n);
  if (pad === 0) {
    out.fill(0);
    throw new PaddingError();
  }
  return out.subarray(0, n - pad);
}
