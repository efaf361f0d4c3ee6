/**
 * The pool behind fourfold/parallel: workers: 0, configure()'s checks, the
 * pool size capped by the input's pieces, terminate() during calls, a
 * worker that cannot start (the calls run on the calling thread, same
 * bytes, status() says why, one console.warn), a worker that dies in the
 * middle of a call (its pieces are redone here), many concurrent calls,
 * slots zeroed and kernels wiped after calls, and a process that exits by
 * itself after using the pool (Node, Deno, Bun).
 */
import { it, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';
import { EMPTY, holdWorkers, pool, transferablesOf } from '../internal.js';
import { assertBytes, assertKernelsWiped, ENGINE_HAS_SIMD, isAllZero, rand } from '../helpers.js';
import { allowWorkers, captureWarnings, warmPool, whenStopped, workersAsUsual } from './pool-helpers.js';

const MiB = 1 << 20;
const IN_BROWSER = typeof (globalThis as { window?: unknown }).window === 'object';
const SCRIPT_ENGINES_ONLY = IN_BROWSER ? 'not applicable in browsers: needs node:worker_threads or a child process' : false;

const key = rand(32);
const nonce = rand(12);
const m = rand(6 * MiB + 17);
const expected = F.chacha20(key, nonce, m);

after(() => {
  P.configure({ workers: undefined });
  P.terminate();
  workersAsUsual();
});

/** Every free slot of every worker (the pool's, or `workers` kept from before terminate()) is zero. */
function assertSlotsZero(label: string, workers: readonly unknown[] = pool.workers): void {
  assert.ok(workers.length > 0, `${label}: no worker to look at`);
  for (const w of workers) for (const slot of (w as { freeSlots: Uint8Array[] }).freeSlots) assert.ok(isAllZero(slot), `${label}: a worker slot is not zeroed`);
}

it('workers: 0 runs on the calling thread only, the same bytes', async () => {
  P.configure({ workers: 0 });
  const jobs = P.status().jobs;
  assertBytes(await P.chacha20(key, nonce, m), expected);
  assertBytes(await P.blake3(m), F.blake3(m));
  assert.equal(P.status().jobs, jobs, 'no job went to a worker');
  P.configure({ workers: undefined });
});

it('configure() checks its options', () => {
  assert.throws(() => P.configure(null as never), TypeError);
  assert.throws(() => P.configure('x' as never), TypeError);
  assert.throws(() => P.configure({ workers: -1 }), RangeError);
  assert.throws(() => P.configure({ workers: 1.5 }), RangeError);
  assert.throws(() => P.configure({ workers: '2' as never }), TypeError);
  assert.throws(() => P.configure({ workerUrl: 5 as never }), TypeError);
});

it('a call starts no more workers than its input has pieces besides its own', async () => {
  P.terminate();
  // More workers than this machine may have cores: the cap tested here is the input's.
  allowWorkers(32);
  P.configure({ workers: 32 });
  await P.chacha20(key, nonce, m.subarray(0, 2 * MiB));
  assert.equal(P.status().workers, 1, JSON.stringify(P.status()));
  await P.chacha20(key, nonce, m.subarray(0, 4 * MiB));
  assert.equal(P.status().workers, 3, JSON.stringify(P.status()));
  P.configure({ workers: undefined });
});

it('the same bytes from many calls at once, then the slots are zeroed and the kernels wiped', async () => {
  P.configure({ workers: 3 });
  await warmPool(3);
  const n12 = rand(12);
  const n24 = rand(24);
  const calls: [string, Promise<Uint8Array>, Uint8Array][] = [];
  for (let i = 0; i < 3; i++) {
    const part = m.subarray(i * 1000, 2 * MiB + i * 70_001);
    calls.push(['chacha20', P.chacha20(key, n12, part), F.chacha20(key, n12, part)]);
    calls.push(['xchacha20poly1305', P.xchacha20poly1305(key, n24).encrypt(part), F.xchacha20poly1305(key, n24).encrypt(part)]);
    calls.push(['xsalsa20poly1305', P.xsalsa20poly1305(key, n24).encrypt(part), F.xsalsa20poly1305(key, n24).encrypt(part)]);
    calls.push(['poly1305', P.poly1305(part, key), F.poly1305(part, key)]);
    calls.push(['blake3', P.blake3(part), F.blake3(part)]);
  }
  const iv = rand(16);
  calls.push(['serpent ctr', P.serpent.ctr(key, iv).encrypt(m.subarray(0, 2 * MiB + 5)), F.serpent.ctr(key, iv).encrypt(m.subarray(0, 2 * MiB + 5))]);
  calls.push(['serpent cbc', P.serpent.cbc(key, iv).encrypt(m.subarray(0, 2 * MiB + 5)), F.serpent.cbc(key, iv).encrypt(m.subarray(0, 2 * MiB + 5))]);
  const results = await Promise.all(calls.map(([, p]) => p));
  calls.forEach(([name, , want], i) => {
    assertBytes(results[i], want, `${name} #${i}`);
  });
  assertSlotsZero('after concurrent calls');
  if (ENGINE_HAS_SIMD && F.tier() === 'simd') {
    assertKernelsWiped('after concurrent calls', 'chacha');
  }
  P.configure({ workers: undefined });
});

it('terminate() during calls: their pieces fall back to the calling thread, same bytes, slots zeroed', async () => {
  P.configure({ workers: 2 });
  await warmPool(2);
  const workers = [...pool.workers];
  const sealed = F.xchacha20poly1305(key, rand(24).fill(1)).encrypt(m);
  const calls = [P.chacha20(key, nonce, m), P.xchacha20poly1305(key, new Uint8Array(24).fill(1)).decrypt(sealed), P.blake3(m)];
  // The calls gave the workers their first jobs before their first await.
  assert.ok(
    workers.some((w) => w.queued > 0),
    'no job was in flight',
  );
  P.terminate();
  const [a, b, c] = await Promise.all(calls);
  assertBytes(a, expected, 'chacha20');
  assertBytes(b, m, 'xchacha20poly1305 decrypt');
  assertBytes(c, F.blake3(m), 'blake3');
  // A terminated worker may finish the call it was in before it stops: its slots are zeroed again then.
  await whenStopped(workers);
  assertSlotsZero('terminated workers', workers);
  P.configure({ workers: undefined });
});

it("holdWorkers (the tests' hook): a held worker outlives the pool's retiring it, leaves pin() alone, and ends at release() if idle", async () => {
  P.configure({ workers: 2 });
  await warmPool(2);
  const [w, other] = pool.workers;
  assert.ok(w !== undefined && other !== undefined, 'two workers did not start');
  const hold = holdWorkers([w]);
  const again = holdWorkers([w]);
  try {
    // What a Deno worker idle for 250 ms gets (pool/spawn.ts), and one beyond a lowered size: made to happen now.
    pool.retire(w);
    assert.ok(w.alive && pool.workers.includes(w), 'a held worker was retired');
    assert.equal(P.status().streams, 0, 'holding pinned the worker');
    assertBytes(await P.chacha20(key, nonce, m), expected, 'a call with a held worker');
    // A call's last word to a worker (its wipe) is answered after the call: until then the worker is busy, not idle.
    for (let t = 0; w.busy; t++) {
      assert.ok(t < 500, 'the worker stayed busy after the call');
      await new Promise((r) => setTimeout(r, 10));
    }
    hold.release();
    assert.ok(w.alive && pool.workers.includes(w), 'released by one hold of two, the worker was retired');
  } finally {
    again.release();
  }
  assert.ok(!w.alive && !pool.workers.includes(w), 'released, the idle worker was not retired as the pool had asked');
  // A worker never held is retired as usual.
  pool.retire(other);
  assert.ok(!other.alive && !pool.workers.includes(other));
  P.configure({ workers: undefined });
});

describe('a worker that cannot start', () => {
  it('leaves every call to the calling thread with the same bytes; status() says why; one console.warn', async () => {
    P.terminate();
    const warnings = captureWarnings();
    try {
      P.configure({ workers: 2, workerUrl: new URL('./fixtures/no-such-worker.js', import.meta.url) });
      for (let i = 0; i < 3; i++) assertBytes(await P.chacha20(key, nonce, m), expected, `call ${i}`);
      for (let t = 0; P.status().failure === undefined; t++) {
        assert.ok(t < 500, 'the failure was not noticed');
        await new Promise((r) => setTimeout(r, 20));
      }
      assertBytes(await P.chacha20(key, nonce, m), expected, 'after the failure');
      assertBytes(await P.blake3(m), F.blake3(m), 'blake3 after the failure');
      assert.equal(P.status().workers, 0);
      assert.equal(warnings.length, 1, `console.warn ${warnings.length} times`);
      assert.match(String(warnings[0]![0]), /fourfold\/parallel: workers are not available/);
    } finally {
      warnings.restore();
      P.configure({ workers: undefined, workerUrl: undefined });
    }
    assert.equal(P.status().failure, undefined, 'configure() with a new workerUrl clears the failure');
  });
});

it('a worker that dies in the middle of a call: its pieces are redone here, same bytes, the pool goes on', { skip: SCRIPT_ENGINES_ONLY }, async () => {
  P.terminate();
  P.configure({ workers: 2, workerUrl: new URL('./fixtures/crashing-worker.js', import.meta.url) });
  try {
    // One started worker is enough: these crash after their second job, so on a loaded machine two are rarely ready at once.
    await warmPool(1);
    for (let i = 0; i < 4; i++) assertBytes(await P.chacha20(key, nonce, m), expected, `call ${i}`);
    assert.equal(P.status().failure, undefined, 'a worker that died after it started does not disable the pool');
  } finally {
    P.configure({ workers: undefined, workerUrl: undefined });
  }
});

it('a process that used the pool exits by itself', { skip: SCRIPT_ENGINES_ONLY }, async () => {
  const { execFileSync } = await import('node:child_process');
  const source = `
    import * as P from 'fourfold/parallel';
    const data = new Uint8Array(8 << 20);
    const out = await P.chacha20(new Uint8Array(32), new Uint8Array(12), data);
    const h = await P.blake3(data);
    const stream = P.secretstream.encryptStream(new Uint8Array(32));
    const w = stream.writable.getWriter(); w.write(data.subarray(0, 100000)); w.close();
    for await (const _ of stream.readable);
    console.log(\`\${out.length} \${h.length} \${P.status().workers > 0}\`);`;
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  const args = g.Deno ? ['eval', source] : g.Bun ? ['-e', source] : ['--input-type=module', '-e', source];
  const output = execFileSync(process.execPath, args, { encoding: 'utf8', timeout: 60_000 }).trim();
  assert.equal(output, `${8 << 20} 32 true`);
});

it("a job's params move their own buffers to the worker, never a shared or an empty one", () => {
  const own = new Uint8Array(8);
  const view = new Uint8Array(new ArrayBuffer(64), 16, 8);
  const params = { own, view, empty: EMPTY, none: new Uint8Array(0), counter: 3 };
  const shared = typeof SharedArrayBuffer === 'function' ? { shared: new Uint8Array(new SharedArrayBuffer(8)) } : {};
  assert.deepEqual(transferablesOf({ ...params, ...shared }), [own.buffer, view.buffer]);
  // Moved twice over, the library's EMPTY would be detached and the second move would throw.
  if (typeof MessageChannel === 'function') {
    const { port1, port2 } = new MessageChannel();
    for (let i = 0; i < 2; i++) port1.postMessage({ aad: EMPTY }, transferablesOf({ aad: EMPTY }));
    port1.close();
    port2.close();
  }
  assert.equal(EMPTY.length, 0);
  assert.equal(EMPTY.buffer.byteLength, 0);
});
