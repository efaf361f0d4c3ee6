/**
 * `npm run bench`: the benchmark core in each selected engine, plus what only
 * Node measures (code size); a Markdown summary on
 * stdout, progress on stderr, and bench-report/results.json rewritten as
 * results arrive, so Ctrl-C leaves a report. `--render[=dir]` only prints a
 * results.json's summary.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchConfig, EngineResult } from './core/types.js';
import { endChildren } from './node/children.js';
import { measureCodeSize, type CodeSizeResult } from './node/code-size.js';
import { driverFor } from './node/engines.js';
import { ReportFiles } from './node/live-report.js';
import { describeMachine, packageVersions } from './node/machine.js';
import { parseOptions, usage } from './node/options.js';
import { ProgressBar } from './node/progress.js';
import { EngineCollector } from './report/collector.js';
import { buildReport, parseReport, type RunStatus } from './report/json.js';
import { markdown } from './report/markdown.js';
import { summarySizes } from './report/summary.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** --render: the summary again from dir/results.json, measuring nothing. */
function render(dir: string): void {
  const report = parseReport(readFileSync(join(dir, 'results.json'), 'utf8'));
  process.stdout.write(markdown(report, summarySizes(report.settings.sizes)));
}

async function main(): Promise<void> {
  const rendering = process.argv.slice(2).find((a) => a === '--render' || a.startsWith('--render='));
  if (rendering !== undefined) return render(resolve(rendering.slice('--render='.length) || 'bench-report'));
  let options: ReturnType<typeof parseOptions>;
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
  /** The engine running now, with what it has sent so far. */
  let current: { collector: EngineCollector; bar: ProgressBar } | undefined;
  let codeSize: CodeSizeResult | undefined;
  const files = new ReportFiles(options.out);
  const report = (status: RunStatus) => {
    const partial = current?.collector.partial();
    machine.loadAverage.end = os.loadavg();
    return buildReport({
      started,
      seconds: (performance.now() - t0) / 1000,
      status,
      machine,
      runner: { node: process.version, argv: process.argv.slice(2) },
      profile: options.profile,
      config,
      engines: partial === undefined ? engines : [...engines, partial],
      codeSize,
      warnings: partial === undefined ? warnings : [...warnings, ...partial.warnings.map((w) => `${partial.engine.id}: ${w}`)],
    });
  };

  // Ctrl-C: the report of what is finished, marked interrupted; then the
  // engines and probes this run started are ended, and the runner exits as
  // a shell expects of SIGINT. A second Ctrl-C exits at once. Meanwhile the
  // run goes no further: `halted` waits for that exit.
  let stopping = false;
  const halted = async () => {
    if (stopping) await new Promise<never>(() => {});
  };
  process.on('SIGINT', () => {
    if (stopping) process.exit(130);
    stopping = true;
    current?.bar.finish('interrupted');
    const partial = report('interrupted');
    files.write(partial, true);
    process.stdout.write(markdown(partial, options.tableSizes));
    process.stderr.write(`interrupted: wrote ${files.paths} with the results finished so far\n`);
    void endChildren().finally(() => process.exit(130));
  });

  if (config.parts.length > 0) {
    for (const name of options.engines) {
      const driver = await driverFor(name, options.engineTimeoutMs);
      if ('unavailable' in driver) {
        warn(`${name}: ${driver.unavailable}; skipped`);
        continue;
      }
      const bar = new ProgressBar(name);
      current = { collector: new EngineCollector(name), bar };
      const collector = current.collector;
      try {
        const result = await driver.run(config, (p) => {
          if (stopping) return;
          bar.update(p.fraction, p.label);
          if (p.results === undefined) return;
          collector.add(p.results);
          files.soon(() => report('running'));
        });
        await halted();
        bar.finish('done');
        current = undefined;
        for (const w of result.warnings) warn(`${name}: ${w}`);
        for (const c of result.cases.filter((failed) => failed.error !== undefined)) warn(`${name}: ${c.library} ${c.op} ${c.size} B: ${c.error}`);
        for (const s of result.sweeps.filter((sweep) => sweep.errorCount > 0))
          warn(`${name}: ${s.library} ${s.op} failed at ${s.errorCount} lengths, first ${s.errors[0]!.length} B: ${s.errors[0]!.error}`);
        engines.push({ ...result, engine: { ...result.engine, id: name } });
      } catch (cause) {
        await halted();
        bar.finish('failed');
        current = undefined;
        warn(`${name}: ${cause instanceof Error ? cause.message : String(cause)}`);
        // What it finished before it failed still counts, marked interrupted.
        const partial = collector.partial();
        if (partial !== undefined) {
          for (const w of partial.warnings) warn(`${name}: ${w}`);
          engines.push(partial);
        }
      }
      files.write(report('running'));
    }
  }

  if (options.runnerParts.includes('codesize')) codeSize = await measureCodeSize();
  if (engines.length === 0 && codeSize === undefined) fail('nothing was measured');

  const final = report('complete');
  process.stdout.write(markdown(final, options.tableSizes));
  files.write(final);
  process.stderr.write(`wrote ${files.paths} in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
}

await main();
