// The host for script engines (Node, Deno, Bun): imports an entry module,
// awaits its default export, and writes the JSON it resolves to into a file.
// Plain JavaScript so that every runtime runs it as is.
//
//   <runtime> host.mjs <entry file URL> <result file>
//
// The result file holds { ok: true, value } or { ok: false, error }.
// Progress messages from the entry go to stderr, one per line, prefixed '# '.
import { writeFileSync } from 'node:fs';

const argv = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
const [entry, out] = argv;
let result;
try {
  const mod = await import(entry);
  const value = await mod.default({ progress: (m) => process.stderr.write(`# ${m}\n`) });
  result = { ok: true, value };
} catch (e) {
  result = { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e) };
}
writeFileSync(out, JSON.stringify(result));
// Leftover timers or handles (e.g. a peer's worker) must not keep the process alive.
process.exit(0);
