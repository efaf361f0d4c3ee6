/**
 * The length sweep (Bernstein's "every message length 0, 1, 2, ..."): the
 * per-call overhead and the steps at each block and kernel group that the
 * summary's few sizes cannot show. Thousands of lengths leave little time
 * each, so samples are short, passes go over every length and keep the
 * median (a burst of load hits one pass, not a range of lengths), libraries
 * take turns from another start each pass, and every output is checked
 * first; method and cap: docs/contributing/benchmarks.md, "The sweep".
 */
import { bindChecked, expectedOutput, shapeOf, type CaseContext, type Expected, type SelectedOp } from './cases.js';
import { deadlineFrom } from './costs.js';
import { activate, batchTimer, sampleOf, warmUp } from './measure.js';
import type { Call, OpEntry } from './ops/types.js';
import { now } from './timer.js';
import type { Capped, SweepResult, SweepTiming } from './types.js';

/** The lengths from..to by step, always ending at `to`. */
export function sweepLengths(from: number, to: number, step: number): number[] {
  const lengths: number[] = [];
  for (let length = from; length <= to; length += step) lengths.push(length);
  if (lengths[lengths.length - 1] !== to && to >= from) lengths.push(to);
  return lengths;
}

/** Failures kept per library; the count says how many there were. */
const ERRORS_KEPT = 10;

/** Passes a sweep keeps even past its deadline, so that each length still has a median. */
const MIN_PASSES = 3;

export async function runSweep(
  op: SelectedOp,
  lengths: readonly number[],
  timing: SweepTiming,
  minSampleNs: number,
  context: CaseContext,
  tick: (fraction: number, label: string) => Promise<void>,
): Promise<SweepResult[]> {
  const name = op.definition.op;
  const columns = op.timed.map((entry) => ({
    entry,
    library: context.libraries.get(entry.library)!,
    /** Per length: the bound call, undefined once it failed (or before it is bound). */
    calls: lengths.map((): Call | undefined => undefined),
    /** Per length: the batch timer of that call. */
    timers: lengths.map((): ((calls: number) => Promise<number>) => async () => 0),
    callsPerSample: lengths.map(() => 0),
    samples: lengths.map((): number[] => []),
    errors: [] as { length: number; error: string }[],
    errorCount: 0,
    capped: undefined as Capped | undefined,
  }));

  // The inputs of every length first (they live until the sweep ends), then the cap's clock starts.
  const shapes = lengths.map(shapeOf);
  const inputs = shapes.map((shape) => op.definition.inputs(shape));
  const deadline = deadlineFrom(now(), context.capMs);
  // A reference checks every length once: it may when that is predicted to fit in half the cap.
  const checkMs = (entry: OpEntry<unknown>) => lengths.reduce((sum, length) => sum + (context.costs.predict(name, entry.library, length) ?? 0), 0) / 1e6;
  const tooSlowToCheck = new Set(op.references.filter((entry) => checkMs(entry) > deadline.capMs / 2));
  const affordable = (entry: OpEntry<unknown>) => !tooSlowToCheck.has(entry);
  const expected: Expected[] = [];
  const bind = async (li: number, column: (typeof columns)[number]) => {
    expected[li] ??= await expectedOutput(op, shapes[li]!, inputs[li], context.libraries, affordable);
    const bound = await bindChecked(column.entry, shapes[li]!, inputs[li], expected[li], column.library);
    if ('error' in bound) {
      if (column.errors.length < ERRORS_KEPT) column.errors.push({ length: lengths[li]!, error: bound.error });
      column.errorCount++;
    } else {
      column.calls[li] = bound.call;
      column.timers[li] = batchTimer(bound.call, bound.async);
    }
  };

  // Warm-up over a spread of lengths, which also gives a first estimate of
  // the cost per call at every length (linear between the lengths tried).
  // A batch is then sized by the fastest sample seen so far at its length,
  // so one disturbed sample does not shrink the next batches to a single
  // call, where timer overhead and a cold cache would bias them.
  const picks = [...new Set([0, lengths.length >> 2, lengths.length >> 1, lengths.length - 1])];
  const estimate = columns.map(() => lengths.map(() => 0));
  for (const [c, column] of columns.entries()) {
    for (const li of picks) await bind(li, column);
    await activate(column.library);
    const bound = picks.filter((li) => column.calls[li] !== undefined);
    const perPick = timing.warmupMs / Math.max(bound.length, 1);
    const known: [number, number][] = [];
    for (const li of bound) known.push([lengths[li]!, await warmUp(column.timers[li]!, perPick)]);
    for (let j = 0; j < lengths.length; j++) estimate[c]![j] = interpolate(known, lengths[j]!);
  }

  // The cap holds for each library's share of a sweep (thousands of
  // samples, each with the harness's own overhead, are a long case even for
  // the fastest): a column whose predicted passes, check and share of the
  // untimed calls exceed it is capped, and passes beyond the third stop
  // once the sweep has taken the cap once per column.
  const sweepMs = (c: number) => estimate[c]!.reduce((sum, ns) => sum + timing.passes * Math.max(minSampleNs, ns) + ns + ns / columns.length, 0) / 1e6;
  for (const [c, column] of columns.entries()) {
    if (sweepMs(c) <= deadline.capMs) continue;
    column.capped = { nsPerCall: estimate[c]!.reduce((a, b) => Math.max(a, b), 0), how: 'measured', neededMs: sweepMs(c), capMs: deadline.capMs };
  }
  const live = columns.filter((column) => column.capped === undefined);
  const passesEnd = deadline.at + deadline.capMs * Math.max(live.length - 1, 0);
  const passesWanted = live.length > 0 ? timing.passes : 0;
  for (const [li, length] of lengths.entries()) {
    if (picks.includes(li)) continue;
    for (const column of live) await bind(li, column);
    if (li % 256 === 0) await tick((0.1 * li) / lengths.length, `sweep ${name}: checking outputs at ${length} B`);
  }
  const unchecked = expected.find((e) => e !== undefined && e.output === undefined && e.tooSlow.length > 0);
  if (unchecked !== undefined)
    context.warn(`sweep ${name}: outputs unchecked; checking every length with ${unchecked.tooSlow.join(', ')} would take over half the cap`);

  let passes = 0;
  for (let pass = 0; pass < passesWanted; pass++) {
    if (pass >= MIN_PASSES && now() >= passesEnd) break;
    for (const [li, length] of lengths.entries()) {
      for (let k = 0; k < live.length; k++) {
        const c = columns.indexOf(live[(pass + li + k) % live.length]!);
        const column = columns[c]!;
        const call = column.calls[li];
        if (call === undefined) continue;
        await activate(column.library);
        const calls = Math.max(1, Math.ceil(minSampleNs / estimate[c]![li]!));
        // The first column at a length fetches the shared inputs into cache
        // for all; an untimed call first makes it pay that outside its sample.
        if (k === 0) await call();
        const { nsPerCall: ns, calls: used } = await sampleOf(column.timers[li]!, calls, minSampleNs);
        column.samples[li]!.push(ns);
        column.callsPerSample[li] = Math.max(column.callsPerSample[li]!, used);
        estimate[c]![li] = Math.min(estimate[c]![li]!, Math.max(ns, 1));
      }
      if ((li & 63) === 0)
        await tick(0.1 + (0.9 * (pass + li / lengths.length)) / timing.passes, `sweep ${name} pass ${pass + 1}/${timing.passes} length ${length}`);
    }
    passes++;
  }
  if (passes < passesWanted) context.warn(`sweep ${name}: stopped after ${passes} of ${timing.passes} passes, at its cap`);

  return columns.map((column) => ({
    op: name,
    library: column.entry.library,
    lengths,
    callsPerSample: column.callsPerSample,
    nsPerCall: column.samples,
    errors: column.errors,
    errorCount: column.errorCount,
    ...(column.capped === undefined ? {} : { capped: column.capped }),
  }));
}

/** Piecewise-linear interpolation through [length, ns] points sorted by length (flat beyond the ends). */
function interpolate(known: readonly [number, number][], length: number): number {
  if (known.length === 0) return 1000;
  let i = 0;
  while (i < known.length - 1 && known[i + 1]![0] < length) i++;
  const [x0, y0] = known[i]!;
  const [x1, y1] = known[Math.min(i + 1, known.length - 1)]!;
  const y = x1 === x0 ? y0 : y0 + ((y1 - y0) * (length - x0)) / (x1 - x0);
  return Math.max(1, Math.min(Math.max(y0, y1), Math.max(y, Math.min(y0, y1))));
}
