/**
 * The longest block of the calling thread's event loop during Argon2id's
 * asynchronous calls (bench/harness/blocking.ts runs it, in any engine), as
 * core/scrypt-blocking.ts measures scrypt's: argon2idAsync, which fills
 * the memory on the calling thread in turns of a few milliseconds and
 * wipes it 16 MiB a turn, and fourfold/parallel's argon2id with one lane
 * (its lane on a worker, the calling thread free) and four (the calling
 * thread fills lanes too, in turns). The synchronous argon2id, one block
 * as long as the call, is measured beside them: the probe's check.
 *
 * No Node API, as everything under core/.
 */
import { type Blocking, type BlockingFunction, measureCalls } from './scrypt-blocking.js';

export interface Argon2BlockingOptions {
  /** Argon2id's m, in KiB: 2^18, 256 MiB, by default. */
  readonly m: number;
  /** Argon2id's passes: 1 by default (a block's length does not grow with them). */
  readonly t: number;
  /** Measured calls of each function, after one small call that compiles the kernel and starts the pool's workers. */
  readonly calls: number;
}

export interface Argon2BlockingResult {
  readonly m: number;
  readonly t: number;
  readonly tier: string;
  /** The pool's workers, ready, and why none if none, at the end. */
  readonly pool: { readonly workers: number; readonly ready: number; readonly failure?: string };
  readonly results: readonly Blocking[];
}

/** The functions' names, which bench/harness/blocking.ts holds to the long-task mark. */
export const ARGON2_ASYNC = 'argon2idAsync';
export const ARGON2_PARALLEL = "fourfold/parallel's argon2id";

export async function measureArgon2Blocking(options: Argon2BlockingOptions, progress: (message: string) => void = () => {}): Promise<Argon2BlockingResult> {
  const { ready } = await import('fourfold');
  const { argon2id, argon2idAsync } = await import('fourfold/argon2');
  const parallel = await import('fourfold/parallel');
  const tier = await ready();
  const password = 'correct horse battery staple';
  const salt = 'fourfold bench salt';
  // The default maxmem bounds m at 1 GiB; a larger m is asked for on purpose here.
  const maxmem = Math.max(2 ** 30 + 2 ** 16, options.m * 1024);
  const { m, t } = options;
  const functions: { name: string; p: number; call: (opts: { t: number; m: number; p: number; maxmem: number }) => Promise<unknown> }[] = [
    { name: 'argon2id (synchronous)', p: 1, call: async (o) => argon2id(password, salt, o) },
    { name: ARGON2_ASYNC, p: 1, call: (o) => argon2idAsync(password, salt, o) },
    { name: `${ARGON2_PARALLEL}, p = 1`, p: 1, call: (o) => parallel.argon2id(password, salt, o) },
    { name: `${ARGON2_PARALLEL}, p = 4`, p: 4, call: (o) => parallel.argon2id(password, salt, o) },
  ];
  const results: Blocking[] = [];
  for (const f of functions) {
    const measured: BlockingFunction = {
      name: f.name,
      pooled: f.name.startsWith('fourfold/parallel'),
      first: () => f.call({ t: 1, m: 1024, p: f.p, maxmem }),
      call: () => f.call({ t, m, p: f.p, maxmem }),
      size: `m = ${m} KiB, t = ${t}`,
    };
    results.push(await measureCalls(measured, options.calls, () => parallel.status().jobs, progress));
  }
  const { workers, ready: started, failure } = parallel.status();
  parallel.terminate();
  return { m, t, tier, pool: { workers, ready: started, ...(failure === undefined ? {} : { failure }) }, results };
}
