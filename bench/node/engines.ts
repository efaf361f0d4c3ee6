/**
 * The engines a run can target. Each runs runBenchmark(config, onProgress)
 * (core/run.ts, plain JSON in and out): node in-process, every other engine
 * (node-current too) the bundle of bundle.ts through scripts/engines'
 * runner. An engine whose runner or binary is missing is reported and skipped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeError } from '../core/errors.js';
import type { BenchConfig, EngineResult, Progress } from '../core/types.js';
import { buildEngineEntry } from './bundle.js';

export const engineNames = ['node', 'node-current', 'deno', 'bun', 'chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof engineNames)[number];

export interface EngineDriver {
  /** Runs the core with `config` in the engine; progress as the core reports it. */
  run(config: BenchConfig, onProgress: (progress: Progress) => void): Promise<EngineResult>;
}

const nodeInProcess: EngineDriver = {
  async run(config, onProgress) {
    const { runBenchmark } = await import('../core/run.js');
    return runBenchmark(config, onProgress);
  },
};

type EngineRunner = typeof import('../../scripts/engines/run.js');

/** scripts/engines' runner, imported only when another engine runs, once the engine's binary is found. */
async function engineRunner(engine: EngineName): Promise<EngineRunner | { unavailable: string }> {
  const loaded = await Promise.all([import('../../scripts/engines/engines.js'), import('../../scripts/engines/run.js')]).catch((cause: unknown) => ({
    unavailable: `no engine runner (scripts/engines/run.ts: ${describeError(cause)})`,
  }));
  if ('unavailable' in loaded) return loaded;
  const [{ ENGINES, requireInstalled }, runner] = loaded;
  try {
    requireInstalled(ENGINES[engine]);
  } catch (cause) {
    return { unavailable: describeError(cause) };
  }
  return runner;
}

/** Bundle directories of runs under way: removed at exit too, as Ctrl-C ends the runner before a run's own cleanup. */
const bundleDirs = new Set<string>();
process.on('exit', () => {
  for (const dir of bundleDirs) rmSync(dir, { recursive: true, force: true });
});

/** The driver of an engine, or why there is none. */
export async function driverFor(engine: EngineName, timeoutMs: number): Promise<EngineDriver | { unavailable: string }> {
  if (engine === 'node') return nodeInProcess;
  const runner = await engineRunner(engine);
  if ('unavailable' in runner) return runner;
  return {
    async run(config, onProgress) {
      const dir = mkdtempSync(join(tmpdir(), `fourfold-bench-${engine}-`));
      bundleDirs.add(dir);
      try {
        const entry = await buildEngineEntry(dir, config);
        const outcome = await runner.runInEngine(engine, {
          entry,
          timeoutMs,
          onProgress: (message) => onProgress(JSON.parse(message) as Progress),
        });
        if (!outcome.ok) throw new Error(`${outcome.error ?? 'failed'}${outcome.log.length > 0 ? `\n${outcome.log.slice(-10).join('\n')}` : ''}`);
        return outcome.value as EngineResult;
      } finally {
        rmSync(dir, { recursive: true, force: true });
        bundleDirs.delete(dir);
      }
    },
  };
}
