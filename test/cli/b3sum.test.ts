/**
 * `fourfold b3sum` against the official b3sum (`cargo install b3sum
 * --locked`; .ci/run installs it): the same arguments, standard input and
 * files give the same standard output bytes, standard error (with
 * RUST_BACKTRACE=0, b3sum's is deterministic; usage lines name `fourfold
 * b3sum` where b3sum's name `b3sum`) and exit code. Files: empty,
 * short, multi-chunk, large enough for the worker pool, names with a
 * newline, a backslash, a carriage return, two spaces and non-ASCII
 * letters, a directory and a missing name; every flag; --check files with
 * good, bad, missing and malformed entries. Node only: it starts processes.
 * Without b3sum every test that runs it is skipped, saying so, except on
 * CI (CI=true), where its absence fails them.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rand, randInt } from '../helpers.js';

const CLI = fileURLToPath(new URL('../../dist/cli/fourfold.js', import.meta.url));
/** The CLI is a Node program (its shebang): Deno and Bun running this file start `node`. */
const g = globalThis as { Deno?: unknown; Bun?: unknown };
const NODE = g.Deno === undefined && g.Bun === undefined ? process.execPath : 'node';

/** b3sum from $B3SUM, the PATH, or cargo's install directory. */
function findB3sum(): string | undefined {
  const candidates = [process.env.B3SUM, 'b3sum', join(process.env.HOME ?? '/root', '.cargo/bin/b3sum')];
  for (const c of candidates) if (c !== undefined && spawnSync(c, ['--version']).status === 0) return c;
  return undefined;
}
const B3SUM = findB3sum();
/** CI=true (or 1), as CI services set it. */
const ON_CI = /^(?:true|1)$/i.test(process.env.CI ?? '');
// On CI a missing b3sum is a failure (.ci/run installs it); elsewhere the comparison cannot run.
const NO_B3SUM: false | string =
  B3SUM !== undefined || ON_CI ? false : 'b3sum is not on PATH, in $B3SUM or ~/.cargo/bin (cargo install b3sum --locked); on CI it fails';

let dir = '';
const FILES: Record<string, Uint8Array> = {};

interface Outcome {
  stdout: Buffer;
  stderr: Buffer;
  status: number | null;
}

/**
 * Standard input comes from a file, not a pipe: a command that stops at a
 * usage error exits without reading it, and writing to a pipe whose reader
 * has gone races with that exit (Node reports EPIPE; Deno's spawnSync then
 * drops the captured output). `sh` redirects the file, as a shell user would.
 */
function run(command: string, args: string[], input?: Uint8Array | string): Outcome {
  const stdin = `${dir}.stdin`;
  writeFileSync(stdin, input ?? '');
  const r = spawnSync('sh', ['-c', 'f=$1; shift; exec "$@" < "$f"', 'sh', stdin, command, ...args], {
    cwd: dir,
    env: { ...process.env, RUST_BACKTRACE: '0', RUST_LIB_BACKTRACE: '0' },
    maxBuffer: 1 << 26,
  });
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** Both commands with the same arguments and input: identical output, errors and exit code. */
function same(args: string[], input?: Uint8Array | string, options: { stderr?: boolean } = {}): Outcome {
  assert.ok(B3SUM !== undefined, 'b3sum is not installed: run `cargo install b3sum --locked`');
  const official = run(B3SUM, args, input);
  // The one intended difference: usage lines name the program as it is typed, `fourfold b3sum`, as its --help does.
  const theirs = { ...official, stderr: Buffer.from(official.stderr.toString('latin1').replaceAll('\nUsage: b3sum ', '\nUsage: fourfold b3sum '), 'latin1') };
  const ours = run(NODE, [CLI, 'b3sum', ...args], input);
  const label = `b3sum ${JSON.stringify(args)}`;
  assert.equal(ours.stdout.toString('latin1'), theirs.stdout.toString('latin1'), `${label}: stdout`);
  if (options.stderr !== false) assert.equal(ours.stderr.toString(), theirs.stderr.toString(), `${label}: stderr`);
  assert.equal(ours.status, theirs.status, `${label}: exit code (stderr: ${ours.stderr.toString()})`);
  return theirs;
}

const NAMES = ['empty', 'abc', 'chunks', 'big', 'new\nline', 'back\\slash', 'cr\rname', 'two  spaces', 'été ünïcode', 'BLAKE3 (x) = y'];

// The skip is on each test, not the suite: node --test counts skipped tests (`# skipped N`, with the
// reason beside each), while a skipped suite is left out of its counts.
describe('fourfold b3sum against b3sum', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'fourfold-b3sum-'));
    const contents: Record<string, Uint8Array> = {
      empty: new Uint8Array(0),
      abc: new TextEncoder().encode('abc'),
      chunks: rand(3 * 1024 + 17),
      // Above PARALLEL_MIN (2 MiB): hashed by the worker pool with uneven subtrees.
      big: rand(5 * 1024 * 1024 + 333 * 1024 + 3),
    };
    for (const name of NAMES) {
      FILES[name] = contents[name] ?? rand(name.length * 100);
      writeFileSync(join(dir, name), FILES[name]!);
    }
    mkdirSync(join(dir, 'adir'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}.stdin`, { force: true });
  });

  it('hashes files, with odd names escaped, a directory and a missing file reported (exit 1)', { skip: NO_B3SUM }, () => {
    same(NAMES);
    same([...NAMES.slice(0, 3), 'adir', 'missing', 'big']);
    same(['--', 'abc', '-'], 'from stdin');
  });

  it('--no-names, --tag, --length, --seek, --raw', { skip: NO_B3SUM }, () => {
    same(['--no-names', ...NAMES]);
    same(['--tag', ...NAMES]);
    same(['--tag', '--no-names', 'abc']);
    for (const length of ['0', '1', '31', '33', '64', '65', '1000', '100000']) same(['--length', length, 'abc', 'big']);
    same(['-l5', 'abc']);
    same(['--length=7', 'abc']);
    for (const seek of ['1', '63', '64', '65', '1000000007']) same(['--seek', seek, '--length', '100', 'chunks', 'big']);
    // Past 2^53 (exact, not rounded to a double), up to 2^64 - 1, where b3sum reads on past 2^64 bytes.
    for (const seek of ['9007199254740992', '9007199254740993', '1152921504606846975', '18446744073709551552', '18446744073709551615']) {
      same(['--seek', seek, '--length', '100', 'abc', 'big']);
      same(['--raw', `--seek=${seek}`, '-l', '8', 'chunks']);
    }
    for (const args of [['--raw'], ['--raw', '--length', '1000'], ['--raw', '--seek', '70', '--length', '3']]) {
      for (const file of ['abc', 'big', 'empty']) same([...args, file]);
    }
    same(['--raw', 'abc', 'big']);
    same(['--raw'], 'raw from stdin');
  });

  it('--num-threads 1..4 and --no-mmap (the same sums)', { skip: NO_B3SUM }, () => {
    for (const n of ['1', '2', '3', '4', '0']) same(['--num-threads', n, 'big', 'chunks', 'empty']);
    same(['--no-mmap', 'big', 'abc']);
  });

  it('standard input: no file, -, and a large input', { skip: NO_B3SUM }, () => {
    same([], 'hello');
    same(['-'], '');
    same(['abc', '-', 'empty'], FILES.chunks);
    same(['-'], FILES.big);
  });

  it('--derive-key and --keyed (the key on standard input)', { skip: NO_B3SUM }, () => {
    same(['--derive-key', 'fourfold 2025 b3sum test', ...NAMES]);
    same(['--derive-key=', 'abc']);
    const key = rand(32);
    same(['--keyed', ...NAMES], key);
    same(['--keyed', '--length', '77', 'big'], key);
    same(['--keyed', 'abc', '-', 'empty'], key);
    same(['--keyed', 'abc'], key.subarray(0, 31));
    same(['--keyed', 'abc'], new Uint8Array([...key, 1]));
    same(['--keyed', 'abc'], '');
  });

  it('--check: good, bad, missing and malformed entries, escaped and tagged names, --quiet, from stdin', { skip: NO_B3SUM }, () => {
    const listing = same(NAMES).stdout;
    const tagged = same(['--tag', ...NAMES]).stdout;
    writeFileSync(join(dir, 'good.b3'), listing);
    writeFileSync(join(dir, 'tagged.b3'), tagged);
    same(['--check', 'good.b3']);
    same(['-c', 'tagged.b3', 'good.b3']);
    same(['--check', '--quiet', 'good.b3']);
    same(['--check', '-'], listing);
    const sum = (name: string) =>
      listing
        .toString('latin1')
        .split('\n')
        .find((l) => l.endsWith(`  ${name}`))!
        .slice(0, 64);
    const bad = [
      `${sum('abc')}  abc`,
      `${sum('abc')}  chunks`, // wrong hash
      `${sum('abc')}  missing`,
      `${sum('abc')}  adir`,
      '',
      'not a check line',
      `${sum('abc').toUpperCase()}  abc`,
      `${sum('abc').slice(2)}  abc`,
      `\\${sum('abc')}  bad\\escape`,
      `\\${sum('abc')}  trailing\\`,
      `\\${sum('abc')}  new\\nline`,
      `${sum('abc')}  `,
      `BLAKE3 (abc) = ${sum('abc')}`,
      `BLAKE3 (BLAKE3 (x) = y) = ${sum('BLAKE3 (x) = y')}`,
      `${sum('abc')}  abc\r`,
      `${sum('empty')}  empty`,
    ].join('\n');
    writeFileSync(join(dir, 'bad.b3'), bad + '\n');
    same(['--check', 'bad.b3']);
    same(['--check', '--quiet', 'bad.b3', 'good.b3']);
    writeFileSync(join(dir, 'noeol.b3'), `${sum('abc')}  abc`);
    same(['-c', 'noeol.b3']);
    writeFileSync(join(dir, 'crlf.b3'), `${sum('abc')}  abc\r\n${sum('abc')}  chunks\r\n`);
    same(['-c', 'crlf.b3']);
    same(['--check', 'missing.b3', 'good.b3']);
    writeFileSync(join(dir, 'latin1.b3'), new Uint8Array([0x61, 0xff, 0x0a]));
    same(['--check', 'latin1.b3']);
    same(['--check', '--seek', '1', 'good.b3']);
  });

  it("usage errors: exit code 2 and clap's messages", { skip: NO_B3SUM }, () => {
    same(['--foo', 'abc']);
    same(['--keyed', '--derive-key', 'x', 'abc'], new Uint8Array(32));
    same(['--derive-key', 'x', '--keyed', 'abc']);
    for (const flag of [['--length', '3'], ['--raw'], ['--tag'], ['--no-names'], ['--derive-key', 'x'], ['--keyed']]) {
      same(['--check', ...flag, 'abc']);
      same([...flag, '--check', 'abc']);
    }
    same(['--quiet', 'abc']);
    same(['--keyed']);
    same(['--length']);
    same(['--derive-key']);
    for (const value of ['abc', '', '-', '99999999999999999999', '18446744073709551616', '+']) same([`--length=${value}`, 'abc']);
    same(['--num-threads', 'x', 'abc']);
    same(['--no-names=1', 'abc']);
    same(['-x', 'abc']);
  });

  it('usage errors: an empty FILE is refused as clap refuses an empty path, after an unknown option, before the rest', { skip: NO_B3SUM }, () => {
    for (const args of [
      [''],
      ['abc', ''],
      ['', 'abc'],
      ['--', ''],
      ['--check', ''],
      ['--tag', ''],
      ['', '--help'],
      ['', '--length'],
      ['--quiet', ''],
      ['--raw', 'abc', ''],
    ]) {
      same(args);
    }
    same(['', '--frobnicate']);
    same(['', 'abc', '--frobnicate']);
    same(['--length', '', 'abc']);
  });

  it("usage errors: an option's value that starts with '-' is parsed as an option, as clap does", { skip: NO_B3SUM }, () => {
    for (const option of ['--length', '--seek', '--num-threads', '--derive-key', '-l', '-cl']) {
      for (const value of ['-5', '-x', '-é', '-=', '-5c', '--foo', '--foo=1', '--lenght', '---', '--=', '-c', '--tag', '--tag=x', '--seek=-3', '-', '--']) {
        same([option, value, 'abc']);
      }
    }
    same(['--length=-5', 'abc']);
    same(['-l-5', 'abc']);
    same(['--derive-key=-x', 'abc']);
    same(['-l=', 'abc']);
    same(['-cl=', 'abc']);
  });

  it('usage errors: unknown options with a similar one as the tip, and the options used so far in the usage line', { skip: NO_B3SUM }, () => {
    const names = ['keyed', 'derive-key', 'length', 'seek', 'num-threads', 'no-mmap', 'no-names', 'raw', 'tag', 'check', 'quiet', 'help', 'version'];
    for (const n of names) {
      // A letter dropped, two swapped, one too many, a prefix, other case.
      same([`--${n.slice(1)}`, 'abc']);
      same([`--${n[1]}${n[0]}${n.slice(2)}`, 'abc']);
      same([`--${n}s`, 'abc']);
      same([`--${n.slice(0, 3)}`]);
      same([`--${n.toUpperCase()}=1`]);
    }
    for (const args of [
      ['--tag', '--foo'],
      ['--raw', '--tag', '--quit'],
      ['--length', '3', '--lenght', '4'],
      ['abc', '--foo'],
      ['--tag', 'abc', '--foo'],
      ['-c', '-x'],
      ['--seek', '1', '--foo'],
      ['---'],
      ['--=', 'abc'],
      ['--x=y=z'],
    ]) {
      same(args);
    }
  });

  it('usage errors: repeated options, several conflicts at once, requirements that a conflict excuses, flags given values', { skip: NO_B3SUM }, () => {
    for (const args of [
      ['--tag', '--tag', 'abc'],
      ['-cc'],
      ['--length', '3', '--length', '4'],
      ['-l3', '-l', '3'],
      ['--length', '3', '--length'],
      ['--derive-key', 'a', '--derive-key=b'],
      ['--check', '--tag', '--raw', 'abc'],
      ['--check', '--keyed', '--derive-key', 'x', 'abc'],
      ['--tag', '--raw', '--check', 'abc'],
      ['--derive-key', 'x', '--keyed'],
      ['--quiet', '--derive-key', 'x', '--keyed', 'abc'],
      ['--quiet', '--tag', '--check', 'abc'],
      ['--tag', '--quiet', 'abc'],
      ['--keyed', '--quiet', '--tag'],
      ['--quiet', '--seek', '1'],
      ['--no-mmap', '--keyed'],
      ['abc', '--quiet'],
      ['--tag=x'],
      ['--tag', '--raw=1'],
      ['-l', '3', '--tag=x'],
      ['-l', '3', 'abc', '--tag=x'],
      ['--length=3', '--tag=x'],
      ['abc', '--raw=1'],
      ['2', '-l', '--keyed=1'],
      ['-l', '--keyed=1'],
      ['--tag', '--help=x'],
    ]) {
      same(args);
    }
  });

  it('usage errors: random command lines from the options, typos and values above', { skip: NO_B3SUM }, () => {
    const pool = [
      '--keyed',
      '--derive-key',
      'ctx',
      '--length',
      '3',
      '--seek',
      '1',
      '--num-threads',
      '2',
      '--no-mmap',
      '--no-names',
      '--raw',
      '--tag',
      '--check',
      '--quiet',
      '-c',
      '-l',
      '-l5',
      '-cl',
      '-5',
      '-x',
      '--foo=1',
      '--lenght',
      '--tag=x',
      '--length=abc',
      '--derive-key=-y',
      'abc',
      '-',
      '--',
      '--chek',
      '-l=',
    ];
    for (let n = 0; n < 60; n++) {
      const args = Array.from({ length: 1 + randInt(5) }, () => pool[randInt(pool.length)]!);
      same(args);
    }
  });
});

describe('processes using the pool', () => {
  it("a Node process exits after fourfold/parallel's blake3 without terminate() (idle workers do not hold it)", {
    skip: !existsSync(CLI) && 'dist/ not built',
  }, () => {
    const source = `import { blake3 } from ${JSON.stringify(new URL('../../dist/blake3/index.js', import.meta.url).href)};
      import * as P from ${JSON.stringify(new URL('../../dist/parallel/index.js', import.meta.url).href)};
      const data = new Uint8Array(9 << 20).map((_, i) => i * 31);
      const a = await P.blake3(data, { workers: 2 });
      await new Promise((r) => setTimeout(r, 300));
      const b = await P.blake3(data, { workers: 2 });
      console.log(Buffer.from(a).equals(Buffer.from(blake3(data))) && Buffer.from(b).equals(Buffer.from(a)));`;
    const r = spawnSync(NODE, ['--input-type=module', '-e', source], { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.signal, null, 'the process did not exit by itself');
    assert.equal(r.stdout.trim(), 'true', r.stderr);
    assert.equal(r.status, 0);
  });
});
