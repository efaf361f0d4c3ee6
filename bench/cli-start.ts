/**
 * The `fourfold` command's fixed cost: each subcommand on small inputs,
 * from its start to its exit as a script sees it, against `node -e 0`
 * (the runtime's own start) and the Go age command, in interleaved
 * rounds, each round in another order. Node only:
 *
 *   node --import tsx bench/cli-start.ts [--rounds=21] [--node=PATH] [--before=PATH/dist/cli/fourfold.js]
 *
 * --node: the Node that runs every case, `node -e 0` included (default:
 * this one). --before: another build of the command, timed in the same
 * rounds (its rows say "before"), for a change's figures on the same
 * machine at the same load.
 * The cases: `fourfold --help`, `fourfold age --help`, `fourfold age -e
 * -r <X25519 recipient>` and `fourfold age -d -i <identity file>` of
 * 64 KiB from standard input to /dev/null, `fourfold age-keygen` and
 * `fourfold b3sum` of the 64 KiB file. Reported: each case's median,
 * its range, and its median less `node -e 0`'s.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const args = Object.fromEntries(process.argv.slice(2).map((a) => [...a.replace(/^--/, '').split('='), 'true'].slice(0, 2) as [string, string]));
const rounds = Number(args.rounds ?? 21);
const node = args.node ?? process.execPath;
const command = fileURLToPath(new URL('../dist/cli/fourfold.js', import.meta.url));
const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : '/tmp', 'fourfold-start-'));

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

/** Go's age, on PATH or in Go's bin folder, or undefined. */
function goAge(): string | undefined {
  for (const d of [...(process.env.PATH ?? '').split(':'), join(homedir(), 'go/bin')]) if (d !== '' && existsSync(join(d, 'age'))) return join(d, 'age');
  return undefined;
}

const plain = join(dir, 'plain');
writeFileSync(plain, crypto.getRandomValues(new Uint8Array(65536)));
const identityFile = join(dir, 'key.txt');
writeFileSync(identityFile, output(node, [command, 'age-keygen']));
const recipient = output(node, [command, 'age-keygen', '-y', identityFile]).trim();
const sealed = join(dir, 'plain.age');
output(node, [command, 'age', '-e', '-r', recipient, '-o', sealed, plain]);

/** The subcommands of the command at `path`, each a case. */
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
const age = goAge();
if (age !== undefined) cases['Go age -e -r X25519'] = () => timed(age, ['-e', '-r', recipient], plain);

const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[xs.length >> 1]!;

try {
  const names = Object.keys(cases);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) cases[n]!(); // a warm-up of each: the files in the page cache
  const load = loadavg()[0]!;
  for (let r = 0; r < rounds; r++)
    for (let i = 0; i < names.length; i++) {
      const n = names[(i + r) % names.length]!;
      times[n]!.push(cases[n]!());
    }
  const floor = median(times['node -e 0']!);
  console.log(
    `Node ${output(node, ['--version']).trim()}, ${rounds} interleaved rounds, load average ${load.toFixed(2)} to ${loadavg()[0]!.toFixed(2)}; ms, start to exit:`,
  );
  console.log(`  ${'case'.padEnd(34)} ${'median'.padStart(6)} ${'range'.padStart(13)} ${'- node -e 0'.padStart(11)}`);
  for (const n of names) {
    const xs = times[n]!;
    const range = `${Math.min(...xs).toFixed(0)}..${Math.max(...xs).toFixed(0)}`;
    const over = n === 'node -e 0' ? '' : `${median(xs) - floor >= 0 ? '+' : ''}${(median(xs) - floor).toFixed(0)}`;
    console.log(`  ${n.padEnd(34)} ${median(xs).toFixed(0).padStart(6)} ${range.padStart(13)} ${over.padStart(11)}`.trimEnd());
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
