/**
 * What the tests of fourfold/parallel under faults share (faults-ended,
 * faults-inputs and faults-bounds.test.ts): whether shared memory and a
 * second writer thread are here, keys and nonces, shared views, the pool
 * put back after a file's tests, and a bound on a call that must settle.
 */
import * as P from 'fourfold/parallel';
import { rand } from '../helpers.js';
import { workersAsUsual } from './pool-helpers.js';

export const MiB = 1 << 20;
const HAS_SAB = typeof SharedArrayBuffer === 'function';
export const NO_SAB = HAS_SAB ? false : 'not applicable: this engine (or page) has no SharedArrayBuffer';
const IN_BROWSER = typeof (globalThis as { window?: unknown }).window === 'object';
const HAS_BUILTINS = typeof process === 'object' && typeof process.getBuiltinModule === 'function';
export const NODE_THREADS = IN_BROWSER || !HAS_BUILTINS ? 'not applicable: needs node:worker_threads for a second writer thread' : false;

/** The pool as before a file's tests, for its after(): no configured size, no workers, the scheduler's usual judgement. */
export function poolAsUsual(): void {
  P.configure({ workers: undefined });
  P.terminate();
  workersAsUsual();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A view of `length` bytes at `offset` in a new SharedArrayBuffer, holding `bytes` when given. */
export function shared(length: number, offset = 8, bytes?: Uint8Array): Uint8Array {
  const view = new Uint8Array(new SharedArrayBuffer(offset + length + 64), offset, length);
  if (bytes !== undefined) view.set(bytes);
  return view;
}

export const key = rand(32);
export const n8 = rand(8);
export const n12 = rand(12);
export const n16 = rand(16);
export const n24 = rand(24);
export const aad = rand(11);

/** Settles within `ms`, or fails the test: a call or stream that never settles is a hang. */
export async function settles<T>(label: string, p: Promise<T>, ms = 20_000): Promise<PromiseSettledResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${label}: did not settle in ${ms} ms`)), ms)));
  try {
    return (await Promise.race([Promise.allSettled([p]).then((r) => r[0]!), timeout])) as PromiseSettledResult<T>;
  } finally {
    clearTimeout(timer);
  }
}
