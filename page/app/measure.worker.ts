/**
 * The page's measuring Worker: says it has loaded, then runs the
 * measurement it is asked for (measure.ts), posting every message back.
 * fourfold/parallel's pool starts its own workers from here (worker.js
 * beside this file's chunks).
 */
import { measure, type MeasureMessage, type MeasureRequest } from './measure.js';

const scope = self as unknown as {
  postMessage(message: MeasureMessage | { type: 'loaded' }): void;
  onmessage: ((event: MessageEvent<MeasureRequest>) => void) | null;
};

scope.onmessage = (event) => {
  scope.onmessage = null;
  void measure(event.data, (message) => scope.postMessage(message));
};
scope.postMessage({ type: 'loaded' });
