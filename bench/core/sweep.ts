/**
 * The length sweep (Bernstein's "every message length 0, 1, 2, ..."): one
 * op, every selected library, every length of a range. It shows what the
 * few sizes of the summary cannot: the per-call overhead, the step at each
 * 64-byte block, and the steps where a SIMD kernel finishes a group of
 * blocks (256 bytes for 4 blocks, 512 for 8).
 *
 * Thousands of lengths leave little time per length, so the method
 * differs from the other parts:
 * - a sample is a short batch (about minSampleUs, at least one call);
 * - the run makes several passes over all lengths, one sample per library
 *   and length per pass, and keeps the median per length: a burst of
 *   other load hits one pass, not a range of lengths in every pass;
 * - within a length, libraries take turns, starting with a different one
 *   in each pass; the first one makes an untimed call before its sample,
 *   so the inputs (shared by all) are in cache for every sample;
 * - pass 0 checks every library's output at every length.
 */
import { bindChecked, expectedOutput, type SelectedOp } from './cases.js';
import type { Library } from './libraries.js';
import { activate, batchTimer, sampleOf, warmUp } from './measure.js';
import type { Call } from './ops/types.js';
import type { SweepResult, SweepTiming } from './types.js';

/** The lengths from..to by step, always ending at `to`. */
export function sweepLengths(from: number, to: number, step: number): number[] {
  const lengths: number[] = [];
  for (let length = from; length <= to; length += step) lengths.push(length);
  if (lengths[lengths.length - 1] !== to && to >= from) lengths.push(to);
  return lengths;
}

/** Failures kept per library; the count says how many there were. */
const ERRORS_KEPT = 10;

export async function runSweep(
  op: SelectedOp,
  lengths: readonly number[],
  libraries: Map<string, Library>,
  timing: SweepTiming,
  minSampleNs: number,
  tick: (fraction: number, label: string) => Promise<void>,
): Promise<SweepResult[]> {
  const name = op.definition.op;
  const columns = op.timed.map((entry) => ({
    entry,
    library: libraries.get(entry.library)!,
    /** Per length: the bound call, undefined once it failed. */
    calls: [] as (Call | undefined)[],
    /** Per length: the batch timer of that call. */
    timers: [] as ((calls: number) => Promise<number>)[],
    callsPerSample: lengths.map(() => 0),
    samples: lengths.map((): number[] => []),
    errors: [] as { length: number; error: string }[],
    errorCount: 0,
  }));

  // Bind and check every length once; the inputs live until the sweep ends.
  for (const [li, length] of lengths.entries()) {
    const shape = { size: length, offset: 0, keys: 1 };
    const inputs = op.definition.inputs(shape);
    const expected = await expectedOutput(op, shape, inputs, libraries);
    for (const column of columns) {
      const bound = await bindChecked(column.entry, shape, inputs, expected, op.reference?.library, column.library);
      if ('error' in bound) {
        column.calls.push(undefined);
        if (column.errors.length < ERRORS_KEPT) column.errors.push({ length, error: bound.error });
        column.errorCount++;
        column.timers.push(async () => 0);
      } else {
        column.calls.push(bound.call);
        column.timers.push(batchTimer(bound.call, bound.async));
      }
    }
    if (li % 256 === 0) await tick((0.1 * li) / lengths.length, `sweep ${name}: checking outputs`);
  }

  // Warm-up over a spread of lengths, which also gives a first estimate of
  // the cost per call at every length (linear between the lengths tried).
  // A batch is then sized by the fastest sample seen so far at its length,
  // so one disturbed sample does not shrink the next batches to a single
  // call, where timer overhead and a cold cache would bias them.
  const estimate = columns.map(() => lengths.map(() => 0));
  for (const [c, column] of columns.entries()) {
    await activate(column.library);
    const picks = [0, lengths.length >> 2, lengths.length >> 1, lengths.length - 1].filter((li) => column.calls[li] !== undefined);
    const perPick = timing.warmupMs / Math.max(picks.length, 1);
    const known: [number, number][] = [];
    for (const li of picks) known.push([lengths[li]!, await warmUp(column.timers[li]!, perPick)]);
    for (let j = 0; j < lengths.length; j++) estimate[c]![j] = interpolate(known, lengths[j]!);
  }

  for (let pass = 0; pass < timing.passes; pass++) {
    for (const [li, length] of lengths.entries()) {
      for (let k = 0; k < columns.length; k++) {
        const c = (pass + li + k) % columns.length;
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
      if ((li & 63) === 0) await tick(0.1 + (0.9 * (pass + li / lengths.length)) / timing.passes, `sweep ${name} pass ${pass + 1}/${timing.passes} length ${length}`);
    }
  }

  return columns.map((column) => ({
    op: name,
    library: column.entry.library,
    lengths,
    callsPerSample: column.callsPerSample,
    nsPerCall: column.samples,
    errors: column.errors,
    errorCount: column.errorCount,
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
