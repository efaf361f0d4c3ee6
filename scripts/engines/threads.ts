/**
 * What a browser's threads are doing, for a run that timed out: each
 * thread of the processes this one started (Linux /proc) with its name,
 * its state, and the CPU time it used over two seconds. A page stuck in a
 * loop shows a thread running flat out; one stuck waiting (a deadlock, a
 * message never delivered) shows every thread asleep. Empty where there is
 * no /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ThreadSample {
  readonly name: string;
  readonly state: string;
  /** utime + stime, in clock ticks. */
  readonly ticks: number;
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** A /proc stat line (proc(5)): the name in parentheses (it may hold spaces), and the fields after it, from field 3 (the state) on. */
function statOf(line: string): { name: string; fields: string[] } {
  const close = line.lastIndexOf(')');
  return { name: line.slice(line.indexOf('(') + 1, close), fields: line.slice(close + 2).split(' ') };
}

/** This process's descendants (the browser it launched, with its helpers). */
function descendants(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const stat = read(`/proc/${e}/stat`);
    if (stat === undefined) continue;
    // Field 4: the parent.
    const ppid = Number(statOf(stat).fields[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
  }
  const found: number[] = [];
  const visit = (pid: number): void => {
    for (const c of children.get(pid) ?? []) {
      found.push(c);
      visit(c);
    }
  };
  visit(process.pid);
  return found;
}

function sample(pids: readonly number[]): Map<string, ThreadSample> {
  const threads = new Map<string, ThreadSample>();
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (stat === undefined) continue;
      const { name, fields } = statOf(stat);
      // Fields 3 (state), 14 (utime) and 15 (stime).
      threads.set(`${pid}/${tid}`, { name, state: fields[0]!, ticks: Number(fields[11]) + Number(fields[12]) });
    }
  }
  return threads;
}

/** Busy threads listed at most. */
const LISTED = 12;

/**
 * Lines describing the threads of this process's descendants (a browser
 * it launched): the busiest first (CPU ticks over `ms`, at most LISTED),
 * then the sleeping rest counted by name.
 */
export async function threadReport(ms = 2000): Promise<string[]> {
  const pids = descendants();
  if (pids.length === 0) return [];
  const before = sample(pids);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = sample(pids);
  const lines: string[] = [];
  const idle = new Map<string, number>();
  const rows = [...after.entries()].map(([id, t]) => ({ id, t, used: t.ticks - (before.get(id)?.ticks ?? t.ticks) })).sort((a, b) => b.used - a.used);
  let unlisted = 0;
  for (const { id, t, used } of rows) {
    if (used === 0 && t.state !== 'R' && t.state !== 'D') idle.set(t.name, (idle.get(t.name) ?? 0) + 1);
    else if (lines.length < LISTED) lines.push(`thread ${id} "${t.name}" ${t.state}, ${used} ticks in ${ms} ms`);
    else unlisted++;
  }
  if (unlisted > 0) lines.push(`${unlisted} more threads ran`);
  const asleep = [...idle.entries()].map(([n, count]) => (count > 1 ? `${n} x${count}` : n));
  lines.push(`asleep: ${asleep.join(', ') || 'none'} (processes ${pids.join(', ')})`);
  return lines;
}
