/**
 * test:engines' summary, once every engine has run: a table of the
 * engines (passed, failed, skipped, the tiers they ran, the time), each
 * engine's slowest files, its problems, failures and skips grouped by
 * reason, and once more at the end a line for each failure.
 */
import { join, relative } from 'node:path';
import { CACHE, ENGINES, ROOT, type EngineId } from './engines.js';
import type { TestResult } from './harness/node-test.js';
import type { EngineOutcome } from './suite.js';

export function count(o: EngineOutcome, status: TestResult['status']): number {
  return o.results.filter((r) => r.status === status).length;
}

function firstLines(s: string, n: number): string {
  return s.split('\n').slice(0, n).join('\n      ');
}

/** The slowest files of each engine: where its time goes (all of them are in report.json). */
function printSlowest(outcomes: EngineOutcome[], n = 10): void {
  for (const o of outcomes) {
    if (o.files.length === 0) continue;
    const total = o.files.reduce((sum, f) => sum + f.ms, 0);
    console.log(`\n## ${o.engine}: the ${Math.min(n, o.files.length)} slowest of ${o.files.length} files (${(total / 1000).toFixed(1)} s in all)`);
    for (const f of o.files.slice(0, n)) console.log(`  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
  }
}

/**
 * Prints the summary of `outcomes` (`without`: the engines left out, with
 * why), the run having started at `t0`: the number of engines that failed.
 */
export function printSummary(outcomes: EngineOutcome[], without: Map<EngineId, string>, seed: string, t0: number): number {
  // Summary table.
  const rows = outcomes.map((o) => {
    const e = ENGINES[o.engine];
    const failed = count(o, 'fail') > 0 || o.problems.length > 0;
    return [
      failed ? 'FAIL' : 'ok',
      o.engine,
      e.label,
      o.version,
      // Under emulation the tests run the simd tier alone (test/helpers.ts EMULATED).
      o.wasm === undefined ? '?' : o.wasm === 'simd' ? (e.emulator ? 'simd' : 'simd+js') : o.wasm === 'none' ? 'js (no wasm)' : 'js only',
      String(count(o, 'pass')),
      String(count(o, 'fail')),
      String(count(o, 'skip') + count(o, 'todo')),
      `${(o.ms / 1000).toFixed(1)} s`,
    ];
  });
  const header = ['', 'engine', 'family / host', 'version', 'tiers', 'pass', 'fail', 'skip', 'time'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i >= 5 && i <= 8 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log('\n' + line(header));
  for (const r of rows) console.log(line(r));
  for (const [id, reason] of without) console.log(`(not run: ${id}, ${reason})`);

  printSlowest(outcomes);

  for (const o of outcomes) {
    const failures = o.results.filter((r) => r.status === 'fail');
    const skips = o.results.filter((r) => r.status === 'skip' || r.status === 'todo');
    if (!failures.length && !o.problems.length && !skips.length) continue;
    console.log(`\n## ${o.engine}`);
    for (const p of o.problems) console.log(`  problem: ${firstLines(p, 6)}`);
    for (const f of failures.slice(0, 15)) console.log(`  FAIL ${f.file}: ${f.name}\n      ${firstLines(f.error ?? '', 4)}`);
    if (failures.length > 15) console.log(`  ... and ${failures.length - 15} more failures (see .engines/report.json)`);
    // Group skips by reason: 'not applicable: no SIMD' should read as one line, not thirty.
    const reasons = new Map<string, number>();
    for (const s of skips) reasons.set(s.reason ?? '(no reason given)', (reasons.get(s.reason ?? '(no reason given)') ?? 0) + 1);
    for (const [reason, n] of reasons) console.log(`  skipped ${n}: ${reason}`);
    if ((failures.length || o.problems.length) && o.log.length) console.log(`  engine log (last lines):\n    ${o.log.slice(-12).join('\n    ')}`);
  }

  const bad = outcomes.filter((o) => count(o, 'fail') > 0 || o.problems.length > 0);
  // Once more at the end, one line each: a CI log cut in its middle still names what failed.
  for (const o of bad) {
    for (const f of o.results.filter((r) => r.status === 'fail').slice(0, 5))
      console.log(`failed in ${o.engine}: ${f.file}: ${f.name}: ${firstLines(f.error ?? '', 1)}`);
    for (const p of o.problems.slice(0, 2)) console.log(`problem in ${o.engine}: ${firstLines(p, 1)}`);
  }
  console.log(
    `\n# ${outcomes.length - bad.length}/${outcomes.length} engines passed in ${((Date.now() - t0) / 1000).toFixed(1)} s; seed ${seed}; details in ${relative(ROOT, join(CACHE, 'report.json'))}`,
  );
  return bad.length;
}
