/**
 * The host for shells (Hermes), the counterpart of host.mjs: calls the
 * entry's default export (run.ts's contract) and prints the outcome as the
 * last line of standard output, `RESULT` followed by { ok, value } or
 * { ok: false, error } in JSON. Progress messages are lines starting '# '.
 * The shell's `print` writes a line; the shell exits once the promise jobs
 * and timers are done.
 */
import { describeError } from './node-test.js';

export const RESULT = '@@fourfold-result ';

export function host(run: (context: { progress(message: string): void }) => unknown): void {
  const print = (globalThis as unknown as { print: (line: string) => void }).print;
  new Promise((resolve) => resolve(run({ progress: (m) => print(`# ${m}`) }))).then(
    (value) => print(RESULT + JSON.stringify({ ok: true, value })),
    (e: unknown) => print(RESULT + JSON.stringify({ ok: false, error: describeError(e) })),
  );
}
