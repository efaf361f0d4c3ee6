/**
 * The longest block of the calling thread's event loop during scrypt's
 * asynchronous calls (bench/harness/blocking.ts runs it, in any engine):
 * scryptAsync, which works on the calling thread in short turns, and
 * fourfold/parallel's scrypt, whose lane runs on a worker (p = 1). A probe
 * takes every turn of the event loop it can (setImmediate, else a message
 * to itself: core/parallel.ts longestTask), and a call's longest block is
 * the longest gap between two of its turns, against the browsers'
 * long-task mark of 50 ms. The synchronous scrypt, one block as long as
 * the call, is measured the same way beside them: the probe's check.
 *
 * No Node API, as everything under core/.
 */
import { longestTask } from './parallel.js';
import { describeError } from './errors.js';
import { median } from './stats.js';

export interface BlockingOptions {
  /** scrypt's N (r = 8, p = 1): 2^20, a lane of 1 GiB, by default. */
  readonly N: number;
  /** Measured calls of each function, after one small call that compiles the kernel and starts the pool's worker. */
  readonly calls: number;
}

/** One function's calls. */
export interface Blocking {
  readonly name: string;
  /** Per call: the longest gap between two turns of the event loop, in ms. */
  readonly longestMs: readonly number[];
  /** Per call: its duration, in ms. */
  readonly callMs: readonly number[];
  /** Per call: jobs the pool's workers completed during it (fourfold/parallel only). */
  readonly jobs?: readonly number[];
  readonly error?: string;
}

export interface BlockingResult {
  readonly N: number;
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

/** A function whose calls are measured: a first small call (the kernel compiled, the pool's worker started), then the measured ones. */
export interface BlockingFunction {
  readonly name: string;
  /** fourfold/parallel's: the jobs its workers complete during each call are counted. */
  readonly pooled: boolean;
  readonly first: () => Promise<unknown>;
  readonly call: () => Promise<unknown>;
  /** Of the measured call, for the progress lines: 'N = 2^20'. */
  readonly size: string;
}

/** `calls` measured calls of `f`; `jobs`: the pool's completed jobs so far. A call that throws ends them, as the result's error. */
export async function measureCalls(f: BlockingFunction, calls: number, jobs: () => number, progress: (message: string) => void): Promise<Blocking> {
  const result = { name: f.name, longestMs: [] as number[], callMs: [] as number[], ...(f.pooled ? { jobs: [] as number[] } : {}) };
  try {
    progress(`${f.name}: a first call`);
    await f.first();
    for (let i = 0; i < calls; i++) {
      progress(`${f.name}: call ${i + 1} of ${calls} (${f.size})`);
      const before = jobs();
      const taken = await longestTask(f.call);
      result.longestMs.push(taken.longestMs);
      result.callMs.push(taken.callMs);
      result.jobs?.push(jobs() - before);
    }
    return result;
  } catch (cause) {
    return { ...result, error: describeError(cause) };
  }
}

export async function measureScryptBlocking(options: BlockingOptions, progress: (message: string) => void = () => {}): Promise<BlockingResult> {
  const { ready } = await import('fourfold');
  const { scrypt, scryptAsync } = await import('fourfold/scrypt');
  const parallel = await import('fourfold/parallel');
  const tier = await ready();
  const password = 'correct horse battery staple';
  const salt = 'fourfold bench salt';
  const functions: { name: string; call: (N: number) => Promise<unknown> }[] = [
    { name: 'scrypt (synchronous)', call: async (N) => scrypt(password, salt, { N }) },
    { name: 'scryptAsync', call: (N) => scryptAsync(password, salt, { N }) },
    { name: "fourfold/parallel's scrypt", call: (N) => parallel.scrypt(password, salt, { N }) },
  ];
  const results: Blocking[] = [];
  for (const f of functions) {
    const measured: BlockingFunction = {
      name: f.name,
      pooled: f.name.startsWith('fourfold/parallel'),
      first: () => f.call(1024),
      call: () => f.call(options.N),
      size: `N = 2^${Math.log2(options.N)}`,
    };
    results.push(await measureCalls(measured, options.calls, () => parallel.status().jobs, progress));
  }
  const { workers, ready: started, failure } = parallel.status();
  parallel.terminate();
  return { N: options.N, tier, pool: { workers, ready: started, ...(failure === undefined ? {} : { failure }) }, results };
}
