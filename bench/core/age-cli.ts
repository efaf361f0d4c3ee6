/**
 * The Go `age` command as a benchmark column (ops/age.ts), for scale: a
 * process per call, file to file, as a script runs it. Only where the
 * engine is Node, Deno or Bun and `age --version` runs (found on the PATH,
 * or in Go's bin directory); a browser is not asked. Its files live in a
 * temporary directory removed when the process exits.
 */
import type { AgeCliLibrary } from './ops/age.js';
import { BENCH_IDENTITY, BENCH_RECIPIENT } from './ops/age.js';

type ChildProcess = typeof import('node:child_process');
type Fs = typeof import('node:fs');

/** Imports a node: module past bundlers (a browser bundle never reaches here). */
const nodeModule = <T>(name: string): Promise<T> => import(/* @vite-ignore */ `node:${name}`) as Promise<T>;

/** Runs `command` to its exit; rejects with its standard error on a non-zero status. */
function run(child: ChildProcess, command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const p = child.spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', fail);
    p.on('close', (code) => (code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')}: exit ${code}: ${stderr.trim()}`))));
  });
}

/** The Go CLI and its version, or undefined where there is none. */
export async function loadAgeCli(): Promise<{ api: AgeCliLibrary; version: string } | undefined> {
  const process = (globalThis as { process?: { versions?: unknown; env?: Record<string, string | undefined>; on?: (e: string, f: () => void) => void } })
    .process;
  if (typeof process?.versions !== 'object') return undefined;
  let child: ChildProcess;
  let fs: Fs;
  let path: typeof import('node:path');
  let os: typeof import('node:os');
  try {
    [child, fs, path, os] = await Promise.all([
      nodeModule<ChildProcess>('child_process'),
      nodeModule<Fs>('fs'),
      nodeModule<typeof path>('path'),
      nodeModule<typeof os>('os'),
    ]);
  } catch {
    return undefined;
  }
  const home = process.env?.HOME ?? os.homedir();
  const candidates = ['age', path.join(process.env?.GOPATH ?? path.join(home, 'go'), 'bin', 'age')];
  const command = candidates.find((c) => child.spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0);
  if (command === undefined) return undefined;
  const version = child.spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fourfold-bench-age-'));
  process.on?.('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const identityFile = path.join(dir, 'identity.txt');
  fs.writeFileSync(identityFile, `${BENCH_IDENTITY}\n`);
  const staged = new WeakMap<Uint8Array, string>();
  let files = 0;
  return {
    version: `age ${version} (Go, a process per call, file to file)`,
    api: {
      stage(bytes) {
        let file = staged.get(bytes);
        if (file === undefined) {
          file = path.join(dir, `input-${files++}`);
          fs.writeFileSync(file, bytes);
          staged.set(bytes, file);
        }
        return file;
      },
      encrypt: (input, output, armor) => run(child, command, ['-r', BENCH_RECIPIENT, ...(armor === true ? ['-a'] : []), '-o', output, input]),
      decrypt: (input, output) => run(child, command, ['-d', '-i', identityFile, '-o', output, input]),
      read: (file) => new Uint8Array(fs.readFileSync(file)),
    },
  };
}
