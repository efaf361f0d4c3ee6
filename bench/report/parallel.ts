/**
 * fourfold/parallel's report: speedups, the model's costs and projection
 * beside the measurement, the longest task, the pool in each engine.
 */
import { median } from '../core/stats.js';
import { PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED } from '../core/libraries.js';
import type { EngineReport } from './json.js';
import { boundSpeedup, copyPasses, projectedSpeedup, type Costs, type Variant } from './model.js';
import { formatSize, formatTime } from './summary.js';
import type { Table } from './tables.js';

/** The cores the model projects to: a 2-core machine's, then 4, 8 and 16. */
export const PROJECTED_CORES = [2, 4, 8, 16];
/** The browsers' long-task threshold: a task this long or longer is a long task. */
export const LONG_TASK_MS = 50;

const times = (v: number) => `${v >= 10 ? v.toFixed(1) : v.toFixed(2)}×`;
/** Picoseconds per byte, the median of samples in ns per byte. */
const ps = (nsPerByte: readonly number[]) => (median(nsPerByte) * 1e3).toFixed(0);
const ms = (v: number) => `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ms`;

/** A library's median ns per call in a 'sizes' case, if it was timed there. */
function medianNs(engine: EngineReport, op: string, library: string, size: number): number | undefined {
  return engine.cases.find((c) => c.part === 'sizes' && c.op === op && c.library === library && c.size === size)?.ns?.median;
}

/** The ops and sizes where fourfold/parallel was timed against the synchronous function. */
function parallelCases(engine: EngineReport): { ops: string[]; sizes: number[] } {
  const timed = engine.cases.filter((c) => c.part === 'sizes' && c.library === PARALLEL && c.ns !== undefined);
  return { ops: [...new Set(timed.map((c) => c.op))], sizes: [...new Set(timed.map((c) => c.size))].sort((a, b) => a - b) };
}

/** The synchronous time over the parallel one: above 1, the parallel call is faster. */
export function speedup(engine: EngineReport, op: string, size: number, library = PARALLEL): number | undefined {
  const sync = medianNs(engine, op, 'fourfold', size);
  const parallel = medianNs(engine, op, library, size);
  return sync === undefined || parallel === undefined ? undefined : sync / parallel;
}

/** The three ways of calling fourfold/parallel, their columns, and the synchronous call each is compared with. */
const VARIANTS: readonly { variant: Variant; label: string; column: string }[] = [
  { variant: 'new', label: 'new output', column: PARALLEL },
  { variant: 'reused', label: 'reused output', column: PARALLEL_REUSED },
  { variant: 'shared', label: 'shared memory', column: PARALLEL_SHARED },
];

/** A variant's speedup over the synchronous function, like for like: a new output for plain arrays, 'fourfold (output)' for the others. */
function variantSpeedup(engine: EngineReport, op: string, size: number, variant: Variant, column: string): { s: number; ns: number } | undefined {
  const base = variant !== 'new' && medianNs(engine, op, 'fourfold (output)', size) !== undefined ? 'fourfold (output)' : 'fourfold';
  const sync = medianNs(engine, op, base, size);
  const ns = medianNs(engine, op, column, size);
  return sync === undefined || ns === undefined ? undefined : { s: sync / ns, ns };
}

/** Per op, its speedups at every size fourfold/parallel was timed at, for each way of calling it that was timed. */
export function speedupTable(engine: EngineReport, cores: number | undefined): Table | undefined {
  const { ops, sizes } = parallelCases(engine);
  if (ops.length === 0) return undefined;
  const variants = VARIANTS.filter((v) => ops.some((op) => sizes.some((size) => medianNs(engine, op, v.column, size) !== undefined)));
  return {
    title: 'fourfold/parallel: speedup over the synchronous function',
    note:
      `The synchronous function's median time per call divided by fourfold/parallel's on the default pool${cores === undefined ? '' : ` (${cores} logical cores: ${cores - 1} worker${cores === 2 ? '' : 's'} and the calling thread)`}, ` +
      "with the parallel call's time; above 1×, the parallel call is faster. " +
      'New output: plain arrays, the result allocated by the call (its pages are first written by the calling thread). ' +
      'Reused output: one caller-supplied output, written by earlier calls, against the synchronous function with a reused output. ' +
      'Shared memory: input and output on SharedArrayBuffers, which the workers read and write directly (cross-origin-isolated pages, Node, Deno, Bun).',
    header: ['op', ...sizes.flatMap((size) => variants.map((v) => `${formatSize(size)}, ${v.label}`))],
    rows: ops.map((op) => [
      op,
      ...sizes.flatMap((size) =>
        variants.map((v) => {
          const r = variantSpeedup(engine, op, size, v.variant, v.column);
          return r === undefined ? '—' : `${times(r.s)} (${formatTime(r.ns)})`;
        }),
      ),
    ]),
  };
}

/** The worker-count columns of an engine on plain arrays, by their pool size (the page's shared ones: report/scaling.ts). */
function workerColumns(engine: EngineReport): { name: string; workers: number }[] {
  return engine.libraries
    .filter((l) => l.workers !== undefined && l.shared !== true)
    .map((l) => ({ name: l.name, workers: l.workers! }))
    .sort((a, b) => a.workers - b.workers);
}

/** The size the worker-count columns were timed at (the model's size). */
function workerColumnSize(engine: EngineReport): number | undefined {
  const names = new Set(workerColumns(engine).map((c) => c.name));
  return engine.cases.find((c) => c.part === 'sizes' && names.has(c.library) && c.ns !== undefined)?.size;
}

/**
 * What the projection to `cores` is checked against: the column with cores - 1
 * workers, else the default pool where the engine counts that many (WebKit says 4 on 2).
 */
function measuredColumn(engine: EngineReport, cores: number): string | undefined {
  const own = workerColumns(engine).find((c) => c.workers === cores - 1);
  if (own !== undefined) return own.name;
  return engine.parallel?.cores === cores ? PARALLEL : undefined;
}

export interface ModelRow {
  readonly op: string;
  readonly variant: Variant;
  readonly size: number;
  readonly costs: Costs;
  /** The speedup measured on `cores` threads, when it was. */
  readonly measured?: number;
  /** Whether K was measured (the 0-worker column was timed). */
  readonly piecesMeasured: boolean;
}

/** The model's inputs for each op and way of calling it at the worker columns' size, from the run's cases and the engine's costs; the check on the machine's `cores`. */
export function modelRows(engine: EngineReport, cores: number): ModelRow[] {
  const size = workerColumnSize(engine) ?? engine.cases.find((c) => c.library === PARALLEL && c.ns !== undefined)?.size;
  const k = engine.parallel?.costs;
  if (size === undefined || k === undefined) return [];
  const cIn = median(k.copyInNs);
  const cOut = median(k.copyOutNs);
  const cOutWarm = median(k.copyOutWarmNs);
  const touch = Math.max(0, cOut - cOutWarm);
  const m = k.messageNs.length > 0 ? median(k.messageNs) : 0;
  const zero = workerColumns(engine).find((c) => c.workers === 0)?.name;
  const check = measuredColumn(engine, cores);
  return parallelCases(engine).ops.flatMap((op) =>
    VARIANTS.flatMap(({ variant, column }) => {
      const reusedBase = variant !== 'new' && medianNs(engine, op, 'fourfold (output)', size) !== undefined;
      const w = medianNs(engine, op, reusedBase ? 'fourfold (output)' : 'fourfold', size);
      if (w === undefined || medianNs(engine, op, column, size) === undefined) return [];
      const passes = copyPasses(op, variant);
      const alone = zero === undefined ? undefined : medianNs(engine, op, zero, size);
      const fresh = variant === 'new';
      const costs: Costs = {
        w: w / 1e6,
        copies: ((cIn * passes.in + (fresh ? cOut : cOutWarm) * passes.out) * size) / 1e6,
        touch: fresh ? (touch * passes.out * size) / 1e6 : 0,
        messages: (m * (size / k.pieceBytes)) / 1e6,
        // Measured for plain arrays (the 0-worker column); taken as the same for the others.
        pieces: alone === undefined ? 0 : Math.max(0, alone - (medianNs(engine, op, 'fourfold', size) ?? alone)) / 1e6,
        serial: passes.serial,
      };
      const measured =
        variant === 'new'
          ? check === undefined
            ? undefined
            : speedup(engine, op, size, check)
          : engine.parallel?.cores === cores
            ? variantSpeedup(engine, op, size, variant, column)?.s
            : undefined;
      return [{ op, variant, size, costs, measured, piecesMeasured: alone !== undefined }];
    }),
  );
}

/** The model's costs and projections beside the speedup measured on this machine's `cores`. */
export function modelTable(engine: EngineReport, cores: number): Table | undefined {
  const rows = modelRows(engine, cores);
  const costs = engine.parallel?.costs;
  if (rows.length === 0 || costs === undefined) return undefined;
  const m =
    costs.messageNs.length > 0
      ? `${(median(costs.messageNs) / 1e3).toFixed(1)} µs per job`
      : `not measured (${costs.messageError ?? 'no echo worker'}): taken as 0`;
  const label = (v: Variant) => VARIANTS.find((x) => x.variant === v)!.label;
  return {
    title: `The model at ${formatSize(rows[0]!.size)}: measured on this machine's ${cores} cores, projected to more (a projection, not a measurement)`,
    note:
      `W: the synchronous call (into a reused output for the reused and shared rows). C: the calling thread's copies of the whole input into slots and of the output back ` +
      `(${ps(costs.copyInNs)} and ${ps(costs.copyOutNs)} ps per byte measured here, ${ps(costs.copyOutWarmNs)} into an output already written; slots ${costs.shared ? 'shared (SharedArrayBuffer)' : 'transferred (ArrayBuffer)'}; ` +
      "an AEAD decryption into the caller's output reads its input twice, a MAC or hash has no output to copy; with shared memory the workers read and write the caller's arrays and the calling thread copies nothing). " +
      `A: of C, allocating a new output and touching it first (${ps(costs.copyOutNs)} less ${ps(costs.copyOutWarmNs)} ps per byte), ` +
      'which W includes too and which in parallel leaves the workers for the calling thread; none for a reused output. m·J: its messages, ' +
      `${m}, a job per ${formatSize(costs.pieceBytes)}. K: its other costs of working in pieces (combining, yielding): the 0-worker call's time less W. ` +
      `Measured: W over the time with ${cores - 1} worker${cores === 2 ? '' : 's'} and the calling thread. ` +
      'Projected: the calling thread takes the share x of the work that makes it finish with the n − 1 workers, x·W + (1 − x)·(C + m·J) = (1 − x)·(W − A)/(n − 1); ' +
      'T = x·W + (1 − x)·(C + m·J) + K, speedup W / T; ' +
      'in brackets the simple bound W / max((W + C) / n, C), which counts the copies of the whole input. ' +
      'Memory bandwidth shared between cores is not modelled: the measurement beside the projection checks the model where this machine can. Serpent-CBC encryption is serial (one worker).',
    header: ['op', 'arrays', 'W', 'C', 'A', 'm·J', 'K', `measured, ${cores} cores`, ...PROJECTED_CORES.map((n) => `projected, ${n} cores (bound)`)],
    rows: rows.map(({ op, variant, costs: k, measured, piecesMeasured }) => [
      op,
      label(variant),
      ms(k.w),
      ms(k.copies),
      ms(k.touch),
      ms(k.messages),
      piecesMeasured ? ms(k.pieces) : '—',
      measured === undefined ? '—' : times(measured),
      ...PROJECTED_CORES.map((n) => `${times(projectedSpeedup(k, n))} (${times(boundSpeedup(k, n))})`),
    ]),
  };
}

/** The longest task on the calling thread during the parallel calls of each op, and the workers' jobs in them. */
export function longestTaskTable(engine: EngineReport): Table | undefined {
  const tasks = engine.parallel?.tasks ?? [];
  if (tasks.length === 0) return undefined;
  return {
    title: 'The calling thread during a parallel call: its longest task',
    note:
      `The longest gap between two turns of the calling thread's event loop during a call of fourfold/parallel on the default pool (a probe takes every turn it can), ` +
      `median and largest of ${tasks[0]!.ms.length} calls, against the browsers' long-task mark of ${LONG_TASK_MS} ms; ` +
      'jobs: those the workers completed during each call (none: the calling thread did everything).',
    header: ['op', 'size', 'longest task (median)', 'largest', `under ${LONG_TASK_MS} ms`, 'call (median)', 'worker jobs per call'],
    rows: tasks.map((t) =>
      t.error !== undefined || t.ms.length === 0
        ? [t.op, formatSize(t.size), `error: ${t.error ?? 'no call'}`, '', '', '', '']
        : [
            t.op,
            formatSize(t.size),
            ms(median(t.ms)),
            ms(Math.max(...t.ms)),
            Math.max(...t.ms) < LONG_TASK_MS ? 'yes' : median(t.ms) < LONG_TASK_MS ? 'not always' : 'no',
            ms(median(t.callMs)),
            t.jobs.join(', '),
          ],
    ),
  };
}

/** One sentence on the pool: shared or transferred slots, its workers and jobs, and why it has none when it has none. */
export function poolNote(engine: EngineReport): string | undefined {
  const p = engine.parallel;
  if (p?.pool === undefined) return undefined;
  const { workers, ready, jobs, shared, failure } = p.pool;
  const slots = shared ? 'slots shared with the workers (SharedArrayBuffer)' : 'slots moved to the workers and back by transfer (no SharedArrayBuffer here)';
  const idle = p.tasks.length > 0 && p.tasks.every((t) => t.jobs.every((j) => j === 0));
  return (
    `The pool: ${p.cores} logical cores, ${workers} worker${workers === 1 ? '' : 's'} started (${ready} ready), ${jobs} jobs done, ${slots}.` +
    (failure === undefined ? '' : ` Workers cannot be used: ${failure}; every call ran on the calling thread.`) +
    (idle && failure === undefined ? ' No worker did a job during the longest-task calls: they ran on the calling thread.' : '')
  );
}

/** The tables of an engine's fourfold/parallel section, in order; `cores`: the machine's, which the model's check runs on. */
export function parallelTables(engine: EngineReport, cores: number): Table[] {
  return [speedupTable(engine, engine.parallel?.cores), modelTable(engine, cores), longestTaskTable(engine)].filter((t) => t !== undefined);
}
