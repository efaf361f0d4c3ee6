/**
 * The page's measuring Worker (measure.worker.ts, built to
 * assets/measure-worker.js): starting it, and how long it may say nothing
 * before main.ts asks it where it is or takes it as stuck.
 */
import type { MeasureMessage, MeasureRequest } from './measure.js';

/** The measuring Worker: ends it, or asks it where the measurement is (it answers with a 'where' message). */
export interface MeasuringWorker {
  stop(): void;
  ask(): void;
}

/**
 * How long the measuring Worker may say nothing before the page asks it
 * where it is and shows the answer: a quick run's steps each send
 * progress within seconds.
 */
export const QUIET_MS = 60_000;

/**
 * The same while the measurement starts fourfold/parallel's workers, and
 * how long it may then leave the question unanswered before it is taken
 * as stuck: starting a worker takes well under a second, and Firefox ESR
 * 153 was seen (page test, a loaded two-core machine, about one run in
 * eight) to block a worker's thread for good in new Worker() of a nested
 * module worker.
 */
export const STUCK_MS = 15_000;

/**
 * Starts the measuring Worker; resolves to it once it has
 * loaded, or rejects when it cannot start (no module workers, a policy
 * against them), so that the page measures by itself instead.
 */
export function startWorker(request: MeasureRequest, deliver: (m: MeasureMessage) => void, onCrash: (why: string) => void): Promise<MeasuringWorker> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./measure-worker.js', import.meta.url), { type: 'module' });
    } catch (cause) {
      reject(cause);
      return;
    }
    let loaded = false;
    const timer = setTimeout(() => {
      if (loaded) return;
      worker.terminate();
      reject(new Error('the measuring worker did not start within 20 s'));
    }, 20_000);
    worker.onerror = (event) => {
      event.preventDefault();
      const why = event.message || 'the worker could not load its script';
      if (!loaded) {
        clearTimeout(timer);
        worker.terminate();
        reject(new Error(why));
      } else onCrash(`the measuring worker stopped (${why}; out of memory?)`);
    };
    worker.onmessage = (event: MessageEvent<MeasureMessage | { type: 'loaded' }>) => {
      if (event.data.type === 'loaded') {
        loaded = true;
        clearTimeout(timer);
        worker.postMessage(request);
        resolve({ stop: () => worker.terminate(), ask: () => worker.postMessage('where') });
        return;
      }
      deliver(event.data);
    };
  });
}
