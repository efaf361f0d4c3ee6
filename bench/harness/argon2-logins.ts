/**
 * A burst of logins: N argon2idHash calls at once (OWASP's m = 19456, t = 2)
 * with fourfold/parallel, fourfold/argon2, node-argon2 (libuv's pool) and
 * @node-rs/argon2 (its own threads): hashes a second, the process's CPU time
 * per hash (on a loaded machine throughput measures the share of cores a
 * library gets, CPU time its work), and the longest gap between the ticks
 * of a 1 ms setInterval during the burst against the monitor alone.
 *
 *   node --import tsx bench/harness/argon2-logins.ts [--n=1,4,16,32,64] [--rounds=5] [--parallel-workers=1]
 *
 * Needs `npm run build`. The order turns by one each round, after a round of
 * warm-up; each library's strings are verified after the burst.
 */
import os from 'node:os';
import { argon2idHash as oneThread } from 'fourfold/argon2';
import * as P from 'fourfold/parallel';
import * as napiRs from '@node-rs/argon2';
import { median } from '../core/stats.js';
import { options } from './options.js';

/** What this calls of node-argon2, imported at run time: npm ci leaves it out where it cannot build it (test/native-peers/package.json). */
interface NodeArgon2 {
  argon2id: 2;
  hash(password: string, options: { type: 2; memoryCost: number; timeCost: number; parallelism: number }): Promise<string>;
  verify(digest: string, password: string): Promise<boolean>;
}
const NODE_ARGON2 = 'argon2';
const nodeArgon2 = (
  (await import(NODE_ARGON2).catch((e: Error) => {
    console.error(
      `bench/harness/argon2-logins.ts compares with node-argon2, which does not load here (${e.message}): npm ci leaves it out where it cannot build it from C++ source (no compiler or Node's headers)`,
    );
    process.exit(1);
  })) as { default: NodeArgon2 }
).default;

const values = options({ n: '1,4,16,32,64', rounds: '5', 'parallel-workers': '' }) as Record<'n' | 'rounds' | 'parallel-workers', string>;
const SIZES = values.n.split(',').map(Number);
const ROUNDS = Number(values.rounds);

/** OWASP's first choice for Argon2id. */
const M = 19456;
const T = 2;
/** What every library's string starts with (node-argon2 writes the parameters as m, p, t). */
const PREFIX = '$argon2id$v=19$m=19456,';

/** A library's hash of one password, as a PHC string, and its check of one. */
interface Library {
  name: string;
  hash(password: string): Promise<string>;
  verify(phc: string, password: string): Promise<boolean>;
}

const LIBRARIES: Library[] = [
  { name: 'fourfold/parallel', hash: (pw) => P.argon2idHash(pw), verify: P.argon2Verify },
  { name: 'fourfold/argon2', hash: (pw) => oneThread(pw), verify: P.argon2Verify },
  {
    name: 'argon2 (node-argon2)',
    hash: (pw) => nodeArgon2.hash(pw, { type: nodeArgon2.argon2id, memoryCost: M, timeCost: T, parallelism: 1 }),
    verify: (phc, pw) => nodeArgon2.verify(phc, pw),
  },
  // Algorithm is a const enum (its object is empty at run time): 2 is Argon2id.
  {
    name: '@node-rs/argon2',
    hash: (pw) => napiRs.hash(pw, { algorithm: 2, memoryCost: M, timeCost: T, parallelism: 1 }),
    verify: (phc, pw) => napiRs.verify(phc, pw),
  },
];
for (const k of values['parallel-workers'].split(',').filter((s) => s !== '')) {
  LIBRARIES.splice(1, 0, { name: `fourfold/parallel, workers: ${k}`, hash: (pw) => P.argon2idHash(pw, { workers: Number(k) }), verify: P.argon2Verify });
}

/** The longest gap between the ticks of a 1 ms interval, from start() to stop(). */
function gapMonitor(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  const tick = (): void => {
    const t = performance.now();
    longest = Math.max(longest, t - last);
    last = t;
  };
  const timer = setInterval(tick, 1);
  return {
    stop() {
      tick();
      clearInterval(timer);
      return longest;
    },
  };
}

interface Burst {
  ms: number;
  longestGapMs: number;
  /** CPU time of the whole process (every thread: the workers', libuv's), user and system, over the burst. */
  cpuMs: number;
}

/** N calls at once; resolves once every string is in, and checks them. */
async function burst({ name, hash, verify }: Library, n: number, round: number): Promise<Burst> {
  const passwords = Array.from({ length: n }, (_, i) => `password ${round}.${i}`);
  const monitor = gapMonitor();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const strings = await Promise.all(passwords.map(hash));
  const ms = performance.now() - t0;
  const { user, system } = process.cpuUsage(cpu0);
  const longestGapMs = monitor.stop();
  const checked = name.startsWith('fourfold/parallel') ? strings.length : 1;
  for (let i = 0; i < checked; i++) {
    if (!strings[i]!.startsWith(PREFIX)) throw new Error(`${name}: '${strings[i]}' is not an argon2id string at m = ${M}`);
    if (!(await verify(strings[i]!, passwords[i]!))) throw new Error(`${name}: its string for '${passwords[i]}' does not verify`);
  }
  return { ms, longestGapMs, cpuMs: (user + system) / 1000 };
}

/** The longest gap of the monitor alone, for `ms`: the floor the machine's other load sets. */
async function idleGap(ms: number): Promise<number> {
  const monitor = gapMonitor();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return monitor.stop();
}

const results = new Map<string, Burst[]>();
const idleGaps: number[] = [];
const key = (name: string, n: number): string => `${name} @ ${n}`;

const load = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadBefore = load();
await P.warm();
console.error(`pool: ${JSON.stringify(P.status())}; cores: ${os.availableParallelism()}`);
for (let round = -1; round < ROUNDS; round++) {
  for (const n of SIZES) {
    for (let i = 0; i < LIBRARIES.length; i++) {
      const library = LIBRARIES[(i + round + LIBRARIES.length) % LIBRARIES.length]!;
      const b = await burst(library, n, round);
      // Round -1 warms up (kernels compiled, threads started, memory touched).
      if (round >= 0) results.set(key(library.name, n), [...(results.get(key(library.name, n)) ?? []), b]);
    }
  }
  if (round >= 0) idleGaps.push(await idleGap(1000));
  if (round >= 0) console.error(`round ${round + 1}/${ROUNDS} done (load ${load()})`);
}

const perSecond = (n: number, b: Burst): number => (1000 * n) / b.ms;
console.log(
  `argon2idHash bursts, m = ${M}, t = ${T}, p = 1; ${ROUNDS} rounds (medians), Node ${process.version}, ${os.availableParallelism()} logical cores (${os.cpus()[0]?.model.trim()})`,
);
console.log(`load average before: ${loadBefore}; after: ${load()}; pool: ${P.status().workers} workers`);
console.log(
  `the monitor alone for 1 s a round, nothing else running here: longest gap ${median(idleGaps).toFixed(1)} ms (median), ${Math.max(...idleGaps).toFixed(1)} (max)`,
);
for (const n of SIZES) {
  const rate = (name: string): number => median(results.get(key(name, n))!.map((b) => perSecond(n, b)));
  const nodeArgon2Rate = rate('argon2 (node-argon2)');
  const napiRate = rate('@node-rs/argon2');
  console.log(`\nN = ${n}:`);
  console.log('  library                            hashes/s   x node-argon2   x @node-rs   CPU ms/hash   longest gap ms (median, max)');
  for (const { name } of LIBRARIES) {
    const bursts = results.get(key(name, n))!;
    const gaps = bursts.map((b) => b.longestGapMs);
    const r = rate(name);
    const cpu = median(bursts.map((b) => b.cpuMs / n));
    console.log(
      `  ${name.padEnd(34)} ${r.toFixed(1).padStart(8)}   ${(r / nodeArgon2Rate).toFixed(2).padStart(13)}   ${(r / napiRate).toFixed(2).padStart(10)}   ${cpu.toFixed(1).padStart(11)}   ${median(gaps).toFixed(1).padStart(6)}, ${Math.max(...gaps).toFixed(1)}`,
    );
  }
}
P.terminate();
