/**
 * A piece of an AEAD in one pass, on the simd tier (fourfold/parallel's
 * pieces: polynomial.ts's PieceCrypt): each slice of the kernel's buffer
 * is XORed with the keystream and absorbed into Poly1305 while it is in
 * cache, as the synchronous AEADs' kernels do (aead_seal, box_seal). In two
 * passes, a piece of megabytes would be read from memory twice (the
 * parallel section of docs/contributing/performance-history.md has what
 * that cost).
 *
 * Decryption absorbs each slice before decrypting it, both from the one
 * copy of it in the kernel's memory, so every byte of the piece is read
 * once whoever writes its input meanwhile.
 */
import { newLimbs, POLYNOMIAL_BYTES, setRadix, toBytes } from './field.js';
import { H, HIBIT, KEY, SCRATCH } from './layout.js';
import { readLE32 } from '../runtime/bytes.js';
import type { LinearMemory } from '../runtime/memory.js';

/** The Poly1305 functions of a kernel that includes poly1305/kernel.ts's. */
export interface PolyKernel {
  poly_init(): void;
  poly_blocks(ptr: number, len: number, hibit: number): void;
  poly_pad16(ptr: number, len: number): void;
}

/**
 * The polynomial (polynomialOf's 17 bytes) of the Poly1305 state at
 * `poly` in kernel memory: its accumulator h, reduced.
 */
export function polynomialAt(mem: Uint8Array, poly: number, out: Uint8Array): void {
  const h = newLimbs();
  setRadix(
    h,
    [0, 1, 2, 3, 4].map((i) => readLE32(mem, poly + H + 4 * i) >>> 0),
    26,
  );
  toBytes(h, out);
  h.fill(0);
}

/** Where a kernel keeps its data slices and its Poly1305 state. */
export interface OnePassLayout {
  readonly buffer: number;
  readonly slice: number;
  readonly poly: number;
}

/**
 * XORs keystream into `input`, writing `output`, slice by slice with
 * `xor` (the keystream state is the caller's to set up), and returns the
 * polynomial of the ciphertext (`input` when `decrypt`, else `output`)
 * under the r of `polyKey`, padded as polynomialOf's `zeroPad` says. The
 * caller wipes the kernel's memory.
 */
export function onePass(
  k: PolyKernel,
  mem: LinearMemory,
  at: OnePassLayout,
  polyKey: Uint8Array,
  zeroPad: boolean,
  decrypt: boolean,
  input: Uint8Array,
  output: Uint8Array,
  xor: (ptr: number, len: number) => void,
): Uint8Array {
  const bytes = mem.bytes;
  bytes.set(polyKey, at.poly + KEY);
  k.poly_init();
  /** Slices are multiples of 16 bytes but the last: only it has a partial block. */
  const absorb = (ptr: number, len: number): void => {
    if (zeroPad) {
      k.poly_pad16(ptr, len);
      return;
    }
    const whole = len & ~15;
    if (whole > 0) k.poly_blocks(ptr, whole, HIBIT);
    if (len === whole) return;
    // RFC 8439 §2.5.1: a final partial block gets a 1 byte after it, zeros to 16 bytes, and no 2^128 bit.
    const block = at.poly + SCRATCH;
    bytes.copyWithin(block, ptr + whole, ptr + len);
    bytes[block + len - whole] = 1;
    bytes.fill(0, block + len - whole + 1, block + 16);
    k.poly_blocks(block, 16, 0);
  };
  mem.through(at.buffer, at.slice, input, output, (ptr, len) => {
    if (decrypt) absorb(ptr, len);
    xor(ptr, len);
    if (!decrypt) absorb(ptr, len);
  });
  const out = new Uint8Array(POLYNOMIAL_BYTES);
  polynomialAt(bytes, at.poly, out);
  return out;
}
