/**
 * Argon2id in the harness: sizes in whole KiB, 'sizes' only, every column
 * checked against @noble/hashes, libsodium at one lane only, fourfold/parallel
 * in the four-lane op, the profiles' parameter sets. Needs dist/.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { terminate } from 'fourfold/parallel';
import { loadLibraries, PARALLEL } from '../core/libraries.js';
import { allOps } from '../core/ops/index.js';
import { capOf, runBenchmark, sizesOf } from '../core/run.js';
import { parse, smallRun } from './helpers.js';

const KiB = 1 << 10;
const MiB = 1 << 20;
const OPS = ['argon2id-t2', 'argon2id-t3', 'argon2id-t3-p4'];

after(() => terminate());

describe('Argon2id in the benchmark', () => {
  it("times whole KiB of memory, at least 8 KiB a lane, in the 'sizes' part only, every column against @noble/hashes", async () => {
    const result = await runBenchmark(
      // 64 B and 1000 B are no memory of whole KiB; 16 KiB is too little for four lanes.
      smallRun({ ops: ['argon2id'], parts: ['sizes', 'sweep'], sizes: [64, 1000, 16 * KiB, 64 * KiB], sweep: { from: 64 * KiB, to: 64 * KiB, step: 1 } }),
    );
    assert.deepEqual(result.sweeps, []);
    assert.deepEqual(
      [...new Set(result.cases.map((c) => `${c.part} ${c.op} ${c.size}`))],
      ['sizes argon2id-t2 16384', 'sizes argon2id-t2 65536', 'sizes argon2id-t3 16384', 'sizes argon2id-t3 65536', 'sizes argon2id-t3-p4 65536'],
    );
    for (const c of result.cases) {
      assert.equal(c.error, undefined, `${c.op} ${c.size} ${c.library}`);
      assert.equal(c.checkedBy, 'noble-hashes', `${c.op} ${c.size} ${c.library}`);
    }
    const columns = (op: string) => [...new Set(result.cases.filter((c) => c.op === op).map((c) => c.library))].sort();
    for (const name of ['fourfold', 'fourfold-js', 'noble-hashes', 'hash-wasm', 'sodium']) assert.ok(columns('argon2id-t2').includes(name), name);
    // libsodium's Argon2id has one lane: at p = 4 it is another function. fourfold/parallel's column is the four lanes'.
    assert.ok(!columns('argon2id-t3-p4').includes('sodium'));
    assert.ok(columns('argon2id-t3-p4').includes(PARALLEL));
    assert.ok(!columns('argon2id-t2').includes(PARALLEL));
    // node:crypto's argon2Sync where the engine has it (Node 24.7 and later).
    const { argon2Sync } = (await import('node:crypto')) as { argon2Sync?: unknown };
    assert.equal(columns('argon2id-t3-p4').includes('node'), typeof argon2Sync === 'function');
  });

  it("gives every column the same bytes as @noble/hashes, and node:crypto's argon2Sync where the engine has it", async () => {
    const { apis, libraries } = await loadLibraries({});
    const nobleArgon2id = apis.nobleHashes!.argon2id;
    const node = (apis.node as { argon2Sync?: unknown } | undefined)?.argon2Sync;
    for (const definition of allOps(apis).filter((d) => OPS.includes(d.op))) {
      const shape = { size: 64 * KiB, offset: 0, keys: 1 };
      const inputs = definition.inputs(shape) as { password: Uint8Array; salt: Uint8Array; t: number; m: number; p: number };
      assert.equal(inputs.m, 64);
      const expected = nobleArgon2id(inputs.password, inputs.salt, { t: inputs.t, m: inputs.m, p: inputs.p, dkLen: 32, maxmem: 2 ** 31 });
      const hasNode = definition.entries.some((e) => e.library === 'node');
      assert.equal(hasNode, typeof node === 'function', definition.op);
      for (const entry of definition.entries) {
        if (entry.refuses?.(shape) !== undefined) continue;
        await libraries.find((l) => l.name === entry.library)?.activate?.();
        assert.deepEqual(new Uint8Array(await entry.bind(inputs)()), expected, `${definition.op} ${entry.library}`);
      }
    }
  });

  it("has its parameter sets in the profiles: OWASP's in the default run, RFC 9106's with one lane and four in --profile=argon2 and --full", () => {
    const argon2 = parse('--profile=argon2').config;
    assert.deepEqual(argon2.ops, ['argon2id']);
    assert.deepEqual(argon2.parts, ['sizes']);
    assert.equal(argon2.libs, undefined);
    assert.ok(argon2.capMs >= 60_000);
    assert.equal(capOf('argon2id-t2', parse().config), 10_000);
    // The sizes of argon2id-t2, -t3 and -t3-p4 in a profile.
    const sizesIn = (...argv: string[]) => OPS.map((op) => sizesOf(op, parse(...argv).config));
    const [owasp, rfc9106, quickMiB] = [[19 * MiB], [64 * MiB], [MiB]];
    assert.deepEqual(sizesIn('--profile=argon2'), [owasp, rfc9106, rfc9106]);
    assert.deepEqual(sizesIn('--full'), [owasp, rfc9106, rfc9106]);
    assert.deepEqual(sizesIn('--quick'), [quickMiB, quickMiB, quickMiB]);
    assert.deepEqual(sizesIn(), [owasp, [], []]);
    // OWASP's m = 19456 KiB.
    assert.equal((19 * MiB) / KiB, 19456);
  });
});
