/**
 * The 'simd' tier's BLAKE2b engine: the state and data go through the
 * kernel's memory (layout.ts) a slice at a time; everything a call wrote
 * there is wiped before it returns, also when it throws. Between calls an
 * incremental state lives in its JavaScript object (engine.ts
 * Blake2bState).
 */
import type { Blake2bEngine, Blake2bState } from './engine.js';
import { BLOCK, BUFFER, H, SLICE, T } from './layout.js';
import { blake2Kernel, type Blake2Kernel } from './wasm.js';
import type { LinearMemory } from '../runtime/memory.js';
import { high32, low32 } from '../runtime/bytes.js';

function writeState(mem: LinearMemory, state: Blake2bState): void {
  mem.bytes.set(state.h, H);
  mem.writeWord(T, low32(state.t));
  mem.writeWord(T + 4, high32(state.t));
}

/** Whole blocks, none the last, through the buffer a slice at a time. */
const absorb = (k: Blake2Kernel, mem: LinearMemory, data: Uint8Array): void => mem.through(BUFFER, SLICE, data, undefined, k.compress);

/** Zeroes the state, the counter and the buffer up to `used` bytes of input (and the final block's padding). */
const wipe = (k: Blake2Kernel, used: number): void => k.wipe(BUFFER + Math.min(SLICE, used) + 2 * BLOCK);

export const simdBlake2b: Blake2bEngine = {
  hash(h0, key, data, length) {
    const { k, mem } = blake2Kernel();
    const n = data.length;
    try {
      mem.bytes.set(h0, H);
      const head = key === undefined ? 0 : BLOCK;
      if (key !== undefined) mem.bytes.set(key, BUFFER);
      if (n <= SLICE) {
        // One call: the key block, the input, its final block.
        mem.bytes.set(data, BUFFER + head);
        k.compress(BUFFER, head + n, 1);
        return mem.bytes.slice(H, H + length);
      }
      if (key !== undefined) k.compress(BUFFER, BLOCK, 0);
      const whole = n - 1 - ((n - 1) % BLOCK);
      absorb(k, mem, data.subarray(0, whole));
      mem.bytes.set(data.subarray(whole), BUFFER);
      k.compress(BUFFER, n - whole, 1);
      return mem.bytes.slice(H, H + length);
    } finally {
      wipe(k, n);
    }
  },

  update(state, data, head) {
    const { k, mem } = blake2Kernel();
    const h = head === undefined ? 0 : head.length;
    try {
      writeState(mem, state);
      let rest = data;
      if (head !== undefined) {
        // The head and the start of the data fill the first slice.
        const take = Math.min(SLICE - h, data.length);
        mem.bytes.set(head, BUFFER);
        mem.bytes.set(data.subarray(0, take), BUFFER + h);
        k.compress(BUFFER, h + take, 0);
        rest = data.subarray(take);
      }
      absorb(k, mem, rest);
      state.h.set(mem.view(H, 64));
      state.t += h + data.length;
    } finally {
      wipe(k, h + data.length);
    }
  },

  finish(state, last) {
    const { k, mem } = blake2Kernel();
    try {
      writeState(mem, state);
      mem.bytes.set(last, BUFFER);
      k.compress(BUFFER, last.length, 1);
      state.h.set(mem.view(H, 64));
      state.t += last.length;
    } finally {
      wipe(k, last.length);
    }
  },
};
