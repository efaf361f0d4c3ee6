/**
 * The core's entry point: runBenchmark(config) runs the selected parts in
 * the engine it is loaded in and returns plain JSON. No platform API beyond
 * performance.now(), setTimeout and import(), so one bundle runs anywhere.
 */
import { runCase, shapeOf, type CaseContext, type SelectedOp } from './cases.js';
import { CostBook } from './costs.js';
import { crossOriginIsolated, describeEngine } from './engine-info.js';
import { loadLibraries, PARALLEL, type Library } from './libraries.js';
import { activate, sinkValue } from './measure.js';
import { allOps } from './ops/index.js';
import type { OpDefinition } from './ops/types.js';
import { logicalCores, longestTasks, parallelCosts, poolState } from './parallel.js';
import { runSweep, sweepLengths } from './sweep.js';
import { now, timerGranularityNs } from './timer.js';
import type {
  BenchConfig,
  CaseResult,
  CaseTiming,
  EngineResult,
  EngineStart,
  LongestTask,
  ParallelCosts,
  Part,
  PartialResult,
  PoolState,
  Progress,
  SweepResult,
} from './types.js';

export type { BenchConfig, EngineResult, Progress } from './types.js';

/** A rough cost of one call, only to weigh the progress bar: 500 ns plus 5 ns per byte. */
const roughCallMs = (size: number) => (500 + 5 * size) / 1e6;

/** Whether `op` is defined for messages of a size (OpDefinition.takesSize). */
function takes(op: SelectedOp): (size: number) => boolean {
  return (size) => op.definition.takesSize?.(size) ?? true;
}

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

/**
 * Ops in table order with the selected libraries in column order, and the
 * references among all loaded (config.references, else the established
 * peers); a sameCallsAs library is selected with the one it times.
 */
function selectOps(definitions: OpDefinition<unknown>[], libraries: Library[], config: BenchConfig): SelectedOp[] {
  const remember = rememberingLast();
  // An opt-in op (a platform reference line) only when named.
  const selectsOp = (d: OpDefinition<unknown>) =>
    config.ops === undefined ? d.optIn !== true : config.ops.some((name) => d.op === name || (config.exactOps !== true && d.op.startsWith(`${name}-`)));
  const rank = new Map(libraries.map((library, i) => [library.name, i]));
  // A worker-count column comes with the column it times the calls of; those on shared memory only when named (the benchmark page's).
  const left = (name: string | undefined) => name !== undefined && config.libsLeftOut?.includes(name) === true;
  const selectsLibrary = (library: Library) =>
    config.libs === undefined
      ? !left(library.name) && !left(library.sameCallsAs)
      : config.libs.includes(library.name) || (library.sameCallsAs !== undefined && library.shared !== true && config.libs.includes(library.sameCallsAs));
  const isReference = (name: string) => (config.references === undefined ? libraries[rank.get(name)!]!.reference : config.references.includes(name));
  const selected: SelectedOp[] = [];
  for (const definition of definitions.filter(selectsOp)) {
    const preference = (name: string) => config.references?.indexOf(name) ?? (name === definition.reference ? -1 : rank.get(name)!);
    const entries = definition.entries.flatMap((e) => [e, ...libraries.filter((l) => l.sameCallsAs === e.library).map((l) => ({ ...e, library: l.name }))]);
    const loaded = entries.filter((e) => rank.has(e.library)).sort((a, b) => rank.get(a.library)! - rank.get(b.library)!);
    const timed = loaded.filter((e) => selectsLibrary(libraries[rank.get(e.library)!]!));
    if (timed.length === 0) continue;
    const references = loaded.filter((e) => isReference(e.library)).sort((a, b) => preference(a.library) - preference(b.library));
    selected.push({ definition: remember(definition), timed, references });
  }
  return selected;
}

/** An op's own setting in `byOp` (BenchConfig.opSizes, opCapMs): the one for its name, else for its longest prefix there. */
function ownSetting<T>(op: string, byOp: Readonly<Record<string, T>> | undefined): T | undefined {
  const named = Object.keys(byOp ?? {}).filter((name) => op === name || op.startsWith(`${name}-`));
  const key = named.sort((a, b) => b.length - a.length)[0];
  return key === undefined ? undefined : byOp![key];
}

/** The sizes of an op's 'sizes' cases: its own (config.opSizes), else config.sizes. */
export function sizesOf(op: string, config: Pick<BenchConfig, 'sizes' | 'opSizes'>): readonly number[] {
  return ownSetting(op, config.opSizes) ?? config.sizes;
}

/** The cap of an op's 'sizes' cases: its own (config.opCapMs), else config.capMs. */
export function capOf(op: string, config: Pick<BenchConfig, 'capMs' | 'opCapMs'>): number {
  return ownSetting(op, config.opCapMs) ?? config.capMs;
}

/**
 * The op with only the columns timed at every one of `sizes`
 * (Library.takesSize, and Library.pooledFrom for a message size);
 * undefined when none is.
 */
function atSizes(op: SelectedOp, sizes: readonly number[], libraries: Map<string, Library>): SelectedOp | undefined {
  const message = op.definition.sizeIsMemory !== true;
  const timedAt = (library: Library, size: number) => (library.takesSize?.(size) ?? true) && (!message || size >= (library.pooledFrom ?? 0));
  const timed = op.timed.filter((e) => sizes.every((size) => timedAt(libraries.get(e.library)!, size)));
  return timed.length === 0 ? undefined : { ...op, timed };
}

/**
 * Definitions keeping the inputs they built last for the next task on the
 * same shape (a longest-task measurement follows the largest case, whose
 * 256 MiB take seconds to build); only the run's last inputs are kept.
 */
function rememberingLast(): (definition: OpDefinition<unknown>) => OpDefinition<unknown> {
  let last: { definition: OpDefinition<unknown>; size: number; inputs: unknown } | undefined;
  return (definition) => ({
    ...definition,
    inputs(shape) {
      if (last?.definition !== definition || last.size !== shape.size) {
        last = undefined; // the old inputs can go before the new ones are built
        last = { definition, size: shape.size, inputs: definition.inputs(shape) };
      }
      return last.inputs;
    },
  });
}

export async function runBenchmark(config: BenchConfig, onProgress: (progress: Progress) => void = () => {}): Promise<EngineResult> {
  const started = new Date();
  const t0 = now();
  const granularityNs = timerGranularityNs();
  const { libraries, apis, warnings, readyMs } = await loadLibraries({ ...config.versions }, config.parallel);
  const byName = new Map(libraries.map((l) => [l.name, l]));
  const unknown = config.libs?.filter((name) => !byName.has(name)) ?? [];
  if (unknown.length > 0) warnings.push(`not available in this engine: ${unknown.join(', ')} (available: ${libraries.map((l) => l.name).join(', ')})`);
  const ops = selectOps(allOps(apis), libraries, config);
  // The sweep is about messages: an op whose size is memory (scrypt), or a file's (age), has 'sizes' cases only.
  const messageOps = ops.filter((op) => op.definition.sizeIsMemory !== true && op.definition.sizesOnly !== true);

  // A coarse clock (a browser page that is not cross-origin isolated) needs
  // longer samples; the sweep then widens its stride to keep its duration.
  const sweepBaseNs = config.timing.sweep.minSampleUs * 1e3;
  const minSampleNs = Math.max(sweepBaseNs, 50 * granularityNs);
  const sweepStep = config.sweep.step * Math.max(1, Math.round(minSampleNs / sweepBaseNs));
  if (sweepStep !== config.sweep.step && config.parts.includes('sweep') && messageOps.length > 0)
    warnings.push(`coarse clock (${granularityNs.toFixed(0)} ns): sweep stride widened from ${config.sweep.step} to ${sweepStep}`);
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
  const pool = apis.fourfold?.parallel;
  const parallel: { cores: number; costs?: ParallelCosts; tasks: LongestTask[]; pool?: PoolState } = { cores: logicalCores(), tasks: [] };
  let parallelSent: PartialResult['parallel'];
  for (const op of ops) {
    if (wants('sizes')) {
      const capMs = capOf(op.definition.op, config);
      const own = { ...context, capMs };
      // Ascending, so that each size's costs predict the next one's (costs.ts).
      for (const size of [...sizesOf(op.definition.op, config)].sort((a, b) => a - b).filter(takes(op))) {
        const t = caseTiming(config.timing.sizes);
        const columns = atSizes(op, [size], byName);
        if (columns === undefined) continue;
        const weight = caseWeight(columns.timed.length, size, t);
        tasks.push({
          label: `sizes ${op.definition.op} ${size} B`,
          weight: capMs > 0 ? Math.min(weight, capMs) : weight,
          run: async (tick) => void cases.push(...(await runCase(columns, size, t, own, tick))),
        });
      }
    }
    // Right after the op's cases, whose largest inputs it takes over.
    const entry = op.timed.find((e) => e.library === PARALLEL);
    const size = config.parallel.taskSize;
    if (wants('parallel') && pool !== undefined && entry !== undefined && takes(op)(size)) {
      tasks.push({
        label: `parallel: longest task, ${op.definition.op} ${size} B`,
        weight: (config.parallel.taskCalls + 1) * roughCallMs(size),
        run: async () => {
          await activate(byName.get(PARALLEL)!);
          const call = entry.bind(op.definition.inputs(shapeOf(size)));
          const jobs = () => pool.status().jobs;
          const contended = () => pool.status().contended === true;
          parallel.tasks.push(await longestTasks(op.definition.op, size, call, config.parallel.taskCalls, jobs, contended));
          parallelSent = { cores: parallel.cores, tasks: parallel.tasks.slice(-1) };
        },
      });
    }
  }
  if (wants('parallel') && pool !== undefined) {
    tasks.push({
      label: 'parallel: copies and messages',
      weight: 10 * roughCallMs(config.parallel.chartSize),
      run: async () => {
        parallel.costs = await parallelCosts(pool.status().shared, config.parallel.chartSize);
        parallelSent = { cores: parallel.cores, costs: parallel.costs };
      },
    });
  }
  if (wants('sweep')) {
    for (const every of messageOps) {
      const t = config.timing.sweep;
      const opLengths = lengths.filter(takes(every));
      const op = atSizes(every, opLengths, byName);
      if (op === undefined) continue;
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

  const start: EngineStart = {
    engine: describeEngine(),
    timer: { granularityNs, crossOriginIsolated: crossOriginIsolated() },
    readyMs,
    libraries: libraries.map(({ name, version, workers, shared }) => ({
      name,
      version,
      ...(workers === undefined ? {} : { workers }),
      ...(shared === true ? { shared } : {}),
    })),
    started: started.toISOString(),
    sweepStep,
  };
  // Results go out as soon as each task ends (with the warnings so far), so
  // that the runner can write a report of a run stopped half-way.
  let sent = { cases: 0, sweeps: 0, warnings: 0 };
  const results = (): PartialResult => {
    const fresh = { cases: cases.slice(sent.cases), sweeps: sweeps.slice(sent.sweeps), warnings: warnings.slice(sent.warnings), parallel: parallelSent };
    sent = { cases: cases.length, sweeps: sweeps.length, warnings: warnings.length };
    parallelSent = undefined;
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
  // The pool's state once everything ran: whether it had workers, and why not.
  if (wants('parallel') && pool !== undefined) parallel.pool = poolState(pool.status());
  onProgress({ fraction: 1, label: 'done', results: wants('parallel') ? { parallel: { cores: parallel.cores, pool: parallel.pool } } : undefined });

  const measuredParallel = wants('parallel') && pool !== undefined ? { parallel } : {};
  return { ...start, warnings, seconds: (now() - t0) / 1000, cases, sweeps, ...measuredParallel, sink: sinkValue() };
}
