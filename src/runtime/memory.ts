/**
 * A kernel's fixed linear memory as the JavaScript side uses it: writing
 * words, moving data through it in bounded slices (so any input size works
 * and memory never grows with the input), and copying results out.
 */

/** Views up to this length are cached: TypedArray.prototype.set needs a view, and creating one costs more than copying a short result. */
const CACHED_VIEW_MAX = 4096;

export class LinearMemory {
  readonly bytes: Uint8Array;
  /** WebAssembly memory is little-endian whatever the host is: words go through a DataView (as fast as a Uint32Array in V8). */
  private readonly data: DataView;
  private readonly views = new Map<number, Uint8Array>();

  constructor(memory: WebAssembly.Memory) {
    // The memory never grows, so views on its buffer stay valid.
    this.bytes = new Uint8Array(memory.buffer);
    this.data = new DataView(memory.buffer);
  }

  /** Stores a 32-bit word little-endian at `at` (a multiple of 4). */
  writeWord(at: number, value: number): void {
    this.data.setUint32(at, value, true);
  }

  /**
   * Stores `src[from, from + 4 * count)` at `at` (a multiple of 4) as
   * little-endian words: part of an array without creating a subarray view
   * (for short keys and nonces a view costs more than the copy). A whole
   * array is as fast with `bytes.set`.
   */
  writeWords(at: number, src: Uint8Array, from: number, count: number): void {
    for (let i = 0; i < count; i++) {
      const j = from + 4 * i;
      this.writeWord(at + 4 * i, src[j] | (src[j + 1] << 8) | (src[j + 2] << 16) | (src[j + 3] << 24));
    }
  }

  /** bytes[at, at + length), cached for short lengths. */
  view(at: number, length: number): Uint8Array {
    if (length > CACHED_VIEW_MAX) return this.bytes.subarray(at, at + length);
    const key = at * 0x10000 + length;
    let v = this.views.get(key);
    if (v === undefined) this.views.set(key, (v = this.bytes.subarray(at, at + length)));
    return v;
  }

  /**
   * Copies `data` in at `at` one slice of at most `slice` bytes at a time,
   * lets `process(at, length, arg)` work on it in place, and copies the
   * result to the same position of `out` when given. Slices go front to
   * back, so `out` may be `data` itself. (`arg` is passed through so that
   * callers need not allocate a closure per call.)
   */
  through(
    at: number,
    slice: number,
    data: Uint8Array,
    out: Uint8Array | undefined,
    process: (ptr: number, length: number, arg: number) => void,
    arg = 0,
  ): void {
    const total = data.length;
    if (total <= slice) {
      this.bytes.set(data, at);
      process(at, total, arg);
      if (out !== undefined) out.set(this.view(at, total));
      return;
    }
    for (let pos = 0; pos < total; pos += slice) {
      const n = Math.min(slice, total - pos);
      this.bytes.set(data.subarray(pos, pos + n), at);
      process(at, n, arg);
      if (out !== undefined) out.set(this.view(at, n), pos);
    }
  }
}
