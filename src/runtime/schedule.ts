/**
 * How a large call is shared between the pool's workers and the calling
 * thread. The input is cut into pieces; workers take them from the front,
 * the calling thread from the back, and where the two meet the pieces are
 * cut smaller, so that neither waits long for the other at the end. The
 * calling thread works in pieces that take about HERE_MS and lets the
 * event loop run between them: workers' answers come in, and the page
 * stays responsive (no task near the browsers' 50 ms long-task mark).
 */
import type { PoolWorker } from './pool.js';
import { now } from './host.js';

/** A part of the input: `length` bytes from `start` (what the bytes are is the operation's business). */
export interface Piece {
  readonly start: number;
  readonly length: number;
}

export interface PieceWork<P extends Piece> {
  /** Does `p` on the calling thread. */
  here(p: P): void;
  /**
   * Gives `p` to `w` (which has a free slot): fills the slot, runs the
   * job, and settles once p's results are in place; rejects when the
   * worker failed (p is then done here).
   */
  give(w: PoolWorker, p: P): Promise<void>;
  /** `p` as consecutive parts of at most `bytes` each (not below the operation's smallest piece), or [p]. */
  split(p: P, bytes: number): P[];
}

/** The smallest piece cut near the meeting point: 64 KiB is ~40 µs of work against ~10 µs for a job's messages. */
const SMALLEST = 64 * 1024;
/** Time the calling thread spends on one piece before it lets the event loop run. */
const HERE_MS = 0.5;
/** The calling thread's first piece, before it has timed any. */
const FIRST_HERE = 64 * 1024;

/**
 * Lets the workers' messages in: a macrotask turn (a resolved promise
 * would not). Browsers clamp nested setTimeout(0) to 4 ms; a message to
 * oneself is not clamped.
 */
export const tick: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () => new Promise<void>((resolve) => setImmediate(resolve))
    : typeof MessageChannel === 'function'
      ? () =>
          new Promise<void>((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => {
              channel.port1.close();
              resolve();
            };
            channel.port2.postMessage(null);
          })
      : () => new Promise<void>((resolve) => setTimeout(resolve, 0));


/** The calling thread's speed so far, for the size of its next piece. */
class HereClock {
  private bytes = 0;
  private ms = 0;

  time(bytes: number, f: () => void): void {
    const t0 = now();
    f();
    this.ms += now() - t0;
    this.bytes += bytes;
  }

  /** Bytes the calling thread does in about HERE_MS at its speed so far. */
  piece(): number {
    return this.ms > 0 ? (this.bytes / this.ms) * HERE_MS : FIRST_HERE;
  }
}

/**
 * Does every piece, with `team` (possibly empty: then all on this thread,
 * still in timed pieces with turns of the event loop between them).
 * Pieces a worker failed are done here. Resolves, when all are done, to
 * the pieces as they were cut, in input order (for results that combine
 * in order).
 */
export async function runPieces<P extends Piece>(pieces: readonly P[], team: readonly PoolWorker[], work: PieceWork<P>): Promise<P[]> {
  const list = pieces.slice();
  let front = 0;
  let back = list.length;
  let left = 0;
  for (const p of pieces) left += p.length;
  const inflight = new Set<Promise<void>>();
  const retry: P[] = [];
  const clock = new HereClock();

  /** Replaces list[i] by its parts of at most `bytes`; returns how many pieces that added. */
  const cut = (i: number, bytes: number): number => {
    const parts = work.split(list[i]!, Math.max(SMALLEST, bytes));
    if (parts.length > 1) list.splice(i, 1, ...parts);
    return parts.length - 1;
  };
  // Answers taken in since the loop last looked.
  let answered = 0;
  const give = (w: PoolWorker, p: P): void => {
    const job: Promise<void> = work.give(w, p).then(
      () => {
        inflight.delete(job);
        answered++;
      },
      () => {
        inflight.delete(job);
        retry.push(p);
      },
    );
    inflight.add(job);
  };
  const here = (p: P): void => clock.time(p.length, () => work.here(p));

  while (front < back || retry.length > 0 || inflight.size > 0) {
    // Workers take from the front; near the end a worker gets no more than is left
    // unassigned, or this thread would wait for its queue.
    for (const w of team) {
      while (w.idle && front < back && w.queued < left) {
        back += cut(front, left / 4);
        left -= list[front]!.length;
        give(w, list[front++]!);
      }
    }
    // Workers' answers first: taking one in (copying its output) costs this
    // thread less than doing the piece itself, so it works on its own pieces
    // only in turns when no answer came.
    const ownTurn = answered === 0 || team.length === 0;
    answered = 0;
    if (front < back) {
      if (ownTurn) {
        back += cut(back - 1, Math.min(left / 4, clock.piece()));
        left -= list[back - 1]!.length;
        here(list[--back]!);
      }
    } else if (retry.length > 0) {
      // Whole: the pieces' list stays the input's partition.
      here(retry.pop()!);
    } else if (inflight.size > 0) {
      await Promise.race(inflight);
      continue;
    }
    await tick();
  }
  return list;
}

/**
 * Does the pieces one after another, in input order, each on `worker`
 * when it is ready and has a free slot and otherwise on this thread (in
 * timed parts with turns of the event loop between them): for a mode
 * whose every piece needs the one before it (CBC encryption), which still
 * leaves the calling thread free while the worker works. Pieces a worker
 * failed are done here.
 */
export async function runInOrder<P extends Piece>(pieces: readonly P[], worker: PoolWorker | undefined, work: PieceWork<P>): Promise<void> {
  const clock = new HereClock();
  for (const whole of pieces) {
    if (worker?.idle) {
      const given = await work.give(worker, whole).then(
        () => true,
        () => false,
      );
      if (given) continue;
    }
    for (const p of work.split(whole, Math.max(SMALLEST, clock.piece()))) {
      clock.time(p.length, () => work.here(p));
      await tick();
    }
  }
}
