/**
 * The 'simd' tier's Poly1305. Between calls the state (h, r, s and a
 * partial block) lives in the JavaScript object; each update copies it into
 * the kernel's memory, absorbs the data slice by slice, copies it back and
 * wipes the memory.
 */
import type { Poly1305Engine, Poly1305State } from './engine.js';
import { HIBIT, KEY, STATE_BYTES, TAG } from './layout.js';
import { BUFFER, POLY, SLICE } from '../chacha/layout.js';
import { chachaKernel } from '../chacha/wasm.js';

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
      mem.fill(0, POLY, POLY + KEY + 32);
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
        mem.fill(0, POLY, BUFFER + Math.min(SLICE, Math.max(16, whole)));
      }
    }
    pos += whole;
    this.partial.set(data.subarray(pos), 0);
    this.filled = data.length - pos;
  }

  digestInto(out: Uint8Array): void {
    if (this.finished) throw new Error('poly1305: state already finalized');
    const { k, mem: memory } = chachaKernel();
    const mem = memory.bytes;
    try {
      mem.set(this.saved, POLY);
      if (this.filled > 0) {
        // RFC 8439 §2.5.1: a final partial block gets a 1 byte after it and no 2^128 bit.
        mem.set(this.partial.subarray(0, this.filled), BUFFER);
        mem[BUFFER + this.filled] = 1;
        mem.fill(0, BUFFER + this.filled + 1, BUFFER + 16);
        k.poly_blocks(BUFFER, 16, 0);
      }
      k.poly_finish();
      out.set(mem.subarray(POLY + TAG, POLY + TAG + 16));
    } finally {
      mem.fill(0, POLY, BUFFER + 16);
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

export const simdPoly1305: Poly1305Engine = { create: (key) => new SimdPoly1305(key) };
