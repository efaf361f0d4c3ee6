/**
 * `fourfold age`'s command line as age has it: modes, exit codes, the
 * errors and hints of its mode checks, passphrases in a script without a
 * terminal, decryption failures that say what is wrong, output to a file
 * (-o) created only once it verified, and SIGINT or SIGTERM mid-file
 * leaving no temporary file and the output as it was. Node only: it
 * starts processes; the tests that run age or rage are skipped without
 * them, saying so, except on CI (CI=true).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { rand } from '../helpers.js';
import { CLI, NODE, ok } from './age-clients.js';
import { againstAgeAndRage, dir, fourfold, keygen, newKey, path } from './age-folder.js';

againstAgeAndRage(() => {
  it("the command line as age's: modes, exit codes, errors and hints", () => {
    ok(keygen(['-o', path('cmd-key.txt')]), 'keygen');
    // The input `plain` the cases below name: it is opened before a plugin is looked for.
    writeFileSync(path('plain'), 'plain\n');
    const usage = fourfold([]);
    assert.equal(usage.status, 1, 'no arguments: usage, exit 1');
    assert.match(usage.stderr.toString(), /^Usage:/);
    assert.equal(fourfold(['--nope']).status, 2, 'an unknown flag: exit 2');
    const cases: [string[], RegExp][] = [
      [['-d', '-a', 'x'], /-a\/--armor can't be used with -d\/--decrypt[\s\S]*hint: note that armored files are detected automatically/],
      [['-d', '-p'], /-p\/--passphrase can't be used with -d\/--decrypt/],
      [['-d', '-r', 'age1x'], /-r\/--recipient can't be used with -d\/--decrypt[\s\S]*hint: did you mean to use -i\/--identity/],
      [['-i', path('cmd-key.txt'), 'x'], /can't be used in encryption mode[\s\S]*hint: did you forget to specify -d\/--decrypt\?/],
      [['-o', path('x.age'), 'plain'], /missing recipients/],
      [['-p', '-r', 'age1x'], /-p\/--passphrase can't be combined with -r\/--recipient/],
      [['-r', 'age1notarecipient', 'plain'], /-r "age1notareci…" is a malformed X25519 recipient/],
      [
        ['-r', 'ssh-ed25519 AAAA', 'plain'],
        /-r "ssh-ed25519 …", an SSH public key, is cut short[\s\S]*hint: use an ssh-ed25519 or ssh-rsa key, or an age key pair/,
      ],
      [['-r', 'ecdsa-sha2-nistp256 AAAA', 'plain'], /is an SSH public key of type ecdsa-sha2-nistp256: age uses ssh-ed25519 and ssh-rsa keys only/],
      [
        ['-j', 'yubikey', '-e', 'plain'],
        /"yubikey" plugin not found: there is no age-plugin-yubikey in PATH[\s\S]*hint: you might want to install the "yubikey" plugin/,
      ],
      [['-j', '../yubikey', '-d', 'plain'], /-j "\.\.\/yubikey": invalid plugin name/],
      [['-d', '-i', path('cmd-key.txt'), path('nothing-here.age')], /failed to open input file/],
      [['-d', '-i', path('cmd-key.txt'), 'a', 'b'], /too many INPUT arguments/],
    ];
    for (const [args, message] of cases) {
      const r = fourfold(args);
      assert.equal(r.status, 1, `${args.join(' ')}: exit 1`);
      assert.match(r.stderr.toString(), message, args.join(' '));
      assert.match(r.stderr.toString(), /^fourfold age: error: /m);
    }
  });

  it('passphrases in a script: without a terminal, and where -p or -j batchpass is refused, the hint is the command that works', () => {
    writeFileSync(path('plain'), 'a secret\n');
    const ENCRYPT = 'AGE_PASSPHRASE=... fourfold age -e -j batchpass [-o OUTPUT] [INPUT]';
    const DECRYPT = 'AGE_PASSPHRASE=... fourfold age -d -j batchpass [-o OUTPUT] [INPUT]';
    const env = { AGE_PASSPHRASE: 'in the environment', AGE_PASSPHRASE_WORK_FACTOR: '10' };
    ok(fourfold(['-e', '-j', 'batchpass', '-o', path('env.age'), path('plain')], { env }), 'fourfold age -e -j batchpass');
    const cases: [string, string[], Record<string, string>, RegExp][] = [
      ['-p, no terminal', ['-p', path('plain')], {}, /error: could not read passphrase: standard input is not a terminal/],
      ['a passphrase file, no terminal', ['-d', path('env.age')], {}, /error: could not read passphrase: standard input is not a terminal/],
      ['-p -j batchpass', ['-p', '-j', 'batchpass', path('plain')], env, /can't be used in encryption mode unless/],
      ['-e -p -j batchpass', ['-e', '-p', '-j', 'batchpass', path('plain')], env, /-p\/--passphrase can't be combined with -i\/--identity and -j/],
      ['-j batchpass without -e', ['-j', 'batchpass', path('plain')], env, /can't be used in encryption mode unless/],
      ['-e -j batchpass, no variable', ['-e', '-j', 'batchpass', path('plain')], {}, /either AGE_PASSPHRASE or AGE_PASSPHRASE_FD must be set/],
      ['-d -j batchpass, no variable', ['-d', '-j', 'batchpass', path('env.age')], {}, /either AGE_PASSPHRASE or AGE_PASSPHRASE_FD must be set/],
    ];
    for (const [what, args, vars, message] of cases) {
      const unset = { AGE_PASSPHRASE: '', AGE_PASSPHRASE_FD: '' };
      const r = fourfold(['-o', path('never'), ...args], { env: { ...unset, ...vars }, noTerminal: true });
      const stderr = r.stderr.toString();
      assert.equal(r.status, 1, `${what}: ${stderr}`);
      assert.match(stderr, message, what);
      const command = args.includes('-d') ? DECRYPT : ENCRYPT;
      assert.ok(stderr.includes(`fourfold age: hint: `) && stderr.includes(command), `${what}: the hint names ${command}: ${stderr}`);
      assert.ok(!existsSync(path('never')), `${what}: no output`);
    }
    const both = fourfold(['-d', '-j', 'batchpass', path('env.age')], { env: { AGE_PASSPHRASE: 'x', AGE_PASSPHRASE_FD: '0' } });
    assert.equal(both.status, 1, 'AGE_PASSPHRASE and AGE_PASSPHRASE_FD both set, as age-plugin-batchpass refuses');
    assert.match(both.stderr.toString(), /mutually exclusive/);
    const fromFd = fourfold(['-d', '-j', 'batchpass', path('env.age')], { env: { AGE_PASSPHRASE: '', AGE_PASSPHRASE_FD: '0' }, input: 'in the environment\n' });
    assert.equal(ok(fromFd, 'AGE_PASSPHRASE_FD=0').toString(), 'a secret\n');
    const usage = fourfold(['--help']).stdout.toString();
    assert.ok(usage.includes(ENCRYPT) && usage.includes(DECRYPT), 'the usage gives both commands');
  });

  it('decryption failures exit 1 saying what is wrong, and leave no output file', () => {
    ok(keygen(['-o', path('f-key.txt')]), 'keygen');
    const recipient = ok(keygen(['-y', path('f-key.txt')]), 'keygen -y')
      .toString()
      .trim();
    const data = rand(200_000);
    writeFileSync(path('plain'), data);
    ok(fourfold(['-r', recipient, '-o', path('f.age'), path('plain')]), 'encrypt');
    const file = readFileSync(path('f.age'));
    const cases: [string, Uint8Array, RegExp][] = [
      ['cut short', file.subarray(0, file.length - 70_000), /cut short|does not verify/],
      ['changed in the header', Buffer.concat([file.subarray(0, 40), Buffer.from([file[40]! ^ 1]), file.subarray(41)]), /.+/],
      ['not an age file', Buffer.from('hello\n'), /not an age file/],
    ];
    for (const [what, bytes, message] of cases) {
      writeFileSync(path('bad.age'), bytes);
      rmSync(path('bad.out'), { force: true });
      const r = fourfold(['-d', '-i', path('f-key.txt'), '-o', path('bad.out'), path('bad.age')]);
      assert.equal(r.status, 1, what);
      assert.match(r.stderr.toString(), message, what);
      assert.ok(!existsSync(path('bad.out')), `${what}: no output file`);
    }
    const other = keygen(['-o', path('other.txt')]);
    ok(other, 'keygen');
    const r = fourfold(['-d', '-i', path('other.txt'), path('f.age')]);
    assert.equal(r.status, 1);
    // age's words (age -d with another key: "age: error: no identity matched any of the recipients"), once.
    assert.match(r.stderr.toString(), /^fourfold age: error: no identity matched any of the recipients\n/);
    assert.doesNotMatch(r.stderr.toString(), /no identity match.*no identity match/s);
  });

  it('-o: a decryption that fails leaves no file, no temporary, and an existing file as it was; standard output streams what verified', () => {
    const { key, recipient } = newKey('o-key.txt');
    const data = rand(300_000);
    writeFileSync(path('plain'), data);
    ok(fourfold(['-r', recipient, '-o', path('o.age'), path('plain')]), 'encrypt');
    const file = readFileSync(path('o.age'));
    const changed = Buffer.from(file);
    changed[file.length - 100_000]! ^= 1;
    const outDir = mkdtempSync(join(dir, 'out-'));
    const target = join(outDir, 'plain.out');
    for (const [what, bytes] of [
      ['cut short', file.subarray(0, file.length - 70_000)],
      ['changed in a middle chunk', changed],
    ] as const) {
      writeFileSync(path('bad.age'), bytes);
      const streamed = fourfold(['-d', '-i', key, path('bad.age')]);
      assert.equal(streamed.status, 1, what);
      assert.ok(
        streamed.stdout.length >= 65536 && streamed.stdout.equals(data.subarray(0, streamed.stdout.length)),
        `${what}: to standard output, the chunks that verified`,
      );
      for (const existing of [undefined, 'the file that was there\n']) {
        rmSync(target, { force: true });
        if (existing !== undefined) writeFileSync(target, existing);
        const r = fourfold(['-d', '-i', key, '-o', target, path('bad.age')]);
        assert.equal(r.status, 1, what);
        assert.deepEqual(readdirSync(outDir), existing === undefined ? [] : ['plain.out'], `${what}: no file but what was there`);
        if (existing !== undefined) assert.equal(readFileSync(target, 'utf8'), existing, `${what}: the file that was there, unchanged`);
      }
    }
    // Success: a new file gets the mode any new file gets (0666 less the umask), an existing one keeps its own.
    rmSync(target);
    ok(fourfold(['-d', '-i', key, '-o', target, path('o.age')]), 'decrypt to a new file');
    assert.ok(readFileSync(target).equals(data));
    assert.deepEqual(readdirSync(outDir), ['plain.out']);
    writeFileSync(path('fresh'), '');
    assert.equal(statSync(target).mode & 0o777, statSync(path('fresh')).mode & 0o777, 'a new file: mode 0666 less the umask');
    writeFileSync(target, 'older');
    chmodSync(target, 0o640);
    ok(fourfold(['-d', '-i', key, '-o', target, path('o.age')]), 'decrypt over a file');
    assert.ok(readFileSync(target).equals(data));
    assert.equal(statSync(target).mode & 0o777, 0o640, 'an existing file keeps its mode');
    // A link: the file it points to is replaced, the link kept; a device is written in place.
    symlinkSync(target, join(outDir, 'link'));
    symlinkSync('/dev/null', join(outDir, 'null'));
    writeFileSync(target, 'older');
    ok(fourfold(['-d', '-i', key, '-o', join(outDir, 'link'), path('o.age')]), 'decrypt through a link');
    assert.ok(lstatSync(join(outDir, 'link')).isSymbolicLink() && readFileSync(target).equals(data), 'through a link');
    ok(fourfold(['-d', '-i', key, '-o', join(outDir, 'null'), path('o.age')]), 'decrypt to /dev/null');
    assert.ok(lstatSync(join(outDir, 'null')).isSymbolicLink(), 'a device is written, not replaced');
    assert.deepEqual(readdirSync(outDir).sort(), ['link', 'null', 'plain.out']);
  });

  it('-o: a command that SIGINT or SIGTERM ends removes its temporary file and dies by the signal', { timeout: 120_000 }, async () => {
    const { key, recipient } = newKey('s-key.txt');
    const data = rand(8 << 20);
    writeFileSync(path('s-plain'), data);
    ok(fourfold(['-r', recipient, '-o', path('s.age'), path('s-plain')]), 'encrypt');
    const encrypted = readFileSync(path('s.age'));
    for (const [mode, input] of [
      [['-r', recipient], data],
      [['-d', '-i', key], encrypted],
    ] as const) {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const outDir = mkdtempSync(join(dir, 'signal-'));
        const child = spawn(NODE, [CLI, 'age', ...mode, '-o', join(outDir, 'out')], { stdio: ['pipe', 'ignore', 'pipe'] });
        const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, by) => resolve(by)));
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d));
        // Half the input, the pipe left open: the command writes its temporary file, then waits for more.
        // What it has not read when it dies is refused (EPIPE), as expected.
        child.stdin.on('error', () => {});
        child.stdin.write(input.subarray(0, input.length >> 1));
        try {
          await until(() => readdirSync(outDir).length > 0, `${mode[0]}: a temporary file`);
        } catch (e) {
          // A command that never made its file must not outlive the test (its open pipe would hold the run).
          child.kill('SIGKILL');
          await ended;
          throw new Error(`${(e as Error).message}; the command wrote to standard error: ${stderr || 'nothing'}`);
        }
        child.kill(signal);
        assert.equal(await endedWithin(child, ended), signal, `${mode[0]} ${signal}: ended by the signal`);
        assert.deepEqual(readdirSync(outDir), [], `${mode[0]} ${signal}: nothing left`);
      }
    }
  });

  it('file to file (the file calls, workers writing at offsets): SIGINT or SIGTERM mid-file removes the temporary file; the output is as it was', {
    timeout: 120_000,
  }, async () => {
    const { key, recipient } = newKey('sf-key.txt');
    // Large enough that the command is still at work well after its temporary file appears (128 MiB: a tenth of a second or more).
    const block = rand(1 << 20);
    const plain = path('sf-plain');
    writeFileSync(plain, block);
    for (let i = 1; i < 128; i++) appendFileSync(plain, block);
    ok(fourfold(['-r', recipient, '-o', path('sf.age'), plain]), 'encrypt');
    for (const [mode, input] of [
      [['-r', recipient], plain],
      [['-d', '-i', key], path('sf.age')],
    ] as const) {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const outDir = mkdtempSync(join(dir, 'signal-file-'));
        writeFileSync(join(outDir, 'out'), 'the file that was there\n');
        const child = spawn(NODE, [CLI, 'age', ...mode, '-o', join(outDir, 'out'), input], { stdio: ['ignore', 'ignore', 'pipe'] });
        const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, by) => resolve(by)));
        try {
          await until(() => readdirSync(outDir).length > 1, `${mode[0]}: a temporary file`);
        } catch (e) {
          child.kill('SIGKILL');
          await ended;
          throw e;
        }
        child.kill(signal);
        assert.equal(await endedWithin(child, ended), signal, `${mode[0]} ${signal}: ended by the signal`);
        assert.deepEqual(readdirSync(outDir), ['out'], `${mode[0]} ${signal}: nothing left but the file that was there`);
        assert.equal(readFileSync(join(outDir, 'out'), 'utf8'), 'the file that was there\n', `${mode[0]} ${signal}: the file unchanged`);
      }
    }
    rmSync(plain);
    rmSync(path('sf.age'));
  });
});

/**
 * How a command sent a signal ended: `ended` once it did, or, when 30 s
 * pass first, a failure, the command killed so that it cannot hold the run.
 */
async function endedWithin(child: ChildProcess, ended: Promise<NodeJS.Signals | null>): Promise<NodeJS.Signals | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 30_000)));
  const first = await Promise.race([ended, late]);
  clearTimeout(timer);
  if (first !== 'late') return first;
  child.kill('SIGKILL');
  await ended;
  throw new Error('the command was still running 30 s after the signal');
}

/** Resolves once `condition` holds; rejects, naming `what`, when it has not after 60 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited 60 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
