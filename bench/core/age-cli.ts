/**
 * The age ops' files and processes (ops/age.ts) where the engine has a file
 * system: inputs staged once per array in a temporary directory removed at
 * exit, web streams over them for typage, and the Go `age` command,
 * `rage` and the `fourfold age` command as columns for scale (a process
 * per call, file to file), where `--version` runs.
 */

/** A fixed key pair (made by age-keygen for the benchmark): inputs are the same in every run. */
export const BENCH_IDENTITY = 'AGE-SECRET-KEY-1P2HTMZ6Y2CAZEZD9LFXL8M4JPU8WNR97SMETC9FZALNP8CD9PACSC4TJ0M';
export const BENCH_RECIPIENT = 'age14kkdhar8pd2lakspugult7ynp3kfzpkn25a6mxkgpmq8h0ytvclqj2x8f2';

export interface FileSpace {
  /** The directory the files are in. */
  readonly dir: string;
  /** The path of a file holding `bytes`, written at the first call for this array. */
  stage(bytes: Uint8Array): string;
  read(path: string): Uint8Array;
  readable(path: string): ReadableStream<Uint8Array>;
  /** A web stream into a new file at `path`. */
  writable(path: string): WritableStream<Uint8Array>;
}

/** A command (age, rage) as a column, file to file; decrypt takes binary or armored files alike. */
export interface AgeCliLibrary {
  encrypt(input: string, output: string, armor?: boolean): Promise<void>;
  decrypt(input: string, output: string): Promise<void>;
}

interface NodeModules {
  readonly fs: typeof import('node:fs');
  readonly path: typeof import('node:path');
  readonly os: typeof import('node:os');
  readonly stream: typeof import('node:stream');
  readonly child: typeof import('node:child_process');
}
type Process = { versions?: unknown; env?: Record<string, string | undefined>; execPath?: string; on?: (e: string, f: () => void) => void };

let space: Promise<(FileSpace & { modules: NodeModules }) | undefined> | undefined;
const withModules = () => (space ??= makeFileSpace());

/** The process's file space (one directory), or undefined where there is no file system. */
export const loadFileSpace = (): Promise<FileSpace | undefined> => withModules();

async function makeFileSpace(): Promise<(FileSpace & { modules: NodeModules }) | undefined> {
  const process = (globalThis as { process?: Process }).process;
  if (typeof process?.versions !== 'object') return undefined;
  let modules: NodeModules;
  try {
    // Past bundlers: a browser bundle never gets here.
    const load = (name: string) => import(/* @vite-ignore */ `node:${name}`);
    const [fs, path, os, stream, child] = await Promise.all(['fs', 'path', 'os', 'stream', 'child_process'].map(load));
    modules = { fs, path, os, stream, child };
  } catch {
    return undefined;
  }
  const { fs, path, os, stream } = modules;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fourfold-bench-files-'));
  process.on?.('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const staged = new WeakMap<Uint8Array, string>();
  let files = 0;
  return {
    modules,
    dir,
    stage(bytes) {
      let file = staged.get(bytes);
      if (file === undefined) {
        file = path.join(dir, `input-${files++}`);
        fs.writeFileSync(file, bytes);
        staged.set(bytes, file);
      }
      return file;
    },
    read: (file) => new Uint8Array(fs.readFileSync(file)),
    readable: (file) => stream.Readable.toWeb(fs.createReadStream(file)) as unknown as ReadableStream<Uint8Array>,
    writable: (file) => stream.Writable.toWeb(fs.createWriteStream(file)) as WritableStream<Uint8Array>,
  };
}

/** Runs `command` to its exit; rejects with its standard error on a non-zero status. */
function run(child: NodeModules['child'], command: string, args: string[]): Promise<void> {
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
/** The clients, by column: Go's `age`, `rage`, and fourfold's own `fourfold age`. */
export const AGE_CLIS = { 'age-cli': 'age', 'rage-cli': 'rage', 'fourfold-cli': 'fourfold' } as const;
type Client = (typeof AGE_CLIS)[keyof typeof AGE_CLIS];

/**
 * The command lines that may run a client: Go's and Rust's from the PATH or
 * their toolchain's folder; fourfold's as this Node runs it, from this
 * checkout's dist/ (npm run bench starts at its root; not in Deno or Bun).
 */
function commandLines(client: Client, { path, os }: NodeModules, process: Process): string[][] {
  if (client === 'fourfold') {
    const { deno, bun } = process.versions as Record<string, string | undefined>;
    return deno === undefined && bun === undefined && process.execPath !== undefined ? [[process.execPath, path.resolve('dist/cli/fourfold.js'), 'age']] : [];
  }
  const env = process.env ?? {};
  const installed = client === 'age' && env.GOPATH !== undefined ? path.join(env.GOPATH, 'bin') : path.join(env.HOME ?? os.homedir(), ...INSTALLED[client]);
  return [[client], [path.join(installed, client)]];
}

/** The command line of a client whose `--version` runs here, or undefined. */
export async function ageCommand(client: Client): Promise<[string, ...string[]] | undefined> {
  const files = await withModules();
  if (files === undefined) return undefined;
  const works = (line: string[]) => files.modules.child.spawnSync(line[0]!, [...line.slice(1), '--version'], { stdio: 'ignore' }).status === 0;
  return commandLines(client, files.modules, (globalThis as { process: Process }).process).find(works) as [string, ...string[]] | undefined;
}

/** A client and its version, or undefined where there is none. */
export async function loadAgeCli(client: Client): Promise<{ api: AgeCliLibrary; version: string } | undefined> {
  const line = await ageCommand(client);
  const files = await withModules();
  if (line === undefined || files === undefined) return undefined;
  const { child, fs, path } = files.modules;
  const [command, ...prefix] = line;
  const version = child.spawnSync(command, [...prefix, '--version'], { encoding: 'utf8' }).stdout.trim();
  const identityFile = path.join(files.dir, 'identity.txt');
  fs.writeFileSync(identityFile, `${BENCH_IDENTITY}\n`);
  const language = { age: 'Go', rage: 'Rust', fourfold: 'Node' }[client];
  return {
    version: `${client === 'age' ? 'age ' : ''}${version} (${language}, a process per call, file to file)`,
    api: {
      // The three take the same flags.
      encrypt: (input, output, armor) => run(child, command, [...prefix, '-r', BENCH_RECIPIENT, ...(armor === true ? ['-a'] : []), '-o', output, input]),
      async decrypt(input, output) {
        await run(child, command, [...prefix, '-d', '-i', identityFile, '-o', output, input]);
        // rage makes -o's file at its first write: an empty plaintext leaves none, which stands for an empty file.
        if (!fs.existsSync(output)) fs.writeFileSync(output, '');
      },
    },
  };
}
