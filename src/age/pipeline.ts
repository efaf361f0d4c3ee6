/**
 * A payload sealed or opened as its bytes come (a stream's writes, a
 * command's reads): gathered into batches of whole chunks, each handed to
 * a Runner (this thread, or the pool's workers with it: pool-tools.ts)
 * and its result emitted before the next batch starts, so that memory is
 * a batch or two whatever the payload's size. A batch is handed out only
 * once a byte after it has come, so the one that ends the payload is
 * known to be the final one, as the format needs (C2SP age: the last
 * chunk carries the final flag).
 */
import { CHUNK, chunkFailure, chunksOf, type Failure, openOrFail, plainLength, type Run, SEALED_CHUNK, sealedLength, sealRun } from './payload.js';
import { engine } from '../chacha/tiers.js';
import { zeroize } from '../runtime/bytes.js';

/**
 * Where batches of chunks are sealed and opened: `plain` and `sealed` are
 * whole chunks but the last, which is short only when `run.final`. Both
 * may read their input until they settle.
 */
export interface Runner {
  /** Chunks a stream gathers before it hands them out: enough to share among the runner's threads. */
  readonly batchChunks: number;
  /** Seals `plain` into `out` (sealedLength bytes), its chunks from run.counter. */
  seal(key: Uint8Array, run: Run, plain: Uint8Array, out: Uint8Array): void | Promise<void>;
  /**
   * Opens `sealed` into `out` (plainLength bytes): `out` once every chunk
   * verified, else the Failure (payload.ts openOrFail), which releases
   * only the chunks before the one that failed.
   */
  open(key: Uint8Array, run: Run, sealed: Uint8Array, out: Uint8Array): Uint8Array | Failure | Promise<Uint8Array | Failure>;
  /** The payload is done, or abandoned: wipes what the runner's threads still hold of it. */
  done(): void;
}

/** This thread's engine, 1 MiB of plaintext a batch. */
export const hereRunner: Runner = {
  batchChunks: 16,
  seal: (key, run, plain, out) => sealRun(engine(), key, run, plain, out),
  open: (key, run, sealed, out) => openOrFail(engine(), key, run, sealed, out),
  done: () => {},
};

/** Hands a batch on, resolving once the batch is no longer read. */
type Hand = (batch: Uint8Array) => void | Promise<void>;

/**
 * Bytes cut into batches of whole `unit`-byte chunks, at most `size`
 * bytes, each handed out once a byte after it has come. Where a write
 * holds half a batch or more, its chunks are handed out as views of it (no
 * copy), after what was gathered before it (up to a chunk's end); other
 * bytes are gathered into a buffer of ours, which grows up to `size` as
 * they come (a short stream never allocates a whole batch) and is handed
 * out when it is full.
 */
class Batches {
  private buffer = new Uint8Array(0);
  private fill = 0;
  /** Bytes written so far. */
  written = 0;

  constructor(
    private readonly unit: number,
    private readonly size: number,
  ) {}

  /** Takes `bytes`, handing out each batch that more bytes follow; resolves once nothing of `bytes` is read any more. */
  async write(bytes: Uint8Array, hand: Hand): Promise<void> {
    this.written += bytes.length;
    let at = 0;
    while (at < bytes.length) {
      if (this.fill === this.size) await this.handGathered(hand);
      // Whole chunks of this write with a byte after them, up to a batch.
      const inPlace = Math.min(this.size, Math.floor((bytes.length - at - 1) / this.unit) * this.unit);
      const aligned = this.fill % this.unit === 0;
      if (inPlace >= this.size / 2 && aligned) {
        if (this.fill > 0) await this.handGathered(hand);
        await hand(bytes.subarray(at, at + inPlace));
        at += inPlace;
        continue;
      }
      // Gather: up to the gathered chunk's end where the write goes on in place, else up to a batch.
      const room = inPlace >= this.size / 2 ? this.unit - (this.fill % this.unit) : this.size - this.fill;
      const n = Math.min(room, bytes.length - at);
      this.reserve(this.fill + n);
      this.buffer.set(bytes.subarray(at, at + n), this.fill);
      this.fill += n;
      at += n;
    }
  }

  private async handGathered(hand: Hand): Promise<void> {
    await hand(this.buffer.subarray(0, this.fill));
    this.fill = 0;
  }

  /** What is gathered: the final batch (possibly empty). */
  last(): Uint8Array {
    const batch = this.buffer.subarray(0, this.fill);
    this.fill = 0;
    return batch;
  }

  wipe(): void {
    zeroize(this.buffer);
  }

  /** Room for `length` bytes: the buffer doubled (up to `size`) and the bytes gathered moved, the old one wiped. */
  private reserve(length: number): void {
    if (length <= this.buffer.length) return;
    const grown = new Uint8Array(Math.min(this.size, Math.max(length, 2 * this.buffer.length, 4096)));
    grown.set(this.buffer.subarray(0, this.fill));
    zeroize(this.buffer);
    this.buffer = grown;
  }
}

/** Seals a payload's plaintext as it comes, emitting each batch sealed, in order (after the payload nonce, which the caller writes). */
export class PayloadSealer {
  private readonly batches: Batches;
  /** The next batch's first chunk. */
  private counter = 0;

  constructor(
    private readonly key: Uint8Array,
    private readonly runner: Runner,
    private readonly emit: (bytes: Uint8Array) => void,
  ) {
    this.batches = new Batches(CHUNK, runner.batchChunks * CHUNK);
  }

  write(bytes: Uint8Array): Promise<void> {
    return this.batches.write(bytes, (plain) => this.seal(plain, false));
  }

  /** The final batch (an empty payload is one empty chunk). */
  async end(): Promise<void> {
    await this.seal(this.batches.last(), true);
    this.forget();
  }

  forget(): void {
    zeroize(this.key);
    this.batches.wipe();
    this.runner.done();
  }

  private async seal(plain: Uint8Array, final: boolean): Promise<void> {
    const run: Run = { counter: this.counter, final };
    this.counter += chunksOf(plain.length);
    const out = new Uint8Array(sealedLength(plain.length));
    await this.runner.seal(this.key, run, plain, out);
    this.emit(out);
  }
}

/** Opens a payload's sealed chunks as they come (after its nonce), emitting each batch's plaintext only once all its chunks verified. */
export class PayloadOpener {
  private readonly batches: Batches;
  private counter = 0;

  constructor(
    private readonly key: Uint8Array,
    private readonly runner: Runner,
    private readonly emit: (bytes: Uint8Array) => void,
  ) {
    this.batches = new Batches(SEALED_CHUNK, runner.batchChunks * SEALED_CHUNK);
  }

  write(bytes: Uint8Array): Promise<void> {
    return this.batches.write(bytes, (sealed) => this.open(sealed, false));
  }

  /** The final batch (there must be one: an empty payload is one empty chunk, its tag). */
  async end(): Promise<void> {
    const last = this.batches.last();
    if (this.batches.written === 0) throw chunkFailure(engine(), this.key, this.counter, true, last);
    await this.open(last, true);
    this.forget();
  }

  forget(): void {
    zeroize(this.key);
    this.runner.done();
  }

  /** Emits the batch's plaintext; on a failure, the chunks that verified, then throws its error. */
  private async open(sealed: Uint8Array, final: boolean): Promise<void> {
    const run: Run = { counter: this.counter, final };
    this.counter += Math.ceil(sealed.length / SEALED_CHUNK);
    const opened = await this.runner.open(this.key, run, sealed, new Uint8Array(plainLength(sealed.length)));
    if (opened instanceof Uint8Array) {
      this.emit(opened);
      return;
    }
    if (opened.verified.length > 0) this.emit(opened.verified);
    throw opened.error;
  }
}
