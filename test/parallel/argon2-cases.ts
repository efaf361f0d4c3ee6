/**
 * What the tests of fourfold/parallel's Argon2 share (argon2-bytes,
 * argon2-memory and argon2-paths.test.ts): the cases over p, t, m, both
 * versions, a key and associated data, their bytes from fourfold/argon2's
 * synchronous calls (checked against @noble/hashes), the parallel call on
 * a case, whether threads and shared memory are here, and the checks on
 * progress and on the shared memory kept for the next call.
 */
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import { argon2d, argon2i, argon2id, type Argon2Opts } from 'fourfold/argon2';
import * as P from 'fourfold/parallel';
import { argon2d as nobleD, argon2i as nobleI, argon2id as nobleId } from '@noble/hashes/argon2.js';
import { assertBytes, isAllZero, rand } from '../helpers.js';
import { pool, type PoolWorker, spareSharedMemory } from '../internal.js';
import { workersAsUsual } from './pool-helpers.js';

const HAS_THREADS = typeof Worker === 'function' || (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
export const NO_THREADS: false | string = HAS_THREADS ? false : 'not applicable: this engine has no threads (the first tests cover the calling thread)';
/** Memory shared with workers (pool/pool-worker.ts canShare): without it every call runs on the calling thread. */
const SHARES = typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;
export const NO_SHARING: false | string =
  NO_THREADS || (SHARES ? false : 'not applicable: no memory shared with workers here (the calls run on the calling thread)');

export type Type = 'argon2id' | 'argon2i' | 'argon2d';
export const TYPES: readonly Type[] = ['argon2id', 'argon2i', 'argon2d'];
const SYNC = { argon2id, argon2i, argon2d };
const NOBLE = { argon2id: nobleId, argon2i: nobleI, argon2d: nobleD };
const PARALLEL = { argon2id: P.argon2id, argon2i: P.argon2i, argon2d: P.argon2d };
export type ParallelOpts = P.Argon2ParallelOpts;

/** The pool as it was before a file's tests, for its after(): no configured workers, none running, the usual limits. */
export async function poolAsUsual(): Promise<void> {
  P.configure({ workers: undefined });
  P.terminate();
  pool.limit = undefined;
  workersAsUsual();
  await F.ready();
}

/** No worker holds a call any more: status() counts what workers are pinned for (streams, scrypt lanes, Argon2 calls). */
export const nothingPinned = (): boolean => P.status().streams === 0;

/** The shared memory kept for the next call is all zero (and there is one: a call on workers keeps it). */
export function assertSpareZero(what: string): void {
  const spare = spareSharedMemory();
  assert.ok(spare !== undefined, `${what}: no shared memory was kept for the next call`);
  assert.ok(isAllZero(spare), `${what}: the shared memory kept for the next call is not zero`);
}

// ---------------------------------------------------------------- the cases

export interface Case {
  type: Type;
  password: Uint8Array;
  salt: Uint8Array;
  opts: Argon2Opts;
  /** The `workers` option of the parallel call. */
  workers: number;
}

export const label = (c: Case): string => {
  const o = c.opts;
  return (
    `${c.type} p=${o.p} t=${o.t} m=${o.m} v=0x${(o.version ?? 0x13).toString(16)} dkLen=${o.dkLen}` +
    `${o.key === undefined ? '' : ' key'}${o.personalization === undefined ? '' : ' ad'} workers=${c.workers}`
  );
};

/**
 * Nine cases for p lanes: every type on 0, 1 and 3 workers, each type with
 * each of three memories (m = 8p: two blocks a segment, the first
 * segments of the first pass with nothing to compute; m = 12p - 1, which
 * rounds down to 8p; and 20p + 3, five blocks a segment), t from 1 to 3,
 * both versions, tags of 4 and 100 bytes, a key, associated data, both or
 * neither.
 */
function casesFor(p: number, workerCounts: readonly number[] = [0, 1, 3]): Case[] {
  return Array.from({ length: 9 }, (_, j) => {
    const row = Math.floor(j / 3);
    const opts: Argon2Opts = {
      p,
      t: 1 + ((j + p) % 3),
      m: [8 * p, 12 * p - 1, 20 * p + 3][(j + row) % 3]!,
      version: (j + p) % 2 === 0 ? 0x13 : 0x10,
      dkLen: (j + row) % 2 === 0 ? 4 : 100,
    };
    if (j % 4 === 1 || j % 4 === 3) opts.key = rand(1 + (j % 32));
    if (j % 4 >= 2) opts.personalization = rand(j);
    return { type: TYPES[j % 3]!, password: rand(j * 7), salt: rand(8 + j), opts, workers: workerCounts[row % workerCounts.length]! };
  });
}

export const LANES = [1, 2, 3, 4, 5, 8, 9];
export const CASES = LANES.flatMap((p) => casesFor(p));

/** The cases of p lanes, each on the workers `workers(j)` says (j: its index). */
export const casesOf = (p: number, workers: (j: number) => number): Case[] =>
  CASES.filter((c) => c.opts.p === p).map((c, j) => ({ ...c, workers: workers(j) }));

/**
 * The bytes of fourfold/argon2's synchronous call, computed once per case
 * (by its opts: the same case on other workers shares them), and checked
 * against @noble/hashes' for the small ones (the larger ones' agreement is
 * test/argon2/differential.test.ts's).
 */
const expected = new WeakMap<Argon2Opts, Uint8Array>();
export function want(c: Case): Uint8Array {
  let tag = expected.get(c.opts);
  if (tag === undefined) {
    tag = SYNC[c.type](c.password, c.salt, c.opts);
    if (c.opts.t * c.opts.m <= 1024) assertBytes(tag, NOBLE[c.type](c.password, c.salt, c.opts), `${label(c)}: fourfold/argon2 and @noble/hashes differ`);
    expected.set(c.opts, tag);
  }
  return tag;
}

export const parallel = (c: Case, more: Partial<ParallelOpts> = {}): Promise<Uint8Array> =>
  PARALLEL[c.type](c.password, c.salt, { ...c.opts, workers: c.workers, ...more });

/** A call on more memory than the shared memory kept now (t = 1): it needs a new one. */
export function aboveSpare(p: number, type: Type = 'argon2id'): Case {
  const kept = spareSharedMemory()?.length ?? 0;
  const m = 4 * p * Math.ceil((kept / 1024 + 64) / (4 * p));
  return { type, password: rand(12), salt: rand(16), opts: { p, t: 1, m }, workers: 2 };
}

const heavyCases = new Map<string, Case>();
/** A call of some weight (12 slices of 64 blocks a lane), for the tests that need one in progress: one per p and type, on 3 workers. */
export function heavy(p: number, type: Type = 'argon2id'): Case {
  let c = heavyCases.get(`${p} ${type}`);
  if (c === undefined) {
    c = { type, password: rand(16), salt: rand(16), opts: { p, t: 3, m: 256 * p, personalization: rand(5) }, workers: 3 };
    heavyCases.set(`${p} ${type}`, c);
  }
  return c;
}

/** The jobs that reach a worker from now on, by their op. */
export function jobsOf(w: PoolWorker): { ops: string[]; restore(): void } {
  const ops: string[] = [];
  const call = w.call;
  w.call = function (this: PoolWorker, op: string, ...rest: unknown[]) {
    ops.push(op);
    return (call as (...a: unknown[]) => Promise<unknown>).call(this, op, ...rest);
  } as PoolWorker['call'];
  return { ops, restore: () => void delete (w as { call?: unknown }).call };
}

/** Progress reports that only rise, from 0 to 1, and end with exactly one 1. */
export function assertProgress(what: string, seen: number[]): void {
  assert.ok(seen.length >= 2, `${what}: ${seen.length} progress reports`);
  assert.equal(seen[seen.length - 1], 1, `${what}: the last report is ${seen[seen.length - 1]}`);
  assert.equal(seen.filter((f) => f === 1).length, 1, `${what}: 1 reported more than once`);
  assert.ok(seen[0]! > 0, `${what}: a first report of ${seen[0]}`);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! > seen[i - 1]!, `${what}: report ${i} is ${seen[i]}, after ${seen[i - 1]}`);
}
