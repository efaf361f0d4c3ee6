/**
 * runOnWorkers (pool/schedule.ts, rule 8 of docs/parallel.md): a call
 * whose calling thread only hands pieces out, for age's file calls. With
 * fake workers whose answers the tests time: the workers do every piece,
 * a worker still starting is waited for (or, for the command, worked
 * beside until it is ready), a lost worker's pieces are
 * redone here and the rest go to the workers left, what is left once
 * none is alive is done here. A job writing the caller's memory that
 * never answers is schedule.test.ts's, for both schedulers.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { runOnWorkers } from '../internal.js';
import { asWorkers, coversOnce, FakeWorker, MiB, pieces, recorder } from './fake-workers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = (): number => (typeof performance === 'object' ? performance.now() : Date.now());

/** A worker that starts each job at once and answers after `ms`. */
const answering = (id: number, ms: number) =>
  new FakeWorker(id, (_, job) => {
    job.start();
    setTimeout(() => job.done(), ms);
  });

it('the workers do every piece; the calling thread does none', async () => {
  for (const direct of [false, true]) {
    const r = recorder(direct);
    const n = 24 * MiB + 640;
    const workers = [answering(0, 2), answering(1, 3)];
    const list = await runOnWorkers(pieces(n), asWorkers(workers), r.work);
    coversOnce(`direct: ${direct}`, list, n, r.events);
    assert.equal(r.events.filter((e) => e.kind === 'here').length, 0, 'the calling thread did a piece');
    for (const id of [0, 1])
      assert.ok(
        r.events.some((e) => e.kind === 'give' && e.worker === id),
        `worker ${id} got no piece`,
      );
  }
});

it('workers still starting are waited for, not worked around', async () => {
  const r = recorder(true);
  const n = 8 * MiB;
  const late = answering(0, 1);
  late.ready = false;
  late.startup = sleep(40).then(() => {
    late.ready = true;
    return true;
  });
  const t0 = now();
  const list = await runOnWorkers(pieces(n), asWorkers([late]), r.work);
  coversOnce('starting', list, n, r.events);
  assert.equal(r.events.filter((e) => e.kind === 'here').length, 0, 'the calling thread worked while the worker started');
  assert.ok(now() - t0 >= 35, 'resolved before the worker was ready');
});

it('whileStarting (the command): the calling thread does pieces from the back until a worker is ready, then hands out the rest', async () => {
  // This thread's pieces take 1 ms a MiB: 256 MiB would take it 256 ms, the worker is ready after 20.
  const r = recorder(true, true, (p) => {
    for (const until = now() + p.length / MiB; now() < until; );
  });
  const n = 256 * MiB;
  const late = answering(0, 1);
  late.ready = false;
  let readyAt = Infinity;
  late.startup = sleep(20).then(() => {
    late.ready = true;
    readyAt = r.events.length;
    return true;
  });
  const list = await runOnWorkers(pieces(n), asWorkers([late]), r.work, { whileStarting: true });
  coversOnce('while starting', list, n, r.events);
  const here = r.events.flatMap((e, i) => (e.kind === 'here' ? [i] : []));
  assert.ok(here.length > 0, 'the calling thread waited for the worker');
  assert.ok(
    here.every((i) => i < readyAt),
    'the calling thread did a piece once the worker was ready',
  );
  assert.ok(
    r.events.some((e) => e.kind === 'give'),
    'the worker got no piece once ready',
  );
});

it("a lost worker: its pieces are redone here, the rest go to the worker left; one that wrote the caller's memory is waited for", async () => {
  for (const direct of [false, true]) {
    const r = recorder(direct);
    const n = 16 * MiB;
    let jobs = 0;
    const lost = new FakeWorker(0, (_, job) => {
      job.start();
      setTimeout(() => {
        if (++jobs < 3) return job.done();
        lost.alive = false;
        job.fail();
      }, 2);
    });
    let stoppedAt = 0;
    lost.stopped = sleep(60).then(() => void (stoppedAt = now()));
    const left = answering(1, 2);
    const list = await runOnWorkers(pieces(n), asWorkers([lost, left]), r.work);
    const end = now();
    coversOnce(`direct: ${direct}`, list, n, r.events);
    const here = r.events.filter((e) => e.kind === 'here');
    const failed = r.events.filter((e) => e.kind === 'give' && e.worker === 0).length - 2;
    assert.ok(here.length >= 1 && here.length <= failed, `${here.length} pieces done here for ${failed} lost`);
    assert.ok(
      r.events.some((e, i) => e.kind === 'give' && e.worker === 1 && i > r.events.indexOf(here[0]!)),
      'the worker left got no piece after the loss',
    );
    if (direct) assert.ok(stoppedAt > 0 && end >= stoppedAt, 'resolved before the lost worker had stopped');
    else await lost.stopped;
  }
});

it('every worker lost: what is left is done here', async () => {
  const r = recorder(true);
  const n = 12 * MiB;
  const losing = (id: number) => {
    const w: FakeWorker = new FakeWorker(id, (_, job) => {
      job.start();
      setTimeout(() => {
        w.alive = false;
        job.fail();
      }, 2);
    });
    return w;
  };
  const list = await runOnWorkers(pieces(n), asWorkers([losing(0), losing(1)]), r.work);
  coversOnce('all lost', list, n, r.events);
  assert.equal(r.events.filter((e) => e.kind === 'take').length, 0);
  assert.equal(r.events.filter((e) => e.kind === 'give').length, 6, 'pieces were given to a lost worker');
});

it('with no workers, every piece is done here', async () => {
  const r = recorder(true);
  const n = 3 * MiB + 5;
  const list = await runOnWorkers(pieces(n), [], r.work);
  coversOnce('none', list, n, r.events);
  assert.ok(r.events.every((e) => e.kind === 'here'));
});

it('an error on the calling thread (a lost piece redone here that throws) rejects once every job given has answered', async () => {
  const r = recorder(true, true, () => {
    throw new TypeError('the output was removed while the call ran');
  });
  let answered = 0;
  const lost = new FakeWorker(0, (_, job) => {
    job.start();
    setTimeout(() => {
      lost.alive = false;
      job.fail();
    }, 1);
  });
  const slow = new FakeWorker(1, (_, job) => {
    job.start();
    setTimeout(() => {
      answered++;
      job.done();
    }, 40);
  });
  await assert.rejects(runOnWorkers(pieces(8 * MiB), asWorkers([lost, slow]), r.work), /removed/);
  assert.equal(slow.busy, 0, "rejected while a job writing the caller's memory was in flight");
  assert.ok(answered > 0);
});
