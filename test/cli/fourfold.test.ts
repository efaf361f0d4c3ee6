/**
 * The `fourfold` command itself: --help and --version, and usage errors
 * that name the program the way --help does (exit code 2); -h and --help
 * of every subcommand (usage on standard output, exit 0); SIGPIPE on
 * its stdio streams; V8's compiled code kept where Node has the cache.
 * Node only: it starts processes.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/cli/fourfold.js', import.meta.url));
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** The CLI is a Node program (its shebang): Deno and Bun running this file start `node`. */
const g = globalThis as { Deno?: unknown; Bun?: unknown };
const NODE = g.Deno === undefined && g.Bun === undefined ? process.execPath : 'node';

function run(...args: string[]): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(NODE, [CLI, ...args], { encoding: 'utf8', input: '' });
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** The program named by each `Usage:` line of `text`. */
function programs(text: string): string[] {
  return [...text.matchAll(/^Usage: (fourfold(?: b3sum)?) /gm)].map((m) => m[1]!);
}

it('fourfold --help and -h: the commands, on standard output, exit 0', () => {
  for (const flag of ['--help', '-h', 'help']) {
    const r = run(flag);
    assert.equal(r.status, 0, flag);
    assert.equal(r.stderr, '');
    assert.deepEqual(programs(r.stdout), ['fourfold'], flag);
    assert.match(r.stdout, /^ {2}b3sum /m, `${flag} lists b3sum`);
  }
});

it("fourfold --version and -V: 'fourfold <package.json version>'", () => {
  for (const flag of ['--version', '-V']) assert.deepEqual(run(flag), { stdout: `fourfold ${VERSION}\n`, stderr: '', status: 0 });
});

it('no command, an unknown command or option: usage on standard error naming fourfold, exit 2', () => {
  const none = run();
  assert.equal(none.status, 2);
  assert.deepEqual(programs(none.stderr), ['fourfold']);
  for (const [arg, message] of [
    ['hash', "unrecognized subcommand 'hash'"],
    ['--frobnicate', "unexpected argument '--frobnicate'"],
  ] as const) {
    const r = run(arg);
    assert.equal(r.status, 2, arg);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.startsWith(`error: ${message}\n`), r.stderr);
    assert.deepEqual(programs(r.stderr), ['fourfold'], arg);
    assert.match(r.stderr, /try 'fourfold --help'/);
  }
});

it('fourfold b3sum: --help and every usage error name the same program, fourfold b3sum', () => {
  const help = run('b3sum', '--help');
  assert.equal(help.status, 0);
  assert.deepEqual(programs(help.stdout), ['fourfold b3sum']);
  const errors = [['--foo'], ['--quiet', 'x'], ['--keyed'], ['--check', '--raw', 'x'], ['--raw=1', 'x']];
  for (const args of errors) {
    const r = run('b3sum', ...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.deepEqual(programs(r.stderr), ['fourfold b3sum'], `${args.join(' ')}: ${r.stderr}`);
  }
  assert.deepEqual(run('b3sum', '--version'), { stdout: `b3sum (fourfold ${VERSION})\n`, stderr: '', status: 0 });
});

it('-h and --help of every command: its usage on standard output, exit 0; an unknown flag still exits 2', () => {
  const helps: [string[], RegExp][] = [
    [['age', '-h'], /^Usage:\n {4}fourfold age /],
    [['age', '--help'], /^Usage:\n {4}fourfold age /],
    [['age', '-help'], /^Usage:\n {4}fourfold age /],
    [['age', '-d', '--help'], /^Usage:\n {4}fourfold age /],
    [['age-keygen', '-h'], /^Usage:\n {4}fourfold age-keygen /],
    [['age-keygen', '--help'], /^Usage:\n {4}fourfold age-keygen /],
    [['b3sum', '-h'], /^Usage: fourfold b3sum /],
    [['b3sum', '--help'], /^Usage: fourfold b3sum /],
    [['-h'], /^Usage: fourfold /],
    [['--help'], /^Usage: fourfold /],
  ];
  for (const [args, usage] of helps) {
    const r = run(...args);
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr, '', args.join(' '));
    assert.match(r.stdout, usage, args.join(' '));
  }
  // Go's flag package reads flags in order: an unknown one before -h is the error.
  for (const command of ['age', 'age-keygen']) {
    for (const args of [['--nope'], ['--nope', '-h']]) {
      const r = run(command, ...args);
      assert.equal(r.status, 2, `${command} ${args.join(' ')}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^flag provided but not defined: -nope\nUsage:/);
    }
  }
});

it('a write through process.stdout or process.stderr that fails with EPIPE ends the command by SIGPIPE, the handler added as the stream is made', () => {
  const signals = new URL('../../dist/cli/signals.js', import.meta.url).href;
  for (const stream of ['stdout', 'stderr']) {
    // The failure a closed reader gives such a write, asynchronously: an 'error' event on the stream, made here by its first use.
    const script = `const { dieOnBrokenStdio } = await import(${JSON.stringify(signals)});
dieOnBrokenStdio();
process.${stream}.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));`;
    const r = spawnSync(NODE, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(r.signal, 'SIGPIPE', `${stream}: ${r.stderr}`);
  }
});

it('a signal caught while one watched file gives way to the next still removes the files and ends the command', () => {
  const signals = new URL('../../dist/cli/signals.js', import.meta.url).href;
  const tmp = mkdtempSync(join(tmpdir(), 'fourfold-signals-'));
  try {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      const [first, second] = [join(tmp, `${signal}-probe`), join(tmp, `${signal}-temporary`)];
      // As -o makes a new file: a probe watched and unwatched, then the temporary file. The signal is
      // caught now and handled at the event loop's next turn, after the first file gave way to the second.
      const script = `const { removeOnSignal } = await import(${JSON.stringify(signals)});
const { writeFileSync } = await import('node:fs');
const stop = removeOnSignal(${JSON.stringify(first)});
process.kill(process.pid, ${JSON.stringify(signal)});
stop();
writeFileSync(${JSON.stringify(second)}, '');
removeOnSignal(${JSON.stringify(second)});
setTimeout(() => {}, 10_000);`;
      const r = spawnSync(NODE, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.signal, signal, `${signal}: ended by it (${r.stderr})`);
      assert.deepEqual(readdirSync(tmp), [], `${signal}: the file removed`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

const COMPILE_CACHE = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

it("the command keeps V8's compiled code of the modules it loads (node:module's compile cache, Node 22.1 and later)", {
  skip: !COMPILE_CACHE && `Node ${process.version} has no compile cache`,
}, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'fourfold-compile-cache-'));
  try {
    // The cache goes to ~/.cache/fourfold, never the shared temporary folder (compile-cache.ts; test/cli/compile-cache.test.ts has other users); NODE_COMPILE_CACHE would turn it on without the command.
    const { NODE_COMPILE_CACHE: _on, NODE_DISABLE_COMPILE_CACHE: _off, XDG_CACHE_HOME: _xdg, ...env } = process.env;
    const r = spawnSync(NODE, [CLI, 'age', '--help'], { encoding: 'utf8', env: { ...env, HOME: tmp, TMPDIR: tmp } });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(readdirSync(tmp), ['.cache']);
    const kept = readdirSync(join(tmp, '.cache/fourfold'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    assert.ok(kept.length > 0, 'no compiled code kept');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
