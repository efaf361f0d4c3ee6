/**
 * What the parallel profile measures, in any engine with fourfold/parallel:
 * each operation at each size, synchronous and parallel (the default
 * pool, and every worker count up to a maximum), the longest task on the
 * calling thread during a parallel call, and the costs of the model
 * (model.ts): the copies through a slot and the calling thread's time per
 * job.
 */
import type * as Fourfold from 'fourfold';
import type * as Parallel from 'fourfold/parallel';
import { median } from '../core/stats.js';
import type { Costs } from './model.js';

/** An operation in both forms, on inputs made for a size. */
export interface ParallelOp {
  readonly name: string;
  /** The synchronous call and the parallel one on the same input, made once per size. */
  bind(bytes: number): { sync(): unknown; parallel(): Promise<unknown> };
}

const PIECE = 1 << 20;

/** The operations of issue 17's targets (and a few more), over inputs of `bytes` bytes. */
export function parallelOps(F: typeof Fourfold, P: typeof Parallel): ParallelOp[] {
  const key = new Uint8Array(32).fill(7);
  const n12 = new Uint8Array(12).fill(1);
  const n24 = new Uint8Array(24).fill(2);
  const iv = new Uint8Array(16).fill(3);
  const data = (bytes: number) => {
    const d = new Uint8Array(bytes);
    for (let i = 0; i < bytes; i += 4096) d[i] = i >>> 12;
    return d;
  };
  const shared = (bytes: number) => new Uint8Array(new SharedArrayBuffer(bytes));
  const ops: ParallelOp[] = [
    { name: 'chacha20', bind: (b) => ((m) => ({ sync: () => F.chacha20(key, n12, m), parallel: () => P.chacha20(key, n12, m) }))(data(b)) },
    { name: 'poly1305', bind: (b) => ((m) => ({ sync: () => F.poly1305(m, key), parallel: () => P.poly1305(m, key) }))(data(b)) },
    {
      name: 'xchacha20poly1305-encrypt',
      bind: (b) => ((m) => ({ sync: () => F.xchacha20poly1305(key, n24).encrypt(m), parallel: () => P.xchacha20poly1305(key, n24).encrypt(m) }))(data(b)),
    },
    {
      name: 'xchacha20poly1305-decrypt',
      bind: (b) =>
        ((c) => ({ sync: () => F.xchacha20poly1305(key, n24).decrypt(c), parallel: () => P.xchacha20poly1305(key, n24).decrypt(c) }))(
          F.xchacha20poly1305(key, n24).encrypt(data(b)),
        ),
    },
    {
      name: 'chacha20poly1305-encrypt',
      bind: (b) => ((m) => ({ sync: () => F.chacha20poly1305(key, n12).encrypt(m), parallel: () => P.chacha20poly1305(key, n12).encrypt(m) }))(data(b)),
    },
    {
      name: 'xsalsa20poly1305-encrypt',
      bind: (b) => ((m) => ({ sync: () => F.xsalsa20poly1305(key, n24).encrypt(m), parallel: () => P.xsalsa20poly1305(key, n24).encrypt(m) }))(data(b)),
    },
    { name: 'blake3', bind: (b) => ((m) => ({ sync: () => F.blake3(m), parallel: () => P.blake3(m) }))(data(b)) },
    { name: 'serpent-ctr', bind: (b) => ((m) => ({ sync: () => F.serpent.ctr(key, iv).encrypt(m), parallel: () => P.serpent.ctr(key, iv).encrypt(m) }))(data(b)) },
  ];
  if (typeof SharedArrayBuffer === 'function') {
    ops.push({
      name: 'chacha20 (shared in and out)',
      bind: (b) => {
        const m = shared(b);
        m.set(data(b));
        const out = shared(b);
        return { sync: () => F.chacha20(key, n12, m, out), parallel: () => P.chacha20(key, n12, m, out) };
      },
    });
  }
  return ops;
}

/** Runs `f` while timing the gaps between turns of the event loop; resolves to the longest gap in ms. */
export async function longestTask(f: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const turn = typeof setImmediate === 'function' ? (g: () => void) => setImmediate(g) : (g: () => void) => setTimeout(g, 0);
  const probe = () => {
    const t = performance.now();
    longest = Math.max(longest, t - last);
    last = t;
    if (running) turn(probe);
  };
  turn(probe);
  try {
    await f();
  } finally {
    running = false;
  }
  probe();
  return longest;
}

/** Medians of `runs` interleaved runs of the synchronous and the parallel call. */
export async function syncAndParallel(bound: { sync(): unknown; parallel(): Promise<unknown> }, runs: number): Promise<{ syncMs: number; parallelMs: number }> {
  bound.sync();
  await bound.parallel();
  const s: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    bound.sync();
    s.push(performance.now() - t);
    t = performance.now();
    await bound.parallel();
    p.push(performance.now() - t);
  }
  return { syncMs: median(s), parallelMs: median(p) };
}

/**
 * The model's costs on this thread for `bytes` bytes of an operation whose
 * synchronous time is `w`: c from copying pieces into a slot and back
 * (plain to shared memory, as the pool does), m from jobs that do no work
 * (a zero-byte Poly1305 polynomial), three in flight, as the pool keeps them.
 */
export async function modelCosts(P: typeof Parallel, w: number, bytes: number, pieceJob: () => Promise<unknown>): Promise<Costs> {
  const src = new Uint8Array(PIECE);
  const slot = new Uint8Array(typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(PIECE) : new ArrayBuffer(PIECE));
  const copies: number[] = [];
  for (let i = 0; i < 41; i++) {
    const t = performance.now();
    slot.set(src);
    src.set(slot);
    copies.push(performance.now() - t);
  }
  const jobs: number[] = [];
  for (let round = 0; round < 9; round++) {
    const t = performance.now();
    await Promise.all([pieceJob(), pieceJob(), pieceJob()]);
    jobs.push((performance.now() - t) / 3);
  }
  void P;
  return { w, c: median(copies) / PIECE, m: median(jobs), bytes, piece: PIECE };
}
