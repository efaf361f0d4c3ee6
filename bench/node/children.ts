/**
 * Ending what the runner started, on Ctrl-C: the engine runner cannot
 * cancel a run and starts Deno, Bun, the current Node and WebKitGTK's
 * driver detached, leading process groups a terminal's Ctrl-C does not
 * reach. So each child that leads a group is ended with its group, any
 * other by itself: SIGTERM, then SIGKILL after a grace period. Children are
 * found in /proc (Linux); elsewhere they end at their next write to our
 * closed pipes.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** This process's children: pid, and whether the child leads its own process group. */
function children(): { pid: number; leader: boolean }[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: { pid: number; leader: boolean }[] = [];
  for (const name of entries.filter((entry) => /^\d+$/.test(entry))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // It ended meanwhile.
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
    const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) === process.pid) found.push({ pid: Number(name), leader: Number(pgrp) === Number(name) });
  }
  return found;
}

function signal(target: { pid: number; leader: boolean }, name: NodeJS.Signals): void {
  try {
    process.kill(target.leader ? -target.pid : target.pid, name);
  } catch {
    // Already gone.
  }
}

/** Ends this process's children (see above); resolves once the grace period is over. */
export async function endChildren(graceMs = 1000): Promise<void> {
  const targets = children();
  if (targets.length === 0) return;
  for (const target of targets) signal(target, 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, graceMs));
  for (const target of targets) signal(target, 'SIGKILL');
}
