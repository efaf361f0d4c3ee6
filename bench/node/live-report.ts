/**
 * The report on disk while the run goes. Each engine sends its results as
 * each case or sweep ends (Progress.results); the runner keeps them here
 * and rewrites results.json and index.html every few seconds, so that a
 * run stopped half-way, by Ctrl-C or by an engine that dies, still leaves
 * a report of everything finished by then, marked as such.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CaseResult, EngineResult, EngineStart, LongestTask, ParallelResult, PartialResult, SweepResult } from '../core/types.js';
import { renderHtml } from '../report/html.js';
import type { Report } from '../report/json.js';

/** One engine's results as they arrive. */
export class EngineCollector {
  private start: EngineStart | undefined;
  private readonly cases: CaseResult[] = [];
  private readonly sweeps: SweepResult[] = [];
  private readonly warnings: string[] = [];
  private readonly tasks: LongestTask[] = [];
  private parallel: Omit<ParallelResult, 'tasks'> | undefined;
  private readonly t0 = performance.now();

  constructor(private readonly id: string) {}

  add(results: PartialResult): void {
    if (results.start !== undefined) this.start = results.start;
    this.cases.push(...(results.cases ?? []));
    this.sweeps.push(...(results.sweeps ?? []));
    this.warnings.push(...(results.warnings ?? []));
    const { tasks, ...rest } = results.parallel ?? {};
    this.tasks.push(...(tasks ?? []));
    // Each message of the 'parallel' part has the cores, and what is new (the costs, the pool's state).
    if (rest.cores !== undefined) this.parallel = { ...this.parallel, ...rest, cores: rest.cores };
  }

  /** What has arrived, as a result marked interrupted; undefined before the engine had loaded its libraries. */
  partial(): EngineResult | undefined {
    if (this.start === undefined) return undefined;
    return {
      ...this.start,
      engine: { ...this.start.engine, id: this.id },
      warnings: this.warnings,
      seconds: (performance.now() - this.t0) / 1000,
      interrupted: true,
      cases: this.cases,
      sweeps: this.sweeps,
      ...(this.parallel === undefined ? {} : { parallel: { ...this.parallel, tasks: this.tasks } }),
    };
  }
}

/** Writes results.json and index.html into `dir`: now, or at most every `everyMs` while the run goes. */
export class ReportFiles {
  readonly dir: string;
  private lastWrite = -Infinity;
  private sealed = false;

  constructor(dir: string, private readonly everyMs = 5000) {
    this.dir = resolve(dir);
  }

  get paths(): string {
    return `${join(this.dir, 'results.json')} and ${join(this.dir, 'index.html')}`;
  }

  /** Writes the report unless one was written less than `everyMs` ago; `make` is only called when it writes. */
  soon(make: () => Report): void {
    if (performance.now() - this.lastWrite >= this.everyMs) this.write(make());
  }

  /**
   * Synchronous, so a signal handler can call it. Each file is written
   * aside and renamed, so a reader never sees half of one. With `last`,
   * no later write happens (an interrupted report stays as written).
   */
  write(report: Report, last = false): void {
    if (this.sealed) return;
    this.sealed = last;
    mkdirSync(this.dir, { recursive: true });
    const put = (name: string, text: string) => {
      writeFileSync(join(this.dir, `.${name}.partial`), text);
      renameSync(join(this.dir, `.${name}.partial`), join(this.dir, name));
    };
    put('results.json', JSON.stringify(report) + '\n');
    put('index.html', renderHtml(report));
    this.lastWrite = performance.now();
  }
}
