/**
 * check.ts's login server: fixture/login's handler (node:http,
 * fourfold/parallel's argon2idHash and argon2Verify, as a user writes a
 * login route) served in Node, Bun and Deno from the fresh project with
 * the tarball installed, and sent a burst of users registering, then
 * logging in with the right password and a wrong one, all at once,
 * after one first registration (a server that has started its workers).
 * Every answer must be right, and the event loop's longest gap during the
 * burst stay under LONGEST_GAP_MS: a guard against hashing on the event
 * loop (one hash there is tens of ms, a burst's hundreds), generous
 * beside the benchmark's target, as a loaded CI machine stretches every
 * gap (bench/harness/argon2-logins.ts measures it; speed is the benchmark's).
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINES } from '../engines/engines.js';
import type { Checker } from './common.js';

/** Users in the burst: the 32 logins at once. */
const USERS = 32;
/** The longest event-loop gap the check allows, in ms. */
const LONGEST_GAP_MS = 100;

interface LoginsReport {
  warm: number;
  registered: number[];
  right: number[];
  wrong: number[];
  longestMs: number;
  ticks: number;
  ms: number;
}

/** The engines to serve with: a name and the command line that runs logins.mjs. */
export type LoginEngine = [name: string, command: string, args: string[]];

/** The engines that serve the login check: Node, and Bun and Deno where installed (else a failed check saying so). */
export function loginEngines(c: Checker): LoginEngine[] {
  const engines: LoginEngine[] = [[`Node ${process.version}`, process.execPath, []]];
  for (const id of ['bun', 'deno'] as const) {
    const { binary } = ENGINES[id];
    if (!existsSync(binary)) c.record(`${id} (${binary}) is not installed: run npm run engines:install`, false);
    else engines.push(id === 'bun' ? ['Bun', binary, []] : ['Deno with --allow-net=127.0.0.1', binary, ['run', '--no-prompt', '--allow-net=127.0.0.1']]);
  }
  return engines;
}

/** Copies fixture/login into `project`/login and runs its burst under each engine. */
export function checkLogins(c: Checker, project: string, fixture: string, engines: LoginEngine[]): void {
  const dir = join(project, 'login');
  mkdirSync(dir, { recursive: true });
  for (const file of ['server.mjs', 'logins.mjs']) copyFileSync(join(fixture, 'login', file), join(dir, file));
  for (const [name, command, args] of engines) {
    const burst = (): { r: ReturnType<Checker['sh']>; got: Partial<LoginsReport>; answers: boolean; free: boolean } => {
      const r = c.sh(command, [...args, 'logins.mjs', String(USERS)], dir);
      let got: Partial<LoginsReport> = {};
      try {
        got = JSON.parse(r.stdout) as LoginsReport;
      } catch {}
      const all = (statuses: number[] | undefined, status: number): boolean => statuses?.length === USERS && statuses.every((s) => s === status);
      const answers = r.status === 0 && got.warm === 201 && all(got.registered, 201) && all(got.right, 200) && all(got.wrong, 401);
      const free = (got.ticks ?? 0) > 0 && (got.longestMs ?? Number.POSITIVE_INFINITY) < LONGEST_GAP_MS;
      return { r, got, answers, free };
    };
    // A loaded machine can stop the whole process for 100 ms and more; hashing on the event loop
    // blocks it in every burst. So a burst whose answers are right but whose loop stalled runs once more.
    const first = burst();
    const second = first.answers && !first.free ? burst() : undefined;
    const { r, got, answers, free } = second ?? first;
    const again = second === undefined ? '' : `; the first burst's ${first.got.longestMs ?? '?'} ms, so a second burst`;
    c.record(
      `${name}: a login server on fourfold/parallel (node:http) answers ${USERS} registrations, right and wrong logins at once, ` +
        `the event loop's longest gap under ${LONGEST_GAP_MS} ms (${got.longestMs ?? '?'} ms; ${got.ms ?? '?'} ms in all${again})`,
      answers && free,
      c.output(r),
    );
  }
}
