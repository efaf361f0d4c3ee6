/**
 * A payload sealed or opened as its bytes come (a stream's writes, a
 * command's reads): gathered into pieces of whole chunks, each handed to
 * a Runner's lane (this thread, or the pool's workers with it:
 * parallel/age-pool.ts) as it fills, and emitted in order once it is done, so
 * that memory is a few pieces whatever the payload's size. A piece is
 * handed out only once a byte after it has come, so the one that ends the
 * payload is known to be the final one, as the format needs (C2SP age:
 * the last chunk carries the final flag).
 */
import {
  PLAIN_CHUNK,
  chunkFailure,
  chunkCount,
  type OpenFailure,
  failureAt,
  openOrFail,
  openRun,
  plainLength,
  type ChunkRun,
  SEALED_CHUNK,
  sealedLength,
  sealRun,
} from './payload.js';
import type { FilePayload, FilePiece, PieceOutcome } from './file-pieces.js';
import type { ChachaEngine } from '../chacha/engine.js';
import { lazyJsEngine as engine } from '../chacha/tiers-on-demand.js';

import type { Piece } from '../pool/partition.js';
import { EMPTY, zeroize } from '../runtime/bytes.js';
import { toBeWritten } from '../runtime/native.js';

/** For the callers above age (the typage API): the engine made ready for a call, the js tier imported where it is the one (chacha/tiers-on-demand.ts). */
export { engineReady } from '../chacha/tiers-on-demand.js';

/**
 * A piece of a stream's payload: whole chunks from `run.counter` (the last
 * short only when `run.final`), its input (plaintext to seal, or sealed
 * chunks to open) and, once done, its output, a new array made by
 * whoever did it; an open also says how many of its chunks verified
 * (`good`: all of them, or the index of the first that did not, its place
 * in `output` zeroed and nothing after it written).
 */
export interface PayloadPiece extends Piece {
  readonly run: ChunkRun;
  readonly input: Uint8Array;
  output?: Uint8Array;
  good?: number;
}

/** Where a stream's pieces are sealed or opened, under one payload key: each added piece comes back, done, in order. */
export interface Lane {
  /**
   * Whether each piece is done before add() returns: then its input may be
   * a view of the caller's write. Else the lane may read it later, so it
   * must be the stream's own until the piece comes back.
   */
  readonly synchronous: boolean;
  /** Starts a piece; gives back the pieces now done at the front, in order. */
  add(p: PayloadPiece): PayloadPiece[] | Promise<PayloadPiece[]>;
  /** Gives back every piece not given back yet, once all are done. */
  finish(): PayloadPiece[] | Promise<PayloadPiece[]>;
  /** The stream stopped early: pieces still out are dropped. */
  abandon(): void;
  /** A new input buffer of `bytes` (an asynchronous lane's pieces are read from these: shared memory, where workers read it directly). */
  buffer(bytes: number): Uint8Array;
  /**
   * A piece-sized buffer of buffer()'s that the stream drops, zeroed: the
   * lane may give it out again, where nothing of its own still reads it.
   */
  release?(buffer: Uint8Array): void;
}

/** Where a payload's chunks are sealed and opened: a one-shot call's whole payload at once, a stream's pieces (lane), a file call's pieces (files). */
export interface Runner {
  /** Chunks in a stream's piece: enough to be worth a job. */
  readonly pieceChunks: number;
  /** Seals `plain` (whole chunks but the last, which is short only when `run.final`) into `out` (sealedLength bytes); reads `plain` until it settles. */
  seal(key: Uint8Array, run: ChunkRun, plain: Uint8Array, out: Uint8Array): void | Promise<void>;
  /**
   * Opens `sealed` into `out` (plainLength bytes): `out` once every chunk
   * verified, else the OpenFailure (payload.ts openOrFail), which releases
   * only the chunks before the one that failed.
   */
  open(key: Uint8Array, run: ChunkRun, sealed: Uint8Array, out: Uint8Array): Uint8Array | OpenFailure | Promise<Uint8Array | OpenFailure>;
  /**
   * A stream's lane under `key` (read until the lane ends), sealing or
   * opening; `passed`: the bytes of the stream done elsewhere before it
   * (typage/runners.ts), which count toward the pool's PARALLEL_MIN.
   */
  lane(key: Uint8Array, opening: boolean, passed?: number): Lane;
  /**
   * Does every piece of a file call's payload, each read and written at
   * its offsets by whoever does it (file-pieces.ts), calling `after` for
   * each as it is done (which may throw to stop the call).
   */
  files(payload: FilePayload, after: (p: FilePiece, outcome: PieceOutcome) => void): Promise<void>;
  /** The payload is done, or abandoned: wipes what the runner's threads still hold of it. */
  done(): void;
}

/**
 * Seals or opens a piece on a ChaCha engine, into a new output (every
 * byte of which it writes, or zeroes). `own`: the input is the stream's
 * own buffer (ChachaEngine.open), not a view of a caller's write.
 */
export function doPiece(chacha: ChachaEngine, key: Uint8Array, p: PayloadPiece, opening: boolean, own = false): void {
  if (opening) {
    p.output = toBeWritten(plainLength(p.input.length));
    p.good = openRun(chacha, key, p.run, p.input, p.output, own);
    zeroize(p.output.subarray(p.good * PLAIN_CHUNK));
  } else {
    p.output = toBeWritten(sealedLength(p.input.length));
    sealRun(chacha, key, p.run, p.input, p.output);
  }
}

/** A one-shot payload sealed on this thread's engine (here.ts; typage/runners.ts below PARALLEL_MIN). */
export const sealHere: Runner['seal'] = (key, run, plain, out) => sealRun(engine(), key, run, plain, out);

/** A one-shot payload opened on this thread's engine. */
export const openHere: Runner['open'] = (key, run, sealed, out) => openOrFail(engine(), key, run, sealed, out);

/** A stream's piece done on this thread's engine, into a new output (doPiece). */
export const streamPieceHere = (key: Uint8Array, p: PayloadPiece, opening: boolean, own?: boolean): void => doPiece(engine(), key, p, opening, own);

/** Hands a piece's input on, resolving once it may be read no more (a view of a write) or once it is started (the stream's own). */
type HandInput = (input: Uint8Array) => void | Promise<void>;

/** The first buffer's least size: a stream gathers its first bytes in one this small or as large as its first write, up to a chunk, then a piece. */
const FIRST_BUFFER = 4096;

/**
 * Bytes cut into pieces of whole `unit`-byte chunks, at most `size` bytes,
 * each handed out once a byte after it has come (so that the one that
 * ends the payload is known to be final). Bytes are gathered into buffers
 * of the stream's own, which the lane may read after the write that
 * filled them resolved; they come back (recycle) when their piece is done.
 * A lane that does each piece at once may instead take a write's whole
 * chunks as a view of it (no copy), where the write holds half a piece or
 * more.
 *
 * Buffers: a new array of a piece costs far more than its bytes (fresh
 * pages: some 0.4 ms a MiB in Node, against 15 us to fill one again), so
 * a stream makes as few as it can. The first holds the first bytes, grown
 * by doubling while the stream is within a chunk (a short stream never
 * makes a whole piece), then replaced by a piece's; an asynchronous lane's
 * next buffer is taken only when bytes come for it, so that a piece done
 * by then gives its own back. Each buffer is wiped once, as the stream
 * drops it: the small ones as they are outgrown, the rest by wipe(), which
 * gives them back to the lane (Lane.release) for a later stream.
 */
class Gathering {
  /** The buffer being filled: none (EMPTY) before the first bytes, and on an asynchronous lane after a piece is handed out, until bytes come. */
  private buffer: Uint8Array = EMPTY;
  private fill = 0;
  /** Piece-sized buffers whose pieces are done, taken before a new one is made. */
  private readonly free: Uint8Array[] = [];
  /** Every piece-sized buffer made and not yet wiped. */
  private made: Uint8Array[] = [];
  /** Bytes written so far. */
  written = 0;

  constructor(
    private readonly unit: number,
    private readonly size: number,
    private readonly lane: Lane,
  ) {}

  /** Takes `bytes`, handing out each piece that more bytes follow; resolves once nothing of `bytes` is read any more. */
  async write(bytes: Uint8Array, hand: HandInput): Promise<void> {
    this.written += bytes.length;
    let at = 0;
    while (at < bytes.length) {
      if (this.fill === this.size) await this.handGathered(hand);
      // Whole chunks of this write with a byte after them, up to a piece.
      const inPlace = this.lane.synchronous ? Math.min(this.size, Math.floor((bytes.length - at - 1) / this.unit) * this.unit) : 0;
      const aligned = this.fill % this.unit === 0;
      if (inPlace >= this.size / 2 && aligned) {
        if (this.fill > 0) await this.handGathered(hand);
        await hand(bytes.subarray(at, at + inPlace));
        at += inPlace;
        continue;
      }
      // Gather: up to the gathered chunk's end where the write goes on in place, else up to a piece.
      const room = inPlace >= this.size / 2 ? this.unit - (this.fill % this.unit) : this.size - this.fill;
      const n = Math.min(room, bytes.length - at);
      this.reserve(this.fill + n);
      this.buffer.set(bytes.subarray(at, at + n), this.fill);
      this.fill += n;
      at += n;
    }
  }

  /** A piece's input is done with: its buffer takes a later piece. */
  recycle(input: Uint8Array): void {
    if (!this.lane.synchronous && input.buffer !== this.buffer.buffer && input.byteOffset === 0 && input.buffer.byteLength === this.size) {
      this.free.push(new Uint8Array(input.buffer, 0, this.size));
    }
  }

  private async handGathered(hand: HandInput): Promise<void> {
    const piece = this.buffer.subarray(0, this.fill);
    // The lane may read the piece until it comes back: the next bytes go to another buffer (reserve).
    if (!this.lane.synchronous) this.buffer = EMPTY;
    this.fill = 0;
    await hand(piece);
  }

  /** What is gathered: the final piece (possibly empty). */
  last(): Uint8Array {
    const piece = this.buffer.subarray(0, this.fill);
    this.fill = 0;
    return piece;
  }

  /**
   * Zeroes every buffer the stream still has, once (a lane that dropped
   * its pieces may hold some still: a worker reading one only reads
   * zeros); a second call finds none.
   */
  wipe(): void {
    if (this.buffer.length < this.size) zeroize(this.buffer);
    for (const b of this.made) {
      zeroize(b);
      this.lane.release?.(b);
    }
    this.made = [];
    this.free.length = 0;
    this.buffer = EMPTY;
    this.fill = 0;
  }

  /**
   * Room for `length` bytes: the first buffer doubled while within a
   * chunk; past that, or after a piece, a piece's buffer (one given back
   * where there is one). A small buffer outgrown is wiped as it goes.
   */
  private reserve(length: number): void {
    if (length <= this.buffer.length) return;
    const wanted = this.made.length === 0 ? Math.max(length, 2 * this.buffer.length, FIRST_BUFFER) : this.size;
    const grown = wanted <= this.unit && wanted < this.size ? this.lane.buffer(wanted) : (this.free.pop() ?? this.piece());
    grown.set(this.buffer.subarray(0, this.fill));
    if (this.buffer.length < this.size) zeroize(this.buffer);
    this.buffer = grown;
  }

  /** A new piece-sized buffer, kept for the wipe. */
  private piece(): Uint8Array {
    const b = this.lane.buffer(this.size);
    this.made.push(b);
    return b;
  }
}

/**
 * A payload as it comes, sealed or opened a piece at a time on one of the
 * runner's lanes: the bytes gathered into pieces of whole chunks (sealed
 * ones, opening), each given its run, and each piece's output emitted in
 * order (after the payload nonce, which the caller handles). Opening, a
 * piece's plaintext is emitted only once all its chunks verified.
 */
class PayloadLane {
  private readonly lane: Lane;
  private readonly gathering: Gathering;
  /** The next piece's first chunk. */
  private counter = 0;

  constructor(
    private readonly key: Uint8Array,
    private readonly runner: Runner,
    private readonly emit: (bytes: Uint8Array) => void,
    private readonly opening: boolean,
  ) {
    this.lane = runner.lane(key, opening);
    const unit = opening ? SEALED_CHUNK : PLAIN_CHUNK;
    this.gathering = new Gathering(unit, runner.pieceChunks * unit, this.lane);
  }

  write(bytes: Uint8Array): Promise<void> {
    return this.gathering.write(bytes, (input) => this.add(input, false));
  }

  /** The final piece (there is one: an empty payload is one empty chunk, sealed its tag), then every piece still out. */
  async end(): Promise<void> {
    const last = this.gathering.last();
    if (this.opening && this.gathering.written === 0) throw chunkFailure(engine(), this.key, this.counter, true, last);
    await this.add(last, true);
    this.deliver(await this.lane.finish());
    this.forget();
  }

  forget(): void {
    this.lane.abandon();
    zeroize(this.key);
    this.gathering.wipe();
    this.runner.done();
  }

  private async add(input: Uint8Array, final: boolean): Promise<void> {
    const run: ChunkRun = { counter: this.counter, final };
    this.counter += this.opening ? Math.ceil(input.length / SEALED_CHUNK) : chunkCount(input.length);
    this.deliver(await this.lane.add({ start: 0, length: input.length, run, input }));
  }

  /** Emits each piece's output; opening, at a piece that did not verify, the chunks of it that did (payload.ts failureAt), then throws its error. */
  private deliver(pieces: PayloadPiece[]): void {
    for (const p of pieces) {
      const chunks = Math.ceil(p.input.length / SEALED_CHUNK);
      if (this.opening && (p.good! < chunks || chunks === 0)) {
        const failure = failureAt(engine(), this.key, p.run, p.input, p.output!, p.good!);
        if (failure.verified.length > 0) this.emit(failure.verified);
        throw failure.error;
      }
      this.gathering.recycle(p.input);
      this.emit(p.output!);
    }
  }
}

/** Seals a payload's plaintext as it comes, emitting each piece sealed, in order. */
export class PayloadSealer extends PayloadLane {
  constructor(key: Uint8Array, runner: Runner, emit: (bytes: Uint8Array) => void) {
    super(key, runner, emit, false);
  }
}

/** Opens a payload's sealed chunks as they come, emitting each piece's plaintext, in order, only once all its chunks verified. */
export class PayloadOpener extends PayloadLane {
  constructor(key: Uint8Array, runner: Runner, emit: (bytes: Uint8Array) => void) {
    super(key, runner, emit, true);
  }
}
