/**
 * The generic runner. It knows nothing about cryptography: it times entries
 * of a table of { op, library, prepare(size) } factories, one case (op and
 * message size) at a time, and returns every sample it took.
 */

/** One timed call. It returns its output so the harness can keep it alive. */
export type Call = () => Uint8Array;

export interface BenchEntry {
  /** What is measured, e.g. 'chacha20poly1305-encrypt'. */
  readonly op: string;
  /** Who is measured; must name a registered Library. */
  readonly library: string;
  /**
   * Allocates the inputs for one message size, once, and returns the call
   * to time. Throws if the library cannot do this op at this size.
   */
  prepare(size: number): Call;
  /**
   * The complete output to cross-check, for a call that returns only part
   * of it (node:crypto keeps an AEAD tag apart from the ciphertext).
   * Without it, the output of the prepared call is checked.
   */
  checkedOutput?(size: number): Uint8Array;
}

export interface Library {
  readonly name: string;
  readonly version: string;
  /**
   * Whether this library's output is trusted as the expected answer when
   * the outputs of a case are cross-checked (true for the established peers).
   */
  readonly reference: boolean;
  /**
   * Runs before every batch of this library's calls. Fourfold's two tiers
   * share one module and one global tier switch, so each must re-select
   * its tier before it is timed.
   */
  activate?(): unknown;
}

export interface Timing {
  /** Time spent calling each library before the first sample of a case. */
  readonly warmupMs: number;
  /** Target duration of one sample; the batch size is derived from it. */
  readonly sampleMs: number;
  /** Samples per library and case. */
  readonly samples: number;
}

/** Everything measured for one library in one case. */
export interface Measurement {
  readonly op: string;
  readonly size: number;
  readonly library: string;
  /** Calls timed together in each sample. */
  readonly callsPerSample: number;
  /** One entry per sample: its duration divided by callsPerSample, in nanoseconds. */
  readonly nsPerCall: number[];
  /** Set when the library was not timed: its output was wrong or it threw. */
  readonly error?: string;
}

export interface Case {
  readonly op: string;
  readonly size: number;
  /** The entries to time, in column order. */
  readonly timed: BenchEntry[];
  /** The entry whose output the others must reproduce, if any library is trusted. */
  readonly reference?: BenchEntry;
}

// Every output contributes a byte here, and run.ts records the final value,
// so the engine can never prove a call's result unused and drop the call.
let sink = 0;
export function sinkValue(): number {
  return sink;
}

/** Runs `call` `calls` times back to back and returns the elapsed nanoseconds. */
function timeBatch(call: Call, calls: number): number {
  let local = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) local ^= call()[0] | 0; // `| 0`: an empty output reads undefined
  const elapsed = Number(process.hrtime.bigint() - start);
  sink ^= local;
  return elapsed;
}

/**
 * Calls `call` for about `warmupMs`, so the engine has compiled its hot
 * paths, and returns how many calls make one sample of about `sampleMs`.
 * Batches double in size, and the last one decides the rate: by then the
 * optimizing compiler has run, and timer overhead is small against it.
 */
function warmUp(call: Call, timing: Timing): number {
  const budget = timing.warmupMs * 1e6;
  let spent = 0;
  let calls = 1;
  let nsPerCall = 0;
  for (;;) {
    const elapsed = timeBatch(call, calls);
    spent += elapsed;
    nsPerCall = Math.max(elapsed / calls, 1);
    if (spent >= budget) break;
    // Double, but do not overshoot the budget by much on a slow call.
    calls = Math.max(1, Math.min(calls * 2, Math.ceil((budget - spent) / nsPerCall)));
  }
  return Math.max(1, Math.round((timing.sampleMs * 1e6) / nsPerCall));
}

/** Calls `call` once, turning a throw into a message. */
function tryOnce(call: Call): { output?: Uint8Array; error?: string } {
  try {
    return { output: call() };
  } catch (cause) {
    return { error: `threw: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
}

/**
 * Times one case. Each library is prepared and its first output compared
 * with the reference's, so a wrong answer is reported instead of timed.
 * All libraries are then warmed up; then the
 * samples are taken round-robin, one per library per round, starting each
 * round with the next library, so that drift (thermal, turbo, other load)
 * and the order of calls weigh on every library alike.
 */
export async function runCase(c: Case, libraries: Map<string, Library>, timing: Timing): Promise<Measurement[]> {
  const failed: Measurement[] = [];
  const ready: { entry: BenchEntry; library: Library; call: Call; calls: number; samples: number[] }[] = [];

  let expected: Uint8Array | undefined;
  if (c.reference !== undefined) {
    await libraries.get(c.reference.library)?.activate?.();
    expected = c.reference.checkedOutput?.(c.size) ?? c.reference.prepare(c.size)();
  }

  for (const entry of c.timed) {
    const library = libraries.get(entry.library);
    if (library === undefined) throw new Error(`entry ${entry.op} names unknown library ${entry.library}`);
    const fail = (error: string) =>
      failed.push({ op: c.op, size: c.size, library: entry.library, callsPerSample: 0, nsPerCall: [], error });
    await library.activate?.();
    let call: Call;
    try {
      call = entry.prepare(c.size);
    } catch (cause) {
      fail(`prepare threw: ${cause instanceof Error ? cause.message : String(cause)}`);
      continue;
    }
    const first = tryOnce(call);
    if (first.error !== undefined) {
      fail(first.error);
      continue;
    }
    const checked = entry.checkedOutput?.(c.size) ?? first.output!;
    if (expected !== undefined && !sameOutput(checked, expected)) {
      fail(`output differs from ${c.reference!.library}`);
      continue;
    }
    ready.push({ entry, library, call, calls: 0, samples: [] });
  }

  for (const r of ready) {
    await r.library.activate?.();
    r.calls = warmUp(r.call, timing);
  }

  for (let round = 0; round < timing.samples; round++) {
    for (let k = 0; k < ready.length; k++) {
      const r = ready[(round + k) % ready.length]!;
      await r.library.activate?.();
      r.samples.push(timeBatch(r.call, r.calls) / r.calls);
    }
  }

  const timed: Measurement[] = ready.map((r) => ({
    op: c.op,
    size: c.size,
    library: r.entry.library,
    callsPerSample: r.calls,
    nsPerCall: r.samples,
  }));
  return [...timed, ...failed];
}

function sameOutput(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface Selection {
  /** Op names to run; a name also selects its variants ('chacha20poly1305' selects '-encrypt' and '-decrypt'). */
  readonly ops?: readonly string[];
  readonly sizes: readonly number[];
  /** Library names to time; all when absent. */
  readonly libs?: readonly string[];
}

/**
 * Turns the entry table into the list of cases to run: ops in table order,
 * each at every selected size, with the selected libraries in the order of
 * `libraries`. The reference of a case is picked among all entries of its
 * op, selected or not, so a run of fourfold alone is still checked.
 */
export function planCases(entries: readonly BenchEntry[], libraries: readonly Library[], selection: Selection): Case[] {
  const selectsOp = (op: string) =>
    selection.ops === undefined || selection.ops.some((name) => op === name || op.startsWith(`${name}-`));
  const libraryRank = new Map(libraries.map((library, i) => [library.name, i]));
  const byRank = (a: BenchEntry, b: BenchEntry) => libraryRank.get(a.library)! - libraryRank.get(b.library)!;
  const ops = [...new Set(entries.map((e) => e.op))].filter(selectsOp);
  const cases: Case[] = [];
  for (const op of ops) {
    const ofOp = entries.filter((e) => e.op === op && libraryRank.has(e.library)).sort(byRank);
    const timed = ofOp.filter((e) => selection.libs === undefined || selection.libs.includes(e.library));
    if (timed.length === 0) continue;
    const reference = ofOp.find((e) => libraries[libraryRank.get(e.library)!]!.reference);
    for (const size of selection.sizes) cases.push({ op, size, timed, reference });
  }
  return cases;
}
