/**
 * How a large call is shared between the pool's workers and the calling
 * thread (docs/parallel.md states these rules as a contract):
 *
 * - Front and back: workers take pieces from the front of the input, the
 *   calling thread from the back; where the two meet, pieces are cut into
 *   equal parts (down to SMALLEST), so that neither waits long for the
 *   other at the end.
 * - Answers first: in a turn where a worker's answer came in, the calling
 *   thread starts no piece of its own; taking an answer in costs it less
 *   than the piece would, and the worker waits for that slot.
 * - Short turns: the calling thread works in pieces of about HERE_MS and
 *   lets the event loop run between them (workers' answers come in, the
 *   page stays responsive); about ALONE_MS when no job is in flight and
 *   none will be given.
 * - Stragglers: with nothing left to hand out, the calling thread does not
 *   sit waiting on a worker the OS may not be running. It takes back a job
 *   the worker has not started (its claim word) and does it itself; it
 *   redoes a job that runs late (well past its worker's usual speed) or
 *   that it would finish before the worker reaches it. Pieces are
 *   deterministic: whichever result comes first is kept and the other is
 *   dropped (its slot zeroed). A job that writes the caller's memory
 *   directly is never redone while its worker may still be writing: it can
 *   only be taken back before it starts, or, far overdue, have its worker
 *   ended and be redone once the worker has stopped.
 * - A core shared: where the engine reports the process's CPU time, a call
 *   whose threads together get less than SHARED_CORE CPU-ms per ms once
 *   the workers are at work (another program's scheduling group has the
 *   other cores) stops handing out pieces: the workers would only
 *   time-slice one core with the calling thread, which would then also
 *   copy their pieces. Calls in the next STARVED_MS do the same without
 *   asking; then the workers are tried again, and each judgement in a row
 *   that finds the core still shared doubles that time, up to
 *   STARVED_MAX_MS (a retrial costs the call that makes it).
 * - Faults: a piece whose worker failed, died or was terminated is done
 *   here. An error on this thread (a detached input) stops the handing out;
 *   the call rejects once every job it gave is answered, taken back, or
 *   its worker has stopped, so nothing writes the caller's memory after
 *   the call settled.
 */
import type { JobDone, JobHandle, PoolWorker } from './pool.js';
import { cpuTime, now } from '../runtime/host.js';

/** A part of the input: `length` bytes from `start` (what the bytes are is the operation's business). */
export interface Piece {
  readonly start: number;
  readonly length: number;
}

export interface PieceWork<P extends Piece> {
  /** Does `p` on the calling thread. */
  here(p: P): void;
  /** Gives `p` to `w` (which has a free slot): fills the slot and posts the job. */
  give(w: PoolWorker, p: P): JobHandle<unknown>;
  /** Puts a worker's answer for `p` in place (copies its output, keeps its result). */
  take(p: P, done: JobDone<unknown>): void;
  /** `p` as consecutive parts of at most `bytes` each (not below the operation's smallest piece), or [p]. */
  split(p: P, bytes: number): P[];
  /** Whether workers write the caller's memory directly (a shared output). */
  readonly direct: boolean;
}

/** The smallest piece cut near the meeting point: 64 KiB is ~40 µs of work against ~10 µs for a job's messages. */
const SMALLEST = 64 * 1024;
/** Time the calling thread spends on one piece before it lets the event loop run, while workers may answer. */
const HERE_MS = 0.5;
/**
 * The same when no job is in flight and none will be given: no answer can
 * come, and a turn of the event loop costs tens of microseconds in a
 * browser. Still far from the 50 ms that browsers count as a long task.
 */
const ALONE_MS = 4;
/** The calling thread's first piece, before it has timed any. */
const FIRST_HERE = 64 * 1024;
/** A running job is late once it overruns its expected time by this share of it, and at least LATE_MS. */
const LATE_SHARE = 0.5;
const LATE_MS = 1;
/**
 * A job writing the caller's memory cannot be redone while it runs, so it
 * is waited for; but not forever: once it overruns its expected end by
 * OVERDUE_SHARE of its expected time, and at least OVERDUE_MS, its worker
 * is ended (a worker stuck, or one the OS no longer runs), and the piece
 * is redone here after the worker has stopped. Far beyond a busy core's
 * slowdown: ending a worker costs the next call a new one.
 */
const OVERDUE_MS = 2000;
const OVERDUE_SHARE = 10;
/** How long into a call, counted from its first job, the CPU time its threads got is judged. */
const JUDGE_MS = 8;
/** CPU-ms per ms below which the calling thread and its workers share one core. */
const SHARED_CORE = 1.2;
/** How long that judgement holds for later calls, doubled for each such judgement in a row, up to STARVED_MAX_MS. */
const STARVED_MS = 1000;
const STARVED_MAX_MS = 8000;

/**
 * The process's CPU clock, until when calls use no workers (a judgement
 * of SHARED_CORE), and how many judgements in a row found the core
 * shared; tests replace the clock.
 */
export const contention = { cpu: cpuTime, starvedUntil: 0, inARow: 0 };

/** Turns of the event loop for one call: tick() lets the workers' messages in; close() when the call is done. */
interface Ticker {
  tick(): Promise<void>;
  close(): void;
}

/**
 * The channels of calls in progress. A channel reachable only from its
 * own handler (and the call waiting on it) may be garbage collected with
 * its message in flight, which Firefox does (it closes a collected port's
 * other end): the call would then wait for that message forever. Held
 * here, a channel lives until its call closes it.
 */
const liveChannels = new Set<MessageChannel>();

/**
 * How long a turn may wait for its message before it is taken as lost. A
 * call must not wait forever on one message the engine dropped (a Firefox
 * page hung at its first parallel call for reasons never found, and the
 * channel is what such a call waits on besides timers): the waiting turns
 * end, and later turns go through a new channel.
 */
const LOST_TURN_MS = 100;

/**
 * Where turns come from: setImmediate where the engine has it, else a
 * MessageChannel. An object, so that tests can replace them (WebKit's hot
 * code kept seeing a global constructor the test had replaced).
 */
export const turnSources: { immediate?: (f: () => void) => void; channel?: () => MessageChannel } = {
  immediate: typeof setImmediate === 'function' ? (f) => setImmediate(f) : undefined,
  channel: typeof MessageChannel === 'function' ? () => new MessageChannel() : undefined,
};

/**
 * A macrotask turn (a resolved promise would not let messages in).
 * setImmediate where there is one; else a message to oneself on a channel
 * made once per call (browsers clamp nested setTimeout(0) to 4 ms, and
 * making a channel costs more than a message: Chromium opens a pipe per
 * channel), closed at the call's end so that it keeps no process alive.
 */
function ticker(): Ticker {
  const { immediate, channel: makeChannel } = turnSources;
  if (immediate !== undefined) return { tick: () => new Promise<void>((resolve) => immediate(resolve)), close: () => {} };
  if (makeChannel === undefined) return { tick: () => new Promise<void>((resolve) => setTimeout(resolve, 0)), close: () => {} };
  let channel: MessageChannel | undefined;
  const waiting: (() => void)[] = [];
  /** Messages that came; the timer that checks they still come while turns wait. */
  let arrived = 0;
  let guard: ReturnType<typeof setTimeout> | undefined;
  const drop = (): void => {
    if (channel === undefined) return;
    channel.port1.close();
    liveChannels.delete(channel);
    channel = undefined;
  };
  const watch = (): void => {
    if (guard !== undefined) return;
    const seen = arrived;
    guard = setTimeout(() => {
      guard = undefined;
      if (waiting.length === 0) return;
      if (arrived !== seen) return watch();
      drop();
      for (const resolve of waiting.splice(0)) resolve();
    }, LOST_TURN_MS);
  };
  return {
    tick: () =>
      new Promise<void>((resolve) => {
        if (channel === undefined) {
          const made = makeChannel();
          made.port1.onmessage = () => {
            if (channel !== made) return;
            arrived++;
            waiting.shift()?.();
          };
          liveChannels.add(made);
          channel = made;
        }
        waiting.push(resolve);
        channel.port2.postMessage(null);
        watch();
      }),
    close: () => {
      if (guard !== undefined) clearTimeout(guard);
      guard = undefined;
      drop();
    },
  };
}

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

  /** Milliseconds per byte so far (undefined before the first piece). */
  get rate(): number | undefined {
    return this.ms > 0 ? this.ms / this.bytes : undefined;
  }

  /** Bytes the calling thread does in about `ms` at its speed so far. */
  piece(ms: number): number {
    return this.ms > 0 ? (this.bytes / this.ms) * ms : FIRST_HERE;
  }
}

/**
 * Each worker's speed, in milliseconds per byte of its recent jobs
 * (answer time less start time), kept across calls: the first call's
 * estimate of a worker is the calling thread's speed.
 */
const speeds = new WeakMap<PoolWorker, number>();

/** A job given: its piece, worker, handle, and when it was posted. */
interface Given<P extends Piece> {
  readonly p: P;
  readonly w: PoolWorker;
  readonly job: JobHandle<unknown>;
  readonly posted: number;
  /** The job's answer (a release() to call), once it came; the job settled either way. */
  answered: boolean;
}

/**
 * Does every piece, with `team` (possibly empty: then all on this thread,
 * still in timed pieces with turns of the event loop between them).
 * Resolves, when all are done, to the pieces as they were cut, in input
 * order (for results that combine in order).
 */
export async function runPieces<P extends Piece>(pieces: readonly P[], team: readonly PoolWorker[], work: PieceWork<P>): Promise<P[]> {
  const list = pieces.slice();
  let front = 0;
  let back = list.length;
  let left = 0;
  for (const p of pieces) left += p.length;
  const clock = new HereClock();
  const finished = new Set<P>();
  /** Jobs given and not answered, in the order they were posted. */
  const given: Given<P>[] = [];
  /** Pieces whose worker failed: done here. */
  const retry: P[] = [];
  /** Workers lost while writing the caller's memory: the call waits until they have stopped. */
  const lostWriters = new Set<PoolWorker>();
  /** When each worker's latest answer came, for the start of its next job. */
  const lastAnswer = new Map<PoolWorker, number>();
  let failure: { error: unknown } | undefined;
  let answered = 0;
  let wake: (() => void) | undefined;
  // Whether pieces go to the workers; and, from the first job on, the CPU time the process got (where the engine says).
  let handOut = team.length > 0 && now() >= contention.starvedUntil;
  let judged: { cpu: number; at: number } | undefined;
  let workersAnswered = 0;
  /** Stops handing out once the process's threads get no more than one core between them (see SHARED_CORE). */
  const judge = (): void => {
    if (judged === undefined || workersAnswered < team.length) return;
    const t = now();
    if (t - judged.at < JUDGE_MS) return;
    const cpu = contention.cpu()!;
    if ((cpu - judged.cpu) / (t - judged.at) < SHARED_CORE) {
      handOut = false;
      contention.starvedUntil = t + Math.min(STARVED_MAX_MS, STARVED_MS * 2 ** contention.inARow);
      contention.inARow++;
    } else contention.inARow = 0;
    judged = undefined;
  };

  const finish = (p: P, f: () => void): void => {
    if (finished.has(p)) return;
    try {
      f();
      finished.add(p);
    } catch (e) {
      failure ??= { error: e };
    }
  };
  const here = (p: P): void => finish(p, () => clock.time(p.length, () => work.here(p)));

  /** Replaces list[i] by its parts of at most `bytes`; returns how many pieces that added. */
  const cut = (i: number, bytes: number): number => {
    const parts = work.split(list[i]!, Math.max(SMALLEST, bytes));
    if (parts.length > 1) list.splice(i, 1, ...parts);
    return parts.length - 1;
  };

  const give = (w: PoolWorker, p: P): void => {
    if (judged === undefined && workersAnswered === 0) {
      const cpu = contention.cpu();
      if (cpu !== undefined) judged = { cpu, at: now() };
    }
    const g: Given<P> = { p, w, job: work.give(w, p), posted: now(), answered: false };
    given.push(g);
    g.job.done.then(
      (done) => {
        const t = now();
        if (!done.skipped) {
          const start = Math.max(g.posted, lastAnswer.get(w) ?? 0);
          const rate = (t - start) / p.length;
          const old = speeds.get(w);
          speeds.set(w, old === undefined ? rate : 0.7 * old + 0.3 * rate);
        }
        if (!lastAnswer.has(w) && !done.skipped) workersAnswered++;
        lastAnswer.set(w, t);
        if (!done.skipped && !finished.has(p) && failure === undefined) {
          finish(p, () => work.take(p, done));
          answered++;
          done.release();
        } else {
          // Done here first (or the call failed): the worker's copy is dropped.
          done.discard();
        }
        settle(g);
      },
      () => {
        if (work.direct) lostWriters.add(w);
        if (!finished.has(p)) retry.push(p);
        settle(g);
      },
    );
  };
  const settle = (g: Given<P>): void => {
    g.answered = true;
    given.splice(given.indexOf(g), 1);
    wake?.();
  };

  /** When each job in flight is expected to start and end on its worker (which runs them in posting order). */
  const expected = (): Map<Given<P>, { start: number; end: number }> => {
    const at = new Map<Given<P>, { start: number; end: number }>();
    const ends = new Map<PoolWorker, number>();
    for (const g of given) {
      const rate = speeds.get(g.w) ?? clock.rate ?? 0;
      const start = Math.max(g.posted, ends.get(g.w) ?? lastAnswer.get(g.w) ?? 0);
      const end = start + g.p.length * rate;
      ends.set(g.w, end);
      at.set(g, { start, end });
    }
    return at;
  };

  /**
   * A job in flight the calling thread should do itself now, taken back
   * if its worker has not started it; else when to look again (a job turns
   * late then), or undefined when no job is in flight.
   */
  const straggler = (): { p: P } | { until: number } | undefined => {
    const t = now();
    const times = expected();
    const mine = clock.rate;
    let until = Infinity;
    // Latest expected first: the job the calling thread gains most by doing.
    const order = given.filter((g) => !finished.has(g.p)).sort((a, b) => times.get(b)!.end - times.get(a)!.end);
    for (const g of order) {
      if (g.job.claim()) return { p: g.p };
      const { start, end } = times.get(g)!;
      if (work.direct) {
        const overdue = end + Math.max(OVERDUE_MS, OVERDUE_SHARE * (end - start));
        // Its answer, or the rejection of the worker's jobs, wakes the wait.
        if (t >= overdue) g.w.abandon(`a job that writes the caller's memory ran ${Math.round(t - start)} ms, expected ${Math.round(end - start)} ms`);
        else until = Math.min(until, overdue);
        continue;
      }
      const late = end + Math.max(LATE_MS, LATE_SHARE * (end - start));
      // Running late, or still queued behind others where this thread would finish it first.
      if (t >= late || (mine !== undefined && t + g.p.length * mine < end - LATE_MS)) return { p: g.p };
      until = Math.min(until, late);
    }
    return order.length > 0 ? { until } : undefined;
  };

  /** Waits for an answer, or until `until` (a job turns late). */
  const waitFor = (until: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = Number.isFinite(until) ? setTimeout(() => resolve(), Math.max(0, until - now())) : undefined;
      wake = () => {
        // Hermes's clearTimeout throws on undefined (no timer when waiting for an answer only).
        if (timer !== undefined) clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });

  const open = (): boolean => failure === undefined && (front < back || retry.length > 0 || given.some((g) => !finished.has(g.p)));
  const turns = ticker();
  try {
    while (open()) {
      judge();
      // Workers take from the front; near the end a worker gets no more than is left
      // unassigned, or this thread would wait for its queue.
      for (const w of handOut ? team : []) {
        while (w.idle && front < back && w.queued < left) {
          back += cut(front, left / 4);
          left -= list[front]!.length;
          give(w, list[front++]!);
        }
      }
      const ownTurn = answered === 0 || !handOut;
      answered = 0;
      if (front < back && !handOut && given.length === 0) {
        // Alone: no answer can come, so longer turns (pieces until ALONE_MS have passed).
        const until = now() + ALONE_MS;
        do {
          back += cut(back - 1, clock.piece(ALONE_MS));
          left -= list[back - 1]!.length;
          here(list[--back]!);
        } while (front < back && failure === undefined && now() < until);
      } else if (front < back) {
        if (ownTurn) {
          back += cut(back - 1, Math.min(left / 4, clock.piece(HERE_MS)));
          left -= list[back - 1]!.length;
          here(list[--back]!);
        }
      } else if (retry.length > 0) {
        // Whole: the pieces' list stays the input's partition.
        here(retry.pop()!);
      } else {
        const next = straggler();
        if (next !== undefined && 'p' in next) here(next.p);
        else if (next !== undefined) {
          await waitFor(next.until);
          continue;
        }
      }
      await turns.tick();
    }
  } finally {
    turns.close();
  }
  // Nothing more is handed out. Jobs still in flight: taken back where they have not started;
  // those writing the caller's memory are waited for, as is the stop of any lost while writing.
  for (const g of given) g.job.claim();
  while (work.direct && given.length > 0) {
    const next = straggler();
    await waitFor(next !== undefined && 'until' in next ? next.until : Infinity);
  }
  for (const w of lostWriters) await w.stopped;
  if (failure !== undefined) throw failure.error;
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
  const turns = ticker();
  try {
    await inOrder(pieces, worker, work, clock, turns);
  } finally {
    turns.close();
  }
}

async function inOrder<P extends Piece>(
  pieces: readonly P[],
  worker: PoolWorker | undefined,
  work: PieceWork<P>,
  clock: HereClock,
  turns: Ticker,
): Promise<void> {
  for (const whole of pieces) {
    if (worker?.idle) {
      const job = work.give(worker, whole);
      const given = await job.done.then(
        (done) => {
          try {
            if (!done.skipped) work.take(whole, done);
          } finally {
            done.release();
          }
          return !done.skipped;
        },
        async () => {
          // Its stop is awaited where it wrote the caller's memory: the piece is redone here.
          if (work.direct) await worker.stopped;
          return false;
        },
      );
      if (given) continue;
    }
    // No job is in flight here: the longer turns of a call alone.
    for (const p of work.split(whole, Math.max(SMALLEST, clock.piece(ALONE_MS)))) {
      clock.time(p.length, () => work.here(p));
      await turns.tick();
    }
  }
}
