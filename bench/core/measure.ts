/**
 * Timing primitives: a batch of calls, warm-up with calibration, and
 * interleaved sampling of several subjects. Nothing here knows about
 * cryptography or about the engine beyond performance.now().
 */
import { deadlineFrom, minimumMs, overBudget, type Deadline } from './costs.js';
import { threwError } from './errors.js';
import type { Library } from './libraries.js';
import type { Call } from './ops/types.js';
import { now, timerGranularityNs } from './timer.js';
import type { Capped, CaseTiming } from './types.js';

/** One thing to time: a library's call bound to one shape's inputs. */
export interface Subject {
  readonly library: Library;
  readonly call: Call;
  /** Whether `call` returns promises (checked on its first call, by cases.ts bindChecked). */
  readonly async: boolean;
}

export interface Samples {
  readonly callsPerSample: number;
  /** Nanoseconds per call, one entry per sample. */
  readonly nsPerCall: number[];
}

// Every output contributes a byte here, and the result records the final
// value, so the engine can never prove a call's result unused and drop it.
let sink = 0;
export function sinkValue(): number {
  return sink;
}

let activeTier: (() => unknown) | undefined;

/**
 * Selects the subject's library (fourfold's tier) before its calls. Only a
 * change of tier costs a call; libraries without a tier leave it alone.
 */
export async function activate(library: Library): Promise<void> {
  if (library.activate === undefined || library.activate === activeTier) return;
  await library.activate();
  activeTier = library.activate;
}

/** Runs `call` `calls` times back to back and returns the elapsed nanoseconds. */
export function timeBatch(call: Call, calls: number): number {
  let local = 0;
  const start = now();
  for (let i = 0; i < calls; i++) local ^= (call() as Uint8Array)[0] | 0; // `| 0`: an empty output reads undefined
  const elapsed = (now() - start) * 1e6;
  sink ^= local;
  return elapsed;
}

/** timeBatch for a call that returns promises: each call is awaited before the next. */
export async function timeBatchAsync(call: Call, calls: number): Promise<number> {
  let local = 0;
  const start = now();
  for (let i = 0; i < calls; i++) local ^= (await call())[0] | 0;
  const elapsed = (now() - start) * 1e6;
  sink ^= local;
  return elapsed;
}

/** The batch timer for a subject: synchronous calls are timed without an await between them. */
export function batchTimer(call: Call, isAsync: boolean): (calls: number) => Promise<number> {
  return isAsync ? (calls) => timeBatchAsync(call, calls) : async (calls) => timeBatch(call, calls);
}

/**
 * Calls `call` for about `warmupMs`, so the engine compiles its hot paths,
 * and returns one call's cost in ns. Batches double; the fastest decides (a
 * preempted or collected batch would make every sample's batch too short),
 * counting only batches of 10 clock steps (a browser's clock is coarse). A
 * call slower than the warm-up still runs twice, to be timed compiled.
 */
export async function warmUp(time: (calls: number) => Promise<number>, warmupMs: number): Promise<number> {
  const budget = warmupMs * 1e6;
  const readable = 10 * timerGranularityNs();
  let spent = 0;
  let calls = 1;
  let timed = 0;
  let fastest = Infinity;
  for (let round = 0; ; round++) {
    const elapsed = await time(calls);
    spent += elapsed;
    // The first call compiles; later batches count once the clock can read them.
    if (round > 0 && elapsed >= readable) {
      fastest = Math.min(fastest, elapsed / calls);
      timed++;
    }
    if (spent >= budget && timed >= 2) return Math.max(fastest, 1);
    // Double; once batches are readable, do not overshoot the budget by much on a slow call.
    const cap = elapsed >= readable ? Math.ceil(Math.max(budget - spent, readable) / (elapsed / calls)) : Infinity;
    calls = Math.max(1, Math.min(calls * 2, cap));
  }
}

/**
 * One sample, in ns per call. A batch under half of `targetNs` means the
 * call got faster (an engine that optimizes late): it is sized again and
 * the sample retaken. Returns the batch used.
 */
export async function sampleOf(time: (calls: number) => Promise<number>, calls: number, targetNs: number): Promise<{ nsPerCall: number; calls: number }> {
  for (let attempt = 0; ; attempt++) {
    const elapsed = await time(calls);
    if (elapsed >= targetNs / 2 || attempt === 4) return { nsPerCall: elapsed / calls, calls };
    const perCall = elapsed / calls;
    calls = Math.min(calls * 16, perCall > 0 ? Math.ceil(targetNs / perCall) : Infinity);
  }
}

/**
 * A subject's samples, or why it was left out: its minimum (costs.ts
 * minimumMs) did not fit the cap, or a call threw after the checked first
 * one (typage on WebKitGTK refuses some of its random X25519 scalars).
 */
export type SubjectOutcome = Samples | { readonly capped: Capped } | { readonly error: string };

/**
 * Times several subjects against each other: all warmed up, then one sample
 * per subject per round, each round starting with the next, so drift and
 * call order weigh on all alike; slow subjects take fewer rounds, down to
 * minSamples. After the warm-up, subjects whose minimum no longer fits the
 * cap are capped, slowest first; one that throws is dropped with its error.
 */
export async function sampleRoundRobin(
  subjects: readonly Subject[],
  timing: CaseTiming,
  tick: (fraction: number) => Promise<void>,
  deadline: Deadline = deadlineFrom(now(), 0),
): Promise<SubjectOutcome[]> {
  const target = timing.sampleMs * 1e6;
  const batch: number[] = [];
  const warmNs: number[] = [];
  const timers = subjects.map((s) => batchTimer(s.call, s.async));
  const failed = subjects.map((): string | undefined => undefined);
  for (const [i, s] of subjects.entries()) {
    await activate(s.library);
    let nsPerCall = Infinity;
    try {
      nsPerCall = await warmUp(timers[i]!, timing.warmupMs);
    } catch (cause) {
      failed[i] = threwError(cause, true);
    }
    warmNs.push(nsPerCall);
    batch.push(Math.max(1, Math.round(target / nsPerCall)));
    await tick((0.3 * (i + 1)) / subjects.length);
  }

  // Now measured warm, the subjects whose minimum does not fit the cap are capped, slowest first.
  const capped = subjects.map((): Capped | undefined => undefined);
  const warmMs = warmNs.map((ns, s) => (failed[s] === undefined ? minimumMs(ns, timing) : 0));
  for (const i of overBudget(warmMs, deadline.capMs)) {
    capped[i] = { nsPerCall: warmNs[i]!, how: 'measured', neededMs: minimumMs(warmNs[i]!, timing), capMs: deadline.capMs };
  }

  const sample = async (i: number): Promise<number> => {
    const taken = await sampleOf(timers[i]!, batch[i]!, target);
    batch[i] = taken.calls;
    return taken.nsPerCall;
  };

  const samples: number[][] = subjects.map(() => []);
  const live = subjects.map((_, i) => i).filter((i) => capped[i] === undefined && failed[i] === undefined);
  // The first round measures the round's real duration, which sets the count.
  let rounds = live.length === 0 ? 0 : timing.samples;
  for (let round = 0; round < rounds; round++) {
    if (round >= timing.minSamples && now() >= deadline.at) break;
    const start = now();
    for (let k = 0; k < live.length; k++) {
      const i = live[(round + k) % live.length]!;
      if (failed[i] !== undefined) continue;
      await activate(subjects[i]!.library);
      try {
        samples[i]!.push(await sample(i));
      } catch (cause) {
        failed[i] = threwError(cause, true);
      }
    }
    if (round === 0) {
      const perRound = Math.max(now() - start, 1e-3);
      rounds = Math.max(timing.minSamples, Math.min(timing.samples, Math.floor(timing.budgetMs / perRound)));
    }
    await tick(0.3 + (0.7 * (round + 1)) / rounds);
  }
  return subjects.map((_, i) => {
    if (failed[i] !== undefined) return { error: failed[i]! };
    return capped[i] !== undefined ? { capped: capped[i]! } : { callsPerSample: batch[i]!, nsPerCall: samples[i]! };
  });
}
