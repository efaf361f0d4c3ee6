/**
 * The class test of outputs: every kind of output a file call may be
 * given x every writer (encryptFile and decryptFile of fourfold/age and
 * of fourfold/parallel's age, and the age command's -o, encrypting and
 * decrypting, from a file and from standard input), each beside Go's
 * age where it is installed. A file call writes the file open(2) on the
 * output path writes (links read from the folders they really are in,
 * through linked folders, `..` and chains of relative and absolute
 * links), and never puts a regular file where something else was: a
 * link's target is written and the link stays, a dangling link's target
 * is created; an existing file keeps its owner, group, mode and other
 * names (hard links); another user's link or file in a sticky shared
 * folder is refused, as fs.protected_symlinks and protected_regular
 * refuse open(2); a
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

/** A user this test makes files and links for (no account needed); root may give them away. */
const OTHER = 4242;
const NO_ROOT = IS_ROOT ? false : "not applicable: making another user's files and links needs root (CI runs as root)";
/** Linux's protections of sticky shared folders (proc_sys_fs(5)), for whether age is refused as fourfold is. */
const sysctl = (name: string) => {
  try {
    return fs!.readFileSync(`/proc/sys/fs/${name}`, 'utf8').trim() !== '0';
  } catch {
    return false;
  }
};
const PROTECTED = { symlinks: sysctl('protected_symlinks'), regular: sysctl('protected_regular') };

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
  /** Needs root, to make what another user would own (files and links of OTHER's). */
  readonly root?: true;
  /** The file the output's bytes land in, where that is not the path given. */
  written?(path: Path): string;
  /** Why Go's age is not run on this kind here, where it is not. */
  readonly notAge?: string | false;
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

/** `shared/out`, made by `make` in a sticky world-writable folder (as /tmp is) and given to OTHER, as if that user had put it there. */
function inSharedFolder(path: Path, make: (out: string) => void): string {
  fs!.mkdirSync(path('shared'));
  fs!.chmodSync(path('shared'), 0o1777);
  make(path('shared/out'));
  fs!.lchownSync(path('shared/out'), OTHER, OTHER);
  return path('shared/out');
}
/** How another user's output in a sticky shared folder is refused: as open(2) refuses it there. */
const REFUSED_THERE = {
  refused: 'always',
  error: { library: /EACCES: permission denied, open '.*shared\/out'/, command: 'permission denied' },
} as const;

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
    written: (path) => path('target'),
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
    written: (path) => path('sub/target'),
    check(path, wrote) {
      assert.ok(isLink(path('out')), 'the link is still a link');
      assertBytes(read(path('sub/target')), wrote!, 'its target created');
      assert.deepEqual(fs!.readdirSync(path('sub')), ['target']);
    },
  },
  {
    name: 'a link with a relative target, in a linked folder',
    make(path) {
      // alias -> real/sub, and real/sub/out.link -> ../target: the kernel reads ../target from real/sub, not from beside alias.
      fs!.mkdirSync(path('real/sub'), { recursive: true });
      fs!.symlinkSync('real/sub', path('alias'));
      fs!.writeFileSync(path('real/target'), OLD);
      fs!.symlinkSync('../target', path('real/sub/out.link'));
      return path('alias/out.link');
    },
    refused: 'never',
    written: (path) => path('real/target'),
    check(path, wrote) {
      assertBytes(read(path('real/target')), wrote!, 'the file the kernel reaches is written');
      assert.equal(fs!.existsSync(path('target')), false, 'nothing made beside the linked folder');
      assert.ok(isLink(path('real/sub/out.link')) && isLink(path('alias')), 'the links are still links');
    },
  },
  {
    name: "a new file after a linked folder's .., the link in a folder this user may not write",
    make(path) {
      // locked/alias/.. is real, the folder above alias's target, not locked: the file and its temporary file are made in real.
      fs!.mkdirSync(path('real/sub'), { recursive: true });
      fs!.mkdirSync(path('locked'));
      fs!.symlinkSync(path('real/sub'), path('locked/alias'));
      fs!.chmodSync(path('locked'), 0o555);
      return path('locked/alias/../out');
    },
    refused: 'never',
    unprivileged: true,
    written: (path) => path('real/out'),
    check(path, wrote) {
      assertBytes(read(path('real/out')), wrote!, 'created in the folder the kernel reaches');
      assert.deepEqual(fs!.readdirSync(path('locked')), ['alias'], 'nothing made beside alias');
    },
  },
  {
    name: 'a chain of links, relative and absolute, through linked folders',
    make(path) {
      // out -> a/l1; a -> x/b (a linked folder); x/b/l1 -> ../../c/l2, read from x/b; c/l2 -> <absolute>/d/target.
      for (const d of ['x/b', 'c', 'd']) fs!.mkdirSync(path(d), { recursive: true });
      fs!.symlinkSync('x/b', path('a'));
      fs!.writeFileSync(path('d/target'), OLD);
      fs!.chmodSync(path('d/target'), 0o604);
      fs!.symlinkSync(path('d/target'), path('c/l2'));
      fs!.symlinkSync('../../c/l2', path('x/b/l1'));
      fs!.symlinkSync('a/l1', path('out'));
      return path('out');
    },
    refused: 'never',
    written: (path) => path('d/target'),
    check(path, wrote) {
      assertBytes(read(path('d/target')), wrote!, 'the end of the chain is written');
      assert.equal(modeOf(path('d/target')), 0o604, 'its mode kept');
      for (const link of ['out', 'a', 'x/b/l1', 'c/l2']) assert.ok(isLink(path(link)), `${link} is still a link`);
    },
  },
  {
    name: "another user's file",
    root: true,
    make(path) {
      fs!.writeFileSync(path('out'), OLD);
      fs!.chmodSync(path('out'), 0o600);
      fs!.chownSync(path('out'), OTHER, OTHER);
      return path('out');
    },
    refused: 'never',
    check(path, wrote) {
      assertBytes(read(path('out')), wrote!);
      const s = fs!.statSync(path('out'));
      assert.deepEqual([s.uid, s.gid, s.mode & 0o7777], [OTHER, OTHER, 0o600], 'its owner, group and mode kept');
    },
  },
  {
    name: 'a file with another name (a hard link)',
    make(path) {
      fs!.writeFileSync(path('out'), OLD);
      fs!.linkSync(path('out'), path('other-name'));
      return path('out');
    },
    refused: 'never',
    check(path, wrote) {
      assertBytes(read(path('out')), wrote!);
      assertBytes(read(path('other-name')), wrote!, 'its other name has the new bytes too');
      assert.equal(fs!.statSync(path('out')).ino, fs!.statSync(path('other-name')).ino, 'still one file');
    },
  },
  {
    name: 'a link another user planted in a sticky shared folder',
    root: true,
    make(path) {
      // fs.protected_symlinks: open(2) follows no other user's link in a sticky world-writable folder (age is refused too).
      fs!.writeFileSync(path('target'), OLD);
      return inSharedFolder(path, (out) => fs!.symlinkSync(path('target'), out));
    },
    ...REFUSED_THERE,
    notAge: PROTECTED.symlinks ? false : 'fs.protected_symlinks is 0 here: open(2) follows the link, age with it',
    check(path) {
      assert.equal(fs!.readFileSync(path('target'), 'utf8'), OLD, 'the target as it was');
      assert.ok(isLink(path('shared/out')), 'the link as it was');
    },
  },
  {
    name: 'a file another user left in a sticky shared folder',
    root: true,
    make(path) {
      // fs.protected_regular: another user's file in /tmp may be bait for the plaintext; refused whatever the setting.
      return inSharedFolder(path, (out) => fs!.writeFileSync(out, OLD, { mode: 0o666 }));
    },
    ...REFUSED_THERE,
    notAge: PROTECTED.regular ? false : 'fs.protected_regular is 0 here: open(2) opens the file, age with it',
    check(path) {
      assert.equal(fs!.readFileSync(path('shared/out'), 'utf8'), OLD, 'the file as it was');
      assert.equal(fs!.statSync(path('shared/out')).uid, OTHER, "still the other user's");
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
async function inCase(f: (path: Path) => Promise<void>): Promise<void> {
  await inDirectory(async (path) => {
    fs!.writeFileSync(path('plain'), PLAIN);
    fs!.writeFileSync(path('file.age'), FILE);
    try {
      await f(path);
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
/** No temporary file is left anywhere in the case's folder, its subfolders included (links are not followed). */
const noTemporary = (path: Path, what: string) =>
  assert.deepEqual(
    (fs!.readdirSync(path(''), { recursive: true }) as string[]).filter((n) => n.includes('fourfold-')),
    [],
    `${what}: no temporary file is left`,
  );

describe('file calls: every kind of output x every library writer', { skip: NO_FILES || NO_CHILDREN }, () => {
  for (const w of LIBRARY) {
    for (const kind of KINDS) {
      const skip =
        (kind.root && NO_ROOT) ||
        (kind.unprivileged && IS_ROOT && (!IS_NODE ? 'not applicable: runs the call in a child Node without root capabilities' : NO_UNPRIVILEGED));
      it(`${w.name} into ${kind.name}`, { skip }, async () => {
        await inCase(async (path) => {
          const output = kind.make(path);
          const fifo = kind.name.startsWith('a FIFO') ? readFifo(output, path('read')) : undefined;
          const error = await runLibrary(w, path, output, kind.unprivileged === true);
          const what = `${w.name} into ${kind.name}`;
          if (kind.refused === 'never') {
            assert.equal(error, undefined, `${what}: ${error?.message}`);
            kind.check(path, await checkWritten(w, read(kind.written?.(path) ?? output), what));
          } else {
            assert.notEqual(error, undefined, `${what}: refused`);
            assert.match(error!.message, kind.error!.library instanceof RegExp ? kind.error!.library : new RegExp(kind.error!.library), what);
            if (typeof kind.error!.library !== 'string' && kind.refused === 'library') assert.equal(error!.name, 'TypeError', what);
            kind.check(path, undefined);
            if (fifo !== undefined) assert.equal((await fifo.release()).length, 0, `${what}: its reader got nothing`);
          }
          noTemporary(path, what);
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
        const skip = (kind.root && NO_ROOT) || (kind.unprivileged && NO_UNPRIVILEGED) || false;
        it(`${how}, into ${kind.name}`, { skip }, async (t) => {
          // Where Go's age is not run on a kind, fourfold's command still is, and the reason is printed.
          if (kind.notAge) t.diagnostic(`age not run: ${kind.notAge}`);
          for (const [client, program, pre] of [['fourfold age', NODE, [CLI, 'age']] as const, ...(kind.notAge ? [] : clients)]) {
            await inCase(async (path) => {
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
                  const target = kind.written?.(path) ?? output;
                  // age keeps an existing file's mode, setuid and all: only fourfold's is checked for it.
                  if (client === 'age' && kind.name.includes('6755')) await checkWritten({ name: client, encrypting }, read(target), what);
                  else kind.check(path, await checkWritten({ name: client, encrypting }, read(target), what));
                }
                if (kind.refused === 'library') kind.check(path, undefined);
              }
              noTemporary(path, what);
            });
          }
        });
      }
    }
  }
});
