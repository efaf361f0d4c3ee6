/**
 * The benchmark core's entry point: runBenchmark(config) runs every
 * selected part in the engine it is loaded in and returns the result as
 * plain JSON. It uses no platform API beyond performance.now(), setTimeout
 * and dynamic import, so the same module (bundled by bench/node/bundle.ts)
 * runs in Node, Deno, Bun and browsers; the Node-side runner does
 * everything else (options, files, machine, setup time, code size).
 */
import { runCase, type CaseContext, type SelectedOp } from './cases.js';
import { CostBook } from './costs.js';
import { crossOriginIsolated, describeEngine } from './engine-info.js';
import { loadLibraries, type Library } from './libraries.js';
import { sinkValue } from './measure.js';
import { allOps } from './ops/index.js';
import type { OpDefinition } from './ops/types.js';
import { runSweep, sweepLengths } from './sweep.js';
import { now, timerGranularityNs } from './timer.js';
import type { BenchConfig, CaseResult, CaseTiming, EngineResult, EngineStart, Part, PartialResult, Progress, SweepResult } from './types.js';

export type { BenchConfig, EngineResult, Progress } from './types.js';

/** A rough cost of one call, only to weigh the progress bar: 500 ns plus 5 ns per byte. */
const roughCallMs = (size: number) => (500 + 5 * size) / 1e6;

/** Whether `op` is defined for messages of a size (OpDefinition.takesSize). */
const takes = (op: SelectedOp) => (size: number): boolean => op.definition.takesSize?.(size) ?? true;

function caseWeight(subjects: number, size: number, t: CaseTiming): number {
  const roundMs = subjects * Math.max(t.sampleMs, roughCallMs(size));
  const rounds = Math.max(t.minSamples, Math.min(t.samples, Math.floor(t.budgetMs / roundMs)));
  return subjects * Math.max(t.warmupMs, 2 * roughCallMs(size)) + rounds * roundMs;
}

interface Task {
  readonly label: string;
  /** Estimated milliseconds, for the progress bar only. */
  readonly weight: number;
  run(tick: (fraction: number, label?: string) => Promise<void>): Promise<void>;
}

/** Ops in table order with the selected libraries in column order, and the references among all loaded ones. */
function selectOps(definitions: OpDefinition<unknown>[], libraries: Library[], config: BenchConfig): SelectedOp[] {
  const selectsOp = (op: string) => config.ops === undefined || config.ops.some((name) => op === name || op.startsWith(`${name}-`));
  const rank = new Map(libraries.map((library, i) => [library.name, i]));
  const selected: SelectedOp[] = [];
  for (const definition of definitions.filter((d) => selectsOp(d.op))) {
    const loaded = definition.entries.filter((e) => rank.has(e.library)).sort((a, b) => rank.get(a.library)! - rank.get(b.library)!);
    const timed = loaded.filter((e) => config.libs === undefined || config.libs.includes(e.library));
    if (timed.length === 0) continue;
    const references = loaded.filter((e) => libraries[rank.get(e.library)!]!.reference);
    selected.push({ definition, timed, references });
  }
  return selected;
}

export async function runBenchmark(config: BenchConfig, onProgress: (progress: Progress) => void = () => {}): Promise<EngineResult> {
  const started = new Date();
  const t0 = now();
  const granularityNs = timerGranularityNs();
  const { libraries, apis, warnings, readyMs } = await loadLibraries({ ...config.versions });
  const byName = new Map(libraries.map((l) => [l.name, l]));
  const unknown = config.libs?.filter((name) => !byName.has(name)) ?? [];
  if (unknown.length > 0) warnings.push(`not available in this engine: ${unknown.join(', ')} (available: ${libraries.map((l) => l.name).join(', ')})`);
  const ops = selectOps(allOps(apis), libraries, config);

  // A coarse clock (a browser page that is not cross-origin isolated) needs
  // longer samples; the sweep then widens its stride to keep its duration.
  const sweepBaseNs = config.timing.sweep.minSampleUs * 1e3;
  const minSampleNs = Math.max(sweepBaseNs, 50 * granularityNs);
  const sweepStep = config.sweep.step * Math.max(1, Math.round(minSampleNs / sweepBaseNs));
  if (sweepStep !== config.sweep.step) warnings.push(`coarse clock (${granularityNs.toFixed(0)} ns): sweep stride widened from ${config.sweep.step} to ${sweepStep}`);
  const lengths = sweepLengths(config.sweep.from, config.sweep.to, sweepStep);
  // Cases keep samples 20 clock steps long: the clock's phase is random, so
  // the ±1-step error of each sample averages out over the samples.
  const caseTiming = (t: CaseTiming): CaseTiming => ({ ...t, sampleMs: Math.max(t.sampleMs, (20 * granularityNs) / 1e6) });
  // The progress bar's estimate of a case (a library's share of a sweep) never exceeds the cap.
  const capped = (weight: number) => (config.capMs > 0 ? Math.min(weight, config.capMs) : weight);

  const cases: CaseResult[] = [];
  const sweeps: SweepResult[] = [];
  const context: CaseContext = { libraries: byName, costs: new CostBook(), capMs: config.capMs, warn: (message) => warnings.push(message) };
  const tasks: Task[] = [];
  const wants = (part: Part) => config.parts.includes(part);
  if (wants('sizes')) {
    for (const op of ops) {
      // Ascending, so that each size's costs predict the next one's (costs.ts).
      for (const size of [...config.sizes].sort((a, b) => a - b).filter(takes(op))) {
        const t = caseTiming(config.timing.sizes);
        tasks.push({
          label: `sizes ${op.definition.op} ${size} B`,
          weight: capped(caseWeight(op.timed.length, size, t)),
          run: async (tick) => void cases.push(...(await runCase('sizes', op, [{ size, offset: 0, keys: 1 }], t, context, tick))),
        });
      }
    }
  }
  if (wants('sweep')) {
    for (const op of ops) {
      const t = config.timing.sweep;
      const opLengths = lengths.filter(takes(op));
      // A sample: its batch (one call at least), a share of the untimed
      // call made at each length, and a few µs around it.
      const perPass = opLengths.reduce(
        (sum, length) => sum + Math.max(minSampleNs / 1e6, roughCallMs(length)) + roughCallMs(length) / op.timed.length + 0.003,
        0,
      );
      tasks.push({
        label: `sweep ${op.definition.op}`,
        weight: op.timed.length * capped(t.warmupMs + t.passes * perPass),
        run: async (tick) => void sweeps.push(...(await runSweep(op, opLengths, t, minSampleNs, context, (f, label) => tick(f, label)))),
      });
    }
  }
  if (wants('align')) {
    const offsets = [0, ...config.offsets.filter((o) => o !== 0)];
    for (const op of ops) {
      for (const size of config.alignSizes.filter(takes(op))) {
        const t = caseTiming(config.timing.align);
        tasks.push({
          label: `align ${op.definition.op} ${size} B`,
          weight: capped(caseWeight(op.timed.length * offsets.length, size, t)),
          run: async (tick) =>
            void cases.push(...(await runCase('align', op, offsets.map((offset) => ({ size, offset, keys: 1 })), t, context, tick))),
        });
      }
    }
  }
  if (wants('keys')) {
    // All key counts of an op in one case, interleaved like the offsets:
    // on a shared machine, cases run minutes apart are not comparable.
    for (const op of ops.filter((op) => takes(op)(config.keySize))) {
      const t = caseTiming(config.timing.keys);
      const shapes = config.keyCounts.map((keys) => ({ size: config.keySize, offset: 0, keys }));
      tasks.push({
        label: `keys ${op.definition.op}`,
        // Building a million keys (and sealing a million messages) takes seconds.
        weight: capped(caseWeight(op.timed.length * shapes.length, config.keySize, t)) + config.keyCounts.reduce((sum, n) => sum + n * 0.003, 0),
        run: async (tick) => void cases.push(...(await runCase('keys', op, shapes, t, context, tick))),
      });
    }
  }

  const start: EngineStart = {
    engine: describeEngine(),
    timer: { granularityNs, crossOriginIsolated: crossOriginIsolated() },
    readyMs,
    libraries: libraries.map(({ name, version }) => ({ name, version })),
    started: started.toISOString(),
    sweepStep,
  };
  // Results go out as soon as each task ends (with the warnings so far), so
  // that the runner can write a report of a run stopped half-way.
  let sent = { cases: 0, sweeps: 0, warnings: 0 };
  const results = (): PartialResult => {
    const fresh = { cases: cases.slice(sent.cases), sweeps: sweeps.slice(sent.sweeps), warnings: warnings.slice(sent.warnings) };
    sent = { cases: cases.length, sweeps: sweeps.length, warnings: warnings.length };
    return fresh;
  };
  onProgress({ fraction: 0, label: 'start', results: { start, ...results() } });

  // Progress goes out at most every 250 ms, each time after yielding to the
  // event loop, so that a browser page stays responsive to its driver (and
  // the Node runner to Ctrl-C).
  const total = tasks.reduce((sum, task) => sum + task.weight, 0) || 1;
  let done = 0;
  let lastReport = -Infinity;
  for (const task of tasks) {
    const tick = async (fraction: number, label = task.label) => {
      if (now() - lastReport < 250) return;
      await new Promise((resolve) => setTimeout(resolve, 0));
      lastReport = now();
      onProgress({ fraction: Math.min(1, (done + fraction * task.weight) / total), label });
    };
    await tick(0);
    await task.run(tick);
    done += task.weight;
    onProgress({ fraction: Math.min(1, done / total), label: task.label, results: results() });
  }
  onProgress({ fraction: 1, label: 'done' });

  return { ...start, warnings, seconds: (now() - t0) / 1000, cases, sweeps, sink: sinkValue() };
}
