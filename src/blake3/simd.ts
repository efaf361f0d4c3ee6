/**
 * The 'simd' tier's BLAKE3 engine: the tree state and data go through the
 * kernel's memory (layout.ts); everything a call wrote there is wiped
 * before it returns, also when it throws. Between calls an incremental
 * state lives in its JavaScript object (engine.ts TreeState).
 */
import type { Blake3Engine, TreeState } from './engine.js';
import { BASE, BUFFER, COUNTER, DEPTH, FLAGS, IV_BYTES, KEY, MAX_DEPTH, OUTPUT, ROOT, ROOT_BYTES, SLICE, STACK } from './layout.js';
import { blake3Kernel, blake3VariantPicker, type Blake3Kernel } from './wasm.js';
import type { LinearMemory } from '../runtime/memory.js';
import { high32, low32 } from '../runtime/bytes.js';

/** A number below 2^53, or a bigint below 2^64, as a little-endian 64-bit word at `at`. */
function write64(mem: LinearMemory, at: number, value: number | bigint): void {
  mem.writeWord(at, low32(value));
  mem.writeWord(at + 4, high32(value));
}

/** Key and flags; the rest of a fresh state is zero already (every call leaves memory wiped). */
function writeMode(mem: LinearMemory, key: Uint8Array, flags: number): void {
  mem.bytes.set(key, KEY);
  mem.writeWord(FLAGS, flags);
}

function writeState(mem: LinearMemory, state: TreeState): void {
  writeMode(mem, state.key, state.flags);
  mem.writeWord(DEPTH, state.depth);
  write64(mem, COUNTER, state.chunks);
  write64(mem, BASE, state.base);
  if (state.depth > 0) mem.bytes.set(state.stack.subarray(0, 32 * state.depth), STACK);
}

function readStack(mem: LinearMemory, state: TreeState): void {
  const b = mem.bytes;
  state.depth = b[DEPTH] | (b[DEPTH + 1] << 8);
  if (state.stack.length === 0) state.stack = new Uint8Array(32 * MAX_DEPTH);
  state.stack.set(b.subarray(STACK, STACK + 32 * state.depth));
}

/** Whole chunks through the buffer one slice at a time; large inputs go through the variant picker. */
function absorb(k: Blake3Kernel, mem: LinearMemory, data: Uint8Array): void {
  const picker = blake3VariantPicker(k);
  if (picker.wants(data.length)) picker.run(data.length, () => mem.through(BUFFER, SLICE, data, undefined, k.update));
  else mem.through(BUFFER, SLICE, data, undefined, k.update);
}

/** Output blocks from OUTPUT on (set by the caller) into `out`, a slice at a time. */
function squeeze(k: Blake3Kernel, mem: LinearMemory, out: Uint8Array, from = 0): void {
  for (let pos = from; pos < out.length; pos += SLICE) {
    const n = Math.min(SLICE, out.length - pos);
    k.output(BUFFER, (n + 63) >>> 6);
    out.set(mem.view(BUFFER, n), pos);
  }
}

/**
 * Wipes what a call left: the state, the buffer up to `used` bytes (output
 * is written in whole 64-byte blocks), and the tree scratch when it built
 * a tree.
 */
const wipe = (k: Blake3Kernel, used: number, tree: boolean) => k.wipe(BUFFER + Math.min(SLICE, Math.ceil(used / 64) * 64), tree ? 1 : 0);

export const simdBlake3: Blake3Engine = {
  hash(key, flags, data, length, out) {
    const { k, mem } = blake3Kernel();
    const n = data.length;
    try {
      if (key !== undefined) writeMode(mem, key, flags);
      else if (flags !== 0) mem.writeWord(FLAGS, flags);
      if (n <= SLICE) {
        // One call: the input, its tree, its root and up to a slice of output.
        mem.bytes.set(data, BUFFER);
        const first = Math.min(length, SLICE);
        k.hash(BUFFER, n, (first + 63) >>> 6, key === undefined ? 1 : 0);
        if (length <= SLICE && out === undefined) return mem.bytes.slice(BUFFER, BUFFER + length);
        const target = out ?? new Uint8Array(length);
        target.set(mem.view(BUFFER, first));
        if (length > SLICE) squeeze(k, mem, target, SLICE);
        return target;
      }
      if (key === undefined) writeMode(mem, IV_BYTES, flags);
      const whole = (n - 1) & ~1023;
      absorb(k, mem, data.subarray(0, whole));
      mem.bytes.set(data.subarray(whole), BUFFER);
      k.finish(BUFFER, n - whole);
      const target = out ?? new Uint8Array(length);
      squeeze(k, mem, target);
      return target;
    } finally {
      wipe(k, Math.max(n, length), n > 1024);
    }
  },

  update(state, data, head) {
    const { k, mem } = blake3Kernel();
    const h = head === undefined ? 0 : head.length;
    try {
      writeState(mem, state);
      let rest = data;
      if (head !== undefined) {
        // The head and the start of the data fill the first slice.
        const take = Math.min(SLICE - h, data.length);
        mem.bytes.set(head, BUFFER);
        mem.bytes.set(data.subarray(0, take), BUFFER + h);
        k.update(BUFFER, h + take);
        rest = data.subarray(take);
      }
      absorb(k, mem, rest);
      readStack(mem, state);
      state.chunks += (h + data.length) / 1024;
    } finally {
      wipe(k, h + data.length, true);
    }
  },

  push(state, cv, chunks) {
    const { k, mem } = blake3Kernel();
    try {
      writeState(mem, state);
      mem.bytes.set(cv, BUFFER);
      k.push_cv(BUFFER);
      readStack(mem, state);
      state.chunks += chunks;
    } finally {
      wipe(k, 32, true);
    }
  },

  finish(state, last, root, block0) {
    const { k, mem } = blake3Kernel();
    try {
      writeState(mem, state);
      mem.bytes.set(last, BUFFER);
      k.finish(BUFFER, last.length);
      root.set(mem.view(ROOT, ROOT_BYTES));
      if (block0 !== undefined) {
        k.output(BUFFER, 1);
        block0.set(mem.view(BUFFER, 64));
      }
    } finally {
      wipe(k, Math.max(last.length, 64), state.depth > 0);
    }
  },

  output(root, counter, out) {
    const { k, mem } = blake3Kernel();
    try {
      mem.bytes.set(root, ROOT);
      write64(mem, OUTPUT, counter);
      squeeze(k, mem, out);
    } finally {
      wipe(k, out.length, false);
    }
  },

  subtree(key, flags, data, counter, out) {
    const { k, mem } = blake3Kernel();
    try {
      writeMode(mem, key, flags);
      write64(mem, COUNTER, counter);
      write64(mem, BASE, counter);
      absorb(k, mem, data);
      k.fold();
      out.set(mem.view(STACK, 32));
    } finally {
      wipe(k, data.length, true);
    }
  },
};
