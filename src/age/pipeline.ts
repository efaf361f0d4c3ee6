/**
 * A payload in runs of chunks, in order: bytes come in as they come
 * (a stream's writes, or a one-shot call's whole input), runs of
 * RUN_CHUNKS chunks go out to a Runner (this thread, or the pool's
 * workers in parallel.ts), and their results come back out in order, with
 * at most `runner.window` runs in flight, which bounds memory whatever
 * the payload's size. A run is handed out only once a byte after it has
 * come, so the one that ends the payload is known to be the final one, as
 * the format needs (C2SP age: the last chunk carries the final flag).
 *
 * Every write is read whole before it returns or waits: runs are taken
 * from it at once (straight from the caller's bytes where a whole run is
 * there, copied into a buffer of ours where one is not), and a Runner
 * reads or copies its input when it is handed a run.
 */
import { CHUNK, chunkFailure, type Failure, openOrFail, plainLength, type Run, SEALED_CHUNK, sealedLength, sealRun } from './payload.js';
import { engine } from '../chacha/tiers.js';
import { zeroize } from '../runtime/bytes.js';

/** Chunks in one run: 1 MiB of plaintext, what one job of a worker seals or opens. */
export const RUN_CHUNKS = 16;

/**
 * Where runs are sealed and opened. A run's input comes as a head (its
 * first chunk, held over from the last write, or empty) and a body (the
 * chunks after it, read from the current write): whole chunks, but for the
 * final run's last, which may be short. Both read (or copy) their input
 * before they return: the caller reuses it at once.
 */
export interface Runner {
  /** Seals the run into `out` (sealedLength bytes), or into a new array when none is given. */
  seal(key: Uint8Array, run: Run, head: Uint8Array, body: Uint8Array, out?: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /**
   * Opens the run into `out` (plainLength bytes), or a new array: the
   * plaintext once every chunk verified, else the Failure (payload.ts
   * openOrFail), which releases only the chunks before the one that failed.
   */
  open(key: Uint8Array, run: Run, head: Uint8Array, body: Uint8Array, out?: Uint8Array): Uint8Array | Failure | Promise<Uint8Array | Failure>;
  /** Runs in flight at most. */
  readonly window: number;
}

const EMPTY = new Uint8Array(0);

/** The run's body: its counter moved past the head (one chunk, or none). */
const afterHead = (run: Run, head: Uint8Array): Run => ({ counter: run.counter + (head.length > 0 ? 1 : 0), final: run.final });
/** The run's head: final only when no body follows it. */
const headRun = (run: Run, body: Uint8Array): Run => ({ counter: run.counter, final: run.final && body.length === 0 });

/** Seals a run on this thread (Runner.seal). */
export function sealHere(
  key: Uint8Array,
  run: Run,
  head: Uint8Array,
  body: Uint8Array,
  out: Uint8Array = new Uint8Array(sealedLength(head.length + body.length)),
): Uint8Array {
  const split = head.length > 0 ? sealedLength(head.length) : 0;
  if (head.length > 0) sealRun(engine(), key, headRun(run, body), head, out.subarray(0, split));
  if (body.length > 0 || head.length === 0) sealRun(engine(), key, afterHead(run, head), body, out.subarray(split));
  return out;
}

/** Opens a run on this thread (Runner.open). */
export function openHere(
  key: Uint8Array,
  run: Run,
  head: Uint8Array,
  body: Uint8Array,
  out: Uint8Array = new Uint8Array(plainLength(head.length) + plainLength(body.length)),
): Uint8Array | Failure {
  const split = plainLength(head.length);
  if (head.length > 0) {
    const opened = openOrFail(engine(), key, headRun(run, body), head, out.subarray(0, split));
    if (!(opened instanceof Uint8Array) || body.length === 0) return opened;
  }
  const opened = openOrFail(engine(), key, afterHead(run, head), body, out.subarray(split));
  return opened instanceof Uint8Array ? out : { verified: out.subarray(0, split + opened.verified.length), error: opened.error };
}

/** This thread's engine, one run at a time. */
export const hereRunner: Runner = { seal: sealHere, open: openHere, window: 1 };

/** A run that failed at one of its chunks: the plaintext of those before it, which verified, and the error. */
export class PartlyOpened extends Error {
  constructor(
    readonly verified: Uint8Array,
    readonly failure: Error,
  ) {
    super(failure.message);
  }
}

/** Results in the order their runs were handed out; add() never waits, settle() waits while too many are pending. */
class InOrder {
  private readonly pending: Promise<Uint8Array>[] = [];

  constructor(
    private readonly window: number,
    private readonly emit: (bytes: Uint8Array) => void,
  ) {}

  /** A run's result: emitted now when it is ready and nothing is before it. */
  add(result: Uint8Array | Promise<Uint8Array>): void {
    if (!(result instanceof Promise) && this.pending.length === 0) {
      this.emit(result);
      return;
    }
    const promise = Promise.resolve(result);
    // A run that fails while earlier ones are awaited is reported when its turn comes, not as unhandled.
    promise.catch(() => {});
    this.pending.push(promise);
  }

  /** Waits while more than the window's worth is pending, emitting the oldest. */
  async settle(): Promise<void> {
    while (this.pending.length >= this.window) await this.next();
  }

  /** Waits for every pending result and emits them. */
  async drain(): Promise<void> {
    while (this.pending.length > 0) await this.next();
  }

  /** The oldest result, emitted; a run that failed part-way has the chunks that verified emitted, then its error thrown. */
  private async next(): Promise<void> {
    try {
      this.emit(await this.pending.shift()!);
    } catch (e) {
      if (!(e instanceof PartlyOpened)) throw e;
      if (e.verified.length > 0) this.emit(e.verified);
      throw e.failure;
    }
  }
}

/**
 * Bytes cut into runs of up to RUN_CHUNKS chunks of `chunk` bytes, each
 * handed out once a byte after it has come (so the last one is known).
 * Whole chunks are handed out as views of the write they came in; only a
 * chunk that a write leaves unfinished, or the last of a write (which
 * waits for a byte after it), is copied, into a buffer of one chunk.
 */
class Runs {
  private readonly pending: Uint8Array;
  private fill = 0;
  /** Chunks handed out so far: the next run's first counter. */
  counter = 0;
  /** Bytes written so far. */
  written = 0;

  constructor(private readonly chunk: number) {
    this.pending = new Uint8Array(chunk);
  }

  /** Cuts `bytes` into runs, calling `full(head, body)` for each (at once, in order) that more bytes follow. */
  write(bytes: Uint8Array, full: (head: Uint8Array, body: Uint8Array) => void): void {
    this.written += bytes.length;
    let at = 0;
    if (this.fill > 0) {
      at = Math.min(bytes.length, this.chunk - this.fill);
      this.pending.set(bytes.subarray(0, at), this.fill);
      this.fill += at;
      // Unfinished, or finished with nothing after it yet.
      if (this.fill < this.chunk || at === bytes.length) return;
    }
    let head = this.fill === this.chunk ? this.pending : EMPTY;
    // Whole chunks with at least one byte after them.
    const whole = Math.floor((bytes.length - at - 1) / this.chunk);
    for (let c = 0; c < whole || head.length > 0; ) {
      const n = Math.min(RUN_CHUNKS - (head.length > 0 ? 1 : 0), whole - c);
      full(head, bytes.subarray(at + c * this.chunk, at + (c + n) * this.chunk));
      head = EMPTY;
      c += n;
    }
    const rest = bytes.subarray(at + whole * this.chunk);
    this.pending.set(rest);
    this.fill = rest.length;
  }

  /** What is left, the final run's only chunk (possibly empty). */
  last(): Uint8Array {
    const head = this.pending.subarray(0, this.fill);
    this.fill = 0;
    return head;
  }

  /** Chunks in a run of `length` bytes (at least one: an empty final run is one empty chunk). */
  chunks(length: number): number {
    return Math.max(1, Math.ceil(length / this.chunk));
  }

  wipe(): void {
    zeroize(this.pending);
  }
}

/** Seals a payload's plaintext as it comes, emitting sealed runs in order (after the payload nonce, which the caller writes). */
export class PayloadSealer {
  private readonly runs = new Runs(CHUNK);
  private readonly out: InOrder;

  constructor(
    private readonly key: Uint8Array,
    private readonly runner: Runner,
    emit: (bytes: Uint8Array) => void,
  ) {
    this.out = new InOrder(runner.window, emit);
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.runs.write(bytes, (head, body) => this.seal(head, body, false));
    await this.out.settle();
  }

  /** The final run, then every result. */
  async end(): Promise<void> {
    this.seal(this.runs.last(), EMPTY, true);
    await this.out.drain();
    this.forget();
  }

  forget(): void {
    zeroize(this.key);
    this.runs.wipe();
  }

  private seal(head: Uint8Array, body: Uint8Array, final: boolean): void {
    const run: Run = { counter: this.runs.counter, final };
    this.runs.counter += this.runs.chunks(head.length + body.length);
    this.out.add(this.runner.seal(this.key, run, head, body));
  }
}

/** Opens a payload's sealed chunks as they come (after its nonce), emitting plaintext in order, each run only once all its chunks verified. */
export class PayloadOpener {
  private readonly runs = new Runs(SEALED_CHUNK);
  private readonly out: InOrder;

  constructor(
    private readonly key: Uint8Array,
    private readonly runner: Runner,
    emit: (bytes: Uint8Array) => void,
  ) {
    this.out = new InOrder(runner.window, emit);
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.runs.write(bytes, (head, body) => this.open(head, body, false));
    await this.out.settle();
  }

  /** The final run (there must be one: an empty payload is one empty chunk), then every result. */
  async end(): Promise<void> {
    const last = this.runs.last();
    if (this.runs.written === 0) {
      await this.out.drain();
      throw chunkFailure(engine(), this.key, this.runs.counter, true, last);
    }
    this.open(last, EMPTY, true);
    await this.out.drain();
    this.forget();
  }

  forget(): void {
    zeroize(this.key);
  }

  private open(head: Uint8Array, body: Uint8Array, final: boolean): void {
    const run: Run = { counter: this.runs.counter, final };
    this.runs.counter += Math.ceil(head.length / SEALED_CHUNK) + Math.ceil(body.length / SEALED_CHUNK);
    const result = this.runner.open(this.key, run, head, body);
    this.out.add(result instanceof Promise ? result.then(plaintextOf) : plaintextOf(result));
  }
}

/** A run's plaintext, or (a Failure) a rejection that releases the chunks that verified, then reports the one that did not. */
const plaintextOf = (result: Uint8Array | Failure): Uint8Array | Promise<Uint8Array> =>
  result instanceof Uint8Array ? result : Promise.reject(new PartlyOpened(result.verified, result.error));
