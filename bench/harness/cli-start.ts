/**
 * The `fourfold` command as a script sees it, start to exit, in rounds
 * that interleave the cases in another order each time:
 *
 *   node --import tsx bench/harness/cli-start.ts [--rounds=21] [--node=PATH] [--before=OTHER/dist/cli/fourfold.js]
 *   node --import tsx bench/harness/cli-start.ts --files [--mib=256] [--rounds=5] [--dir=/dev/shm]
 *
 * Its fixed cost: each subcommand on small inputs against `node -e 0` and
 * Go age (medians, ranges, less `node -e 0`); --before times another build
 * in the same rounds, for a change's figures at the same load. --files: age
 * file to file by fourfold/age, fourfold/parallel, the command, Go age and
 * rage where installed, in MB/s and as ratios.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../core/stats.js';
import { options } from './options.js';

const args = options({ mib: '256' });
const files = args.files === 'true';
const rounds = Number(args.rounds ?? (files ? 5 : 21));
const node = args.node ?? process.execPath;
const command = fileURLToPath(new URL('../../dist/cli/fourfold.js', import.meta.url));
const dir = mkdtempSync(join(args.dir ?? (existsSync('/dev/shm') ? '/dev/shm' : '/tmp'), 'fourfold-cli-'));
const MiB = 1 << 20;

/** Runs `file` with standard input from `input` (a path) or none, output discarded; its wall time in ms. */
function timed(file: string, argv: readonly string[], input?: string): number {
  const fd = input === undefined ? 'ignore' : openSync(input, 'r');
  try {
    const t0 = performance.now();
    const r = spawnSync(file, argv, { stdio: [fd, 'ignore', 'pipe'] });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${file} ${argv.join(' ')}: exit ${r.status}, ${r.stderr}`);
    return ms;
  } finally {
    if (typeof fd === 'number') closeSync(fd);
  }
}

/** The standard output of a command that must succeed. */
function output(file: string, argv: readonly string[]): string {
  const r = spawnSync(file, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${file} ${argv.join(' ')}: exit ${r.status}, ${r.stderr}`);
  return r.stdout;
}

/** A command found on the PATH or in Go's and Cargo's bin folders, or undefined. */
function found(name: string): string | undefined {
  for (const d of [...(process.env.PATH ?? '').split(':'), join(homedir(), 'go/bin'), join(homedir(), '.cargo/bin')]) {
    if (d !== '' && existsSync(join(d, name))) return join(d, name);
  }
  return undefined;
}

/** Each case's times over `rounds` rounds, each round starting one case further on; a warm-up call of each first. */
async function interleaved(cases: Record<string, () => number | Promise<number>>): Promise<Record<string, number[]>> {
  const names = Object.keys(cases);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) await cases[n]!(); // the files in the page cache, the code compiled
  for (let r = 0; r < rounds; r++)
    for (let i = 0; i < names.length; i++) times[names[(i + r) % names.length]!]!.push(await cases[names[(i + r) % names.length]!]!());
  return times;
}

/** A file of `bytes` random bytes, written a MiB at a time. */
function randomFile(path: string, bytes: number): void {
  const block = crypto.getRandomValues(new Uint8Array(65536));
  rmSync(path, { force: true });
  for (let at = 0; at < bytes; at += 65536) writeFileSync(path, block.subarray(0, Math.min(65536, bytes - at)), { flag: 'a' });
}

const plain = join(dir, 'plain');
const identityFile = join(dir, 'key.txt');
const sealed = join(dir, 'plain.age');

async function start(): Promise<void> {
  randomFile(plain, 65536);
  writeFileSync(identityFile, output(node, [command, 'age-keygen']));
  const recipient = output(node, [command, 'age-keygen', '-y', identityFile]).trim();
  output(node, [command, 'age', '-e', '-r', recipient, '-o', sealed, plain]);
  const casesOf = (path: string, suffix: string): Record<string, () => number> => ({
    [`fourfold --help${suffix}`]: () => timed(node, [path, '--help']),
    [`fourfold age --help${suffix}`]: () => timed(node, [path, 'age', '--help']),
    [`fourfold age -e -r X25519${suffix}`]: () => timed(node, [path, 'age', '-e', '-r', recipient], plain),
    [`fourfold age -d -i key${suffix}`]: () => timed(node, [path, 'age', '-d', '-i', identityFile], sealed),
    [`fourfold age-keygen${suffix}`]: () => timed(node, [path, 'age-keygen']),
    [`fourfold b3sum${suffix}`]: () => timed(node, [path, 'b3sum', plain]),
  });
  const cases: Record<string, () => number> = { 'node -e 0': () => timed(node, ['-e', '0']), ...casesOf(command, '') };
  if (args.before !== undefined) Object.assign(cases, casesOf(args.before, ', before'));
  const age = found('age');
  if (age !== undefined) cases['Go age -e -r X25519'] = () => timed(age, ['-e', '-r', recipient], plain);
  const load = loadavg()[0]!;
  const times = await interleaved(cases);
  const floor = median(times['node -e 0']!);
  console.log(
    `Node ${output(node, ['--version']).trim()}, ${rounds} interleaved rounds, load average ${load.toFixed(2)} to ${loadavg()[0]!.toFixed(2)}; ms, start to exit:`,
  );
  console.log(`  ${'case'.padEnd(34)} ${'median'.padStart(6)} ${'range'.padStart(13)} ${'- node -e 0'.padStart(11)}`);
  for (const [n, xs] of Object.entries(times)) {
    const range = `${Math.min(...xs).toFixed(0)}..${Math.max(...xs).toFixed(0)}`;
    const over = n === 'node -e 0' ? '' : `${median(xs) - floor >= 0 ? '+' : ''}${(median(xs) - floor).toFixed(0)}`;
    console.log(`  ${n.padEnd(34)} ${median(xs).toFixed(0).padStart(6)} ${range.padStart(13)} ${over.padStart(11)}`.trimEnd());
  }
}

async function fileToFile(): Promise<void> {
  const one = await import('fourfold/age');
  const all = (await import('fourfold/parallel')).age;
  const identity = one.generateIdentity();
  const recipient = one.identityToRecipient(identity);
  writeFileSync(identityFile, `${identity}\n`);
  const total = Number(args.mib) * MiB;
  const out = join(dir, 'out');
  randomFile(plain, total);
  await one.encryptFile(plain, sealed, { recipients: [recipient] });
  const call = (f: () => Promise<void>) => async () => {
    const t0 = performance.now();
    await f();
    return performance.now() - t0;
  };
  const cases: Record<string, () => number | Promise<number>> = {};
  for (const [who, make] of [
    ['fourfold/age', one],
    ['fourfold/parallel', all],
  ] as const) {
    cases[`encrypt, ${who}`] = call(() => make.encryptFile(plain, out, { recipients: [recipient] }));
    cases[`decrypt, ${who}`] = call(() => make.decryptFile(sealed, out, { identities: [identity] }));
  }
  for (const [who, file, argv] of [
    ['fourfold age command', node, [command, 'age']],
    ['Go age command', found('age'), []],
    ['rage command', found('rage'), []],
  ] as const) {
    if (file === undefined) continue;
    cases[`encrypt, ${who}`] = () => timed(file, [...argv, '-r', recipient, '-o', out, plain]);
    cases[`decrypt, ${who}`] = () => timed(file, [...argv, '-d', '-i', identityFile, '-o', out, sealed]);
  }
  const times = await interleaved(cases);
  console.log(`Node ${process.versions.node}, ${total / MiB} MiB file to file in ${dir.replace(/\/[^/]*$/, '')}, ${rounds} interleaved rounds, medians:`);
  for (const name of Object.keys(cases).sort()) {
    const [way, who] = name.split(', ') as [string, string];
    const ms = (w: string) => median(times[`${way}, ${w}`] ?? [Number.NaN]);
    const vsGo = `${(ms('Go age command') / ms(who)).toFixed(2)}x Go age`;
    console.log(
      `  ${name.padEnd(32)} ${ms(who).toFixed(0).padStart(6)} ms ${((total / 1e6 / ms(who)) * 1000).toFixed(0).padStart(6)} MB/s, ${vsGo}, ${(ms('fourfold/age') / ms(who)).toFixed(2)}x fourfold/age`,
    );
  }
  await (await import('fourfold/parallel')).terminate();
}

try {
  await (files ? fileToFile() : start());
} finally {
  rmSync(dir, { recursive: true, force: true });
}
