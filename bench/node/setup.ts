/**
 * Setup cost: how long a fresh context takes from `import` to a first
 * result. Each library's probe (setup-probe.js) runs in a new Node process,
 * over and over, the libraries taking turns; the report keeps the
 * quartiles of each step. For fourfold, init is `await ready()`, which
 * decodes and compiles the WebAssembly kernels.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describeError } from '../core/errors.js';
import { quartiles, type Quartiles } from '../core/stats.js';

const run = promisify(execFile);
const probe = fileURLToPath(new URL('./setup-probe.js', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

export const setupLibraries = ['fourfold', 'fourfold-js', 'noble', 'sodium'] as const;

interface ProbeSample {
  readonly importMs: number;
  readonly initMs: number;
  readonly firstCallMs: number;
  readonly totalMs: number;
  /** From spawning the process to its exit, as the parent sees it: includes starting Node. */
  readonly processMs: number;
}

export interface SetupResult {
  readonly runtime: string;
  readonly repetitions: number;
  readonly libraries: {
    readonly library: string;
    readonly samples: ProbeSample[];
    readonly quartiles: Record<keyof ProbeSample, Quartiles>;
    readonly error?: string;
  }[];
}

export async function measureSetup(repetitions: number, onStep: (done: number, total: number) => void): Promise<SetupResult> {
  const samples = new Map<string, ProbeSample[]>(setupLibraries.map((l) => [l, []]));
  const errors = new Map<string, string>();
  const total = repetitions * setupLibraries.length;
  let done = 0;
  for (let r = 0; r < repetitions; r++) {
    for (const library of setupLibraries) {
      if (errors.has(library)) continue;
      const start = performance.now();
      try {
        const { stdout } = await run(process.execPath, [probe, library], { cwd: root });
        const processMs = performance.now() - start;
        samples.get(library)!.push({ ...(JSON.parse(stdout) as Omit<ProbeSample, 'processMs'>), processMs });
      } catch (cause) {
        errors.set(library, describeError(cause));
      }
      onStep(++done, total);
    }
  }
  const keys = ['importMs', 'initMs', 'firstCallMs', 'totalMs', 'processMs'] as const;
  return {
    runtime: `node ${process.version}`,
    repetitions,
    libraries: setupLibraries.map((library) => {
      const s = samples.get(library)!;
      return {
        library,
        samples: s,
        quartiles: Object.fromEntries(keys.map((k) => [k, quartiles(s.map((x) => x[k]))])) as Record<keyof ProbeSample, Quartiles>,
        error: errors.get(library),
      };
    }),
  };
}
