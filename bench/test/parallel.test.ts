/**
 * fourfold/parallel's columns and the 'parallel' part in Node: the probe sees
 * a long task, the model's costs are measured, and a small --profile=parallel
 * run matches the synchronous bytes with the workers at work. Needs dist/.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { terminate } from 'fourfold/parallel';
import { PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED, workerColumn } from '../core/libraries.js';
import { longestTask, parallelCosts } from '../core/parallel.js';
import { runBenchmark } from '../core/run.js';
import { now } from '../core/timer.js';
import { parse } from './helpers.js';

const MiB = 1 << 20;
const turn = () => new Promise((resolve) => setTimeout(resolve, 1));

after(() => terminate());

describe('the parallel part', () => {
  it('the longest task is at least as long as a block of the calling thread between two turns', async () => {
    const { longestMs, callMs } = await longestTask(async () => {
      await turn();
      const end = now() + 30;
      while (now() < end);
      await turn();
    });
    assert.ok(longestMs >= 30, `longest ${longestMs} ms`);
    assert.ok(callMs >= longestMs);
  });

  for (const shared of [true, false]) {
    it(`measures the copies and a job's messages, with ${shared ? 'shared' : 'transferred'} slots`, async () => {
      const costs = await parallelCosts(shared, 4 * MiB);
      assert.equal(costs.messageError, undefined);
      assert.equal(costs.shared, shared);
      assert.equal(costs.pieceBytes, MiB);
      for (const samples of [costs.copyInNs, costs.copyOutNs, costs.copyOutWarmNs, costs.messageNs]) {
        assert.ok(samples.length >= 3 && samples.every((ns) => ns > 0 && Number.isFinite(ns)), String(samples));
      }
    });
  }
});

describe('--profile=parallel, small', () => {
  const options = parse('--profile=parallel', '--sizes=1m,4m', '--chart-size=4m', '--task-size=8m', '--ops=chacha20,xchacha20poly1305-decrypt,blake3');

  it('times fourfold (parallel) and its worker-count columns against fourfold where the pool works, and the parallel part', { timeout: 300_000 }, async () => {
    const result = await runBenchmark({ ...options.config, versions: {} });
    // chacha20 has an output to reuse, blake3 has none; decryption into a reused output is the two-pass path.
    const variants = (op: string) => (op === 'blake3' ? [PARALLEL, PARALLEL_SHARED] : [PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED]);
    const sync = (op: string) => (op === 'blake3' ? ['fourfold'] : ['fourfold', 'fourfold (output)']);
    for (const [workers, name] of [0, 1, 2, 3].map((n) => [n, workerColumn(n)] as const)) {
      assert.equal(result.libraries.find((l) => l.name === name)?.workers, workers, name);
    }
    for (const op of ['chacha20', 'xchacha20poly1305-decrypt', 'blake3']) {
      const at = (size: number) => result.cases.filter((c) => c.op === op && c.size === size).map((c) => c.library);
      // Below 2 MiB a parallel call runs inline: not a column there.
      assert.deepEqual(at(MiB), sync(op), op);
      assert.deepEqual(at(4 * MiB), [...sync(op), ...variants(op), ...[0, 1, 2, 3].map(workerColumn)], op);
      // Each column was checked against the synchronous function's bytes (an error otherwise) and timed.
      for (const c of result.cases.filter((row) => row.op === op))
        assert.ok(c.error === undefined && c.nsPerCall.length >= 3, `${op} ${c.library}: ${c.error}`);
      const task = result.parallel!.tasks.find((t) => t.op === op)!;
      assert.equal(task.size, 8 * MiB);
      assert.equal(task.ms.length, 3);
      // On a machine where the process got about one core, calls rightly leave the workers out (status().contended).
      const workedOrContended = task.jobs.some((jobs) => jobs > 0) || task.contended?.some((c) => c) === true;
      assert.ok(workedOrContended, `${op}: the workers did no job (${task.jobs}) and the pool was not contended`);
    }
    assert.ok(result.parallel!.costs !== undefined && result.parallel!.costs.messageNs.length > 0);
    assert.equal(result.parallel!.pool?.failure, undefined);
    assert.ok(result.parallel!.pool!.workers >= 1);
  });
});
