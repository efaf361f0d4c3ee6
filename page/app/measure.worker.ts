/**
 * The page's measuring Worker: says it has loaded, then runs the
 * measurement it is asked for (measure.ts), posting every message back,
 * and answers 'where' (what it is doing) whenever the page asks.
 * fourfold/parallel's pool starts its own workers from here (worker.js
 * beside this file's chunks).
 */
import { measure, where, type MeasureMessage, type MeasureRequest } from './measure.js';

const scope = self as unknown as {
  postMessage(message: MeasureMessage | { type: 'loaded' }): void;
  onmessage: ((event: MessageEvent<MeasureRequest | 'where'>) => void) | null;
};

let started = false;
scope.onmessage = (event) => {
  if (event.data === 'where') return scope.postMessage(where());
  if (started) return;
  started = true;
  void measure(event.data, (message) => scope.postMessage(message));
};
scope.postMessage({ type: 'loaded' });
