/**
 * results.json on disk while the run goes, rewritten every few seconds from
 * the collected results (report/collector.ts), so a run stopped by Ctrl-C or
 * a dying engine leaves what finished, marked as such.
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

  /** Synchronous, for a signal handler; written aside and renamed (never half a file); `last`: no write after it. */
  write(report: Report, last = false): void {
    if (this.sealed) return;
    this.sealed = last;
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, '.results.json.partial'), JSON.stringify(report) + '\n');
    renameSync(join(this.dir, '.results.json.partial'), join(this.dir, 'results.json'));
    this.lastWrite = performance.now();
  }
}
