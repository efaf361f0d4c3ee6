/**
 * The host for workerd, the counterpart of host.mjs: a Worker whose fetch
 * handler calls the entry's default export (run.ts's contract) and answers
 * the outcome as JSON, { ok: true, value } or { ok: false, error }
 * (drivers/workerd.ts fetches it). Progress messages are console lines
 * starting '# ', which workerd writes to its standard output.
 */
import { describeError } from './node-test.js';

export function workerOf(run: (context: { progress(message: string): void }) => unknown): { fetch(): Promise<Response> } {
  return {
    async fetch() {
      try {
        return Response.json({ ok: true, value: await run({ progress: (m) => console.log(`# ${m}`) }) });
      } catch (e) {
        return Response.json({ ok: false, error: describeError(e) });
      }
    },
  };
}
