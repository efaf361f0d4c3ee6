/**
 * One case of the 'sizes', 'align' or 'keys' part: one op, one or more
 * shapes, every selected library, all interleaved. The align part puts
 * byteOffsets 0, 1, 3 and 7 in one case, the keys part every key count, so
 * that what is compared is measured under the same conditions.
 */
import { describeError } from './errors.js';
import type { Library } from './libraries.js';
import { activate, sampleRoundRobin, type Subject } from './measure.js';
import type { Call, OpDefinition, OpEntry, Shape } from './ops/types.js';
import type { CaseResult, CaseTiming, Part } from './types.js';

/** An op with the entries to time, in column order, and the one trusted for the expected output. */
export interface SelectedOp {
  readonly definition: OpDefinition<unknown>;
  readonly timed: readonly OpEntry<unknown>[];
  readonly reference?: OpEntry<unknown>;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The output every library must reproduce for these inputs, copied (an
 * '(output)' style reuses its buffer); undefined, and the outputs
 * unchecked, where there is no reference or it refuses the shape
 * (OpEntry.refuses). A reference that throws ends the run.
 */
export async function expectedOutput(op: SelectedOp, shape: Shape, inputs: unknown, libraries: Map<string, Library>): Promise<Uint8Array | undefined> {
  const reference = op.reference;
  if (reference === undefined || reference.refuses?.(shape) !== undefined) return undefined;
  await activate(libraries.get(reference.library)!);
  const call = reference.bind(inputs);
  return (reference.checkedOutput?.(inputs) ?? (await call())).slice();
}

/**
 * Binds one entry to its inputs and checks its first output, so a wrong
 * answer is reported instead of timed. Returns the call, or why not.
 */
export async function bindChecked(
  entry: OpEntry<unknown>,
  shape: Shape,
  inputs: unknown,
  expected: Uint8Array | undefined,
  referenceName: string | undefined,
  library: Library,
): Promise<{ call: Call; async: boolean } | { error: string }> {
  const refused = entry.refuses?.(shape);
  if (refused !== undefined) return { error: refused };
  await activate(library);
  let call: Call;
  let output: Uint8Array;
  let isAsync = false;
  try {
    call = entry.bind(inputs);
    const first = call();
    isAsync = first instanceof Promise;
    output = entry.checkedOutput?.(inputs) ?? (await first);
  } catch (cause) {
    return { error: `threw: ${describeError(cause)}` };
  }
  if (expected !== undefined && !sameBytes(output, expected)) return { error: `output differs from ${referenceName}` };
  return { call, async: isAsync };
}

export async function runCase(
  part: Exclude<Part, 'sweep'>,
  op: SelectedOp,
  shapes: readonly Shape[],
  libraries: Map<string, Library>,
  timing: CaseTiming,
  tick: (fraction: number) => Promise<void>,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const subjects: (Subject & { entry: OpEntry<unknown>; shape: Shape })[] = [];
  const result = (entry: OpEntry<unknown>, shape: Shape) => ({ part, op: op.definition.op, library: entry.library, ...shape });

  for (const shape of shapes) {
    const inputs = op.definition.inputs(shape);
    const expected = await expectedOutput(op, shape, inputs, libraries);
    for (const entry of op.timed) {
      const library = libraries.get(entry.library)!;
      const bound = await bindChecked(entry, shape, inputs, expected, op.reference?.library, library);
      if ('error' in bound) results.push({ ...result(entry, shape), callsPerSample: 0, nsPerCall: [], error: bound.error });
      else subjects.push({ library, call: bound.call, async: bound.async, entry, shape });
    }
  }

  const samples = await sampleRoundRobin(subjects, timing, tick);
  const timed = subjects.map((s, i) => ({ ...result(s.entry, s.shape), ...samples[i]! }));
  return [...timed, ...results];
}
