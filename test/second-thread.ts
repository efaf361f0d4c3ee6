/**
 * A second thread that runs loops over shared memory while a test's calls
 * run: a Web Worker or node:worker_threads, and why a test that needs one
 * does not apply. test/helpers.ts re-exports it.
 */
/** Why a test that needs a second thread on shared memory does not apply here, or false. */
export const NO_SECOND_THREAD: false | string =
  typeof SharedArrayBuffer !== 'function'
    ? 'not applicable: this engine (or page) has no SharedArrayBuffer'
    : typeof Worker !== 'function' && typeof (globalThis.process as { getBuiltinModule?: unknown } | undefined)?.getBuiltinModule !== 'function'
      ? 'not applicable: this engine has neither Web Workers nor node:worker_threads'
      : false;

/** A second thread that runs loops over shared memory (spinThread), one at a time. */
export interface SpinningThread {
  /**
   * Runs `body` (JavaScript source, a statement) over and over, with `d`
   * bound to `data` (SharedArrayBuffers and views of them, shared with
   * this thread), until pause(); resolves once the loop runs.
   */
  spin(body: string, data: Record<string, unknown>): Promise<void>;
  /** Stops the loop (the thread waits for the next spin). */
  pause(): Promise<void>;
  /** How many times the loop's body has run since the last spin. */
  turns(): number;
  /** Until the loop has run once more (a condition polled on timers, 30 s at most): the thread has a core between two calls. */
  turn(): Promise<void>;
  /** Ends the thread. */
  stop(): Promise<void>;
}

/** Until `condition` holds (polled on timers), or a rejection after `ms`. */
async function until(what: string, condition: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`spinThread: ${what} within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * Starts a thread that runs loops over shared memory: a module Web Worker
 * from a blob where the engine has them (browsers, Deno, Bun), else
 * node:worker_threads (Node). One thread serves a whole test: a thread
 * per case would start dozens, and browsers reclaim a worker's memory
 * late (Chromium then ran out of address space for WebAssembly memories).
 */
export async function spinThread(): Promise<SpinningThread> {
  // control[0]: 0 idle, 1 while a loop runs, 2 to stop it; control[1]: turns of the loop.
  const control = new Int32Array(new SharedArrayBuffer(8));
  const run = `(m) => { const c = m.c; const f = new Function('d', m.body); Atomics.store(c, 1, 0); Atomics.store(c, 0, 1);
    while (Atomics.load(c, 0) === 1) { f(m.d); Atomics.add(c, 1, 1); } Atomics.store(c, 0, 0); }`;
  let post: (message: { body: string; d: Record<string, unknown>; c: Int32Array }) => void;
  let end: () => Promise<void>;
  if (typeof Worker === 'function') {
    const url = URL.createObjectURL(new Blob([`const run = ${run}; onmessage = (e) => run(e.data);`], { type: 'text/javascript' }));
    // A module worker: Deno has no classic ones.
    const w = new Worker(url, { type: 'module' });
    post = (m) => w.postMessage(m);
    end = async () => {
      w.terminate();
      URL.revokeObjectURL(url);
    };
  } else {
    const { Worker: NodeWorker } = (globalThis.process as unknown as { getBuiltinModule(id: string): typeof import('node:worker_threads') }).getBuiltinModule(
      'node:worker_threads',
    );
    const w = new NodeWorker(`const run = ${run}; require('node:worker_threads').parentPort.on('message', run);`, { eval: true });
    post = (m) => w.postMessage(m);
    end = async () => {
      await w.terminate();
    };
  }
  return {
    async spin(body, data) {
      post({ body, d: data, c: control });
      await until('the loop did not start', () => Atomics.load(control, 0) === 1);
    },
    async pause() {
      Atomics.compareExchange(control, 0, 1, 2);
      await until('the loop did not stop', () => Atomics.load(control, 0) === 0);
    },
    turns: () => Atomics.load(control, 1),
    turn() {
      const seen = Atomics.load(control, 1);
      return until('the loop did not run again', () => Atomics.load(control, 1) !== seen);
    },
    async stop() {
      Atomics.store(control, 0, 2);
      await end();
    },
  };
}
