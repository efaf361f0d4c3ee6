/**
 * Processes started in their own process group, so that everything they
 * start in turn (xvfb-run's Xvfb, WebKitWebDriver's MiniBrowser, WebKit's
 * web processes) can be ended together by the group id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface Group {
  child: ChildProcess;
  /** Rejects when the leader exits (unless kill() was called first). */
  exited: Promise<never>;
  /** SIGTERM to the group, then SIGKILL to whatever is left after `graceMs`. */
  kill(graceMs?: number): Promise<void>;
}

export function spawnGroup(command: string, args: string[], log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Group {
  // detached: the child calls setsid(), becoming the leader of a new group.
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const l of lines) if (l.trim()) log(l);
    });
  }
  let killing = false;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (e) => reject(e));
    child.once('exit', (code, signal) => killing || reject(new Error(`${command} exited (${signal ?? `code ${code}`})`)));
  });
  exited.catch(() => {});
  const signalGroup = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // The group is already gone.
    }
  };
  return {
    child,
    exited,
    kill: async (graceMs = 3000) => {
      killing = true;
      if (child.pid === undefined) return;
      signalGroup('SIGTERM');
      await Promise.race([done, new Promise((r) => setTimeout(r, graceMs))]);
      // Members of the group may outlive the leader: always finish with SIGKILL.
      await new Promise((r) => setTimeout(r, 200));
      signalGroup('SIGKILL');
    },
  };
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
