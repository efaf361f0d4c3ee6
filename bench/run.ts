/**
 * `npm run bench`: times every op of bench/ops against every library,
 * prints a Markdown table per op on stdout, progress on stderr, and writes
 * the full report (every sample) as JSON.
 */
import os from 'node:os';
import { resolve } from 'node:path';
import { planCases, runCase, sinkValue, type Measurement } from './harness.js';
import { loadLibraries } from './libraries.js';
import { allEntries } from './ops/index.js';
import { parseOptions, usage } from './options.js';
import { formatSize, markdown, summarize, writeJson } from './report.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (cause) {
    fail(cause instanceof Error ? cause.message : String(cause));
  }
  if (options === 'help') {
    process.stdout.write(`${usage}\n`);
    return;
  }

  const { libraries, apis, warnings } = await loadLibraries();
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  const known = libraries.map((l) => l.name);
  const unknown = options.libs?.filter((name) => !known.includes(name)) ?? [];
  if (unknown.length > 0) fail(`unknown or unavailable library: ${unknown.join(', ')} (available: ${known.join(', ')})`);

  const entries = allEntries(apis);
  const cases = planCases(entries, libraries, options);
  if (cases.length === 0) fail(`nothing to run: check --ops (ops: ${[...new Set(entries.map((e) => e.op))].join(', ')})`);

  const loadAtStart = os.loadavg();
  if (loadAtStart[0]! > os.cpus().length / 2) {
    process.stderr.write(`warning: the machine is busy (load average ${loadAtStart[0]!.toFixed(1)} on ${os.cpus().length} cores); expect noisy numbers\n`);
  }
  const started = new Date();
  const t0 = performance.now();
  const measurements: Measurement[] = [];
  // On a terminal the progress line rewrites itself; in a log, one line per case.
  const tty = process.stderr.isTTY;
  for (const [i, c] of cases.entries()) {
    const elapsed = ((performance.now() - t0) / 1000).toFixed(0);
    const line = `[${i + 1}/${cases.length}] ${c.op} ${formatSize(c.size)} (${elapsed} s)`;
    process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    const results = await runCase(c, new Map(libraries.map((l) => [l.name, l])), options.timing);
    for (const m of results) {
      if (m.error !== undefined) process.stderr.write(`${tty ? '\n' : ''}warning: ${m.library} ${m.op} ${formatSize(m.size)}: ${m.error}\n`);
    }
    measurements.push(...results);
  }
  const seconds = (performance.now() - t0) / 1000;
  process.stderr.write(`${tty ? '\r\x1b[K' : ''}done: ${cases.length} cases in ${seconds.toFixed(1)} s\n`);

  const timedNames = new Set(measurements.map((m) => m.library));
  const timedLibraries = libraries.filter((l) => timedNames.has(l.name));
  process.stdout.write(markdown(measurements.map(summarize), timedLibraries));

  const out = resolve(options.out);
  writeJson(
    out,
    {
      libraries: timedLibraries,
      timing: options.timing,
      selection: { ops: options.ops, sizes: options.sizes, libs: options.libs, quick: options.quick },
      warnings,
      started,
      seconds,
      sink: sinkValue(),
      load: { start: loadAtStart, end: os.loadavg() },
    },
    measurements,
  );
  process.stderr.write(`wrote ${out}\n`);
}

await main();
