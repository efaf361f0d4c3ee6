/**
 * The class test of outputs: every kind of output a file call may be
 * given x every writer (encryptFile and decryptFile of fourfold/age and
 * of fourfold/parallel's age, and the age command's -o, encrypting and
 * decrypting, from a file and from standard input). A file call never
 * puts a regular file where something else was: a link's target is
 * written and the link stays, a dangling link's target is created; a
 * folder, a device or a FIFO is refused before anything is written (the
 * command writes a device or FIFO through, as age does); a file or folder
 * this user may not write is refused with EACCES, as opening it would be;
 * an output handle opened for appending gets the right bytes or a
 * refusal that leaves it as it was; setuid, setgid and sticky never reach
 * the output. The command's failures are age's, message and exit code.
 *
 * Root may write anything: the cases of a file or folder this user may
 * not write run in a child process without root's capabilities
 * (setpriv(1)), and a device is made with mknod(1) in the test's folder.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as age from 'fourfold/age';
import { assertBytes, rand } from '../helpers.js';
import { AGE, CLI, IS_NODE, NODE, runIn } from '../cli/age-clients.js';
import { APIS, from, fs, inDirectory, NO_FILES, read, to } from './file-fixture.js';

type ChildProcess = typeof import('node:child_process');
const builtin = (name: string) => (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.(name);
const child = builtin('node:child_process') as ChildProcess | undefined;
const ROOT = new URL('../..', import.meta.url).pathname;
const ON_CI = /^(?:true|1)$/i.test(globalThis.process?.env?.CI ?? '');
const IS_ROOT = (globalThis.process as { getuid?: () => number } | undefined)?.getuid?.() === 0;
const HAS = (program: string) => child?.spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
/** A command run without root's capabilities (as a user would, still uid 0): what may be written is what the modes say. */
const UNPRIVILEGED = IS_ROOT ? ['setpriv', '--bounding-set', '-all', '--inh-caps', '-all', '--ambient-caps', '-all', '--'] : [];
const NO_UNPRIVILEGED = IS_ROOT && !HAS('setpriv') && !ON_CI ? 'setpriv (util-linux) is not installed; on CI it fails' : false;
const NO_CHILDREN = child === undefined || !HAS('mkfifo') ? 'not applicable: needs node:child_process and mkfifo(1)' : false;

/** A plaintext longer than a worker's piece (60 chunks), so fourfold/parallel's workers write it. */
const PLAIN = rand(5 << 20);
const OLD = 'what was there';

/** The test folder's names a case may leave: no temporary file is ever among what is left. */
type Path = (name: string) => string;

/** An output of one kind, made in the test's folder: the path a writer is given, and what to check after. */
interface Kind {
  readonly name: string;
  /** Makes it; returns the output to give. */
  make(path: Path): string;
  /** Whether a writer is refused it; the command writes devices and FIFOs through, as age. */
  readonly refused: 'never' | 'library' | 'always';
  /** Needs a child without root's capabilities (what only modes forbid). */
  readonly unprivileged?: true;
  /** The library's refusal, and the command's message after "open OUTPUT: ". */
  readonly error?: { library: RegExp | string; command: string };
  /** Checks the folder after a call: `wrote` is the output's bytes where the call succeeded, else undefined. */
  check(path: Path, wrote: Uint8Array | undefined): void;
}

const isLink = (p: string) => fs!.lstatSync(p).isSymbolicLink();
const modeOf = (p: string) => fs!.statSync(p).mode & 0o7777;

/** The device a test may make and lose: a null device of its own where it may (root), else the system's, which only root could replace. */
function nullDevice(path: Path): string {
  if (!IS_ROOT) return '/dev/null';
  const r = child!.spawnSync('mknod', [path('device'), 'c', '1', '3']);
  assert.equal(r.status, 0, `mknod: ${r.stderr}`);
  return path('device');
}

const KINDS: Kind[] = [
  {
    name: 'an existing file, mode 6755',
    make(path) {
      fs!.writeFileSync(path('out'), OLD);
      fs!.chmodSync(path('out'), 0o6755);
      return path('out');
    },
    refused: 'never',
    check(path, wrote) {
      assertBytes(read(path('out')), wrote!);
      assert.equal(modeOf(path('out')), 0o755, 'its mode less setuid and setgid');
    },
  },
  {
    name: 'a new file',
    make: (path) => path('out'),
    refused: 'never',
    check: (path, wrote) => assertBytes(read(path('out')), wrote!),
  },
  {
    name: 'a link to a file',
    make(path) {
      fs!.writeFileSync(path('target'), OLD);
      fs!.chmodSync(path('target'), 0o640);
      fs!.symlinkSync('target', path('out'));
      return path('out');
    },
    refused: 'never',
    check(path, wrote) {
      assert.ok(isLink(path('out')), 'the link is still a link');
      assertBytes(read(path('target')), wrote!, 'its target written');
      assert.equal(modeOf(path('target')), 0o640, "its target's mode kept");
    },
  },
  {
    name: 'a dangling link',
    make(path) {
      fs!.mkdirSync(path('sub'));
      fs!.symlinkSync('sub/target', path('out'));
      return path('out');
    },
    refused: 'never',
    check(path, wrote) {
      assert.ok(isLink(path('out')), 'the link is still a link');
      assertBytes(read(path('sub/target')), wrote!, 'its target created');
      assert.deepEqual(fs!.readdirSync(path('sub')), ['target']);
    },
  },
  {
    name: 'a device',
    make: nullDevice,
    refused: 'library',
    error: { library: /is a character device, not a regular file: .*encryptStream\(\) or decryptStream\(\)/, command: '' },
    check(path) {
      const device = IS_ROOT ? path('device') : '/dev/null';
      assert.ok(fs!.lstatSync(device).isCharacterDevice(), 'still a device');
    },
  },
  {
    name: 'a link to a device',
    make(path) {
      fs!.symlinkSync(nullDevice(path), path('out'));
      return path('out');
    },
    refused: 'library',
    error: { library: /\(a link to .*\) is a character device/, command: '' },
    check(path) {
      assert.ok(isLink(path('out')), 'the link is still a link');
      assert.ok(fs!.statSync(path('out')).isCharacterDevice(), 'still a device');
    },
  },
  {
    name: 'a FIFO with a reader',
    make(path) {
      const r = child!.spawnSync('mkfifo', [path('fifo')]);
      assert.equal(r.status, 0, `mkfifo: ${r.stderr}`);
      return path('fifo');
    },
    refused: 'library',
    error: { library: /is a FIFO, not a regular file/, command: '' },
    check(path) {
      assert.ok(fs!.lstatSync(path('fifo')).isFIFO(), 'still a FIFO');
    },
  },
  {
    name: 'a folder',
    make(path) {
      fs!.mkdirSync(path('out'));
      return path('out');
    },
    refused: 'always',
    error: { library: /is a directory: give the path of a file in it/, command: 'is a directory' },
    check(path) {
      assert.deepEqual(fs!.readdirSync(path('out')), [], 'the folder as it was');
    },
  },
  {
    name: 'a file in a missing folder',
    make: (path) => path('missing/out'),
    refused: 'always',
    error: { library: /ENOENT: no such file or directory, open '.*missing\/out'/, command: 'no such file or directory' },
    check(path) {
      assert.equal(fs!.existsSync(path('missing')), false);
    },
  },
  {
    name: 'a file this user may not write',
    make(path) {
      fs!.writeFileSync(path('out'), OLD);
      fs!.chmodSync(path('out'), 0o444);
      return path('out');
    },
    refused: 'always',
    unprivileged: true,
    error: { library: /EACCES: permission denied, open '.*out'/, command: 'permission denied' },
    check(path) {
      assert.equal(fs!.readFileSync(path('out'), 'utf8'), OLD, 'the file as it was');
    },
  },
  {
    name: 'a new file in a folder this user may not write',
    make(path) {
      fs!.mkdirSync(path('locked'));
      fs!.chmodSync(path('locked'), 0o555);
      return path('locked/out');
    },
    refused: 'always',
    unprivileged: true,
    error: { library: /EACCES: permission denied, open '.*locked\/out'/, command: 'permission denied' },
    check(path) {
      assert.deepEqual(fs!.readdirSync(path('locked')), [], 'nothing made in it');
    },
  },
];

/** What a writer does: encrypts PLAIN or decrypts its age file, into the output. */
interface Writer {
  readonly name: string;
  readonly encrypting: boolean;
}

/** The output's expected bytes: an age file of PLAIN (checked by decrypting it), or PLAIN. */
async function checkWritten(w: Writer, bytes: Uint8Array, what: string): Promise<Uint8Array> {
  if (w.encrypting) assertBytes(await age.decrypt(bytes, from), PLAIN, `${what}: the output decrypts`);
  else assertBytes(bytes, PLAIN, `${what}: the plaintext`);
  return bytes;
}

/**
 * Reads a FIFO into a file, in a process of its own (the test's event
 * loop may be blocked by a synchronous run meanwhile); `release()` ends a
 * read no writer came to, by opening the FIFO for writing once the
 * reader has it open, and resolves to what it read.
 */
function readFifo(fifo: string, into: string): { done: Promise<Uint8Array>; release(): Promise<Uint8Array> } {
  const reader = child!.spawn('sh', ['-c', 'exec cat "$0" > "$1"', fifo, into], { stdio: 'ignore' });
  const done = new Promise<Uint8Array>((resolve, reject) => {
    reader.on('error', reject);
    reader.on('exit', (code) => (code === 0 ? resolve(read(into)) : reject(new Error(`the FIFO's reader exited ${code}`))));
  });
  const release = async (): Promise<Uint8Array> => {
    // Opening for writing without blocking succeeds once a reader has the FIFO open (ENXIO before).
    for (;;) {
      try {
        fs!.closeSync(fs!.openSync(fifo, fs!.constants.O_WRONLY | fs!.constants.O_NONBLOCK));
        return done;
      } catch (e) {
        if ((e as { code?: string }).code !== 'ENXIO') throw e;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  };
  return { done, release };
}

/** The library's writers: both file calls of both modules. */
const LIBRARY: (Writer & { readonly api: (typeof APIS)[number][1] })[] = APIS.flatMap(([name, api]) => [
  { name: `${name} encryptFile`, encrypting: true, api },
  { name: `${name} decryptFile`, encrypting: false, api },
]);

/** Runs a library writer into `output`, here or, for what only modes forbid, in a child without root's capabilities; the error it rejected with. */
async function runLibrary(
  w: (typeof LIBRARY)[number],
  path: Path,
  output: string,
  unprivileged: boolean,
): Promise<{ message: string; name: string } | undefined> {
  const input = w.encrypting ? path('plain') : path('file.age');
  if (unprivileged && IS_ROOT) return inChild(w, input, output);
  try {
    if (w.encrypting) await w.api.encryptFile(input, output, to);
    else await w.api.decryptFile(input, output, from);
    return undefined;
  } catch (e) {
    return { message: (e as Error).message, name: (e as Error).name };
  }
}

/** What the child does: one call, and the error it rejected with, as JSON. */
const CHILD = `
import * as age from 'fourfold/age';
import { age as all, terminate } from 'fourfold/parallel';
const [module, way, input, output, identity] = process.argv.slice(1);
const api = module === 'fourfold/age' ? age : all;
let error = null;
try {
  if (way === 'encrypt') await api.encryptFile(input, output, { recipients: [age.identityToRecipient(identity)] });
  else await api.decryptFile(input, output, { identities: [identity] });
} catch (e) {
  error = { message: e.message, name: e.name };
}
await terminate();
console.log(JSON.stringify(error));
`;

function inChild(w: (typeof LIBRARY)[number], input: string, output: string): { message: string; name: string } | undefined {
  const [module] = w.name.split(' ');
  const args = [
    ...UNPRIVILEGED,
    process.execPath,
    '--input-type=module',
    '-e',
    CHILD,
    module!,
    w.encrypting ? 'encrypt' : 'decrypt',
    input,
    output,
    from.identities[0]!,
  ];
  const r = child!.spawnSync(args[0]!, args.slice(1), { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `the child failed: ${r.stderr}`);
  return JSON.parse(r.stdout) ?? undefined;
}

/** Every case's folder holds the inputs, and after the call only what the kind made and the call wrote: no temporary file. */
async function inCase(f: (path: Path, names: () => string[]) => Promise<void>): Promise<void> {
  await inDirectory(async (path, names) => {
    fs!.writeFileSync(path('plain'), PLAIN);
    fs!.writeFileSync(path('file.age'), FILE);
    try {
      await f(path, names);
    } finally {
      // A folder root's child may not write is made writable again, so the case's folder can be removed.
      if (fs!.existsSync(path('locked'))) fs!.chmodSync(path('locked'), 0o755);
    }
  });
}

let FILE: Uint8Array;
before(async () => {
  FILE = await age.encrypt(PLAIN, to);
});
const noTemporary = (names: string[], what: string) =>
  assert.deepEqual(
    names.filter((n) => n.includes('fourfold-')),
    [],
    `${what}: no temporary file is left`,
  );

describe('file calls: every kind of output x every library writer', { skip: NO_FILES || NO_CHILDREN }, () => {
  for (const w of LIBRARY) {
    for (const kind of KINDS) {
      const skip = kind.unprivileged && IS_ROOT && (!IS_NODE ? 'not applicable: runs the call in a child Node without root capabilities' : NO_UNPRIVILEGED);
      it(`${w.name} into ${kind.name}`, { skip }, async () => {
        await inCase(async (path, names) => {
          const output = kind.make(path);
          const fifo = kind.name.startsWith('a FIFO') ? readFifo(output, path('read')) : undefined;
          const error = await runLibrary(w, path, output, kind.unprivileged === true);
          const what = `${w.name} into ${kind.name}`;
          if (kind.refused === 'never') {
            assert.equal(error, undefined, `${what}: ${error?.message}`);
            const target = kind.name === 'a dangling link' ? path('sub/target') : kind.name === 'a link to a file' ? path('target') : output;
            kind.check(path, await checkWritten(w, read(target), what));
          } else {
            assert.notEqual(error, undefined, `${what}: refused`);
            assert.match(error!.message, kind.error!.library instanceof RegExp ? kind.error!.library : new RegExp(kind.error!.library), what);
            if (typeof kind.error!.library !== 'string' && kind.refused === 'library') assert.equal(error!.name, 'TypeError', what);
            kind.check(path, undefined);
            if (fifo !== undefined) assert.equal((await fifo.release()).length, 0, `${what}: its reader got nothing`);
          }
          noTemporary(names(), what);
        });
      });
    }
  }
});

describe('file calls: output handles, every way node:fs opens one for writing', { skip: NO_FILES }, () => {
  for (const w of LIBRARY) {
    for (const flags of ['w', 'r+', 'a', 'a+']) {
      it(`${w.name} into a handle opened with '${flags}': the right bytes, or refused and left as it was`, async () => {
        await inCase(async (path) => {
          fs!.writeFileSync(path('out'), OLD);
          const handle = await fs!.promises.open(path('out'), flags);
          try {
            const input = w.encrypting ? path('plain') : path('file.age');
            const call = w.encrypting ? w.api.encryptFile(input, handle, to) : w.api.decryptFile(input, handle, from);
            const outcome = await call.then(
              () => undefined,
              (e: Error) => e,
            );
            const what = `${w.name}, '${flags}'`;
            if (outcome === undefined) await checkWritten(w, read(path('out')), what);
            else {
              // Linux's pwrite(2) appends on a handle opened for appending: refused before anything in it changed.
              assert.ok(flags.startsWith('a'), `${what}: ${outcome.message}`);
              assert.equal(outcome.name, 'TypeError', what);
              assert.match(outcome.message, /opened for appending \('a' or 'a\+'\).*open it with 'w' or 'r\+'/);
              assert.equal(fs!.readFileSync(path('out'), 'utf8'), OLD, `${what}: left as it was`);
            }
          } finally {
            await handle.close();
          }
        });
      });
    }
    it(`${w.name} into a handle of a device, of a file opened for reading, of a 6755 file`, { skip: NO_CHILDREN }, async () => {
      await inCase(async (path) => {
        const input = w.encrypting ? path('plain') : path('file.age');
        const into = (handle: { fd: number }) => (w.encrypting ? w.api.encryptFile(input, handle, to) : w.api.decryptFile(input, handle, from));
        const device = await fs!.promises.open(nullDevice(path), 'w');
        await assert.rejects(
          into(device).finally(() => device.close()),
          { name: 'TypeError', message: /is a character device, not a regular file/ },
        );
        fs!.writeFileSync(path('out'), OLD);
        const reading = await fs!.promises.open(path('out'), 'r');
        await assert.rejects(
          into(reading).finally(() => reading.close()),
          { name: 'TypeError', message: /is not open for writing: open it with 'w' or 'r\+'/ },
        );
        assert.equal(fs!.readFileSync(path('out'), 'utf8'), OLD);
        fs!.chmodSync(path('out'), 0o6755);
        const setuid = await fs!.promises.open(path('out'), 'r+');
        await into(setuid).finally(() => setuid.close());
        await checkWritten(w, read(path('out')), `${w.name}, a 6755 file`);
        assert.equal(modeOf(path('out')), 0o755, 'setuid and setgid taken off');
      });
    });
  }
});

describe("fourfold age -o: every kind of output, encrypting and decrypting, from a file and from standard input, as age's", {
  skip: !IS_NODE ? 'not applicable: the command is a Node program (npm test runs it)' : NO_CHILDREN,
}, () => {
  // age is what CI installs: where it is missing, the run fails saying so.
  const clients = [['age', AGE ?? 'age', []] as const];
  for (const encrypting of [true, false]) {
    for (const stdin of [false, true]) {
      for (const kind of KINDS) {
        const how = `${encrypting ? '-e' : '-d'}, ${stdin ? 'standard input' : 'a file'}`;
        const skip = (kind.unprivileged && NO_UNPRIVILEGED) || false;
        it(`${how}, into ${kind.name}`, { skip }, async () => {
          for (const [client, program, pre] of [['fourfold age', NODE, [CLI, 'age']] as const, ...clients]) {
            await inCase(async (path, names) => {
              const output = kind.make(path);
              const input = encrypting ? path('plain') : path('file.age');
              const keys = encrypting ? ['-r', to.recipients[0]!] : ['-d', '-i', path('key')];
              fs!.writeFileSync(path('key'), `${from.identities[0]}\n`);
              const args = [...keys, '-o', output, ...(stdin ? [] : [input])];
              const fifo = kind.name.startsWith('a FIFO') ? readFifo(output, path('read')) : undefined;
              const privileged = kind.unprivileged ? UNPRIVILEGED : [];
              const command = [...privileged, program, ...pre];
              const r = runIn(path(''), command[0]!, [...command.slice(1), ...args], { input: stdin ? read(input) : undefined });
              const what = `${client} ${how}, into ${kind.name}`;
              const stderr = r.stderr.toString();
              if (kind.refused === 'always') {
                assert.equal(r.status, 1, `${what}: exit 1 (${stderr})`);
                const message = `${encrypting ? 'failed to write header: ' : ''}open ${output}: ${kind.error!.command}`;
                assert.equal(stderr.split('\n')[0], `${client}: error: ${message}`, what);
                kind.check(path, undefined);
              } else {
                assert.equal(r.status, 0, `${what}: ${stderr}`);
                if (fifo !== undefined) await checkWritten({ name: client, encrypting }, await fifo.done, `${what}: what its reader got`);
                else if (kind.refused === 'never') {
                  const target = kind.name === 'a dangling link' ? path('sub/target') : kind.name === 'a link to a file' ? path('target') : output;
                  // age keeps an existing file's mode, setuid and all: only fourfold's is checked for it.
                  if (client === 'age' && kind.name.includes('6755')) await checkWritten({ name: client, encrypting }, read(target), what);
                  else kind.check(path, await checkWritten({ name: client, encrypting }, read(target), what));
                }
                if (kind.refused === 'library') kind.check(path, undefined);
              }
              noTemporary(names(), what);
            });
          }
        });
      }
    }
  }
});
