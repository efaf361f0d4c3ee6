/**
 * Setup cost, `import` to a first result, in fresh Node processes taking
 * turns (setup-probe.js); quartiles of each step. fourfold's init is
 * ready(), which decodes and compiles the kernels.
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
