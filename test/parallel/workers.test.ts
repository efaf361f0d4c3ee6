/**
 * The pool's workers and the tier each runs (src/parallel/worker.ts and
 * worker-js.ts): where the engine runs the kernels, workers of the simd
 * tier, which carry no js tier and get their kernels from the pool; where
 * it cannot (here: after ready({ tier: 'js' }); in the engine matrix:
 * engines without WebAssembly SIMD), workers of the js tier; the same
 * bytes from both. A worker whose first job was taken back before it
 * started still has the kernels that job brought; a worker that cannot
 * run its kernels leaves the calls to the calling thread.
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';
import { pool, type ChachaJobs } from '../internal.js';
import { assertBytes, NO_SIMD, rand } from '../helpers.js';
import { captureWarnings, warmPool, workersAsUsual } from './pool-helpers.js';

const MiB = 1 << 20;
const IN_BROWSER = typeof (globalThis as { window?: unknown }).window === 'object';
const HAS_THREADS = typeof Worker === 'function' || (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
const NO_THREADS: false | string = HAS_THREADS ? false : 'not applicable: this engine has no threads';
/** A job is taken back through its claim word, which needs memory shared with the worker (pool/pool-worker.ts canShare). */
const SHARES = typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;
const NO_CLAIMS: false | string = SHARES ? false : 'not applicable: no memory shared with workers, so no job can be taken back';

const key = rand(32);
const n12 = rand(12);
const n24 = rand(24);
const iv = rand(16);
const m = rand(5 * MiB + 33);

after(async () => {
  P.configure({ workers: undefined, workerUrl: undefined });
  P.terminate();
  workersAsUsual();
  await F.ready();
});

/** Every family's parallel calls give the synchronous functions' bytes, and the workers took part. */
async function sameBytesWithWorkers(label: string): Promise<void> {
  const jobs = P.status().jobs;
  const sealed = F.xchacha20poly1305(key, n24).encrypt(m);
  assertBytes(await P.chacha20(key, n12, m), F.chacha20(key, n12, m), `${label}: chacha20`);
  assertBytes(await P.xchacha20poly1305(key, n24).encrypt(m), sealed, `${label}: xchacha20poly1305 encrypt`);
  assertBytes(await P.xchacha20poly1305(key, n24).decrypt(sealed), m, `${label}: xchacha20poly1305 decrypt`);
  assertBytes(await P.secretbox(key, n24).seal(m), F.secretbox(key, n24).seal(m), `${label}: secretbox`);
  assertBytes(await P.poly1305(m, key), F.poly1305(m, key), `${label}: poly1305`);
  assertBytes(await P.blake3(m), F.blake3(m), `${label}: blake3`);
  assertBytes(await P.serpent.ctr(key, iv).encrypt(m), F.serpent.ctr(key, iv).encrypt(m), `${label}: serpent ctr`);
  assert.ok(P.status().jobs > jobs, `${label}: no job went to a worker (${JSON.stringify(P.status())})`);
}

/** A new pool of two workers, started while this thread runs `tier`: workers of that tier. */
async function twoWorkersAfter(tier: 'simd' | 'js'): Promise<void> {
  assert.equal(await F.ready({ tier }), tier);
  P.terminate();
  P.configure({ workers: 2 });
  await warmPool(2);
  assert.deepEqual(
    pool.workers.map((w) => w.tier),
    [tier, tier],
  );
}

it('where the engine runs the kernels, the workers run the simd tier', { skip: NO_THREADS || NO_SIMD }, async () => {
  await twoWorkersAfter('simd');
  await sameBytesWithWorkers('simd workers');
});

it('where it cannot, the workers run the js tier, with the same bytes', { skip: NO_THREADS }, async () => {
  await twoWorkersAfter('js');
  await sameBytesWithWorkers('js workers');
  // Workers keep the tier they started with: these stay js workers after ready() until terminate().
  await F.ready();
  await sameBytesWithWorkers('js workers, simd here');
  P.terminate();
});

it('a worker whose first job was taken back before it started keeps the kernels that job brought', { skip: NO_THREADS || NO_SIMD || NO_CLAIMS }, async () => {
  assert.equal(await F.ready(), 'simd');
  P.terminate();
  P.configure({ workers: 1 });
  const piece = m.subarray(0, 4096);
  const params = (): ChachaJobs['chacha.xor']['params'] => ({ key: key.slice(), nonce: n12.slice(), counterLow: 0, counterHigh: 0, doubleRounds: 10 });
  for (let attempt = 0; ; attempt++) {
    assert.ok(attempt < 20, 'the worker started its first job before it could be taken back, 20 times');
    const [w] = pool.grow(1);
    assert.ok(w !== undefined && (await w.whenReady()), `no worker: ${JSON.stringify(P.status())}`);
    assert.equal(P.status().shared, true, 'the pool does not share memory with its workers');
    w.slot(piece.length).set(piece);
    // The worker's first job carries the kernels; taking it back at once (the worker has not run yet) skips it.
    const first = w.run<ChachaJobs, 'chacha.xor'>('chacha.xor', params(), piece.length);
    const taken = first.claim();
    const skipped = await first.done;
    skipped.release();
    if (!taken) {
      P.terminate();
      continue;
    }
    assert.equal(skipped.skipped, true);
    w.slot(piece.length).set(piece);
    const second = await w.run<ChachaJobs, 'chacha.xor'>('chacha.xor', params(), piece.length).done;
    assertBytes(second.data, F.chacha20(key, n12, piece), 'the job after the skipped one');
    second.release();
    w.zeroSlots();
    return;
  }
});

it('a worker that cannot run its kernels: calls run on the calling thread, same bytes; status() says why; one console.warn', {
  skip: NO_SIMD || (IN_BROWSER ? 'not applicable in browsers: the fixture worker is not bundled there' : NO_THREADS),
}, async () => {
  assert.equal(await F.ready(), 'simd');
  P.terminate();
  const warnings = captureWarnings();
  try {
    P.configure({ workers: 2, workerUrl: new URL('./fixtures/no-kernels-worker.js', import.meta.url) });
    await P.warm();
    for (let t = 0; P.status().failure === undefined; t++) {
      assert.ok(t < 100, `the failure was not noticed: ${JSON.stringify(P.status())}`);
      assertBytes(await P.chacha20(key, n12, m), F.chacha20(key, n12, m), `call ${t}`);
    }
    assert.match(P.status().failure!, /cannot run its kernels/);
    assert.equal(P.status().workers, 0, 'the workers that cannot run their kernels were ended');
    assertBytes(await P.blake3(m), F.blake3(m), 'blake3 after the failure');
    assert.equal(warnings.length, 1, `console.warn ${warnings.length} times`);
  } finally {
    warnings.restore();
    P.configure({ workers: undefined, workerUrl: undefined });
  }
});
