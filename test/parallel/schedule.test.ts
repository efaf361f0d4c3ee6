/**
 * The scheduler's rules (pool/schedule.ts, docs/parallel.md), with fake
 * workers whose answers the tests time: front and back, equal cuts near
 * the meeting point, answers first, stragglers taken back or redone (and
 * their late answers dropped with their slots zeroed), jobs that write the
 * caller's memory never abandoned while running, lost workers' pieces
 * redone here, and an error on the calling thread that rejects only once
 * nothing given out can still write.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as P from 'fourfold/parallel';
import { contention, runOnWorkers, runPieces, turnSources, type Piece } from '../internal.js';
import { asWorkers, coversOnce, FakeWorker, KiB, MiB, pieces, type Recorder, recorder, stuckOnce } from './fake-workers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Milliseconds (Hermes has no performance object). */
const now = (): number => (typeof performance === 'object' ? performance.now() : Date.now());

// Fake workers use no CPU time: the process's clock would say its threads share one core. Two cores, unless a test says otherwise.
const realCpu = contention.cpu;
before(() => {
  const base = now();
  contention.cpu = () => 2 * (now() - base);
  contention.starvedUntil = 0;
  contention.inARow = 0;
});
after(() => {
  contention.cpu = realCpu;
  contention.starvedUntil = 0;
  contention.inARow = 0;
});

/** A job that starts at once and answers after `ms`. */
const answersAfter = (ms: number) => (_: Piece, job: { start(): void; done(): void }) => {
  job.start();
  setTimeout(() => job.done(), ms);
};

it('front and back: workers take pieces from the front, the calling thread from the back, and near the meeting point pieces are cut into equal parts', async () => {
  const r = recorder();
  const n = 8 * MiB + 640;
  const w = new FakeWorker(0, answersAfter(2));
  const list = await runPieces(pieces(n), asWorkers([w]), r.work);
  coversOnce('one worker', list, n, r.events);
  const given = r.events.filter((e) => e.kind === 'give');
  const mine = r.events.filter((e) => e.kind === 'here');
  assert.ok(given.length > 0 && mine.length > 0, 'both sides worked');
  // Workers from the front: each given piece starts at or after the previous one; here from the back: each before the previous.
  for (let i = 1; i < given.length; i++) assert.ok(given[i]!.start > given[i - 1]!.start, 'a worker got a piece behind an earlier one');
  const ownBack = mine.filter((e) => e.start > given.at(-1)!.start);
  for (let i = 1; i < ownBack.length; i++) assert.ok(ownBack[i]!.start < ownBack[i - 1]!.start, 'the calling thread did not work from the back');
  // Equal cuts, never a sliver: a cut aims at 64 KiB or more, so no part is under half that, but the input's own tail.
  for (const p of list.slice(0, -1)) assert.ok(p.length >= 32 * KiB, `a sliver of ${p.length} bytes at ${p.start}`);
});

it('answers first: with a worker that answers within the turn, the calling thread starts no piece while pieces are left for it', async () => {
  const r = recorder();
  const n = 16 * MiB;
  // Answers in the same turn as the job was given: every turn has an answer.
  const w = new FakeWorker(0, (_, job) => {
    job.start();
    void Promise.resolve().then(() => job.done());
  });
  const list = await runPieces(pieces(n), asWorkers([w]), r.work);
  coversOnce('instant worker', list, n, r.events);
  const mine = r.events.filter((e) => e.kind === 'here').reduce((s, e) => s + e.length, 0);
  // Its first piece (before any answer) at most: the worker got the rest.
  assert.ok(mine <= 128 * KiB, `the calling thread did ${mine} bytes itself`);
});

it('stragglers: a job the worker has not started is taken back and done here; the worker skips it', async () => {
  const r = recorder();
  const n = 6 * MiB;
  // The worker starts its first job and finishes it late; the others it never gets to.
  let first = true;
  const w = new FakeWorker(0, (_, job) => {
    if (first) {
      first = false;
      job.start();
      setTimeout(() => job.done(), 30);
    } else setTimeout(() => job.start(), 200);
  });
  const t0 = now();
  const list = await runPieces(pieces(n), asWorkers([w]), r.work);
  const ms = now() - t0;
  coversOnce('taken back', list, n, r.events);
  assert.ok(
    r.events.some((e) => e.kind === 'claimed'),
    'no job was taken back',
  );
  assert.ok(ms < 190, `the call waited for the worker's queue: ${ms.toFixed(0)} ms`);
  await sleep(250);
  // Every job taken back was answered (skipped) and dropped; so was the first, if it was redone here while it ran late.
  const dropped = r.events.filter((e) => e.kind === 'drop');
  for (const c of r.events.filter((e) => e.kind === 'claimed'))
    assert.ok(
      dropped.some((d) => d.start === c.start),
      `the job at ${c.start} taken back was not dropped`,
    );
  for (const d of dropped)
    assert.ok(
      r.events.some((e) => e.kind === 'here' && e.start === d.start),
      `a dropped job at ${d.start} was not done here`,
    );
});

it("stragglers: a running job far past its worker's speed is redone here; its late answer is dropped and its slot zeroed, and no longer keeps the process alive once the call ended", async () => {
  const r = recorder();
  const n = 8 * MiB;
  // Jobs take 1 ms, but the first stalls for 400 ms after it started (the OS is not running the worker);
  // the first, since a job is always given at once, while later ones depend on how fast this thread eats the input.
  let count = 0;
  const w = new FakeWorker(
    0,
    (_, job) => {
      job.start();
      setTimeout(() => job.done(), ++count === 1 ? 400 : 1);
    },
    1,
  );
  const t0 = now();
  const list = await runPieces(pieces(n), asWorkers([w]), r.work);
  const ms = now() - t0;
  coversOnce('redone', list, n, r.events);
  assert.ok(ms < 300, `the call waited for the stalled job: ${ms.toFixed(0)} ms`);
  const first = r.events.find((e) => e.kind === 'give')!;
  assert.ok(
    r.events.some((e) => e.kind === 'letGo' && e.start === first.start),
    'the call ended still waiting for the stalled job (its worker would keep the process alive)',
  );
  await sleep(450);
  assert.equal(r.discarded, 1, "the stalled job's late answer was not dropped");
  assert.ok(
    r.events.some((e) => e.kind === 'drop' && e.start === first.start),
    "the dropped answer is not the stalled job's",
  );
});

it("a job that writes the caller's memory is never abandoned while it runs: the call waits for its answer", async () => {
  const r = recorder(true);
  const n = 6 * MiB;
  let count = 0;
  const w = new FakeWorker(
    0,
    (_, job) => {
      job.start();
      setTimeout(() => job.done(), ++count === 1 ? 150 : 1);
    },
    1,
  );
  const t0 = now();
  const list = await runPieces(pieces(n), asWorkers([w]), r.work);
  const ms = now() - t0;
  coversOnce('direct', list, n, r.events);
  assert.ok(ms >= 140, `resolved after ${ms.toFixed(0)} ms while a job writing the caller's memory was running`);
  assert.equal(r.discarded, 0);
  assert.ok(!r.events.some((e) => e.kind === 'letGo'), "the call let go of a job that writes the caller's memory");
});

for (const [name, run] of [
  ['runPieces', runPieces],
  ['runOnWorkers', runOnWorkers],
] as const) {
  it(`${name}: a job that writes the caller's memory and never answers: past its overdue time its worker is ended, and its piece redone once the worker has stopped`, async () => {
    const r = recorder(true);
    const n = 4 * MiB;
    const { w, stoppedAt } = stuckOnce();
    const t0 = now();
    const list = await run(pieces(n), asWorkers([w]), r.work);
    const end = now();
    coversOnce('overdue', list, n, r.events);
    assert.match(w.abandoned ?? '', /a job that writes the caller's memory ran \d+ ms/);
    assert.ok(end - t0 >= 2000, `the worker was ended after ${(end - t0).toFixed(0)} ms, before the 2 s a job may overrun`);
    assert.ok(stoppedAt() > 0 && end >= stoppedAt(), 'resolved before the ended worker had stopped');
  });
}

it("a lost worker: its pieces are redone here; one that wrote the caller's memory is waited for until it has stopped", async () => {
  for (const direct of [false, true]) {
    const r = recorder(direct);
    const n = 6 * MiB;
    const w: FakeWorker = new FakeWorker(0, (_, job) => {
      job.start();
      setTimeout(() => {
        w.alive = false;
        job.fail();
      }, 2);
    });
    let stoppedAt = 0;
    w.stopped = sleep(100).then(() => void (stoppedAt = now()));
    const list = await runPieces(pieces(n), asWorkers([w]), r.work);
    const end = now();
    coversOnce(`lost (direct: ${direct})`, list, n, r.events);
    if (direct) assert.ok(stoppedAt > 0 && end >= stoppedAt, 'resolved before the lost worker had stopped');
    else await w.stopped;
  }
});

it('a job that fails in a worker that goes on (an I/O error): its piece is redone here, and the call waits for no stop that never comes', async () => {
  for (const run of [runPieces, runOnWorkers]) {
    const r = recorder(true);
    const n = 6 * MiB;
    let failed = 0;
    // The worker's stop never comes: it was not ended.
    const w = new FakeWorker(0, (_, job) => {
      job.start();
      setTimeout(() => (++failed <= 2 ? job.fail() : job.done()), 2);
    });
    w.stopped = new Promise(() => {});
    const list = await run(pieces(n), asWorkers([w]), r.work);
    coversOnce(run.name, list, n, r.events);
    assert.ok(r.events.filter((e) => e.kind === 'here').length >= 2, `${run.name}: the failed pieces were not redone here`);
  }
});

it('an error on the calling thread rejects the call once every job given is answered or taken back', async () => {
  for (const direct of [false, true]) {
    let answeredAt = 0;
    const r = recorder(direct, true, (p) => {
      if (p.start >= 3 * MiB) throw new TypeError('the input or output was detached while the call ran');
    });
    const w = new FakeWorker(0, (_, job) => {
      job.start();
      setTimeout(() => {
        answeredAt = now();
        job.done();
      }, 60);
    });
    await assert.rejects(runPieces(pieces(8 * MiB), asWorkers([w]), r.work), /detached/);
    if (direct) assert.ok(answeredAt > 0 && w.busy === 0, "rejected while a job writing the caller's memory was in flight");
    await sleep(100);
  }
});

it('with no workers, every piece is done here, in short pieces', async () => {
  const r = recorder();
  const n = 3 * MiB + 5;
  const list = await runPieces(pieces(n), [], r.work);
  coversOnce('alone', list, n, r.events);
  assert.ok(r.events.every((e) => e.kind === 'here'));
  assert.ok(list.length > 3, 'the calling thread did not cut its pieces short');
});

it('a core shared: once the process gets about one core between its threads, no more pieces go to the workers; found twice in a row, not for a while that doubles while it lasts', async () => {
  const clock = contention.cpu;
  /** The calling thread's own pieces take real time: 1 ms per MiB, about a third slower than the fake worker. */
  const spin = (p: Piece) => {
    const until = now() + p.length / MiB;
    while (now() < until);
  };
  const given = (r: Recorder) => r.events.filter((e) => e.kind === 'give').reduce((sum, e) => sum + e.length, 0);
  const n = 96 * MiB;
  try {
    // A process that gets as much CPU time as wall time: one core for both threads.
    const base = now();
    contention.cpu = () => now() - base;
    contention.starvedUntil = 0;
    contention.inARow = 0;
    const one = recorder(false, true, spin);
    const list = await runPieces(pieces(n), asWorkers([new FakeWorker(0, answersAfter(2))]), one.work);
    coversOnce('one core', list, n, one.events);
    assert.equal(contention.starvedUntil, 0, 'one judgement held later calls off');
    // A second call finds the same. Its judgement comes during the call: it holds from then (between these two
    // times) for 1 s. Bounds, not a reading after the call, which a loaded machine may make late.
    let callStart = now();
    await runPieces(pieces(n), asWorkers([new FakeWorker(0, answersAfter(2))]), recorder(false, true, spin).work);
    let callEnd = now();
    const holds = (ms: number) => contention.starvedUntil >= callStart + ms && contention.starvedUntil <= callEnd + ms;
    assert.ok(
      holds(1000),
      `the second judgement holds until ${contention.starvedUntil - callStart} ms after the call began, not 1 s after a time within it (${callEnd - callStart} ms)`,
    );
    assert.equal(P.status().contended, true, 'status() does not say that calls leave the workers out');
    // The next call gives the workers nothing.
    const next = recorder();
    await runPieces(pieces(8 * MiB), asWorkers([new FakeWorker(0, answersAfter(2))]), next.work);
    assert.equal(given(next), 0, 'the next call used the workers');
    // Tried again once that time is over, and still one core: held twice as long.
    contention.starvedUntil = 0;
    callStart = now();
    await runPieces(pieces(n), asWorkers([new FakeWorker(0, answersAfter(2))]), recorder(false, true, spin).work);
    callEnd = now();
    assert.ok(
      holds(2000),
      `a third judgement in a row holds until ${contention.starvedUntil - callStart} ms after the call began, not 2 s after a time within it (${callEnd - callStart} ms)`,
    );
    // Two cores' worth of CPU time: the workers keep getting pieces.
    contention.cpu = () => 2 * (now() - base);
    contention.starvedUntil = 0;
    assert.equal(P.status().contended, false);
    const two = recorder(false, true, spin);
    await runPieces(pieces(n), asWorkers([new FakeWorker(0, answersAfter(2))]), two.work);
    assert.equal(contention.inARow, 0, 'a call that found two cores did not end the run of judgements');
    assert.ok(given(two) > 2 * given(one), `the workers got ${given(two) / MiB} MiB with two cores, ${given(one) / MiB} MiB with one`);
    assert.ok(given(one) < n / 4, `with one core the workers still got ${given(one) / MiB} MiB of ${n / MiB}`);
  } finally {
    contention.cpu = clock;
    contention.starvedUntil = 0;
    contention.inARow = 0;
  }
});

it('a turn whose message the engine drops: the waiting turn ends after a while, and the call goes on through a new channel', async () => {
  // The browsers' path (no setImmediate): turns are messages to oneself on a MessageChannel.
  const saved = { ...turnSources };
  const channels: { dropped: number; delivered: number }[] = [];
  class FakeChannel {
    readonly seen = { dropped: 0, delivered: 0 };
    readonly port1 = { onmessage: null as ((e: unknown) => void) | null, close: () => {} };
    readonly port2: { postMessage(m: unknown): void };
    constructor() {
      const first = channels.length === 0;
      channels.push(this.seen);
      // The first channel loses every message; later ones deliver.
      this.port2 = {
        postMessage: () => {
          if (first) this.seen.dropped++;
          else
            setTimeout(() => {
              this.seen.delivered++;
              this.port1.onmessage?.({});
            }, 0);
        },
      };
    }
  }
  turnSources.immediate = undefined;
  turnSources.channel = () => new FakeChannel() as unknown as MessageChannel;
  try {
    // Pieces that take time (10 ms per MiB), so that the call takes several turns.
    const r = recorder(false, true, (p) => {
      const until = now() + (10 * p.length) / MiB;
      while (now() < until);
    });
    const n = 3 * MiB + 5;
    const t = now();
    const list = await runPieces(pieces(n), [], r.work);
    coversOnce('a dropped turn', list, n, r.events);
    assert.equal(channels[0]!.dropped, 1, 'the first channel was not given up after its one lost message');
    assert.ok(channels.length >= 2 && channels.slice(1).every((c) => c.dropped === 0 && c.delivered > 0), 'later turns did not go through a new channel');
    assert.ok(now() - t < 5000, `the call took ${now() - t} ms`);
  } finally {
    Object.assign(turnSources, saved);
  }
});
