/**
 * `fourfold age` driving age plugins (C2SP age-plugin) from the PATH:
 * age 1.3's real ones (age-plugin-pq's plugin identities, age-plugin-tagtest
 * with -j), and a plugin written for these tests from the spec
 * (age-plugin-fourfoldtest.mjs), which the Go age drives too, so that files
 * go both ways through either client. Then what a plugin may do: ask for
 * a PIN and a confirmation at the terminal, send commands the client does
 * not know, send labels that forbid a mix, leave a process of its own
 * holding its pipes (done with once the plugin exits), and every fault:
 * it exits, sends what is no stanza, an error, a stanza for another file,
 * none, two file keys, a file key of the wrong length, more than the
 * bound, or stays after its session. Each fault is an error naming the
 * plugin, exit code 1, and no file written. -j names a plugin in any case.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bech32 } from '@scure/base';
import { rand } from '../helpers.js';
import { AGE, CAN_PTY, CLI, IS_NODE, NODE, NO_CLIENTS, ok, onPath, PLUGIN_PATH, RAGE, type RunOptions, runIn, skipUnless } from './age-clients.js';

const TEST_PLUGIN = fileURLToPath(new URL('./age-plugin-fourfoldtest.mjs', import.meta.url));
const NO_PQ = skipUnless(onPath('age-plugin-pq'), 'age-plugin-pq (go install filippo.io/age/extra/age-plugin-pq@v1.3.2)');

let dir = '';
const path = (name: string) => join(dir, name);
/** Runs with the test plugins' folder first in the PATH. */
const run = (command: string, args: string[], options: RunOptions = {}) =>
  runIn(dir, command, args, { ...options, env: { PATH: `${path('bin')}:${PLUGIN_PATH}`, ...options.env } });
const fourfold = (args: string[], options?: RunOptions) => run(NODE, [CLI, 'age', ...args], options);
/** Go's age: the reference client, driving the same plugins. */
const goAge = (args: string[], options?: RunOptions) => run(AGE!, args, options);

/** A key pair of the test plugin `name`: 16 random bytes as its recipient and as its identity (in a file). */
function testKey(name: string): { recipient: string; identity: string; file: string } {
  const words = bech32.toWords(rand(16));
  const recipient = bech32.encode(`age1${name}`, words, false);
  const identity = bech32.encode(`AGE-PLUGIN-${name.toUpperCase()}-`, words, false).toUpperCase();
  const file = path(`${name}-${recipient.slice(-8)}.txt`);
  writeFileSync(file, `# a test plugin's identity\n${identity}\n`);
  return { recipient, identity, file };
}

/** Puts the test plugin in the PATH as age-plugin-`name`, sending `labels`. */
function installTestPlugin(name: string, labels = ''): void {
  const wrapper = path(`bin/age-plugin-${name}`);
  const env = labels === '' ? '' : `FOURFOLD_TEST_LABELS='${labels}' `;
  writeFileSync(wrapper, `#!/bin/sh\n${env}exec '${process.execPath}' '${TEST_PLUGIN}' "$@"\n`);
  chmodSync(wrapper, 0o755);
}

/** Kills the process whose id is in `pidFile`, a test plugin's left one, where it runs still. */
function killLeft(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  } catch {
    // Gone already: the test that left it says so.
  }
}

/** A run that must fail: exit 1, `message` on standard error, and no file at `output`. */
function refused(r: ReturnType<typeof run>, message: RegExp, output: string, what: string): void {
  assert.equal(r.status, 1, `${what}: exit 1 (stderr: ${r.stderr.toString()})`);
  assert.match(r.stderr.toString(), message, what);
  assert.match(r.stderr.toString(), /^fourfold age: error: /m, what);
  assert.ok(!existsSync(output), `${what}: no file written`);
}

describe('fourfold age with age plugins', { skip: !IS_NODE && 'not applicable: starts processes with Node' }, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'fourfold-plugins-'));
    mkdirSync(path('bin'));
    installTestPlugin('fourfoldtest');
    installTestPlugin('fourfoldother', 'other');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the test plugin: fourfold age and age each decrypt what each encrypts, to recipients (-r, -R) and identities (-e -i), several in one file', {
    skip: NO_CLIENTS,
  }, () => {
    const [one, two] = [testKey('fourfoldtest'), testKey('fourfoldtest')];
    writeFileSync(path('recipients.txt'), `${two.recipient}\n`);
    const clients = [
      { name: 'fourfold age', run: fourfold },
      { name: 'age', run: goAge },
    ];
    for (const size of [0, 1, 65536, 65537]) {
      const data = rand(size);
      writeFileSync(path('plain'), data);
      for (const to of [
        ['-r', one.recipient],
        ['-e', '-i', one.file],
        ['-r', one.recipient, '-R', path('recipients.txt')],
      ]) {
        for (const from of clients) {
          rmSync(path('p.age'), { force: true });
          ok(from.run([...to, '-o', path('p.age'), path('plain')]), `${from.name} ${to.join(' ')}: ${size}`);
          for (const reader of clients) {
            for (const key of to.includes('-R') ? [one, two] : [one]) {
              const out = ok(reader.run(['-d', '-i', key.file, path('p.age')]), `${reader.name} decrypts ${from.name}'s`);
              assert.ok(out.equals(data), `${from.name} -> ${reader.name}, ${to[0]}, ${size} bytes`);
            }
          }
        }
      }
    }
    // Another identity of the plugin matches no stanza: the plugin sends no file key, and the error is age's.
    const other = testKey('fourfoldtest');
    const miss = fourfold(['-d', '-i', other.file, '-o', path('miss.out'), path('p.age')]);
    refused(miss, /no identity matched any of the recipients/, path('miss.out'), 'another identity');
  });

  it('age-plugin-pq: its plugin identities (age-plugin-pq -identity) encrypt (-e -i) and decrypt in fourfold age, age and rage; its label keeps classic keys out', {
    skip: NO_CLIENTS || NO_PQ,
  }, () => {
    ok(run(NODE, [CLI, 'age-keygen', '-pq', '-o', path('pq.txt')]), 'age-keygen -pq');
    ok(run('age-plugin-pq', ['-identity', '-o', path('pq-plugin.txt'), path('pq.txt')]), 'age-plugin-pq -identity');
    assert.match(readFileSync(path('pq-plugin.txt'), 'utf8'), /^AGE-PLUGIN-PQ-1[0-9A-Z]+\n$/);
    const recipient = ok(run(NODE, [CLI, 'age-keygen', '-y', path('pq.txt')]), 'age-keygen -y')
      .toString()
      .trim();
    const data = rand(70_000);
    writeFileSync(path('plain'), data);
    const encryptors: [string, string[]][] = [
      ['fourfold age', [NODE, CLI, 'age', '-e', '-i', path('pq-plugin.txt')]],
      ['fourfold age', [NODE, CLI, 'age', '-r', recipient]],
      ['age', [AGE!, '-e', '-i', path('pq-plugin.txt')]],
    ];
    const decryptors: [string, string[]][] = [
      ['fourfold age', [NODE, CLI, 'age', '-d', '-i', path('pq-plugin.txt')]],
      ['fourfold age, native', [NODE, CLI, 'age', '-d', '-i', path('pq.txt')]],
      ['age', [AGE!, '-d', '-i', path('pq-plugin.txt')]],
      ['rage', [RAGE!, '-d', '-i', path('pq-plugin.txt')]],
    ];
    for (const [from, [command, ...args]] of encryptors) {
      ok(run(command!, [...args, '-o', path('pq.age'), path('plain')]), `${from} encrypts`);
      assert.match(readFileSync(path('pq.age')).subarray(0, 40).toString('latin1'), /^age-encryption\.org\/v1\n-> mlkem768x25519 /);
      for (const [to, [reader, ...readArgs]] of decryptors) {
        assert.ok(ok(run(reader!, [...readArgs, path('pq.age')]), `${to} decrypts ${from}'s`).equals(data), `${from} -> ${to}`);
      }
    }
    ok(run(NODE, [CLI, 'age-keygen', '-o', path('classic.txt')]), 'age-keygen');
    for (const order of [
      ['-i', path('classic.txt'), '-i', path('pq-plugin.txt')],
      ['-i', path('pq-plugin.txt'), '-i', path('classic.txt')],
    ]) {
      for (const [name, client] of [
        ['fourfold age', fourfold],
        ['age', goAge],
      ] as const) {
        const r = client(['-e', ...order, '-o', path('mixed.age'), path('plain')]);
        assert.equal(r.status, 1, `${name} refuses the mix`);
        assert.match(r.stderr.toString(), /error: incompatible recipients: can't mix post-quantum and classic recipients/, name);
        assert.ok(!existsSync(path('mixed.age')), `${name} writes no file`);
      }
    }
  });

  it('labels: a post-quantum plugin beside a classic key, or two plugins whose labels differ, are refused as age refuses them; equal labels mix', () => {
    const key = testKey('fourfoldtest');
    const otherKey = testKey('fourfoldother');
    ok(run(NODE, [CLI, 'age-keygen', '-o', path('x25519.txt')]), 'age-keygen');
    const x25519 = ok(run(NODE, [CLI, 'age-keygen', '-y', path('x25519.txt')]), 'age-keygen -y')
      .toString()
      .trim();
    writeFileSync(path('plain'), 'labelled\n');
    const pq = { env: { FOURFOLD_TEST_LABELS: 'postquantum' } };
    for (const to of [
      ['-r', x25519, '-r', key.recipient],
      ['-r', key.recipient, '-r', x25519],
    ]) {
      refused(
        fourfold([...to, '-o', path('l.age'), path('plain')], pq),
        /incompatible recipients: can't mix post-quantum and classic recipients/,
        path('l.age'),
        to[1]!,
      );
    }
    refused(
      fourfold(['-r', key.recipient, '-r', otherKey.recipient, '-o', path('l.age'), path('plain')]),
      /incompatible recipients: \[\] and \["other"\] can't be mixed/,
      path('l.age'),
      'two plugins, two labels',
    );
    ok(fourfold(['-r', key.recipient, '-r', x25519, '-o', path('l.age'), path('plain')]), 'no labels mix with a classic key');
    for (const id of [key.file, path('x25519.txt')]) assert.equal(ok(fourfold(['-d', '-i', id, path('l.age')]), 'decrypts').toString(), 'labelled\n');
    rmSync(path('l.age'));
    ok(fourfold(['-r', key.recipient, '-r', key.recipient, '-o', path('l.age'), path('plain')], pq), 'equal labels mix');
  });

  it('a plugin that asks: its message shown, a PIN typed at the terminal, a confirmation; without a terminal it is told "fail", and nothing is written', {
    skip: !CAN_PTY && 'not applicable: no script(1) to drive a terminal',
  }, () => {
    const key = testKey('fourfoldtest');
    const data = rand(1000);
    writeFileSync(path('plain'), data);
    const ask = { FOURFOLD_TEST_PLUGIN: 'ask' };
    const command = [NODE, CLI, 'age', '-r', key.recipient, '-o', path('asked.age'), path('plain')].join(' ');
    // The PIN, then enter for the only choice.
    const typed = run('script', ['-qec', command, '/dev/null'], { input: '1234\n\n', env: ask });
    ok(typed, 'encrypts once the PIN is typed');
    assert.match(typed.stdout.toString(), /fourfold age: fourfoldtest plugin: touch the key/);
    assert.match(typed.stdout.toString(), /PIN for the test key:/);
    assert.match(typed.stdout.toString(), /Really use the test key\? \(press enter for "go on"\)/);
    const decrypt = [NODE, CLI, 'age', '-d', '-i', key.file, '-o', path('asked.out'), path('asked.age')].join(' ');
    ok(run('script', ['-qec', decrypt, '/dev/null'], { input: '1234\n\n', env: ask }), 'decrypts once the PIN is typed');
    assert.ok(readFileSync(path('asked.out')).equals(data));
    const wrong = run('script', ['-qec', decrypt.replace('asked.out', 'wrong.out'), '/dev/null'], { input: '4321\n\n', env: ask });
    assert.equal(wrong.status, 1, 'a wrong PIN');
    assert.match(wrong.stdout.toString(), /fourfoldtest plugin: no PIN \(ok\)/);
    assert.ok(!existsSync(path('wrong.out')));
    const none = fourfold(['-r', key.recipient, '-o', path('none.age'), path('plain')], { env: ask, noTerminal: true });
    refused(
      none,
      /warning: could not read value for age-plugin-fourfoldtest[\s\S]*error: fourfoldtest plugin: no PIN \(fail\)/,
      path('none.age'),
      'no terminal',
    );
  });

  it('a plugin that sends commands the client does not know is answered "unsupported" and goes on; one that stays after its session is ended', () => {
    const key = testKey('fourfoldtest');
    const data = rand(5000);
    writeFileSync(path('plain'), data);
    const unknown = { env: { FOURFOLD_TEST_PLUGIN: 'unknown' } };
    ok(fourfold(['-r', key.recipient, '-o', path('m.age'), path('plain')], unknown), 'unknown commands: encrypts');
    assert.ok(ok(fourfold(['-d', '-i', key.file, path('m.age')], unknown), 'unknown commands: decrypts').equals(data));
    // Ended as age ends it (SIGINT), then killed once it has had its time: the command finishes, its file whole.
    rmSync(path('m.age'));
    ok(fourfold(['-r', key.recipient, '-o', path('m.age'), path('plain')], { env: { FOURFOLD_TEST_PLUGIN: 'linger' } }), 'a lingering plugin: encrypts');
    assert.ok(ok(fourfold(['-d', '-i', key.file, path('m.age')]), 'decrypts').equals(data));
  });

  it('a plugin that leaves a process holding its pipes is done with once it exits, as age is: the command ends, that process still running', () => {
    const key = testKey('fourfoldtest');
    writeFileSync(path('plain'), 'kept\n');
    const pidFile = path('daemon.pid');
    /** Runs the command with the plugin in `mode`, and checks that the process the plugin left runs still once it is done; then kills it. */
    const leaving = (mode: string, args: string[]) => {
      rmSync(pidFile, { force: true });
      try {
        const r = fourfold(args, { env: { FOURFOLD_TEST_PLUGIN: mode, FOURFOLD_TEST_DAEMON_PID: pidFile } });
        const pid = Number(readFileSync(pidFile, 'utf8'));
        assert.doesNotThrow(() => process.kill(pid, 0), `${mode}, ${args[0]}: the process the plugin left still runs`);
        return r;
      } finally {
        killLeft(pidFile);
      }
    };
    // Holding standard input, output and error: the session went well.
    ok(leaving('daemon', ['-r', key.recipient, '-o', path('d.age'), path('plain')]), 'daemon, encrypting');
    ok(leaving('daemon', ['-d', '-i', key.file, '-o', path('d.out'), path('d.age')]), 'daemon, decrypting');
    assert.equal(readFileSync(path('d.out'), 'utf8'), 'kept\n');
    // Holding standard error alone, after which the plugin fails: what it said is read until that pipe ends or for 5 s at most.
    refused(
      leaving('daemon-exit', ['-d', '-i', key.file, '-o', path('e.out'), path('d.age')]),
      /fourfoldtest plugin: exited with status 3 before finishing the protocol\n.*hint: age-plugin-fourfoldtest said: the key was unplugged/,
      path('e.out'),
      'daemon-exit',
    );
  });

  it('-j NAME in any case runs age-plugin-NAME in lower case, as age does (plugin.NewIdentityWithoutData), batchpass too', () => {
    writeFileSync(path('plain'), 'named\n');
    ok(fourfold(['-e', '-j', 'FourfoldTest', '-o', path('j.age'), path('plain')]), '-e -j FourfoldTest');
    const readers = AGE === undefined ? [fourfold] : [fourfold, goAge];
    for (const read of readers) assert.equal(ok(read(['-d', '-j', 'FOURFOLDTEST', path('j.age')]), '-d -j FOURFOLDTEST').toString(), 'named\n');
    const passphrase = { env: { AGE_PASSPHRASE: 'a batch passphrase' } };
    ok(fourfold(['-e', '-j', 'BatchPass', '-o', path('b.age'), path('plain')], passphrase), '-e -j BatchPass');
    assert.equal(ok(fourfold(['-d', '-j', 'BATCHPASS', path('b.age')], passphrase), '-d -j BATCHPASS').toString(), 'named\n');
    refused(
      fourfold(['-e', '-j', 'NoSuchPlugin', '-o', path('n.age'), path('plain')]),
      /"nosuchplugin" plugin not found: there is no age-plugin-nosuchplugin in PATH/,
      path('n.age'),
      'a plugin not installed, named in capitals',
    );
  });

  it('faults: a plugin that exits, breaks the protocol, reports an error or sends too much is an error naming it, exit 1, and nothing written', () => {
    const key = testKey('fourfoldtest');
    writeFileSync(path('plain'), rand(3000));
    ok(fourfold(['-r', key.recipient, '-o', path('good.age'), path('plain')]), 'a file for the faults to decrypt');
    const faults: [string, RegExp, 'both' | 'encrypt' | 'decrypt'][] = [
      ['exit', /fourfoldtest plugin: exited with status 3 before finishing the protocol\n.*hint: age-plugin-fourfoldtest said: the key was unplugged/, 'both'],
      ['malformed', /fourfoldtest plugin: sent a malformed stanza: /, 'both'],
      ['error', /error: fourfoldtest plugin: the key is locked$/m, 'both'],
      ['flood', /fourfoldtest plugin: sent more than 4194304 bytes/, 'both'],
      ['index', /fourfoldtest plugin: sent a malformed recipient stanza: unexpected index/, 'encrypt'],
      ['none', /fourfoldtest plugin: received zero recipient stanzas/, 'encrypt'],
      ['twice', /fourfoldtest plugin: sent a duplicated file-key stanza/, 'decrypt'],
      // age takes it and then fails on the header's MAC, blaming the file.
      ['short', /fourfoldtest plugin: sent a file key of 15 bytes \(16 expected\)/, 'decrypt'],
    ];
    for (const [mode, message, when] of faults) {
      const env = { env: { FOURFOLD_TEST_PLUGIN: mode } };
      if (when !== 'decrypt') refused(fourfold(['-r', key.recipient, '-o', path('f.age'), path('plain')], env), message, path('f.age'), `${mode}, encrypting`);
      if (when !== 'encrypt')
        refused(fourfold(['-d', '-i', key.file, '-o', path('f.out'), path('good.age')], env), message, path('f.out'), `${mode}, decrypting`);
    }
    // The same through standard output: nothing of the plaintext reaches it.
    const piped = fourfold(['-d', '-i', key.file, path('good.age')], { env: { FOURFOLD_TEST_PLUGIN: 'exit' } });
    assert.equal(piped.status, 1);
    assert.equal(piped.stdout.length, 0);
  });

  it('malformed plugin keys and names are refused before any plugin runs, saying which; age-keygen -y says a plugin gives its recipient', () => {
    const key = testKey('fourfoldtest');
    const y = run(NODE, [CLI, 'age-keygen', '-y', key.file]);
    assert.equal(y.status, 1);
    assert.match(y.stderr.toString(), /line 2 is a plugin's identity \(AGE-PLUGIN-\.\.\.\): its recipient is the plugin's to give/);
    writeFileSync(path('plain'), 'x');
    const badSum = `${key.recipient.slice(0, -1)}${key.recipient.endsWith('q') ? 'p' : 'q'}`;
    refused(
      fourfold(['-r', badSum, '-o', path('k.age'), path('plain')]),
      /is a malformed recipient of the plugin age-plugin-fourfoldtest: its checksum does not verify/,
      path('k.age'),
      'checksum',
    );
    writeFileSync(path('bad-id.txt'), `${key.identity.slice(0, -1)}${key.identity.endsWith('Q') ? 'P' : 'Q'}\n`);
    refused(
      fourfold(['-d', '-i', path('bad-id.txt'), '-o', path('k.out'), path('plain')]),
      /line 1 is a malformed identity of the plugin age-plugin-fourfoldtest: its checksum does not verify/,
      path('k.out'),
      'identity checksum',
    );
    refused(fourfold(['-e', '-j', 'a/b', '-o', path('k.age'), path('plain')]), /-j "a\/b": invalid plugin name/, path('k.age'), 'a path as a name');
    refused(
      fourfold(['-r', bech32.encode('age1nosuchplugin', bech32.toWords(rand(8)), false), '-o', path('k.age'), path('plain')]),
      /"nosuchplugin" plugin not found: there is no age-plugin-nosuchplugin in PATH\n.*hint: you might want to install the "nosuchplugin" plugin/,
      path('k.age'),
      'a plugin not installed',
    );
  });
});
