/**
 * The longest block of the calling thread's event loop during the KDFs'
 * asynchronous calls (bench/harness/blocking.ts runs it, in any engine): a
 * probe takes every turn it can (core/parallel.ts longestTask), and each
 * synchronous call, one block as long as the call, is the probe's check.
 * No Node API, as everything under core/.
 */
import { describeError } from './errors.js';
import { longestTask } from './parallel.js';
import { median } from './stats.js';

export interface BlockingOptions {
  readonly kdf: 'scrypt' | 'argon2';
  /** Measured calls of each function, after one small call that compiles the kernel and starts the pool's workers. */
  readonly calls: number;
  /** scrypt's N (r = 8, p = 1): 2^20 is a lane of 1 GiB. */
  readonly N: number;
  /** Argon2id's m, in KiB, and its passes (a block's length does not grow with them). */
  readonly m: number;
  readonly t: number;
}

/** One function's calls. */
export interface Blocking {
  readonly name: string;
  /** Whether its calls are held to the browsers' long-task mark (the asynchronous ones that should never block that long). */
  readonly held: boolean;
  /** Per call: the longest gap between two turns of the event loop, in ms. */
  readonly longestMs: readonly number[];
  /** Per call: its duration, in ms. */
  readonly callMs: readonly number[];
  /** Per call: jobs the pool's workers completed during it (fourfold/parallel only). */
  readonly jobs?: readonly number[];
  readonly error?: string;
}

export interface BlockingResult {
  /** What was measured: 'scrypt at N = 2^20, r = 8, p = 1'. */
  readonly heading: string;
  readonly tier: string;
  /** The pool's workers, ready, and why none if none, at the end. */
  readonly pool: { readonly workers: number; readonly ready: number; readonly failure?: string };
  readonly results: readonly Blocking[];
}

/** The medians of a function's calls: '12.3 ms longest block (calls: 11.9, 12.3, 14.0), 1.85 s a call'. */
export function describeBlocking(b: Blocking): string {
  if (b.error !== undefined) return `${b.name}: ${b.error}`;
  const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);
  const jobs = b.jobs === undefined ? '' : `, worker jobs ${b.jobs.join(', ')}`;
  return (
    `${b.name}: longest block ${ms(median(b.longestMs))} median (calls: ${b.longestMs.map((x) => x.toFixed(1)).join(', ')} ms), ` +
    `${ms(median(b.callMs))} a call${jobs}`
  );
}

/** A function whose calls are measured: `call(true)` is the first, small call (the kernel compiled, the pool's worker started). */
interface BlockingFunction {
  readonly name: string;
  readonly held: boolean;
  readonly call: (first: boolean) => Promise<unknown>;
}

/** `calls` measured calls of `f`; `jobs`: the pool's completed jobs so far. A call that throws ends them, as the result's error. */
async function measureCalls(f: BlockingFunction, calls: number, size: string, jobs: () => number, progress: (message: string) => void): Promise<Blocking> {
  const pooled = f.name.startsWith('fourfold/parallel');
  const result = { name: f.name, held: f.held, longestMs: [] as number[], callMs: [] as number[], ...(pooled ? { jobs: [] as number[] } : {}) };
  try {
    progress(`${f.name}: a first call`);
    await f.call(true);
    for (let i = 0; i < calls; i++) {
      progress(`${f.name}: call ${i + 1} of ${calls} (${size})`);
      const before = jobs();
      const taken = await longestTask(() => f.call(false));
      result.longestMs.push(taken.longestMs);
      result.callMs.push(taken.callMs);
      result.jobs?.push(jobs() - before);
    }
    return result;
  } catch (cause) {
    return { ...result, error: describeError(cause) };
  }
}

const password = 'correct horse battery staple';
const salt = 'fourfold bench salt';

/** The KDF's functions, what their calls are given (for the progress lines) and the heading. */
async function functionsOf(o: BlockingOptions, parallel: typeof import('fourfold/parallel')) {
  if (o.kdf === 'scrypt') {
    const { scrypt, scryptAsync } = await import('fourfold/scrypt');
    const N = (first: boolean) => (first ? 1024 : o.N);
    const functions: BlockingFunction[] = [
      { name: 'scrypt (synchronous)', held: false, call: async (first) => scrypt(password, salt, { N: N(first) }) },
      { name: 'scryptAsync', held: true, call: (first) => scryptAsync(password, salt, { N: N(first) }) },
      { name: "fourfold/parallel's scrypt", held: false, call: (first) => parallel.scrypt(password, salt, { N: N(first) }) },
    ];
    return { size: `N = 2^${Math.log2(o.N)}`, heading: `scrypt at N = 2^${Math.log2(o.N)}, r = 8, p = 1`, functions };
  }
  const { argon2id, argon2idAsync } = await import('fourfold/argon2');
  // The default maxmem bounds m at 1 GiB; a larger m is asked for on purpose here.
  const maxmem = Math.max(2 ** 30 + 2 ** 16, o.m * 1024);
  const at = (first: boolean, p: number) => (first ? { t: 1, m: 1024, p, maxmem } : { t: o.t, m: o.m, p, maxmem });
  const functions: BlockingFunction[] = [
    { name: 'argon2id (synchronous)', held: false, call: async (first) => argon2id(password, salt, at(first, 1)) },
    { name: 'argon2idAsync', held: true, call: (first) => argon2idAsync(password, salt, at(first, 1)) },
    ...[1, 4].map((p) => ({
      name: `fourfold/parallel's argon2id, p = ${p}`,
      held: true,
      call: (first: boolean) => parallel.argon2id(password, salt, at(first, p)),
    })),
  ];
  return { size: `m = ${o.m} KiB, t = ${o.t}`, heading: `argon2id at m = ${o.m / 1024} MiB, t = ${o.t}`, functions };
}

export async function measureBlocking(options: BlockingOptions, progress: (message: string) => void = () => {}): Promise<BlockingResult> {
  const { ready } = await import('fourfold');
  const parallel = await import('fourfold/parallel');
  const tier = await ready();
  const { size, heading, functions } = await functionsOf(options, parallel);
  const results: Blocking[] = [];
  for (const f of functions) results.push(await measureCalls(f, options.calls, size, () => parallel.status().jobs, progress));
  const { workers, ready: started, failure } = parallel.status();
  parallel.terminate();
  return { heading, tier, pool: { workers, ready: started, ...(failure === undefined ? {} : { failure }) }, results };
}
