/**
 * `npm run bench`: runs the benchmark core in each selected engine, adds
 * what only the Node side can measure (setup time in fresh processes,
 * code size), prints a Markdown summary on stdout, progress on stderr, and
 * writes bench-report/results.json (every sample) and index.html (charts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchConfig, EngineResult } from './core/types.js';
import { measureCodeSize, type CodeSizeResult } from './node/code-size.js';
import { driverFor } from './node/engines.js';
import { describeMachine, packageVersions } from './node/machine.js';
import { parseOptions, usage } from './node/options.js';
import { ProgressBar } from './node/progress.js';
import { measureSetup, type SetupResult } from './node/setup.js';
import { renderHtml } from './report/html.js';
import { markdown } from './report/markdown.js';
import { buildReport } from './report/json.js';

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

  const started = new Date();
  const t0 = performance.now();
  const machine = describeMachine();
  const config: BenchConfig = { ...options.config, versions: packageVersions() };
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    process.stderr.write(`warning: ${message}\n`);
  };
  if (machine.loadAverage.start[0]! > machine.cores / 2) {
    warn(`the machine is busy (load average ${machine.loadAverage.start[0]!.toFixed(1)} on ${machine.cores} cores); expect noisy numbers`);
  }

  const engines: EngineResult[] = [];
  if (config.parts.length > 0) {
    for (const name of options.engines) {
      // Generous: a browser's default run takes minutes; a hung one must still end.
      const driver = await driverFor(name, (options.quick ? 15 : 60) * 60_000);
      if ('unavailable' in driver) {
        warn(`${name}: ${driver.unavailable}; skipped`);
        continue;
      }
      const bar = new ProgressBar(name);
      try {
        const result = await driver.run(config, (p) => bar.update(p.fraction, p.label));
        bar.finish('done');
        for (const w of result.warnings) warn(`${name}: ${w}`);
        for (const c of result.cases.filter((c) => c.error !== undefined)) warn(`${name}: ${c.library} ${c.op} ${c.size} B offset ${c.offset} keys ${c.keys}: ${c.error}`);
        for (const s of result.sweeps.filter((s) => s.errorCount > 0)) warn(`${name}: ${s.library} ${s.op} failed at ${s.errorCount} lengths, first ${s.errors[0]!.length} B: ${s.errors[0]!.error}`);
        engines.push({ ...result, engine: { ...result.engine, id: name } });
      } catch (cause) {
        bar.finish('failed');
        warn(`${name}: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    }
  }

  let setup: SetupResult | undefined;
  if (options.runnerParts.includes('setup')) {
    const bar = new ProgressBar('setup');
    setup = await measureSetup(options.quick ? 3 : 10, (done, total) => bar.update(done / total, `fresh processes ${done}/${total}`));
    bar.finish('done');
    for (const l of setup.libraries.filter((l) => l.error !== undefined)) warn(`setup ${l.library}: ${l.error}`);
  }
  let codeSize: CodeSizeResult | undefined;
  if (options.runnerParts.includes('codesize')) codeSize = await measureCodeSize();
  if (engines.length === 0 && setup === undefined && codeSize === undefined) fail('nothing was measured');

  machine.loadAverage.end = os.loadavg();
  const report = buildReport({
    started,
    seconds: (performance.now() - t0) / 1000,
    machine,
    argv: process.argv.slice(2),
    quick: options.quick,
    config,
    engines,
    setup,
    codeSize,
    warnings,
  });
  process.stdout.write(markdown(report, options.tableSizes));

  const out = resolve(options.out);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'results.json'), JSON.stringify(report) + '\n');
  writeFileSync(join(out, 'index.html'), renderHtml(report));
  process.stderr.write(`wrote ${join(out, 'results.json')} and ${join(out, 'index.html')}\n`);
}

await main();
