/**
 * The report on disk while the run goes. Each engine sends its results as
 * each case or sweep ends (Progress.results); the runner keeps them
 * (report/collector.ts) and rewrites results.json every few seconds, so that a run stopped half-way, by Ctrl-C or by an engine
 * that dies, still leaves a report of everything finished by then, marked
 * as such.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Report } from '../report/json.js';

/** Writes results.json into `dir`: now, or at most every `everyMs` while the run goes. */
export class ReportFiles {
  readonly dir: string;
  private lastWrite = -Infinity;
  private sealed = false;

  constructor(
    dir: string,
    private readonly everyMs = 5000,
  ) {
    this.dir = resolve(dir);
  }

  get paths(): string {
    return join(this.dir, 'results.json');
  }

  /** Writes the report unless one was written less than `everyMs` ago; `make` is only called when it writes. */
  soon(make: () => Report): void {
    if (performance.now() - this.lastWrite >= this.everyMs) this.write(make());
  }

  /**
   * Synchronous, so a signal handler can call it. The file is written
   * aside and renamed, so a reader never sees half of one. With `last`,
   * no later write happens (an interrupted report stays as written).
   */
  write(report: Report, last = false): void {
    if (this.sealed) return;
    this.sealed = last;
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, '.results.json.partial'), JSON.stringify(report) + '\n');
    renameSync(join(this.dir, '.results.json.partial'), join(this.dir, 'results.json'));
    this.lastWrite = performance.now();
  }
}
