/**
 * The modules the command loads for each subcommand, as module-log.mjs
 * lists them: a process reads, resolves and compiles each before it does
 * anything, most of a small file's time. `fourfold --help` loads the
 * entry alone; a subcommand its own files (dist/cli/fourfold-<name>*.js,
 * scripts/build-cli.ts), and, of the dependencies, only what its work
 * uses: no @noble/curves where WebCrypto does X25519, no ML-KEM without a
 * post-quantum key, no @noble/hashes where node:crypto does SHA-256, no
 * @scure/base (age's Bech32 and base64 are its own), none at all to print
 * a usage. Node only: it starts processes, and the log is
 * a Node loader hook.
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI, IS_NODE, NODE } from './age-clients.js';

const MODULE_LOG = new URL('./module-log.mjs', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'fourfold-loads-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const skip = IS_NODE ? false : 'a Node loader hook lists the modules';

/** What `fourfold ARGS` loaded (standard input from the file `input`, output to pipes): the command's own files by name, the packages by name, Node's modules and the stdio streams it made. */
function loads(args: string[], input?: string): { command: string[]; packages: string[]; node: string[] } {
  const log = join(dir, 'log');
  writeFileSync(log, '');
  const r = spawnSync('sh', ['-c', 'exec "$@" < "$0"', input ?? '/dev/null', NODE, '--import', MODULE_LOG, CLI, ...args], {
    env: { ...process.env, FOURFOLD_MODULE_LOG: log },
    encoding: 'utf8',
  });
  assert.ok(r.status === 0 || (r.status === 2 && args.includes('-x')), `fourfold ${args.join(' ')}: exit ${r.status}, ${r.stderr}`);
  const urls = [...new Set(readFileSync(log, 'utf8').split('\n'))];
  return {
    command: urls.flatMap((u) => u.match(/\/dist\/cli\/(fourfold[^/]*\.js)$/)?.[1] ?? []).sort(),
    packages: urls
      .flatMap((u) => u.match(/\/node_modules\/(@[^/]+\/[^/]+|[^@/][^/]*)\//)?.[1] ?? [])
      .filter((p, i, all) => all.indexOf(p) === i)
      .sort(),
    node: urls.filter((u) => u.startsWith('node:') || u.startsWith('process.')),
  };
}

/**
 * What a command that reads and writes files and pipes through
 * descriptors has no use for, each some milliseconds of a fresh process:
 * a plugin's child_process, the terminal's tty (both bring net, which
 * the log's own thread loads too), and the process.stdout and
 * process.stderr streams (on a pipe or a terminal, net again).
 */
const UNUSED = ['node:child_process', 'node:tty', 'process.stdout', 'process.stderr'];

/** Whether every one of `files` is the entry's or subcommand `name`'s. */
const onlyOf = (name: string, files: string[]) => files.every((f) => f === 'fourfold.js' || new RegExp(`^fourfold-${name}(?:-[A-Z0-9]+)?\\.js$`).test(f));

let made: ReturnType<typeof makeKeysAndFile> | undefined;
/** An identity file, its recipient and a 64 KiB file encrypted to it, made by the command (once: the tests share them). */
const keysAndFile = (): ReturnType<typeof makeKeysAndFile> => (made ??= makeKeysAndFile());

function makeKeysAndFile(): { identityFile: string; recipient: string; plain: string; sealed: string } {
  const identityFile = join(dir, 'key.txt');
  const keygen = spawnSync(NODE, [CLI, 'age-keygen', '-o', identityFile], { encoding: 'utf8' });
  assert.equal(keygen.status, 0, keygen.stderr);
  const recipient = keygen.stderr.match(/Public key: (age1\S+)/)![1]!;
  const plain = join(dir, 'plain');
  writeFileSync(plain, new Uint8Array(65536).fill(7));
  const sealed = join(dir, 'plain.age');
  const r = spawnSync(NODE, [CLI, 'age', '-r', recipient, '-o', sealed, plain], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return { identityFile, recipient, plain, sealed };
}

it('fourfold --help and --version load the entry alone', { skip }, () => {
  for (const flag of ['--help', '--version']) {
    const { command, packages } = loads([flag]);
    assert.deepEqual({ command, packages }, { command: ['fourfold.js'], packages: [] }, flag);
  }
});

it("fourfold age --help, and flags that do not parse, load age's command line and no dependency", { skip }, () => {
  for (const args of [
    ['age', '--help'],
    ['age', '-x'],
  ]) {
    const { command, packages } = loads(args);
    assert.deepEqual(packages, [], args.join(' '));
    assert.ok(onlyOf('age', command), `${args.join(' ')}: ${command}`);
    // The entry, the subcommand's and the chunks esbuild splits out of what its late imports share.
    assert.ok(command.length <= 4, `${args.join(' ')}: ${command}`);
  }
});

it('fourfold age to and from an X25519 key: its own files, few, no dependency, no child_process, tty or stdio streams', { skip }, () => {
  const { identityFile, recipient, plain, sealed } = keysAndFile();
  for (const [args, input] of [
    [['age', '-e', '-r', recipient], plain],
    [['age', '-d', '-i', identityFile], sealed],
    [['age', '-d', '-i', identityFile, '-o', join(dir, 'out'), sealed], undefined],
  ] as const) {
    const { command, packages, node } = loads([...args], input);
    const what = args.join(' ');
    // No dependency at all: X25519 and SHA-256 are node:crypto's, Bech32 and base64 age's own (text-encodings.ts).
    assert.deepEqual(packages, [], what);
    assert.deepEqual(
      UNUSED.filter((m) => node.includes(m)),
      [],
      what,
    );
    assert.ok(onlyOf('age', command), `${what}: ${command}`);
    // The entry, the subcommand's, its command line's, its work's and the chunks esbuild splits out of what the late imports share (16 files when each set of late imports had a chunk); with -o, -o's chunk (cli/age-files.ts) and its imports'.
    assert.ok(command.length <= (args.includes('-o') ? 9 : 6), `${what}: ${command}`);
  }
});

/** The modules of dist/ that the command's files `names` (dist/cli/) bundle, by the path comment esbuild writes before each. */
const bundled = (names: string[]): string[] =>
  names.flatMap((n) => [...readFileSync(join(dirname(CLI), n), 'utf8').matchAll(/^\/\/ (dist\/[\w/.-]+\.js)$/gm)].map((m) => m[1]!));

it('fourfold age of a small file through standard input and output loads no pool, file call, -o or plugin code', { skip }, () => {
  const { identityFile, recipient, plain, sealed } = keysAndFile();
  for (const [args, input] of [
    [['age', '-e', '-r', recipient], plain],
    [['age', '-d', '-i', identityFile], sealed],
  ] as const) {
    const modules = bundled(loads([...args], input).command);
    const what = args.join(' ');
    assert.ok(modules.includes('dist/age/codec.js'), `${what}: ${modules}`);
    // Below PARALLEL_MIN the pool's runner keeps all of it on this thread: the command does so without loading the pool (age.ts runnersFor).
    const unused =
      /^dist\/(pool\/pool|pool\/pool-worker|parallel\/age-pool|age\/files|age\/output-file|age\/output-path|cli\/plugin-run|cli\/plugin-session)\.js$/;
    assert.deepEqual(
      modules.filter((m) => unused.test(m)),
      [],
      what,
    );
  }
});

it('fourfold age-keygen and b3sum load their own files: no curve code, no age code (nor b3sum the stdio streams)', { skip }, () => {
  const keygen = loads(['age-keygen']);
  assert.deepEqual(keygen.packages, []);
  assert.ok(onlyOf('age-keygen', keygen.command), `${keygen.command}`);
  const b3sum = loads(['b3sum', CLI]);
  assert.deepEqual(b3sum.command, ['fourfold-b3sum.js', 'fourfold.js']);
  assert.deepEqual(b3sum.packages, []);
  assert.deepEqual(
    UNUSED.filter((m) => b3sum.node.includes(m)),
    [],
  );
});
