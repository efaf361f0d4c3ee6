/**
 * Moving data through a kernel's fixed linear memory in bounded slices, so
 * any input size works and memory never grows with the input.
 */
import type { KernelExports } from './kernels.js';

const views = new WeakMap<WebAssembly.Memory, Uint8Array>();
let lastMemory: WebAssembly.Memory | undefined;
let lastView: Uint8Array | undefined;

/** A byte view of a kernel's memory; cached, since the memory never grows. */
export function memoryBytes(kernel: KernelExports): Uint8Array {
  if (kernel.memory === lastMemory) return lastView!;
  let view = views.get(kernel.memory);
  if (view === undefined) views.set(kernel.memory, (view = new Uint8Array(kernel.memory.buffer)));
  lastMemory = kernel.memory;
  return (lastView = view);
}

/** WebAssembly memory is little-endian; typed-array words are host-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Writes 32-bit words little-endian at `mem[at..]` (`at` a multiple of 4). */
let lastWordsBuffer: ArrayBufferLike | undefined;
let lastWords: Uint32Array | undefined;
export function writeWords(mem: Uint8Array, at: number, words: Uint32Array): void {
  if (LITTLE_ENDIAN) {
    if (mem.buffer !== lastWordsBuffer) lastWords = new Uint32Array((lastWordsBuffer = mem.buffer));
    lastWords!.set(words, at >>> 2);
    return;
  }
  for (let w = 0; w < words.length; w++) {
    const v = words[w], i = at + 4 * w;
    mem[i] = v; mem[i + 1] = v >>> 8; mem[i + 2] = v >>> 16; mem[i + 3] = v >>> 24;
  }
}

/**
 * Copies `mem[at..at + n]` to `out[pos..]`. Below this size a loop beats
 * creating the subarray that TypedArray.prototype.set needs.
 */
const COPY_LOOP_MAX = 96;
function copyOut(mem: Uint8Array, at: number, out: Uint8Array, pos: number, n: number): void {
  if (n <= COPY_LOOP_MAX) for (let i = 0; i < n; i++) out[pos + i] = mem[at + i];
  else out.set(mem.subarray(at, at + n), pos);
}

/**
 * Copies `data` into `mem` at `at` one slice of at most `slice` bytes at a
 * time, lets `process(at, length, arg)` work on it in place, and copies the
 * result to the same position of `out` when given. Slices are taken front
 * to back, so `out` may be `data` itself. (`arg` is passed through so that
 * callers need not allocate a closure per call.)
 */
export function throughMemory(
  mem: Uint8Array,
  at: number,
  slice: number,
  data: Uint8Array,
  out: Uint8Array | undefined,
  process: (ptr: number, length: number, arg: number) => void,
  arg = 0,
): void {
  const total = data.length;
  if (total <= slice) {
    mem.set(data, at);
    process(at, total, arg);
    if (out !== undefined) copyOut(mem, at, out, 0, total);
    return;
  }
  for (let pos = 0; pos < total; pos += slice) {
    const n = Math.min(slice, total - pos);
    mem.set(data.subarray(pos, pos + n), at);
    process(at, n, arg);
    if (out !== undefined) copyOut(mem, at, out, pos, n);
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
