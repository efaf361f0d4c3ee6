/**
 * Fake workers for the scheduler's tests (schedule.test.ts, and its units
 * in schedule-units.test.ts): each job's fate is the test's to decide
 * (answered after a time, never, failed, taken back before it starts),
 * and a recorder logs what the scheduler did with every piece.
 */
import assert from 'node:assert/strict';
import type { JobDone, JobHandle, Piece, PieceWork, PoolWorker } from '../internal.js';

export const KiB = 1024;
export const MiB = 1 << 20;

/** What happened, in order: pieces done here, given, taken from an answer, dropped, claimed, no longer waited for. */
export type Event = { kind: 'here' | 'give' | 'take' | 'drop' | 'claimed' | 'skip' | 'letGo'; start: number; length: number; worker?: number };

/**
 * A fake worker: `slots` jobs at once; `answer` decides what happens to
 * each job it is given (after how long, or never until released by the
 * test). Claims work like the pool's: a job not yet started can be taken
 * back, and is then answered as skipped.
 */
export class FakeWorker {
  /** Started and ready for jobs (a stream's scheduler lets the event loop turn while one is starting). */
  ready = true;
  /** Not lost: a lost worker (alive false) takes no more jobs. */
  alive = true;
  /** Resolves once the worker is ready (at once, unless a test starts it later), or once `giveUp` settles first. */
  startup: Promise<boolean> = Promise.resolve(true);
  whenReady(giveUp?: Promise<unknown>): Promise<boolean> {
    return giveUp === undefined ? this.startup : Promise.race([this.startup, giveUp.then(() => false)]);
  }
  busy = 0;
  queuedBytes = 0;
  started = 0;
  stopped: Promise<void> = Promise.resolve();
  /** Why the scheduler ended this worker (PoolWorker.abandon), and what the test does then. */
  abandoned: string | undefined;
  onAbandon: () => void = () => {};
  constructor(
    readonly id: number,
    readonly answer: (p: Piece, job: { start(): void; done(): void; fail(): void; skip(): void }) => void,
    readonly slots = 3,
  ) {}
  get idle(): boolean {
    return this.ready && this.alive && this.busy < this.slots;
  }
  get queued(): number {
    return this.queuedBytes;
  }
  abandon(reason: string): void {
    this.abandoned = reason;
    this.onAbandon();
  }
}

export interface Recorder {
  events: Event[];
  work: PieceWork<Piece>;
  /** Late answers dropped (their slots zeroed) and released normally. */
  discarded: number;
}

export function recorder(direct = false, split = true, onHere?: (p: Piece) => void): Recorder {
  const events: Event[] = [];
  const r: Recorder = {
    events,
    discarded: 0,
    work: {
      direct,
      onThisThread(p) {
        onHere?.(p);
        events.push({ kind: 'here', start: p.start, length: p.length });
      },
      toWorker(w, p) {
        const fake = w as unknown as FakeWorker;
        fake.busy++;
        fake.queuedBytes += p.length;
        events.push({ kind: 'give', start: p.start, length: p.length, worker: fake.id });
        let state: 'queued' | 'running' | 'taken' | 'settled' = 'queued';
        let resolve!: (d: JobDone<unknown>) => void;
        let reject!: (e: Error) => void;
        const done = new Promise<JobDone<unknown>>((a, b) => {
          resolve = a;
          reject = b;
        });
        const settle = () => {
          fake.busy--;
          fake.queuedBytes -= p.length;
        };
        const answer = (skipped: boolean): void => {
          if (state === 'settled') return;
          state = 'settled';
          settle();
          resolve({
            result: undefined,
            data: new Uint8Array(0),
            skipped,
            release: () => {},
            discard: () => {
              r.discarded++;
              events.push({ kind: 'drop', start: p.start, length: p.length, worker: fake.id });
            },
          });
        };
        fake.answer(p, {
          start: () => {
            if (state === 'taken') return answer(true);
            state = 'running';
            fake.started++;
          },
          done: () => answer(false),
          fail: () => {
            if (state === 'settled') return;
            state = 'settled';
            settle();
            reject(new Error('worker lost'));
          },
          skip: () => answer(true),
        });
        const handle: JobHandle<unknown> = {
          done,
          claim: () => {
            if (state !== 'queued') return false;
            state = 'taken';
            events.push({ kind: 'claimed', start: p.start, length: p.length, worker: fake.id });
            return true;
          },
          letGo: () => {
            if (state !== 'settled') events.push({ kind: 'letGo', start: p.start, length: p.length, worker: fake.id });
          },
        };
        return handle;
      },
      fromWorker(p) {
        events.push({ kind: 'take', start: p.start, length: p.length });
      },
      split(p, bytes) {
        if (!split) return [p];
        const count = Math.ceil(p.length / Math.max(64, bytes));
        const size = Math.floor(p.length / count / 64) * 64;
        if (count <= 1 || size === 0) return [p];
        const parts: Piece[] = [];
        for (let i = 0; i < count - 1; i++) parts.push({ start: p.start + i * size, length: size });
        parts.push({ start: p.start + (count - 1) * size, length: p.length - (count - 1) * size });
        return parts;
      },
    },
  };
  return r;
}

export const pieces = (n: number, size = MiB): Piece[] => {
  const out: Piece[] = [];
  for (let at = 0; at < n; at += size) out.push({ start: at, length: Math.min(size, n - at) });
  return out;
};
export const asWorkers = (w: FakeWorker[]) => w as unknown as PoolWorker[];

/** The pieces each piece of `list` was done by: exactly once each, covering [0, n) in order. */
export function coversOnce(label: string, list: readonly Piece[], n: number, events: readonly Event[]): void {
  let at = 0;
  for (const p of list) {
    assert.equal(p.start, at, `${label}: the pieces do not cover the input in order`);
    at += p.length;
  }
  assert.equal(at, n, `${label}: the pieces do not cover the input`);
  for (const p of list) {
    const uses = events.filter((e) => e.start === p.start && e.length === p.length && (e.kind === 'here' || e.kind === 'take'));
    assert.equal(uses.length, 1, `${label}: piece at ${p.start} was put in place ${uses.length} times`);
  }
}

/**
 * A worker whose first job starts and never answers (the others answer
 * at once): when the scheduler ends it (abandon), the job fails and the
 * worker stops 50 ms later, at stoppedAt().
 */
export function stuckOnce(): { w: FakeWorker; stoppedAt: () => number } {
  const stuck: { fail(): void }[] = [];
  const w = new FakeWorker(0, (_, job) => {
    job.start();
    if (stuck.length === 0) stuck.push(job);
    else setTimeout(() => job.done(), 1);
  });
  let stoppedAt = 0;
  w.onAbandon = () => {
    w.alive = false;
    w.stopped = new Promise<void>((r) => setTimeout(r, 50)).then(() => void (stoppedAt = typeof performance === 'object' ? performance.now() : Date.now()));
    for (const job of stuck) job.fail();
  };
  return { w, stoppedAt: () => stoppedAt };
}
