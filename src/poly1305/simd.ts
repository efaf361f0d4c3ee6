/**
 * The 'simd' tier's Poly1305. Between calls the state (h, r, s and a
 * partial block) lives in the JavaScript object; each update copies it into
 * the kernel's memory, absorbs the data slice by slice, copies it back and
 * wipes the memory.
 */
import type { Poly1305Engine, Poly1305State } from './engine.js';
import { HIBIT, KEY, STATE_BYTES, TAG } from './layout.js';
import { onePass, polynomialAt } from './one-pass.js';
import { BUFFER, POLY, SLICE } from '../chachapoly/layout.js';
import { chachaKernel, type ChachaKernel } from '../chachapoly/wasm.js';

class SimdPoly1305 implements Poly1305State {
  private readonly saved = new Uint8Array(STATE_BYTES);
  private readonly partial = new Uint8Array(16);
  private filled = 0;
  private finished = false;

  constructor(key: Uint8Array) {
    const { k, mem: memory } = chachaKernel();
    const mem = memory.bytes;
    try {
      mem.set(key, POLY + KEY);
      k.poly_init();
      this.saved.set(mem.subarray(POLY, POLY + STATE_BYTES));
    } finally {
      k.wipe(BUFFER);
    }
  }

  update(data: Uint8Array): void {
    if (this.finished) throw new Error('poly1305: state already finalized');
    let pos = 0;
    if (this.filled > 0) {
      pos = Math.min(16 - this.filled, data.length);
      this.partial.set(data.subarray(0, pos), this.filled);
      this.filled += pos;
      if (this.filled < 16) return;
    }
    const whole = (data.length - pos) & ~15;
    if (this.filled === 16 || whole > 0) {
      const { k, mem: memory } = chachaKernel();
      const mem = memory.bytes;
      try {
        mem.set(this.saved, POLY);
        if (this.filled === 16) {
          mem.set(this.partial, BUFFER);
          k.poly_blocks(BUFFER, 16, HIBIT);
          this.filled = 0;
        }
        memory.through(BUFFER, SLICE, data.subarray(pos, pos + whole), undefined, k.poly_blocks, HIBIT);
        this.saved.set(mem.subarray(POLY, POLY + STATE_BYTES));
      } finally {
        k.wipe(BUFFER + Math.min(SLICE, whole) + 16);
      }
    }
    pos += whole;
    this.partial.set(data.subarray(pos), 0);
    this.filled = data.length - pos;
  }

  digestInto(out: Uint8Array): void {
    this.finish((k, mem) => {
      k.poly_finish();
      out.set(mem.subarray(POLY + TAG, POLY + TAG + 16));
    });
  }

  polynomialInto(out: Uint8Array): void {
    this.finish((_, mem) => polynomialAt(mem, POLY, out));
  }

  /** Absorbs the partial block, if any, then lets `result` read the state in the kernel's memory; wipes it all. */
  private finish(result: (k: ChachaKernel, mem: Uint8Array) => void): void {
    if (this.finished) throw new Error('poly1305: state already finalized');
    const { k, mem: memory } = chachaKernel();
    const mem = memory.bytes;
    try {
      mem.set(this.saved, POLY);
      if (this.filled > 0) {
        mem.set(this.partial.subarray(0, this.filled), BUFFER);
        padFinalBlock(mem, BUFFER, this.filled);
        k.poly_blocks(BUFFER, 16, 0);
      }
      result(k, mem);
    } finally {
      k.wipe(BUFFER + 16);
      this.destroy();
    }
  }

  destroy(): void {
    this.saved.fill(0);
    this.partial.fill(0);
    this.filled = 0;
    this.finished = true;
  }
}

/** RFC 8439 §2.5.1: a final partial block gets a 1 byte after it, zeros to 16 bytes, and no 2^128 bit. */
function padFinalBlock(mem: Uint8Array, at: number, filled: number): void {
  mem[at + filled] = 1;
  mem.fill(0, at + filled + 1, at + 16);
}

export const simdPoly1305: Poly1305Engine = {
  create: (key) => new SimdPoly1305(key),

  mac(message, key) {
    const { k, mem: memory } = chachaKernel();
    const mem = memory.bytes;
    const n = message.length;
    try {
      mem.set(key, POLY + KEY);
      k.poly_init();
      const whole = n & ~15;
      if (n < SLICE) {
        // The whole message and its padded last block fit in the buffer: one copy.
        mem.set(message, BUFFER);
        k.poly_blocks(BUFFER, whole, HIBIT);
      } else {
        memory.through(BUFFER, SLICE, message.subarray(0, whole), undefined, k.poly_blocks, HIBIT);
        mem.set(message.subarray(whole), BUFFER);
      }
      const last = n < SLICE ? BUFFER + whole : BUFFER;
      if (n > whole) {
        padFinalBlock(mem, last, n - whole);
        k.poly_blocks(last, 16, 0);
      }
      k.poly_finish();
      return mem.slice(POLY + TAG, POLY + TAG + 16);
    } finally {
      k.wipe(BUFFER + Math.min(SLICE, n) + 16);
    }
  },
};

/**
 * The polynomial of `input` under the r of `key` (polynomialOf's), and
 * `input` copied to `output`, both from one read of each byte: the first
 * pass of fourfold/parallel's decryption into a caller's output
 * (aead/pieces.ts). Not part of simdPoly1305, so that only pages
 * with fourfold/parallel carry it.
 */
export function simdCopyPolynomial(key: Uint8Array, zeroPad: boolean, input: Uint8Array, output: Uint8Array): Uint8Array {
  const { k, mem } = chachaKernel();
  try {
    return onePass(k, mem, { buffer: BUFFER, slice: SLICE, poly: POLY }, key, zeroPad, true, input, output, () => {});
  } finally {
    k.wipe(BUFFER + Math.min(SLICE, input.length) + 16);
  }
}
