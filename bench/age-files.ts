/**
 * age files, file to file: encryptFile and decryptFile on one thread
 * (fourfold/age) and on every core (fourfold/parallel), the `fourfold age`
 * command, and the Go age and rage commands where installed. Node only:
 *
 *   node --import tsx bench/age-files.ts [--mib=256] [--rounds=5] [--dir=/dev/shm]
 *   node --import tsx bench/age-files.ts --thread [--mib=1024]
 *   node --import tsx bench/age-files.ts --memory [--gib=4] [--dir=/dev/shm]
 *   node --import tsx bench/age-files.ts --fixed [--rounds=11]
 *
 * Speeds: each round, interleaved, encrypts the same --mib of random data
 * to an X25519 recipient and decrypts the result, each way by each; the
 * commands are timed from their start to their exit, as a script sees
 * them. Reported: medians in MB/s and as ratios to the Go age command and
 * to fourfold/age's one thread.
 * --thread: the calling thread during fourfold/parallel's encryptFile and
 * decryptFile of --mib: its event-loop utilization
 * (performance.eventLoopUtilization) and its longest turn (a 1 ms
 * interval's lateness, as monitorEventLoopDelay's).
 * --memory: a --gib file encrypted and decrypted by fourfold/parallel: the
 * peak RSS above the process at rest with its pool started (a 16 MiB file
 * first), sampled every 5 ms.
 * --fixed: `fourfold age` encrypting a 64 KiB file, from start to exit,
 * against `node -e 0` and the Go age command.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { ready } from 'fourfold';
import * as one from 'fourfold/age';
import { age as all, terminate } from 'fourfold/parallel';

const args = Object.fromEntries(process.argv.slice(2).map((a) => [...a.replace(/^--/, '').split('='), 'true'].slice(0, 2) as [string, string]));
const MiB = 1 << 20;
await ready();
const dir = mkdtempSync(join(args.dir ?? (existsSync('/dev/shm') ? '/dev/shm' : '/tmp'), 'fourfold-files-'));
const identity = one.generateIdentity();
const recipient = one.identityToRecipient(identity);
const to = { recipients: [recipient] };
const from = { identities: [identity] };
const identityFile = join(dir, 'key.txt');
writeFileSync(identityFile, `${identity}\n`);
const command = fileURLToPath(new URL('../dist/cli/fourfold.js', import.meta.url));

/** A command found on PATH or in Go's and Cargo's bin folders, or undefined. */
function found(name: string): string | undefined {
  for (const d of [...(process.env.PATH ?? '').split(':'), join(homedir(), 'go/bin'), join(homedir(), '.cargo/bin')]) {
    if (d !== '' && existsSync(join(d, name))) return join(d, name);
  }
  return undefined;
}

const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[xs.length >> 1]!;

/** A file of `bytes` random bytes. */
function randomFile(path: string, bytes: number): void {
  const block = new Uint8Array(MiB);
  rmSync(path, { force: true });
  for (let at = 0; at < bytes; at += MiB) {
    crypto.getRandomValues(block.subarray(0, 65536));
    for (let i = 65536; i < MiB; i += 65536) block.copyWithin(i, 0, 65536);
    writeFileSync(path, block.subarray(0, Math.min(MiB, bytes - at)), { flag: 'a' });
  }
}

/** Runs a command; its wall time in ms. */
function timed(file: string, argv: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${file} ${argv.join(' ')}: ${r.stderr}`);
  return ms;
}

async function speeds(): Promise<void> {
  const total = Number(args.mib ?? 256) * MiB;
  const rounds = Number(args.rounds ?? 5);
  const plain = join(dir, 'plain');
  const sealed = join(dir, 'sealed.age');
  const out = join(dir, 'out');
  randomFile(plain, total);
  await one.encryptFile(plain, sealed, to);
  const age = found('age');
  const rage = found('rage');
  const cli = (tool: string, argv: string[]) => async () => timed(tool, argv);
  const call = (f: () => Promise<void>) => async () => {
    const t0 = performance.now();
    await f();
    return performance.now() - t0;
  };
  const cases: Record<string, () => Promise<number>> = {
    'encrypt, fourfold/age': call(() => one.encryptFile(plain, out, to)),
    'encrypt, fourfold/parallel': call(() => all.encryptFile(plain, out, to)),
    'encrypt, fourfold age command': cli(process.execPath, [command, 'age', '-r', recipient, '-o', out, plain]),
    'decrypt, fourfold/age': call(() => one.decryptFile(sealed, out, from)),
    'decrypt, fourfold/parallel': call(() => all.decryptFile(sealed, out, from)),
    'decrypt, fourfold age command': cli(process.execPath, [command, 'age', '-d', '-i', identityFile, '-o', out, sealed]),
  };
  if (age !== undefined) {
    cases['encrypt, Go age command'] = cli(age, ['-r', recipient, '-o', out, plain]);
    cases['decrypt, Go age command'] = cli(age, ['-d', '-i', identityFile, '-o', out, sealed]);
  }
  if (rage !== undefined) {
    cases['encrypt, rage command'] = cli(rage, ['-r', recipient, '-o', out, plain]);
    cases['decrypt, rage command'] = cli(rage, ['-d', '-i', identityFile, '-o', out, sealed]);
  }
  const times: Record<string, number[]> = {};
  for (let r = 0; r < rounds; r++) for (const [name, run] of Object.entries(cases)) (times[name] ??= []).push(await run());
  console.log(
    `Node ${process.versions.node}, ${total / MiB} MiB file to file in ${args.dir ?? dir.replace(/\/[^/]*$/, '')}, ${rounds} interleaved rounds, medians:`,
  );
  for (const way of ['encrypt', 'decrypt']) {
    const ms = (who: string) => median(times[`${way}, ${who}`]!);
    for (const name of Object.keys(cases).filter((n) => n.startsWith(way))) {
      const who = name.slice(way.length + 2);
      const vsGo = age === undefined ? '' : `, ${(ms('Go age command') / ms(who)).toFixed(2)}x Go age`;
      const vsOne = `, ${(ms('fourfold/age') / ms(who)).toFixed(2)}x fourfold/age`;
      console.log(`  ${name.padEnd(32)} ${ms(who).toFixed(0).padStart(6)} ms ${((total / 1e6 / ms(who)) * 1000).toFixed(0).padStart(6)} MB/s${vsGo}${vsOne}`);
    }
  }
}

/** The calling thread's event-loop utilization and longest turn while `f` runs. */
async function watchThread(f: () => Promise<void>): Promise<{ elu: number; longest: number; ms: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  delay.enable();
  await f();
  delay.disable();
  const ms = performance.now() - t0;
  return { elu: performance.eventLoopUtilization(elu0).utilization, longest: delay.max / 1e6, ms };
}

async function thread(): Promise<void> {
  const total = Number(args.mib ?? 1024) * MiB;
  const plain = join(dir, 'plain');
  const sealed = join(dir, 'sealed.age');
  randomFile(plain, total);
  await all.encryptFile(plain, sealed, to);
  console.log(`Node ${process.versions.node}, fourfold/parallel, ${total / MiB} MiB file to file, the calling thread:`);
  for (const [way, run] of [
    ['encryptFile', () => all.encryptFile(plain, join(dir, 'out'), to)],
    ['decryptFile', () => all.decryptFile(sealed, join(dir, 'out'), from)],
  ] as const) {
    const { elu, longest, ms } = await watchThread(run);
    console.log(`  ${way}: ${ms.toFixed(0)} ms, event-loop utilization ${elu.toFixed(3)}, longest turn ${longest.toFixed(1)} ms`);
  }
}

async function memory(): Promise<void> {
  const total = Number(args.gib ?? 4) * 1024 * MiB;
  const plain = join(dir, 'plain');
  const sealed = join(dir, 'sealed.age');
  randomFile(join(dir, 'small'), 16 * MiB);
  await all.encryptFile(join(dir, 'small'), join(dir, 'small.age'), to);
  randomFile(plain, total);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rest = process.memoryUsage().rss;
  const mib = (b: number) => (b / MiB).toFixed(1);
  for (const [way, run] of [
    ['encryptFile', () => all.encryptFile(plain, sealed, to)],
    ['decryptFile', () => all.decryptFile(sealed, join(dir, 'out'), from)],
  ] as const) {
    const before = process.memoryUsage().rss;
    let peak = rest;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const t0 = performance.now();
    await run();
    clearInterval(timer);
    const s = (performance.now() - t0) / 1000;
    console.log(
      `Node ${process.versions.node}, fourfold/parallel ${way}, ${total / 1024 / MiB} GiB in ${s.toFixed(1)} s: RSS at rest ${mib(rest)} MiB (${mib(before)} before this call), peak ${mib(peak - rest)} MiB above rest`,
    );
    rmSync(join(dir, 'out'), { force: true });
  }
}

function fixed(): void {
  const rounds = Number(args.rounds ?? 11);
  const plain = join(dir, 'small');
  randomFile(plain, 64 * 1024);
  const out = join(dir, 'small.age');
  const age = found('age');
  const cases: Record<string, () => number> = {
    'node -e 0': () => timed(process.execPath, ['-e', '0']),
    'fourfold age -r': () => timed(process.execPath, [command, 'age', '-r', recipient, '-o', out, plain]),
  };
  if (age !== undefined) cases['Go age -r'] = () => timed(age, ['-r', recipient, '-o', out, plain]);
  const times: Record<string, number[]> = {};
  for (let r = 0; r < rounds; r++) for (const [name, run] of Object.entries(cases)) (times[name] ??= []).push(run());
  console.log(`Node ${process.versions.node}, a 64 KiB file encrypted to an X25519 recipient, start to exit, ${rounds} interleaved rounds, medians:`);
  for (const name of Object.keys(cases)) console.log(`  ${name.padEnd(18)} ${median(times[name]!).toFixed(0).padStart(5)} ms`);
}

try {
  if (args.fixed === 'true') fixed();
  else if (args.memory === 'true') await memory();
  else if (args.thread === 'true') await thread();
  else await speeds();
} finally {
  rmSync(dir, { recursive: true, force: true });
  await terminate();
}
