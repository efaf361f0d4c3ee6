/**
 * One case of the 'sizes' part: one op at one size, every selected
 * library interleaved, so that what is compared is measured under the
 * same conditions; and the output checks the sweep shares.
 */
import { deadlineFrom, minimumMs, overBudget, type CostBook } from './costs.js';
import { threwError } from './errors.js';
import type { Library } from './libraries.js';
import { activate, sampleRoundRobin, type Subject } from './measure.js';
import { median } from './stats.js';
import { now } from './timer.js';
import type { Call, OpDefinition, OpEntry, Shape } from './ops/types.js';
import type { Capped, CaseResult, CaseTiming } from './types.js';

/** An op with the entries to time, in column order, and the ones trusted for the expected output, in order of preference. */
export interface SelectedOp {
  readonly definition: OpDefinition<unknown>;
  readonly timed: readonly OpEntry<unknown>[];
  readonly references: readonly OpEntry<unknown>[];
}

/** What every case and sweep of a run shares: the loaded libraries, the costs seen so far, the cap, and where warnings go. */
export interface CaseContext {
  readonly libraries: Map<string, Library>;
  readonly costs: CostBook;
  readonly capMs: number;
  warn(message: string): void;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The expected output of a shape and the reference it came from; no output: unchecked, and `tooSlow` names the references the cap passed over. */
export interface Expected {
  readonly output?: Uint8Array;
  readonly by?: string;
  readonly tooSlow: readonly string[];
}

/**
 * The output every library must reproduce, from the first reference that
 * takes the shape and that `affordable` lets call, copied (an '(output)'
 * style reuses its buffer); none: unchecked. A reference that throws ends the run.
 */
export async function expectedOutput(
  op: SelectedOp,
  shape: Shape,
  inputs: unknown,
  libraries: Map<string, Library>,
  affordable: (entry: OpEntry<unknown>) => boolean = () => true,
): Promise<Expected> {
  const willing = op.references.filter((entry) => entry.refuses?.(shape) === undefined);
  const reference = willing.find(affordable);
  const tooSlow = willing.filter((entry) => !affordable(entry)).map((entry) => entry.library);
  if (reference === undefined) return { tooSlow };
  await activate(libraries.get(reference.library)!);
  const call = reference.bind(inputs);
  const output = await call();
  return { output: ((await reference.checkedOutput?.(inputs)) ?? output).slice(), by: reference.library, tooSlow };
}

/** Binds an entry and checks its first output (a wrong answer is reported, not timed): the call and that cold call's time, or why not. */
export async function bindChecked(
  entry: OpEntry<unknown>,
  shape: Shape,
  inputs: unknown,
  expected: Expected,
  library: Library,
): Promise<{ call: Call; async: boolean; firstNs: number } | { error: string }> {
  const refused = entry.refuses?.(shape);
  if (refused !== undefined) return { error: refused };
  await activate(library);
  let call: Call;
  let output: Uint8Array;
  let isAsync = false;
  let firstNs: number;
  try {
    call = entry.bind(inputs);
    const start = now();
    const first = call();
    isAsync = first instanceof Promise;
    const returned = await first;
    firstNs = (now() - start) * 1e6;
    output = (await entry.checkedOutput?.(inputs)) ?? returned;
  } catch (cause) {
    return { error: threwError(cause) };
  }
  if (expected.output !== undefined && !sameBytes(output, expected.output)) return { error: `output differs from ${expected.by}` };
  return { call, async: isAsync, firstNs };
}

/** The shape of a message of `size` bytes: at byteOffset 0, one key. */
export const shapeOf = (size: number): Shape => ({ size, offset: 0, keys: 1 });

/** One case of the 'sizes' part: every column of `op` at `size`, interleaved. */
export async function runCase(
  op: SelectedOp,
  size: number,
  timing: CaseTiming,
  context: CaseContext,
  tick: (fraction: number) => Promise<void>,
): Promise<CaseResult[]> {
  const name = op.definition.op;
  const shape = shapeOf(size);
  const results: CaseResult[] = [];
  const result = (entry: OpEntry<unknown>) => ({ part: 'sizes' as const, op: name, library: entry.library, ...shape, callsPerSample: 0, nsPerCall: [] });

  // The inputs first: building them is not the libraries' time.
  const inputs = op.definition.inputs(shape);
  const deadline = deadlineFrom(now(), context.capMs);
  const capped = (entry: OpEntry<unknown>, nsPerCall: number, how: Capped['how']) =>
    results.push({ ...result(entry), capped: { nsPerCall, how, neededMs: minimumMs(nsPerCall, timing), capMs: deadline.capMs } });
  const predict = (entry: OpEntry<unknown>) => context.costs.predict(name, entry.library, size);
  const predicted = op.timed.map(predict);
  // A library whose predicted minimum samples do not fit is not called at all.
  const predictedMs = predicted.map((ns) => (ns === undefined ? undefined : minimumMs(ns, timing)));
  const tooSlow = overBudget(predictedMs, deadline.capMs);
  const subjects: (Subject & { entry: OpEntry<unknown>; checkedBy: string | undefined; estimateNs: number; how: Capped['how'] })[] = [];
  // A reference checks with a single call: it may when that call is predicted to fit in what is left of the cap.
  const affordable = (entry: OpEntry<unknown>) => (predict(entry) ?? 0) / 1e6 <= deadline.at - now();
  const expected = await expectedOutput(op, shape, inputs, context.libraries, affordable);
  if (expected.output === undefined && expected.tooSlow.length > 0) {
    context.warn(`${name} ${size} B: outputs unchecked; one call of ${expected.tooSlow.join(', ')} would take longer than the cap`);
  }
  for (const [c, entry] of op.timed.entries()) {
    const ns = predicted[c];
    if (tooSlow.has(c)) {
      capped(entry, ns!, 'predicted');
      continue;
    }
    const library = context.libraries.get(entry.library)!;
    const bound = await bindChecked(entry, shape, inputs, expected, library);
    if ('error' in bound) results.push({ ...result(entry), error: bound.error });
    else {
      const measured = ns === undefined || bound.firstNs < ns;
      subjects.push({
        library,
        call: bound.call,
        async: bound.async,
        entry,
        checkedBy: expected.by,
        estimateNs: measured ? bound.firstNs : ns,
        how: measured ? 'measured' : 'predicted',
      });
    }
  }
  // With the first calls made, their times replace the predictions.
  const estimatedMs = subjects.map((subject) => minimumMs(subject.estimateNs, timing));
  const late = overBudget(estimatedMs, deadline.capMs);
  for (const i of late) capped(subjects[i]!.entry, subjects[i]!.estimateNs, subjects[i]!.how);
  const timed = subjects.filter((_, i) => !late.has(i));
  const outcomes = await sampleRoundRobin(timed, timing, tick, deadline);
  timed.forEach((subject, i) => {
    const checked = subject.checkedBy === undefined ? {} : { checkedBy: subject.checkedBy };
    results.push({ ...result(subject.entry), ...outcomes[i]!, ...checked });
  });

  // What each library cost at this size predicts the next size: a median, or the estimate it was capped on.
  for (const r of results) {
    const ns = r.capped?.nsPerCall ?? (r.nsPerCall.length > 0 ? median(r.nsPerCall) : undefined);
    if (ns !== undefined) context.costs.record(name, r.library, r.size, ns);
  }
  return results;
}
