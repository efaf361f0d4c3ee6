/**
 * One engine's results as they arrive (Progress.results), so a run stopped
 * half-way keeps what finished. No platform API: the runner and the page
 * both keep one.
 */
import type { CaseResult, EngineResult, EngineStart, LongestTask, ParallelResult, PartialResult, SweepResult } from '../core/types.js';

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
