/**
 * The class test of outputs (outputs-files, outputs-handles and
 * outputs-command.test.ts), its kinds and writers: every kind of output a file call may be
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
import assert from 'node:assert/strict';
import { assertBytes, rand } from '../helpers.js';
import { fs, read } from './file-fixture.js';

type ChildProcess = typeof import('node:child_process');
const builtin = (name: string) => (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.(name);
export const child = builtin('node:child_process') as ChildProcess | undefined;
export const ROOT = new URL('../..', import.meta.url).pathname;
const ON_CI = /^(?:true|1)$/i.test(globalThis.process?.env?.CI ?? '');
export const IS_ROOT = (globalThis.process as { getuid?: () => number } | undefined)?.getuid?.() === 0;
const HAS = (program: string) => child?.spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
/** A command run without root's capabilities (as a user would, still uid 0): what may be written is what the modes say. */
export const UNPRIVILEGED = IS_ROOT ? ['setpriv', '--bounding-set', '-all', '--inh-caps', '-all', '--ambient-caps', '-all', '--'] : [];
export const NO_UNPRIVILEGED = IS_ROOT && !HAS('setpriv') && !ON_CI ? 'setpriv (util-linux) is not installed; on CI it fails' : false;
export const NO_CHILDREN = child === undefined || !HAS('mkfifo') ? 'not applicable: needs node:child_process and mkfifo(1)' : false;

/** A user this test makes files and links for (no account needed); root may give them away. */
const OTHER = 4242;
export const NO_ROOT = IS_ROOT ? false : "not applicable: making another user's files and links needs root (CI runs as root)";
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
export const PLAIN = rand(5 << 20);
export const OLD = 'what was there';

/** The test folder's names a case may leave: no temporary file is ever among what is left. */
export type Path = (name: string) => string;

/** An output of one kind, made in the test's folder: the path a writer is given, and what to check after. */
export interface Kind {
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
export const modeOf = (p: string) => fs!.statSync(p).mode & 0o7777;

/** The device a test may make and lose: a null device of its own where it may (root), else the system's, which only root could replace. */
export function nullDevice(path: Path): string {
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

export const KINDS: Kind[] = [
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
