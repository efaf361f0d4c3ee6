/**
 * The Go `age` command and `rage` as benchmark columns (ops/age.ts), for
 * scale: a process per call, file to file, as a script runs it. Only where
 * the engine is Node, Deno or Bun and `age --version` (`rage --version`)
 * runs (found on the PATH, or where Go or Cargo installs); a browser is
 * not asked. Their files are the harness's (file-space.ts).
 */
import { loadFileSpace, nodeModule } from './file-space.js';

/** A fixed key pair (made by age-keygen for the benchmark): inputs are the same in every run. */
export const BENCH_IDENTITY = 'AGE-SECRET-KEY-1P2HTMZ6Y2CAZEZD9LFXL8M4JPU8WNR97SMETC9FZALNP8CD9PACSC4TJ0M';
export const BENCH_RECIPIENT = 'age14kkdhar8pd2lakspugult7ynp3kfzpkn25a6mxkgpmq8h0ytvclqj2x8f2';

/** A command (age, rage) as a benchmark column, file to file (Node only: loadAgeCli); decrypt takes binary or armored files alike. */
export interface AgeCliLibrary {
  encrypt(input: string, output: string, armor?: boolean): Promise<void>;
  decrypt(input: string, output: string): Promise<void>;
}

type ChildProcess = typeof import('node:child_process');
type Fs = typeof import('node:fs');

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

/** Where each client is, besides the PATH: the directory its toolchain installs into. */
const INSTALLED = { age: ['go', 'bin'], rage: ['.cargo', 'bin'] } as const;

/** A client (Go's `age`, or `rage`) and its version, or undefined where there is none. */
export async function loadAgeCli(program: 'age' | 'rage'): Promise<{ api: AgeCliLibrary; version: string } | undefined> {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const files = await loadFileSpace();
  if (files === undefined) return undefined;
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
  const home = process?.env?.HOME ?? os.homedir();
  const installed = program === 'age' && process?.env?.GOPATH !== undefined ? path.join(process.env.GOPATH, 'bin') : path.join(home, ...INSTALLED[program]);
  const candidates = [program, path.join(installed, program)];
  const command = candidates.find((c) => child.spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0);
  if (command === undefined) return undefined;
  const version = child.spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const identityFile = path.join(files.dir, 'identity.txt');
  fs.writeFileSync(identityFile, `${BENCH_IDENTITY}\n`);
  const maker = program === 'age' ? 'Go' : 'Rust';
  return {
    version: `${program === 'age' ? 'age ' : ''}${version} (${maker}, a process per call, file to file)`,
    api: {
      // age and rage take the same flags.
      encrypt: (input, output, armor) => run(child, command, ['-r', BENCH_RECIPIENT, ...(armor === true ? ['-a'] : []), '-o', output, input]),
      async decrypt(input, output) {
        await run(child, command, ['-d', '-i', identityFile, '-o', output, input]);
        // rage makes -o's file at its first write: an empty plaintext leaves none, which stands for an empty file.
        if (!fs.existsSync(output)) fs.writeFileSync(output, '');
      },
    },
  };
}
