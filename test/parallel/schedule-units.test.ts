/**
 * The scheduler's units, each alone (schedule.test.ts has them together in
 * runPieces): Partition (rule 1: front and back, equal cuts near the
 * meeting point), CoreJudge (rule 5: a shared core, with a fake CPU clock),
 * and InFlight with fake workers (rule 3: answers counted; rule 4:
 * stragglers taken back or redone; rule 6: overdue writers' workers ended,
 * and drain; rule 7: failed pieces to retry).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Completion, CoreJudge, contention, HereClock, InFlight, Partition, type Piece, SMALLEST } from '../internal.js';
import { asWorkers, FakeWorker, MiB, pieces, recorder } from './fake-workers.js';

/** Milliseconds (Hermes has no performance object). */
const now = (): number => (typeof performance === 'object' ? performance.now() : Date.now());
/** Until `condition` holds, or a deadline fails the test: a condition, not a fixed sleep. */
async function until(label: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = now() + ms;
  while (!condition()) {
    assert.ok(now() < deadline, `${label}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** A split into equal parts of whole 64-byte blocks (the last takes the rest), as transform.ts cuts. */
const split = recorder().work.split;

describe('Partition (rule 1)', () => {
  it('hands out from the front and the back, and its pieces stay the input, in order, each handed out once', () => {
    const n = 10 * MiB + 100;
    const part = new Partition(pieces(n), split);
    const handed: Piece[] = [];
    for (let i = 0; !part.empty; i++) handed.push(i % 3 === 2 ? part.fromBack(MiB / 3) : part.fromFront());
    assert.equal(part.left, 0);
    let at = 0;
    for (const p of part.pieces) {
      assert.equal(p.start, at, 'the pieces cover the input in order');
      at += p.length;
    }
    assert.equal(at, n);
    assert.deepEqual(
      [...handed].sort((a, b) => a.start - b.start),
      part.pieces,
      'every piece was handed out exactly once',
    );
  });

  it('near the meeting point a piece is cut into equal parts, to a quarter of what is left from the front, never below SMALLEST', () => {
    const part = new Partition(pieces(2 * MiB), split);
    // 2 MiB left: the front piece is cut to a quarter, 512 KiB, in two equal halves of the first 1 MiB.
    assert.deepEqual(part.fromFront(), { start: 0, length: MiB / 2 });
    assert.equal(part.left, (3 * MiB) / 2);
    // From the back, to what this thread asks for, but not below SMALLEST.
    assert.deepEqual(part.fromBack(1000), { start: 2 * MiB - SMALLEST, length: SMALLEST });
    // A piece already small enough is not cut.
    const small = new Partition(pieces(3 * SMALLEST, SMALLEST), split);
    assert.deepEqual(small.fromFront(), { start: 0, length: SMALLEST });
  });
});

describe('CoreJudge (rule 5)', () => {
  const realCpu = contention.cpu;
  let cpuPerMs = 2;
  let base = 0;
  before(() => {
    base = now();
    contention.cpu = () => cpuPerMs * (now() - base);
  });
  after(() => {
    contention.cpu = realCpu;
    contention.starvedUntil = 0;
    contention.inARow = 0;
  });
  const team = asWorkers([new FakeWorker(0, () => {}), new FakeWorker(1, () => {})]);

  it('judges once, only once every worker answered and 8 ms passed since the first job', async () => {
    contention.starvedUntil = 0;
    contention.inARow = 0;
    cpuPerMs = 1;
    const judge = new CoreJudge(2);
    assert.equal(judge.sharedCore(), false, 'no job given yet');
    judge.jobGiven();
    const start = now();
    judge.workerAnswered(team[0]!);
    await until('8 ms', () => now() - start >= 9);
    assert.equal(judge.sharedCore(), false, 'one worker of two has not answered');
    judge.workerAnswered(team[1]!);
    assert.equal(judge.sharedCore(), true, 'one core between the threads');
    assert.equal(judge.sharedCore(), false, 'a call judges once');
  });

  it('a shared core found twice in a row holds later calls off for 1 s, doubling for each judgement after up to 8 s; once holds none; two cores end the run', async () => {
    contention.starvedUntil = 0;
    contention.inARow = 0;
    const holds: number[] = [];
    for (const cores of [1, 1, 1, 1, 1, 1, 2, 1]) {
      cpuPerMs = cores;
      const judge = new CoreJudge(1);
      judge.jobGiven();
      judge.workerAnswered(team[0]!);
      const start = now();
      await until('8 ms', () => now() - start >= 9);
      const heldUntil = contention.starvedUntil;
      // The hold is set from the clock at the judgement: read it there, not after (a loaded machine may pause the test).
      const judgedAt = now();
      const shared = judge.sharedCore();
      assert.equal(shared, cores === 1);
      holds.push(contention.starvedUntil !== heldUntil ? Math.round((contention.starvedUntil - judgedAt) / 1000) : 0);
    }
    assert.deepEqual(holds, [0, 1, 2, 4, 8, 8, 0, 0]);
  });
});

describe('InFlight (rules 3, 4, 6 and 7)', () => {
  const realCpu = contention.cpu;
  before(() => {
    contention.cpu = () => undefined;
  });
  after(() => {
    contention.cpu = realCpu;
  });

  /** Jobs in flight over a recorder, with a calling thread that has timed itself at `msPerMiB`. */
  function setup(direct = false, msPerMiB = 1) {
    const r = recorder(direct);
    const done = new Completion<Piece>();
    const clock = new HereClock();
    // The calling thread's speed so far: one timed piece.
    clock.time(MiB, () => {
      const t = now();
      while (now() - t < msPerMiB);
    });
    return { r, done, jobs: new InFlight(r.work, done, clock, new CoreJudge(1)) };
  }

  it('counts the answers taken since the last turn, and drops an answer to a piece done here first', async () => {
    const { r, done, jobs } = setup();
    let answer: (() => void)[] = [];
    const w = new FakeWorker(0, (_, job) => {
      job.start();
      answer.push(job.done);
    });
    const [a, b] = pieces(2 * MiB);
    jobs.give(asWorkers([w])[0]!, a!);
    jobs.give(asWorkers([w])[0]!, b!);
    done.finish(b!, () => {});
    for (const f of answer) f();
    answer = [];
    await until('both answers', () => jobs.count === 0);
    assert.equal(jobs.takeAnswered(), 1, 'one answer taken');
    assert.equal(jobs.takeAnswered(), 0, 'counted since the last call');
    assert.equal(r.discarded, 1, 'the answer to the piece done here was dropped');
  });

  it('a wait for answers that a new wait replaces (it lost a race to a worker getting ready) ends then, and its timer with it', async () => {
    const { jobs } = setup();
    let first = 'waiting';
    void jobs.waitFor(now() + 60_000).then(() => (first = 'ended'));
    const second = jobs.waitFor(now() + 60_000);
    jobs.takeBack();
    await second;
    // Resolved before the second, its callback ran before this line.
    assert.equal(first, 'ended', 'the replaced wait still waits for its time: its timer keeps the process alive');
  });

  it('a job its worker has not started is taken back (claimed) for this thread', () => {
    const { r, jobs } = setup();
    const w = asWorkers([new FakeWorker(0, () => {})])[0]!;
    const [p] = pieces(MiB);
    jobs.give(w, p!);
    assert.deepEqual(jobs.straggler(), { p });
    assert.ok(r.events.some((e) => e.kind === 'claimed'));
  });

  it('a running job: looked at again when it turns late, and redone here once it is late', async () => {
    // Expected to take 20 ms, so late 30 ms after it was given: far beyond a loaded machine's pause between two lines.
    const { jobs } = setup(false, 20);
    const w = asWorkers([new FakeWorker(0, (_, job) => job.start())])[0]!;
    const [p] = pieces(MiB);
    jobs.give(w, p!);
    const next = jobs.straggler();
    assert.ok(next !== undefined && 'until' in next && Number.isFinite(next.until), 'not late yet: a time to look again');
    await until('late', () => now() >= (next as { until: number }).until);
    assert.deepEqual(jobs.straggler(), { p });
  });

  it("a running job that writes the caller's memory is never redone; far overdue, its worker is ended", async () => {
    const { jobs } = setup(true, 0.01);
    const fake = new FakeWorker(0, (_, job) => job.start());
    const [p] = pieces(MiB);
    jobs.give(asWorkers([fake])[0]!, p!);
    const next = jobs.straggler();
    assert.ok(next !== undefined && 'until' in next, 'waited for, not redone');
    // Overdue: at least 2 s past its expected end.
    assert.ok((next as { until: number }).until - now() >= 1900);
    await until('overdue', () => now() >= (next as { until: number }).until, 15_000);
    jobs.straggler();
    assert.match(fake.abandoned ?? '', /writes the caller's memory ran/);
  });

  it("a failed job's piece is to be retried here; drain waits for a lost writer's worker to stop", async () => {
    const { jobs } = setup(true);
    let fail!: () => void;
    let stopped!: () => void;
    const fake = new FakeWorker(0, (_, job) => {
      job.start();
      fail = job.fail;
    });
    fake.stopped = new Promise((r) => (stopped = r));
    const [p] = pieces(MiB);
    jobs.give(asWorkers([fake])[0]!, p!);
    // Lost, as the pool's worker is when it ends: no longer alive (one that answers a job failed and goes on is no lost writer).
    fake.alive = false;
    fail();
    await until('the failure', () => jobs.count === 0);
    assert.deepEqual(jobs.retry, [p]);
    let drained = false;
    const draining = jobs.drain().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(drained, false, 'the lost writer has not stopped');
    stopped();
    await draining;
  });
});
