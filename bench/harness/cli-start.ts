/**
 * The `fourfold` command as a script sees it, start to exit, in rounds
 * that interleave the cases in another order each time:
 *
 *   node --import tsx bench/harness/cli-start.ts [--rounds=21] [--node=PATH] [--before=OTHER/dist/cli/fourfold.js]
 *
 * Its fixed cost: each subcommand on small inputs against `node -e 0` and
 * Go age (medians, ranges, less `node -e 0`); --before times another build
 * in the same rounds, for a change's figures at the same load. Beside them,
 * a library's import to its first result (setup-probe.js: fourfold on each
 * tier, @noble/ciphers, libsodium), with the probe's own times of each step.
 * Age file to file, the command against Go age and rage: npm run bench's
 * age-*-file ops.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ageCommand } from '../core/age-cli.js';
import { median } from '../core/stats.js';
import { options } from './options.js';

const args = options({ rounds: '21' });
const rounds = Number(args.rounds);
const node = args.node ?? process.execPath;
const command = fileURLToPath(new URL('../../dist/cli/fourfold.js', import.meta.url));
const dir = mkdtempSync(join(args.dir ?? (existsSync('/dev/shm') ? '/dev/shm' : '/tmp'), 'fourfold-cli-'));

/** Runs `file` with standard input from `input` (a path) or none, its output to `read` or discarded; its wall time in ms. */
function timed(file: string, argv: readonly string[], input?: string, read?: (stdout: string) => void): number {
  const fd = input === undefined ? 'ignore' : openSync(input, 'r');
  try {
    const t0 = performance.now();
    const r = spawnSync(file, argv, { stdio: [fd, read === undefined ? 'ignore' : 'pipe', 'pipe'], encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${file} ${argv.join(' ')}: exit ${r.status}, ${r.stderr}`);
    read?.(r.stdout);
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

/** Each case's times over `rounds` rounds, each round starting one case further on; a warm-up call of each first. */
function interleaved(cases: Record<string, () => number>): Record<string, number[]> {
  const names = Object.keys(cases);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) cases[n]!(); // the files in the page cache, the code compiled
  for (let r = 0; r < rounds; r++) for (let i = 0; i < names.length; i++) times[names[(i + r) % names.length]!]!.push(cases[names[(i + r) % names.length]!]!());
  return times;
}

/** Each library's probe: its steps in each process (ms), the warm-up call's first. */
const probe = fileURLToPath(new URL('./setup-probe.js', import.meta.url));
const PROBED = ['fourfold', 'fourfold-js', 'noble', 'sodium'];
const steps: Record<string, { importMs: number; initMs: number; firstCallMs: number }[]> = {};

const plain = join(dir, 'plain');
const identityFile = join(dir, 'key.txt');
const sealed = join(dir, 'plain.age');

async function start(): Promise<void> {
  writeFileSync(plain, crypto.getRandomValues(new Uint8Array(65536)));
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
  for (const library of PROBED)
    cases[`${library}: import to first result`] = () => timed(node, [probe, library], undefined, (out) => (steps[library] ??= []).push(JSON.parse(out)));
  const age = await ageCommand('age');
  if (age !== undefined) cases['Go age -e -r X25519'] = () => timed(age[0], ['-e', '-r', recipient], plain);
  const load = loadavg()[0]!;
  const times = interleaved(cases);
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
  console.log(`In the probes' processes, medians (ms): ${'import'.padStart(6)} ${'init'.padStart(6)} ${'first call'.padStart(10)}`);
  for (const [library, s] of Object.entries(steps)) {
    const step = (key: keyof (typeof s)[number], width: number) =>
      median(s.slice(1).map((x) => x[key]))
        .toFixed(1)
        .padStart(width);
    console.log(`  ${library.padEnd(37)} ${step('importMs', 6)} ${step('initMs', 6)} ${step('firstCallMs', 10)}`);
  }
}

try {
  await start();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
