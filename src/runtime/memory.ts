/**
 * Moving data through a kernel's fixed linear memory in bounded slices, so
 * any input size works and memory never grows with the input.
 */
import type { KernelExports } from './kernels.js';

const views = new WeakMap<WebAssembly.Memory, Uint8Array>();

/** A byte view of a kernel's memory; cached, since the memory never grows. */
export function memoryBytes(kernel: KernelExports): Uint8Array {
  let view = views.get(kernel.memory);
  if (view === undefined) views.set(kernel.memory, (view = new Uint8Array(kernel.memory.buffer)));
  return view;
}

/**
 * Copies `data` into `mem` at `at` one slice of at most `slice` bytes at a
 * time, lets `process(at, length)` work on it in place, and copies the
 * result to the same position of `out` when given. Slices are taken front
 * to back, so `out` may be `data` itself.
 */
export function throughMemory(
  mem: Uint8Array,
  at: number,
  slice: number,
  data: Uint8Array,
  out: Uint8Array | undefined,
  process: (ptr: number, length: number) => void,
): void {
  const total = data.length;
  for (let pos = 0; pos < total; pos += slice) {
    const n = Math.min(slice, total - pos);
    mem.set(n === total ? data : data.subarray(pos, pos + n), at);
    process(at, n);
    if (out !== undefined) out.set(mem.subarray(at, at + n), pos);
  }
}

/** Writes `value` (a byte length, below 2^53) as a little-endian 64-bit number at `mem[at..at + 8]`. */
export function writeLength64(mem: Uint8Array, at: number, value: number): void {
  const high = Math.floor(value / 0x100000000);
  for (let i = 0; i < 4; i++) {
    mem[at + i] = (value >>> (8 * i)) & 0xff;
    mem[at + 4 + i] = (high >>> (8 * i)) & 0xff;
  }
}

/** Constant-time comparison of `length` bytes: no early exit on the first difference. */
export function equalBytes(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean {
  let diff = 0;
  for (let i = 0; i < length; i++) diff |= a[aStart + i] ^ b[bStart + i];
  return diff === 0;
}
