/**
 * The runner's and the engine core's contract: config in, result out, both
 * plain JSON, so a driver can hand them to a page or another runtime.
 */

/** The parts of a run: size, every length, and what fourfold/parallel's model needs beyond the sizes (core/parallel.ts). */
export const parts = ['sizes', 'sweep', 'parallel'] as const;
export type Part = (typeof parts)[number];

/** How one part takes its samples (see measure.ts). */
export interface CaseTiming {
  /** Time spent calling each subject before its first sample. */
  readonly warmupMs: number;
  /** Target duration of one sample; the batch size (calls per sample) is derived from it. */
  readonly sampleMs: number;
  /** Samples per subject when the case fits its budget. */
  readonly samples: number;
  /** Samples per subject however slow the calls (so never one sample). */
  readonly minSamples: number;
  /** Sampling time allowed for one case; slow cases (16 MiB) drop towards minSamples. */
  readonly budgetMs: number;
}

/** How the 0..8192 sweep takes its samples (see sweep.ts). */
export interface SweepTiming {
  readonly warmupMs: number;
  /** Passes over every length; each pass takes one sample per library and length. */
  readonly passes: number;
  /** Shortest sample; raised in engines whose clock is coarse, and then the stride widens. */
  readonly minSampleUs: number;
}

export interface SweepRange {
  readonly from: number;
  readonly to: number;
  readonly step: number;
}

/** What the 'fourfold (parallel)' columns and the 'parallel' part measure besides the sizes. */
export interface ParallelSettings {
  /** Worker counts of the 'fourfold (parallel, N workers)' columns, timed at chartSize wherever 'fourfold (parallel)' is. */
  readonly workerCounts: readonly number[];
  /** The size of the speedup-by-worker-count chart and of the model. */
  readonly chartSize: number;
  /** The size of the 'parallel' part's longest-task measurement. */
  readonly taskSize: number;
  /** Parallel calls the longest task is taken from, per op. */
  readonly taskCalls: number;
}

/** Everything a run in one engine needs; built by the runner from the command line. */
export interface BenchConfig {
  /** Op names or prefixes ('chacha20poly1305' selects -encrypt and -decrypt); all when absent. */
  readonly ops?: readonly string[];
  /** Whether `ops` names whole ops only: 'blake3' then selects blake3 and not blake3-keyed (the benchmark page's lists). */
  readonly exactOps?: boolean;
  /** Library names; all available when absent ('fourfold (parallel)' brings its worker-count columns). */
  readonly libs?: readonly string[];
  /** Libraries not timed when `libs` is absent: the default run leaves fourfold/parallel's columns to the profiles about it. */
  readonly libsLeftOut?: readonly string[];
  /** The libraries whose outputs every column must reproduce, in order; absent: the established peers. */
  readonly references?: readonly string[];
  readonly parts: readonly Part[];
  /** Message sizes of the 'sizes' part (the summary table and the large sizes). */
  readonly sizes: readonly number[];
  /**
   * Sizes of the 'sizes' part for the ops named (by name or longest prefix),
   * instead of `sizes`: scrypt's 16 MiB lane beside 64 B to 1 MiB messages.
   * An empty list leaves the op out of the part.
   */
  readonly opSizes?: Readonly<Record<string, readonly number[]>>;
  readonly sweep: SweepRange;
  readonly timing: { readonly sizes: CaseTiming; readonly sweep: SweepTiming };
  /** The most one case (or one op's sweep) may take, in ms; 0: no cap; a library too slow is capped (costs.ts). */
  readonly capMs: number;
  /** The cap of the named ops' 'sizes' cases, instead of capMs: the default run's scrypt needs more than 4 s. */
  readonly opCapMs?: Readonly<Record<string, number>>;
  readonly parallel: ParallelSettings;
  /** Package versions, read by the runner (engines cannot read node_modules). */
  readonly versions: Readonly<Record<string, string>>;
}

export interface Progress {
  /** Estimated share of the run done, 0..1. */
  readonly fraction: number;
  /** What runs now, e.g. 'sweep chacha20 pass 2/5'. */
  readonly label: string;
  /** Results finished since the previous message (the first carries the run's start), so Ctrl-C still leaves a report. */
  readonly results?: PartialResult;
}

/** A share of an EngineResult, sent as soon as it is known; the runner joins them. */
export interface PartialResult {
  readonly start?: EngineStart;
  readonly cases?: readonly CaseResult[];
  readonly sweeps?: readonly SweepResult[];
  readonly warnings?: readonly string[];
  /** The 'parallel' part's results so far (each message carries what is new: costs, tasks, or the pool's state). */
  readonly parallel?: Partial<ParallelResult>;
}

/** One library (or one of its call styles) as timed. */
export interface LibraryInfo {
  readonly name: string;
  readonly version: string;
  /** A 'fourfold (parallel, N workers)' column: N, the pool's size while it is timed. */
  readonly workers?: number;
  /** A column of fourfold/parallel whose input and output are views of SharedArrayBuffers, which the workers read and write directly. */
  readonly shared?: boolean;
}

/** Samples of one subject in one case of the 'sizes' part. */
export interface CaseResult {
  /** 'sizes'; an earlier results.json may hold cases of parts since removed ('align', 'keys'), which the report passes over. */
  readonly part: 'sizes' | 'align' | 'keys';
  readonly op: string;
  readonly library: string;
  /** Message bytes per call. */
  readonly size: number;
  /** byteOffset of the input (and of a caller-supplied output): 0 (other offsets were the 'align' part's). */
  readonly offset: number;
  /** Number of keys the calls cycle through: 1 (more were the 'keys' part's). */
  readonly keys: number;
  readonly callsPerSample: number;
  /** Nanoseconds per call, one entry per sample. */
  readonly nsPerCall: readonly number[];
  /** Set when the subject was not timed: wrong output, or it threw. */
  readonly error?: string;
  /** Set when the subject was not timed because its minimum samples could not fit the case's cap. */
  readonly capped?: Capped;
  /** The reference whose output this column's first output matched (itself, for it); absent: unchecked. */
  readonly checkedBy?: string;
}

/** Why a library was not timed in a case (or a sweep): at its cost per call, its minimum samples need more than the cap. */
export interface Capped {
  /** One call (the slowest length of a sweep), predicted from the sizes timed before or measured. */
  readonly nsPerCall: number;
  readonly how: 'predicted' | 'measured';
  /** What its minimum samples (a sweep: its passes) would take, and the cap, in ms. */
  readonly neededMs: number;
  readonly capMs: number;
}

/** The 0..8192 sweep of one library for one op. */
export interface SweepResult {
  readonly op: string;
  readonly library: string;
  readonly lengths: readonly number[];
  /** Per length: calls timed together in each sample. */
  readonly callsPerSample: readonly number[];
  /** Per length: nanoseconds per call, one entry per pass (empty where the library failed). */
  readonly nsPerCall: readonly (readonly number[])[];
  /** The first failures (wrong output or a throw), with their count. */
  readonly errors: readonly { readonly length: number; readonly error: string }[];
  readonly errorCount: number;
  /** Set when the library was not swept because its passes could not fit the cap (nsPerCall is then empty). */
  readonly capped?: Capped;
}

/** What a run in one engine knows once its libraries are loaded. */
export interface EngineStart {
  readonly engine: {
    /** The --engines name it was run as; set by the runner, not the engine. */
    readonly id?: string;
    /** 'node', 'deno', 'bun', or 'browser' for a page (see userAgent). */
    readonly runtime: string;
    readonly version: string;
    readonly userAgent?: string;
    readonly details: Readonly<Record<string, string>>;
  };
  readonly timer: {
    /** Smallest step of performance.now() seen, in ns. */
    readonly granularityNs: number;
    /** Browsers coarsen their clock unless the page is cross-origin isolated. */
    readonly crossOriginIsolated?: boolean;
  };
  /** fourfold's first ready() in this fresh page or process: decode, compile, instantiate (ms). */
  readonly readyMs?: number;
  readonly libraries: readonly LibraryInfo[];
  readonly started: string;
  /** The sweep's effective stride (wider than asked for when the clock is coarse). */
  readonly sweepStep: number;
}

/** The calling thread's costs in a parallel call (core/parallel.ts, report/model.ts), one entry per repetition. */
export interface ParallelCosts {
  /** Whether the pool's slots are SharedArrayBuffers (status().shared), else ArrayBuffers moved by transfer. */
  readonly shared: boolean;
  /** Bytes of a slot, the largest piece a job carries. */
  readonly pieceBytes: number;
  /** ns per byte: copying a plain input into slots, a piece at a time. */
  readonly copyInNs: readonly number[];
  /** ns per byte: copying slots into a fresh output (its allocation and first touch included, as an allocating call pays them). */
  readonly copyOutNs: readonly number[];
  /** ns per byte: the same into an output already written: copyOutNs less this is the fresh output's allocation and first touch. */
  readonly copyOutWarmNs: readonly number[];
  /** ns per job: a worker's round trip (a job with a key and a slot, posted and answered), three in flight as the pool keeps them. */
  readonly messageNs: readonly number[];
  /** Why messageNs is empty, when the engine could not start the echo worker. */
  readonly messageError?: string;
}

/** The longest task on the calling thread during parallel calls of one op. */
export interface LongestTask {
  readonly op: string;
  readonly size: number;
  /** Per call: the longest gap between two turns of the event loop, in ms. */
  readonly ms: readonly number[];
  /** Per call: jobs the workers completed during it (status().jobs). */
  readonly jobs: readonly number[];
  /** Per call: whether the pool said afterwards that calls leave the workers out for now (status().contended: the process got about one core). */
  readonly contended?: readonly boolean[];
  /** Per call: its duration, in ms. */
  readonly callMs: readonly number[];
  readonly error?: string;
}

/** The pool's status() at the end of the part. */
export interface PoolState {
  readonly workers: number;
  readonly ready: number;
  readonly jobs: number;
  readonly shared: boolean;
  readonly failure?: string;
}

export interface ParallelResult {
  /** Logical cores the engine reports (navigator.hardwareConcurrency, or node:os): the default pool is one less. */
  readonly cores: number;
  readonly costs?: ParallelCosts;
  readonly tasks: readonly LongestTask[];
  readonly pool?: PoolState;
}

/** What a run in one engine returns. */
export interface EngineResult extends EngineStart {
  readonly warnings: readonly string[];
  readonly seconds: number;
  /** Set when the run did not finish (the runner was interrupted): the results are those finished by then. */
  readonly interrupted?: boolean;
  readonly cases: readonly CaseResult[];
  readonly sweeps: readonly SweepResult[];
  /** The 'parallel' part, when it ran. */
  readonly parallel?: ParallelResult;
  /** Every timed output's first byte was folded into this: no result is provably dead (absent when interrupted). */
  readonly sink?: number;
}
