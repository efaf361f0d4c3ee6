/**
 * Launching a run of the suite again when it never started. A browser
 * launch now and then shows no sign of the page at all: WPE's cog once
 * stayed at "Load started" beside a WebKitGTK run and waited out the
 * whole 900 s limit (15 of a CI run's 55 minutes), then passed in 16 s
 * on each of six reruns: a launch failure, not a test's. The first sign
 * of the suite is its first progress message (harness/suite-entry.ts
 * reports `<file>: loading` as soon as the page has imported the bundle,
 * seconds after the launch); a launch without one within START_MS is
 * given up and launched again at once, at most LAUNCHES launches in all.
 * The last one has no start limit, only what is left of the run's time,
 * so a machine too slow to start the suite within START_MS still runs it.
 */

/** How long a browser launch may take to show the suite's first progress before it is launched again. */
export const START_MS = 60_000;

/** Launches of one run at most: the first and two more. */
export const LAUNCHES = 3;

/** What a launch returns (run.ts RunResult has these). */
export interface Launched {
  ok: boolean;
  error?: string;
  ms: number;
  log: string[];
}

/** What one launch is given: its time, its start limit (none for the last), and the callback that says the suite started. */
export interface LaunchLimits {
  timeoutMs: number;
  startMs: number | undefined;
  started(): void;
}

export interface LaunchOptions {
  /** The whole run's time, every launch included. */
  timeoutMs: number;
  /** START_MS where the launcher can give up a launch that has not started (browsers); undefined: a launch is only repeated once it ended without starting. */
  startMs: number | undefined;
  /** LAUNCHES unless told. */
  launches?: number;
  /** Told each relaunch as it happens, in a line that says why. */
  say?: (line: string) => void;
  now?: () => number;
}

/**
 * Runs `launch` until one starts the suite (it calls started()) or ends
 * well, at most `launches` times within `timeoutMs`: a launch that ended
 * (a dead engine, a timeout, its start limit) without a sign of the suite
 * is launched again at once. The result is the last launch's, its time
 * every launch's, and its log says what each launch before it was.
 */
export async function launchUntilStarted<R extends Launched>(launch: (limits: LaunchLimits) => Promise<R>, options: LaunchOptions): Promise<R> {
  const now = options.now ?? Date.now;
  const launches = options.launches ?? LAUNCHES;
  const t0 = now();
  const before: string[] = [];
  let ms = 0;
  for (let n = 1; ; n++) {
    let started = false;
    const left = options.timeoutMs - (now() - t0);
    const last = n === launches;
    const r = await launch({
      timeoutMs: left,
      startMs: last || options.startMs === undefined || options.startMs >= left ? undefined : options.startMs,
      started: () => void (started = true),
    });
    ms += r.ms;
    const result = (): R => ({ ...r, ms, log: [...before, ...r.log] });
    if (r.ok || started) return result();
    const why = `launch ${n} of ${launches} never started the suite (${r.error ?? 'no result'})`;
    if (last || options.timeoutMs - (now() - t0) <= 0) {
      return { ...result(), error: `${n} launch${n === 1 ? '' : 'es'} never started the suite; the last: ${r.error ?? 'no result'}` };
    }
    options.say?.(`${why}; launching again`);
    before.push(`${why}; launched again`, ...r.log);
  }
}
