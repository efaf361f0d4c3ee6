/**
 * The 'parallel' part: what fourfold/parallel's model (report/model.ts)
 * needs beyond the 'sizes' cases, the calling thread's copies and messages
 * (on an echo worker of ours: the public API has no job without work), and
 * the longest task during a parallel call with the jobs the workers did
 * (docs/contributing/benchmarks.md, "fourfold/parallel"). No Node API:
 * worker_threads through process.getBuiltinModule, as the pool does.
 */
import { describeError } from './errors.js';
import { now } from './timer.js';
import type { Call } from './ops/types.js';
import type { LongestTask, ParallelCosts, PoolState } from './types.js';

/** fourfold/parallel's slot: the largest piece one job carries (src/pool/pool-worker.ts PIECE). */
export const PIECE = 1 << 20;
/** Jobs a pool worker holds at once (src/pool/pool-worker.ts SLOTS). */
const IN_FLIGHT = 3;

/** The next turn of the event loop: setImmediate where the engine has it, else a message to oneself (setTimeout is clamped to 4 ms in browsers). */
function nextTurn(): (run: () => void) => () => void {
  if (typeof setImmediate === 'function') {
    return (run) => {
      const id = setImmediate(run);
      return () => clearImmediate(id);
    };
  }
  const channel = new MessageChannel();
  let pending: (() => void) | undefined;
  channel.port1.onmessage = () => pending?.();
  return (run) => {
    pending = run;
    channel.port2.postMessage(null);
    return () => {
      pending = undefined;
      channel.port1.close();
    };
  };
}

/** Runs `call` while a probe takes every turn of the event loop; the longest gap between turns (ms) is the longest task. */
export async function longestTask(call: () => Promise<unknown>): Promise<{ longestMs: number; callMs: number }> {
  const schedule = nextTurn();
  let longest = 0;
  let last = now();
  let running = true;
  let cancel = () => {};
  const probe = () => {
    const t = now();
    longest = Math.max(longest, t - last);
    last = t;
    if (running) cancel = schedule(probe);
  };
  cancel = schedule(probe);
  const start = now();
  try {
    await call();
  } finally {
    running = false;
    cancel();
  }
  const callMs = now() - start;
  // The end of the call to this turn is a gap too.
  longest = Math.max(longest, now() - last);
  return { longestMs: longest, callMs };
}

/** The longest task of each of `calls` parallel calls of an op, with the jobs the workers did in each. */
export async function longestTasks(
  op: string,
  size: number,
  call: Call,
  calls: number,
  jobsDone: () => number,
  contended: () => boolean = () => false,
): Promise<LongestTask> {
  const result = { op, size, ms: [] as number[], jobs: [] as number[], callMs: [] as number[], contended: [] as boolean[] };
  try {
    // The pool's workers start on the first call and take jobs once they have loaded (tens of ms):
    // warmed up until a call gives them one, or for two seconds where none can start.
    const until = now() + 2000;
    for (let before = jobsDone(); now() < until; before = jobsDone()) {
      await call();
      if (jobsDone() > before) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    for (let i = 0; i < calls; i++) {
      const before = jobsDone();
      const taken = await longestTask(async () => call());
      result.ms.push(taken.longestMs);
      result.callMs.push(taken.callMs);
      result.jobs.push(jobsDone() - before);
      result.contended.push(contended());
    }
  } catch (cause) {
    return { ...result, error: describeError(cause) };
  }
  return result;
}

/** A slot as the pool makes one: shared with workers where it can be, else an ArrayBuffer it moves by transfer. */
const slotOf = (shared: boolean): Uint8Array => new Uint8Array(shared ? new SharedArrayBuffer(PIECE) : new ArrayBuffer(PIECE));

/**
 * ns per byte, `reps` times each: a plain input into a slot a piece at a
 * time, a slot into a fresh output (its first touch included), and the same
 * into that output again.
 */
function copyCosts(shared: boolean, bytes: number, reps: number): Pick<ParallelCosts, 'copyInNs' | 'copyOutNs' | 'copyOutWarmNs'> {
  const input = new Uint8Array(bytes).fill(1); // touched, so that reading it is not reading the zero page
  const slot = slotOf(shared);
  const copyIn = () => {
    for (let at = 0; at < bytes; at += PIECE) slot.set(input.subarray(at, Math.min(at + PIECE, bytes)));
  };
  const copyOut = (output: Uint8Array) => {
    for (let at = 0; at < bytes; at += PIECE) output.set(slot.subarray(0, Math.min(PIECE, bytes - at)), at);
    return output;
  };
  const perByte = (run: () => unknown) => {
    const t = now();
    run();
    return ((now() - t) * 1e6) / bytes;
  };
  const copyInNs: number[] = [];
  const copyOutNs: number[] = [];
  const copyOutWarmNs: number[] = [];
  for (let r = 0; r < reps; r++) {
    copyInNs.push(perByte(copyIn));
    let output: Uint8Array = new Uint8Array(0);
    copyOutNs.push(perByte(() => (output = copyOut(new Uint8Array(bytes)))));
    copyOutWarmNs.push(perByte(() => copyOut(output)));
  }
  return { copyInNs, copyOutNs, copyOutWarmNs };
}

/** The echo worker's code: answers each job at once, zeroing its key and handing its slot back, as a pool worker does. */
const ECHO_BODY = `
const answer = (post) => (job) => {
  job.params.key.fill(0);
  const result = new Uint8Array(16);
  const transfer = [result.buffer];
  if (!(typeof SharedArrayBuffer === 'function' && job.data.buffer instanceof SharedArrayBuffer)) transfer.push(job.data.buffer);
  post({ type: 'done', id: job.id, result, data: job.data }, transfer);
};`;

interface Echo {
  post(job: unknown, transfer: ArrayBuffer[]): void;
  terminate(): void;
}

type Answer = { id: number; data: Uint8Array };

/** An echo worker as the pool would start one here: worker_threads in Node and Bun, a module Web Worker in Deno and browsers. */
function startEcho(onAnswer: (a: Answer) => void, onError: (message: string) => void): Echo {
  const g = globalThis as { Deno?: unknown; process?: { getBuiltinModule?: (id: string) => unknown } };
  const threads = g.Deno === undefined ? (g.process?.getBuiltinModule?.('node:worker_threads') as typeof import('node:worker_threads') | undefined) : undefined;
  if (threads !== undefined) {
    const code = `const { parentPort } = require('node:worker_threads');${ECHO_BODY}\nparentPort.on('message', answer((m, t) => parentPort.postMessage(m, t)));`;
    const w = new threads.Worker(code, { eval: true, execArgv: [] });
    w.on('message', onAnswer);
    w.on('error', (e: Error) => onError(e.message));
    return { post: (job, transfer) => w.postMessage(job, transfer), terminate: () => void w.terminate() };
  }
  if (typeof Worker !== 'function') throw new Error('this engine has no Worker');
  const code = `${ECHO_BODY}\nself.onmessage = (e) => answer((m, t) => self.postMessage(m, t))(e.data);`;
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const w = new Worker(url, { type: 'module' });
  w.onmessage = (e: MessageEvent) => onAnswer(e.data as Answer);
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    onError(e.message || 'the echo worker failed to load');
  };
  return {
    post: (job, transfer) => w.postMessage(job, transfer),
    terminate: () => {
      w.terminate();
      URL.revokeObjectURL(url);
    },
  };
}

/** ns per job of `jobs` echoed jobs, IN_FLIGHT at a time, after `warmup` of them; `reps` repetitions. */
async function messageCosts(shared: boolean, jobs: number, warmup: number, reps: number): Promise<number[]> {
  let round: { left: number; unsent: number; resolve(): void; reject(e: Error): void } | undefined;
  let id = 0;
  // The slots, made once: a transferred one comes back with its answer.
  const free = Array.from({ length: IN_FLIGHT }, () => slotOf(shared));
  const echo = startEcho(
    (answer) => {
      const r = round!;
      if (r.unsent > 0) {
        r.unsent--;
        send(answer.data);
      } else free.push(answer.data);
      if (--r.left === 0) r.resolve();
    },
    (message) => round?.reject(new Error(message)),
  );
  function send(slot: Uint8Array): void {
    const key = new Uint8Array(32);
    const transfer = shared ? [key.buffer] : [key.buffer, slot.buffer as ArrayBuffer];
    echo.post({ type: 'job', id: id++, op: 'echo', tier: 'simd', params: { key }, data: slot }, transfer);
  }
  const run = async (count: number): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        round = { left: count, unsent: count - IN_FLIGHT, resolve, reject };
        timer = setTimeout(() => reject(new Error('the echo worker did not answer within 10 s')), 10_000);
        for (const slot of free.splice(0, IN_FLIGHT)) send(slot);
      });
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    await run(warmup);
    const samples: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t = now();
      await run(jobs);
      samples.push(((now() - t) * 1e6) / jobs);
    }
    return samples;
  } finally {
    echo.terminate();
  }
}

/** The calling thread's costs of the model, for slots as the pool makes them here (`shared`), over `bytes` of copies. */
export async function parallelCosts(shared: boolean, bytes: number): Promise<ParallelCosts> {
  const copies = copyCosts(shared, bytes, 5);
  try {
    const messageNs = await messageCosts(shared, 300, 60, 3);
    return { shared, pieceBytes: PIECE, ...copies, messageNs };
  } catch (cause) {
    return { shared, pieceBytes: PIECE, ...copies, messageNs: [], messageError: describeError(cause) };
  }
}

/** The pool's status() in the result's form. */
export function poolState(status: { workers: number; ready: number; jobs: number; shared: boolean; failure: string | undefined }): PoolState {
  const { workers, ready, jobs, shared, failure } = status;
  return failure === undefined ? { workers, ready, jobs, shared } : { workers, ready, jobs, shared, failure };
}

/** Logical cores as the pool counts them: navigator.hardwareConcurrency, else node:os (Node 20 has no navigator). */
export function logicalCores(): number {
  const n = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  if (typeof n === 'number' && n > 0) return n;
  const os = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:os') as
    | typeof import('node:os')
    | undefined;
  return os?.availableParallelism?.() ?? os?.cpus().length ?? 1;
}
