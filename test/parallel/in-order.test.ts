/**
 * InOrder (src/pool/in-order.ts), the scheduler of a stream's pieces,
 * with fake workers: pieces come back in order, each done once, whatever
 * order and fate the workers' answers have; at most WINDOW are held; a
 * failed job is done again; an error doing a piece or taking its answer
 * in rejects the stream; answers after abandon() are dropped.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InOrder, type Piece, turnSources, WINDOW } from '../internal.js';
import { asWorkers, coversOnce, FakeWorker, pieces, recorder } from './fake-workers.js';
import { keepWorkers, workersAsUsual } from './pool-helpers.js';

const KiB = 1024;
const later = (ms: number, f: () => void): void => void setTimeout(f, ms);

/** Adds every piece, then finishes: the pieces in the order they came back, and the most held at once. */
async function run(order: InOrder<Piece>, list: readonly Piece[]): Promise<{ back: Piece[]; mostHeld: number }> {
  const back: Piece[] = [];
  let mostHeld = 0;
  for (const [i, p] of list.entries()) {
    back.push(...(await order.add(p)));
    mostHeld = Math.max(mostHeld, i + 1 - back.length);
  }
  back.push(...(await order.finish()));
  return { back, mostHeld };
}

describe('InOrder (a stream’s pieces)', () => {
  before(keepWorkers);
  after(workersAsUsual);

  it('finish() waits for a later piece while the first is already done', async () => {
    // Both pieces are out at finish(); the first's answer comes first, the
    // second's a timer later, which finish() must let run (it once spun on
    // the done first piece).
    const r = recorder();
    const quick = new FakeWorker(0, (_, job) => {
      job.start();
      later(5, job.done);
    });
    const slow = new FakeWorker(1, (_, job) => {
      job.start();
      later(30, job.done);
    });
    const list = pieces(128 * KiB, 64 * KiB);
    const { back } = await run(new InOrder(r.work, () => asWorkers([quick, slow])), list);
    assert.deepEqual(back, list);
    coversOnce('two workers', back, 128 * KiB, r.events);
  });

  it('gives the pieces back in order, each done once, holding at most WINDOW, whatever order the answers come in', async () => {
    const r = recorder();
    let seed = 7;
    const random = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const workers = [0, 1, 2].map(
      (id) =>
        new FakeWorker(id, (_, job) => {
          job.start();
          later(Math.floor(random() * 6), job.done);
        }),
    );
    const list = pieces(40 * 64 * KiB, 64 * KiB);
    const { back, mostHeld } = await run(new InOrder(r.work, () => asWorkers(workers)), list);
    assert.deepEqual(back, list);
    coversOnce('three workers', back, list.length * 64 * KiB, r.events);
    assert.ok(mostHeld <= WINDOW, `held ${mostHeld} pieces, more than ${WINDOW}`);
    assert.ok(
      r.events.some((e) => e.kind === 'take'),
      'no answer from a worker was taken',
    );
  });

  it('does a failed job again, here or on a worker', async () => {
    const r = recorder();
    const failing = new FakeWorker(0, (_, job) => later(1, job.fail));
    const list = pieces(12 * 64 * KiB, 64 * KiB);
    const { back } = await run(new InOrder(r.work, () => asWorkers([failing])), list);
    assert.deepEqual(back, list);
    coversOnce('a failing worker', back, list.length * 64 * KiB, r.events);
  });

  it('lets the event loop turn after each piece it does itself while jobs are out', async () => {
    // One worker holds the first piece until the test answers it and runs the others one after
    // another, so pieces pile up and the calling thread does some, also while it waits for the
    // first: it once did every waiting piece and every job it took back there in one turn, the
    // workers' answers shut out until it was done. Every turn the scheduler asks for is counted.
    const saved = { ...turnSources };
    let turns = 0;
    turnSources.immediate = (f) => {
      turns++;
      const timer = setTimeout(f, 0);
      return () => clearTimeout(timer);
    };
    try {
      const at: number[] = [];
      // Once the window is full, the first piece is answered after three pieces done here.
      let full = false;
      let whileHeld = 0;
      const r = recorder(false, true, () => {
        at.push(turns);
        if (full && ++whileHeld === 3) setTimeout(() => releaseFirst(), 0);
      });
      let queue = Promise.resolve();
      let releaseFirst!: () => void;
      const holding = new FakeWorker(0, (p, job) => {
        queue = queue.then(
          () =>
            new Promise<void>((resolve) => {
              job.start();
              const answer = () => {
                job.done();
                resolve();
              };
              if (p.start === 0) releaseFirst = answer;
              else later(1, answer);
            }),
        );
      });
      const list = pieces(24 * 64 * KiB, 64 * KiB);
      const order = new InOrder<Piece>(r.work, () => asWorkers([holding]));
      const back: Piece[] = [];
      for (const p of list.slice(0, WINDOW - 1)) back.push(...(await order.add(p)));
      // The window is full with the next: the first piece is out, the calling thread works while it waits.
      full = true;
      back.push(...(await order.add(list[WINDOW - 1]!)));
      for (const p of list.slice(WINDOW)) back.push(...(await order.add(p)));
      back.push(...(await order.finish()));
      assert.deepEqual(back, list);
      coversOnce('a held first piece', back, list.length * 64 * KiB, r.events);
      assert.ok(whileHeld >= 3, `the calling thread did ${whileHeld} pieces while the first was held: the case tests nothing`);
      for (let i = 1; i < at.length; i++) assert.ok(at[i]! > at[i - 1]!, `pieces done here with no turn between them: at turns ${at.join(' ')}`);
    } finally {
      Object.assign(turnSources, saved);
    }
  });

  it('with no workers, each piece is done as it is added', async () => {
    const r = recorder();
    const order = new InOrder<Piece>(r.work, () => []);
    for (const p of pieces(3 * 64 * KiB, 64 * KiB)) assert.deepEqual(await order.add(p), [p]);
    assert.deepEqual(await order.finish(), []);
    assert.ok(r.events.every((e) => e.kind === 'here'));
  });

  it("an error doing a piece here, or taking a worker's answer in, rejects the stream's next add() or finish()", async () => {
    const r = recorder();
    const list = pieces(4 * 64 * KiB, 64 * KiB);
    const failHere = new InOrder<Piece>(
      {
        ...r.work,
        onThisThread(p) {
          if (p === list[2]) throw new Error('piece 2 failed here');
          r.work.onThisThread(p);
        },
      },
      () => [],
    );
    await failHere.add(list[0]!);
    await failHere.add(list[1]!);
    await assert.rejects(failHere.add(list[2]!), { message: 'piece 2 failed here' });
    // Answered at once: the answer is taken in before the calling thread could do the piece itself.
    const answering = new FakeWorker(0, (_, job) => {
      job.start();
      job.done();
    });
    const failTaking = new InOrder<Piece>(
      {
        ...r.work,
        fromWorker(p, done) {
          if (p === list[1]) throw new Error("piece 1's answer failed");
          r.work.fromWorker(p, done);
        },
      },
      () => asWorkers([answering]),
    );
    await assert.rejects(
      (async () => {
        for (const p of list) await failTaking.add(p);
        await failTaking.finish();
      })(),
      { message: "piece 1's answer failed" },
    );
  });

  it('abandon() while an add() is pending: that add() rejects, and gives back no piece nobody did', async () => {
    // With the engine's own turns, and with turns as messages on a MessageChannel (the browsers'),
    // whose turn awaited at abandon() once never came.
    const saved = { ...turnSources };
    for (const turns of ['own', 'channel']) {
      if (turns === 'channel') {
        turnSources.immediate = undefined;
        turnSources.channel = () => new MessageChannel();
      }
      try {
        const r = recorder();
        const holding = new FakeWorker(0, (_, job) => job.start());
        const order = new InOrder<Piece>(r.work, () => asWorkers([holding]));
        const list = pieces(2 * 64 * KiB, 64 * KiB);
        await order.add(list[0]!);
        // The worker holds the first piece, started: add() lets the event loop turn for its answer.
        const pending = order.add(list[1]!);
        order.abandon();
        await assert.rejects(pending, { message: 'fourfold: the stream ended' }, `${turns} turns`);
      } finally {
        Object.assign(turnSources, saved);
      }
    }
  });

  it('after abandon(), answers that still come are dropped', async () => {
    const r = recorder();
    const answers: (() => void)[] = [];
    const holding = new FakeWorker(0, (_, job) => {
      job.start();
      answers.push(job.done);
    });
    const order = new InOrder<Piece>(r.work, () => asWorkers([holding]));
    const [a, b] = pieces(128 * KiB, 64 * KiB);
    await order.add(a!);
    await order.add(b!);
    const given = r.events.filter((e) => e.kind === 'give').length;
    assert.ok(given > 0, 'no piece went to the worker');
    order.abandon();
    for (const answer of answers) answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(r.discarded, given, 'every late answer dropped');
    assert.ok(!r.events.some((e) => e.kind === 'take'), 'an answer was taken after abandon()');
  });
});
