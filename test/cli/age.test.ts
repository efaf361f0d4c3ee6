/**
 * `fourfold age` and `fourfold age-keygen` against the reference clients,
 * the Go `age` (go install filippo.io/age/cmd/...@v1.3.2) and the Rust
 * `rage` (cargo install rage --locked), which .ci/run installs: files each
 * encrypts, the others decrypt, both directions, X25519 and passphrases
 * (age-plugin-batchpass's environment variables, and -p typed at a
 * terminal through `script`), binary and armored, at sizes 0, 1, 64 KiB - 1,
 * 64 KiB, 64 KiB + 1, several chunks and 100 MiB; key files made by either
 * tool; and the command line as age has it: exit codes, the errors and
 * hints of its mode checks, files cut short or changed, output to a file
 * created only when it is written; and the library's file calls
 * (encryptFile, decryptFile: paths, handles, armor) read and read by both
 * clients. Node only: it starts processes. Without
 * age and rage every test that runs them is skipped, saying so, except on
 * CI (CI=true), where their absence fails them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
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
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bech32 } from '@scure/base';
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';
import { loadJson, rand } from '../helpers.js';
import { AGE, AGE_KEYGEN, CAN_PTY, CLI, IS_NODE, NO_AGE, NO_CLIENTS, NODE, ok, onPath, RAGE, type RunOptions, runIn, skipUnless } from './age-clients.js';
import { withLeadingZero, withPublicLine } from '../age/ssh-forms.js';

/** age's test plugin for tag recipients: `-j tagtest` decrypts files to its fixed keys (test/vectors/age-tagtest.json). */
const NO_TAGTEST = skipUnless(onPath('age-plugin-tagtest'), 'age-plugin-tagtest (go install filippo.io/age/tag/internal/age-plugin-tagtest@v1.3.2)');

let dir = '';
const path = (name: string) => join(dir, name);
const run = (command: string, args: string[], options?: RunOptions) => runIn(dir, command, args, options);
const fourfold = (args: string[], options?: RunOptions) => run(NODE, [CLI, 'age', ...args], options);
const keygen = (args: string[]) => run(NODE, [CLI, 'age-keygen', ...args]);

/** A new identity file `name` in the test folder: its path and its recipient. */
function newKey(name: string): { key: string; recipient: string } {
  ok(keygen(['-o', path(name)]), 'keygen');
  return {
    key: path(name),
    recipient: ok(keygen(['-y', path(name)]), 'keygen -y')
      .toString()
      .trim(),
  };
}

/** The encryptors and decryptors: each an argument list builder for a mode. */
type Tool = { name: string; command: () => string; args: (mode: string[]) => string[] };
const tools = (): Tool[] => [
  { name: 'fourfold age', command: () => NODE, args: (mode) => [CLI, 'age', ...mode] },
  { name: 'age', command: () => AGE!, args: (mode) => mode },
  { name: 'rage', command: () => RAGE!, args: (mode) => mode },
];

/** rage asks for passphrases at the terminal (age-plugin-batchpass is for the others): typed through script(1), its own prompt rather than pinentry's. */
const typedAtRage = (args: string[], typed: string) =>
  run('script', ['-qec', [RAGE!, ...args].join(' '), '/dev/null'], { input: typed, env: { PINENTRY_PROGRAM: '/nonexistent' } });

/** `input` encrypted to `output` under `passphrase` by `tool`: the environment's passphrase (work factor 10), or typed at rage (its own). */
function encryptWithPassphrase(tool: Tool, passphrase: string, input: string, output: string): void {
  if (tool.name === 'rage') ok(typedAtRage(['-p', '-o', output, input], `${passphrase}\n${passphrase}\n`), 'rage -p');
  else {
    const env = { AGE_PASSPHRASE: passphrase, AGE_PASSPHRASE_WORK_FACTOR: '10' };
    ok(run(tool.command(), tool.args(['-e', '-j', 'batchpass', '-o', output, input]), { env }), `${tool.name} encrypts`);
  }
}

/** `file` decrypted under `passphrase` by `tool`. */
function decryptWithPassphrase(tool: Tool, passphrase: string, file: string): Buffer {
  if (tool.name !== 'rage')
    return ok(run(tool.command(), tool.args(['-d', '-j', 'batchpass', file]), { env: { AGE_PASSPHRASE: passphrase } }), `${tool.name} decrypts`);
  ok(typedAtRage(['-d', '-o', path('rage.out'), file], `${passphrase}\n`), 'rage -d');
  return readFileSync(path('rage.out'));
}

const SIZES = [0, 1, 65535, 65536, 65537, 5 * 65536 + 3];

describe('fourfold age against age and rage', { skip: !IS_NODE && 'not applicable: starts processes with Node' }, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'fourfold-age-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('key files: age-keygen output that each reads; -y gives the same recipient', { skip: NO_CLIENTS }, () => {
    ok(keygen(['-o', path('ours.txt')]), 'fourfold age-keygen -o');
    assert.match(readFileSync(path('ours.txt'), 'utf8'), /^# created: \S+\n# public key: age1[0-9a-z]{58}\nAGE-SECRET-KEY-1[0-9A-Z]{58}\n$/);
    assert.equal(keygen(['-o', path('ours.txt')]).status, 1, 'never over an existing file');
    ok(run(AGE_KEYGEN ?? 'age-keygen', ['-o', path('theirs.txt')]), 'age-keygen -o');
    for (const file of ['ours.txt', 'theirs.txt']) {
      const mine = ok(keygen(['-y', path(file)]), 'fourfold age-keygen -y').toString();
      assert.equal(mine, ok(run(AGE_KEYGEN ?? 'age-keygen', ['-y', path(file)]), 'age-keygen -y').toString(), file);
    }
  });

  it('post-quantum keys with age: age-keygen -pq on each side, -y the same, files both ways, a mix of kinds refused as age refuses it', {
    skip: NO_CLIENTS,
  }, () => {
    ok(keygen(['-pq', '-o', path('pq-ours.txt')]), 'fourfold age-keygen -pq');
    assert.match(readFileSync(path('pq-ours.txt'), 'utf8'), /^# created: \S+\n# public key: age1pq1[0-9a-z]{1952}\nAGE-SECRET-KEY-PQ-1[0-9A-Z]{58}\n$/);
    ok(run(AGE_KEYGEN ?? 'age-keygen', ['-pq', '-o', path('pq-theirs.txt')]), 'age-keygen -pq');
    const keys = ['pq-ours.txt', 'pq-theirs.txt'].map((file) => {
      const recipient = ok(keygen(['-y', path(file)]), 'fourfold age-keygen -y').toString();
      assert.equal(recipient, ok(run(AGE_KEYGEN ?? 'age-keygen', ['-y', path(file)]), 'age-keygen -y').toString(), file);
      return { key: path(file), recipient: recipient.trim() };
    });
    const goAndOurs = tools().slice(0, 2);
    for (const size of [0, 65537]) {
      const data = rand(size);
      writeFileSync(path('plain'), data);
      for (const from of goAndOurs) {
        const to = keys.flatMap((k) => ['-r', k.recipient]);
        ok(run(from.command(), from.args([...to, '-o', path('pq.age'), path('plain')])), `${from.name} encrypts ${size}`);
        for (const reader of goAndOurs) {
          for (const { key } of keys) {
            const out = ok(run(reader.command(), reader.args(['-d', '-i', key, path('pq.age')])), `${reader.name} decrypts ${from.name}'s`);
            assert.ok(out.equals(data), `${from.name} -> ${reader.name}, ${size} bytes`);
          }
        }
      }
    }
    ok(keygen(['-o', path('pq-classic.txt')]), 'keygen');
    const classic = ok(keygen(['-y', path('pq-classic.txt')]), 'keygen -y')
      .toString()
      .trim();
    for (const tool of goAndOurs) {
      const r = run(tool.command(), tool.args(['-r', keys[0]!.recipient, '-r', classic, '-o', path('mixed.age'), path('plain')]));
      assert.equal(r.status, 1, `${tool.name} refuses the mix`);
      assert.match(r.stderr.toString(), /error: incompatible recipients: can't mix post-quantum and classic recipients/, tool.name);
      assert.ok(!existsSync(path('mixed.age')), `${tool.name} writes no file`);
    }
    const both = keygen(['-pq', '-y', path('pq-ours.txt')]);
    assert.equal(both.status, 1);
    assert.match(both.stderr.toString(), /^fourfold age-keygen: error: -pq cannot be used with -y\n/);
  });

  it('SSH keys: each tool encrypts to the .pub (-R) and to the key (-e -i); each that reads the key decrypts, a protected key typed at the terminal', {
    skip: NO_CLIENTS || (!CAN_PTY && 'not applicable: no script(1) to type passphrases'),
  }, () => {
    const { keys, passphrase } = loadJson<{ passphrase: string; keys: Record<string, { privateKey: string; publicKey: string }> }>('vectors/ssh-keys.json');
    // Which client reads which key file: Go age reads OpenSSH keys under aes256-ctr and -cbc only, rage no PKCS#8.
    const readers: Record<string, string[]> = {
      ed25519: ['fourfold age', 'age', 'rage'],
      rsa: ['fourfold age', 'age', 'rage'],
      'rsa-pkcs1': ['fourfold age', 'age', 'rage'],
      'rsa-pkcs8': ['fourfold age', 'age'],
      'ed25519-pkcs8': ['fourfold age', 'age'],
      'ed25519-aes256-ctr': ['fourfold age', 'age', 'rage'],
      'rsa-aes256-ctr': ['fourfold age', 'age', 'rage'],
      'ed25519-aes256-cbc': ['fourfold age', 'age', 'rage'],
      'ed25519-aes256-gcm': ['fourfold age', 'rage'],
    };
    const data = rand(70_000);
    writeFileSync(path('plain'), data);
    for (const [name, names] of Object.entries(readers)) {
      writeFileSync(path(name), keys[name]!.privateKey, { mode: 0o600 });
      writeFileSync(path(`${name}.pub`), `${keys[name]!.publicKey}\n`);
      const typed = name.includes('-aes') ? `${passphrase}\n` : '';
      for (const from of tools()) {
        const how = from.name === 'rage' || !names.includes(from.name) ? ['-R', path(`${name}.pub`)] : ['-e', '-i', path(name)];
        ok(run(from.command(), from.args([...how, '-o', path('ssh.age'), path('plain')])), `${from.name} encrypts to ${name} (${how[0]})`);
        for (const to of tools().filter((t) => names.includes(t.name))) {
          const command = [to.command(), ...to.args(['-d', '-i', path(name), '-o', path('ssh.out'), path('ssh.age')])].join(' ');
          rmSync(path('ssh.out'), { force: true });
          const r =
            typed === ''
              ? run('sh', ['-c', command])
              : run('script', ['-qec', command, '/dev/null'], { input: typed, env: { PINENTRY_PROGRAM: '/nonexistent' } });
          ok(r, `${to.name} decrypts ${from.name}'s file to ${name}`);
          assert.ok(readFileSync(path('ssh.out')).equals(data), `${from.name} -> ${to.name}, ${name}`);
        }
      }
    }
    // A protected key's passphrase is asked for only when a stanza is the key's: without a terminal, a file for another key is a plain miss.
    ok(fourfold(['-R', path('ed25519.pub'), '-o', path('other.age'), path('plain')]), 'encrypt to another key');
    const miss = fourfold(['-d', '-i', path('ed25519-aes256-ctr'), path('other.age')], { noTerminal: true });
    assert.equal(miss.status, 1);
    assert.match(miss.stderr.toString(), /no identity matched any of the recipients|no identity matches/);
    ok(fourfold(['-R', path('ed25519-aes256-ctr.pub'), '-o', path('mine.age'), path('plain')]), 'encrypt to the protected key');
    const asked = fourfold(['-d', '-i', path('ed25519-aes256-ctr'), path('mine.age')], { noTerminal: true });
    assert.equal(asked.status, 1);
    assert.match(asked.stderr.toString(), /could not read passphrase/);
    // A recipients file: an SSH key of a type age has no stanza for is skipped with a warning, as age skips it.
    writeFileSync(path('ssh-recipients.txt'), `${keys.ecdsa!.publicKey}\n${keys.ed25519!.publicKey}\n`);
    const skipped = fourfold(['-R', path('ssh-recipients.txt'), '-o', path('skip.age'), path('plain')]);
    ok(skipped, 'a recipients file with an ecdsa key');
    assert.match(
      skipped.stderr.toString(),
      /warning: recipients file ".*ssh-recipients\.txt": ignoring unsupported SSH key of type "ecdsa-sha2-nistp256" at line 1/,
    );
    assert.ok(ok(fourfold(['-d', '-i', path('ed25519'), path('skip.age')]), 'decrypts').equals(data));
    const small = fourfold(['-r', keys['rsa-1024']!.publicKey, path('plain')]);
    assert.equal(small.status, 1);
    assert.match(small.stderr.toString(), /is an RSA key of 1024 bits: age needs 2048 bits or more/);
  });

  /** The SSH keys of test/vectors, the private ones written to the test folder, and the two clients whose files each other must open. */
  function sshSetup() {
    const { keys } = loadJson<{ keys: Record<string, { privateKey: string; publicKey: string }> }>('vectors/ssh-keys.json');
    const data = rand(1000);
    writeFileSync(path('plain'), data);
    for (const name of ['ed25519', 'rsa']) writeFileSync(path(name), keys[name]!.privateKey, { mode: 0o600 });
    const clients = [
      { name: 'fourfold age', run: fourfold },
      { name: 'age', run: (args: string[]) => run(AGE!, args) },
    ];
    /** Each client encrypts to `line` (-r, and -R from a file), and each decrypts with each of `keyFiles`. */
    const bothWays = (line: string, keyFiles: string[], what: string) => {
      writeFileSync(path('line.pub'), `${line}\n`);
      for (const from of clients) {
        for (const how of [
          ['-r', line],
          ['-R', path('line.pub')],
        ]) {
          ok(from.run([...how, '-o', path('line.age'), path('plain')]), `${from.name} ${how[0]}, ${what}`);
          for (const to of clients) {
            for (const key of keyFiles) {
              const out = ok(to.run(['-d', '-i', path(key), path('line.age')]), `${to.name} -i ${key} decrypts ${from.name}'s file to ${what} (${how[0]})`);
              assert.ok(out.equals(data), `${from.name} -> ${to.name}, ${what}`);
            }
          }
        }
      }
    };
    return { keys, data, clients, bothWays };
  }

  it('an ssh-rsa line whose e or n has a leading zero it does not need: the key named by its minimal form, as age names it, both ways; so is a key file whose public part has one', {
    skip: NO_AGE,
  }, () => {
    const { keys, data, bothWays } = sshSetup();
    // The key file with its public part so written: age reads the key itself.
    writeFileSync(path('rsa-zero'), withPublicLine(keys.rsa!.privateKey, withLeadingZero(keys.rsa!.publicKey, 'e')), { mode: 0o600 });
    for (const part of ['e', 'n'] as const) bothWays(withLeadingZero(keys.rsa!.publicKey, part), ['rsa', 'rsa-zero'], `${part} with a leading zero`);
    // -e -i encrypts to the key file's public key, named as age names it.
    ok(fourfold(['-e', '-i', path('rsa-zero'), '-o', path('self.age'), path('plain')]), '-e -i rsa-zero');
    assert.ok(ok(run(AGE!, ['-d', '-i', path('rsa'), path('self.age')]), 'age decrypts it').equals(data));
  });

  it('SSH lines whose fields a tab separates, with a comment or without, read as age reads them, both ways', { skip: NO_AGE }, () => {
    const { keys, bothWays } = sshSetup();
    const tabbed = (line: string) => line.replace(' ', '\t');
    bothWays(tabbed(keys.rsa!.publicKey), ['rsa'], 'rsa, a tab');
    bothWays(tabbed(keys.ed25519!.publicKey), ['ed25519'], 'ed25519, a tab');
    bothWays(`${tabbed(keys.ed25519!.publicKey)}\tuser@host`, ['ed25519'], 'ed25519, tabs and a comment');
  });

  it('an ssh-rsa key whose modulus is even is refused as age refuses it: exit 1, "public modulus is even", no file', { skip: NO_AGE }, () => {
    const { keys, clients } = sshSetup();
    const even = Uint8Array.from(atob(keys.rsa!.publicKey.split(' ')[1]!), (c) => c.charCodeAt(0));
    even[even.length - 1]! &= 0xfe;
    for (const from of clients) {
      rmSync(path('even.age'), { force: true });
      const r = from.run(['-r', `ssh-rsa ${btoa(String.fromCharCode(...even))}`, '-o', path('even.age'), path('plain')]);
      assert.equal(r.status, 1, `${from.name}: an even modulus`);
      assert.match(r.stderr.toString(), /error: .*public modulus is even/, from.name);
      assert.ok(!existsSync(path('even.age')), `${from.name} writes no file`);
    }
  });

  it("tag recipients: fourfold age encrypts to age-plugin-tagtest's keys (-r, -R); it, age and rage decrypt with -j tagtest; a post-quantum tag beside a classic key is refused", {
    skip: NO_CLIENTS || NO_TAGTEST,
  }, () => {
    const { classic, postQuantum } = loadJson<{ classic: string; postQuantum: string }>('vectors/age-tagtest.json');
    writeFileSync(path('tag-recipients.txt'), `# age-plugin-tagtest's post-quantum key\n${postQuantum}\n`);
    for (const size of [0, 65537]) {
      const data = rand(size);
      writeFileSync(path('plain'), data);
      for (const to of [
        ['-r', classic],
        ['-R', path('tag-recipients.txt')],
        ['-r', classic, '-r', classic],
      ]) {
        ok(fourfold([...to, '-o', path('tag.age'), path('plain')]), `fourfold age ${to[0]} encrypts ${size}`);
        for (const reader of tools()) {
          const out = ok(run(reader.command(), reader.args(['-d', '-j', 'tagtest', path('tag.age')])), `${reader.name} decrypts`);
          assert.ok(out.equals(data), `${reader.name}, ${to[0]}, ${size} bytes`);
        }
      }
    }
    const x25519 = newKey('tag-x25519.txt');
    for (const tool of tools().slice(0, 2)) {
      const r = run(tool.command(), tool.args(['-r', postQuantum, '-r', x25519.recipient, '-o', path('tag-mixed.age'), path('plain')]));
      assert.equal(r.status, 1, `${tool.name} refuses the mix`);
      assert.match(r.stderr.toString(), /error: incompatible recipients: can't mix post-quantum and classic recipients/, tool.name);
      assert.ok(!existsSync(path('tag-mixed.age')), `${tool.name} writes no file`);
    }
  });

  it('X25519, binary and armored, at every size: each tool decrypts what each encrypts', { skip: NO_CLIENTS }, () => {
    ok(keygen(['-o', path('key.txt')]), 'keygen');
    const recipient = ok(keygen(['-y', path('key.txt')]), 'keygen -y')
      .toString()
      .trim();
    for (const size of SIZES) {
      const data = rand(size);
      writeFileSync(path('plain'), data);
      for (const armor of [[], ['-a']]) {
        for (const from of tools()) {
          ok(run(from.command(), from.args(['-r', recipient, ...armor, '-o', path('file.age'), path('plain')])), `${from.name} encrypts ${size}`);
          for (const to of tools()) {
            const out = ok(
              run(to.command(), to.args(['-d', '-i', path('key.txt'), path('file.age')])),
              `${to.name} decrypts ${from.name}'s ${size}${armor.join('')}`,
            );
            assert.ok(out.equals(data), `${from.name} -> ${to.name}, ${size} bytes${armor.join('')}`);
          }
        }
      }
    }
  });

  it('passphrases, both directions, each with its own work factor', { skip: NO_CLIENTS || (!CAN_PTY && 'no script(1) to type at rage') }, () => {
    const data = rand(3 * 65536 + 10);
    writeFileSync(path('plain'), data);
    for (const from of tools()) {
      encryptWithPassphrase(from, 'correct horse battery', path('plain'), path('p.age'));
      assert.match(readFileSync(path('p.age')).subarray(0, 80).toString('latin1'), /^age-encryption\.org\/v1\n-> scrypt \S+ \d+\n/);
      for (const to of tools()) assert.ok(decryptWithPassphrase(to, 'correct horse battery', path('p.age')).equals(data), `${from.name} -> ${to.name}`);
      assert.equal(fourfold(['-d', '-j', 'batchpass', path('p.age')], { env: { AGE_PASSPHRASE: 'wrong' } }).status, 1);
    }
  });

  it("a work-factor-22 passphrase file from age (4 GiB of scrypt, more than WebAssembly's memory) decrypts, on node:crypto's scrypt", () => {
    const v = JSON.parse(readFileSync(new URL('../vectors/age-work-factor-22.json', import.meta.url), 'utf8')) as {
      passphrase: string;
      plaintext: string;
      file: string;
    };
    writeFileSync(path('wf22.age'), Buffer.from(v.file, 'base64'));
    const out = ok(fourfold(['-d', '-j', 'batchpass', path('wf22.age')], { env: { AGE_PASSPHRASE: v.passphrase } }), 'fourfold age -d');
    assert.equal(out.toString(), v.plaintext);
  });

  it('-p at a terminal: the passphrase typed twice to encrypt, once to decrypt (driven through script(1))', {
    skip: NO_CLIENTS || (!CAN_PTY && 'not applicable: no script(1) to drive a terminal'),
  }, () => {
    const data = rand(100_000);
    writeFileSync(path('plain'), data);
    const typed = 'hunter2 at the terminal\nhunter2 at the terminal\n';
    const encrypt = `${NODE} ${CLI} age -p -o ${path('t.age')} ${path('plain')}`;
    ok(run('script', ['-qec', encrypt, '/dev/null'], { input: typed }), 'fourfold age -p');
    const decrypt = `${NODE} ${CLI} age -d -o ${path('t.out')} ${path('t.age')}`;
    ok(run('script', ['-qec', decrypt, '/dev/null'], { input: 'hunter2 at the terminal\n' }), 'fourfold age -d, passphrase typed');
    assert.ok(readFileSync(path('t.out')).equals(data));
    const env = { AGE_PASSPHRASE: 'hunter2 at the terminal' };
    assert.ok(ok(run(AGE!, ['-d', '-j', 'batchpass', path('t.age')], { env }), 'age decrypts it').equals(data));
  });

  it('100 MiB, binary, from and to files, both ways with age and with rage', { skip: NO_CLIENTS }, () => {
    ok(keygen(['-o', path('big-key.txt')]), 'keygen');
    const recipient = ok(keygen(['-y', path('big-key.txt')]), 'keygen -y')
      .toString()
      .trim();
    const data = rand(100 << 20);
    writeFileSync(path('big'), data);
    ok(fourfold(['-r', recipient, '-o', path('big.age'), path('big')]), 'fourfold encrypts 100 MiB');
    for (const other of tools().slice(1)) {
      rmSync(path('big.out'), { force: true });
      ok(run(other.command(), ['-d', '-i', path('big-key.txt'), '-o', path('big.out'), path('big.age')]), `${other.name} decrypts it`);
      assert.ok(readFileSync(path('big.out')).equals(data), `${other.name} decrypts fourfold's`);
      ok(run(other.command(), ['-r', recipient, '-o', path('big.theirs.age'), path('big')]), `${other.name} encrypts 100 MiB`);
      rmSync(path('big.out'), { force: true });
      ok(fourfold(['-d', '-i', path('big-key.txt'), '-o', path('big.out'), path('big.theirs.age')]), 'fourfold decrypts it');
      assert.ok(readFileSync(path('big.out')).equals(data), `fourfold decrypts ${other.name}'s`);
      rmSync(path('big.theirs.age'));
    }
  });

  it("fourfold/parallel's and fourfold/age's encryptFile and decryptFile against age and rage: binary and armored, paths and handles", {
    skip: NO_CLIENTS,
  }, async () => {
    ok(keygen(['-o', path('lib-key.txt')]), 'keygen');
    const identity = readFileSync(path('lib-key.txt'), 'utf8').match(/AGE-SECRET-KEY-1\w+/)![0];
    const to = { recipients: [await age.identityToRecipient(identity)] };
    const from = { identities: [identity] };
    // Around a worker's piece (60 chunks), and a file whose last chunk is full.
    for (const size of [0, 60 * 65536 - 1, 60 * 65536 + 1, 3 * 60 * 65536 + 5, 2 * 65536]) {
      const data = rand(size);
      writeFileSync(path('lib'), data);
      for (const [name, api] of [
        ['fourfold/parallel', P.age],
        ['fourfold/age', age],
      ] as const) {
        for (const armor of [false, true]) {
          const what = `${name}, ${size} bytes${armor ? ', armored' : ''}`;
          if (armor) await api.encryptFile(path('lib'), path('lib.age'), to, { armor });
          else {
            const [input, output] = [await open(path('lib'), 'r'), await open(path('lib.age'), 'w')];
            await api.encryptFile(input, output, to).finally(() => Promise.all([input.close(), output.close()]));
          }
          for (const other of tools().slice(1)) {
            rmSync(path('lib.out'), { force: true });
            ok(run(other.command(), ['-d', '-i', path('lib-key.txt'), '-o', path('lib.out'), path('lib.age')]), `${other.name} decrypts ${what}`);
            // age makes -o's file at its first write: none for an empty plaintext.
            const out = size === 0 && !existsSync(path('lib.out')) ? Buffer.alloc(0) : readFileSync(path('lib.out'));
            assert.ok(out.equals(data), `${other.name} reads the plaintext of ${what}`);
            rmSync(path('lib.theirs.age'), { force: true });
            ok(run(other.command(), ['-r', to.recipients[0]!, ...(armor ? ['-a'] : []), '-o', path('lib.theirs.age'), path('lib')]), `${other.name} encrypts`);
            await api.decryptFile(path('lib.theirs.age'), path('lib.out'), from);
            assert.ok(readFileSync(path('lib.out')).equals(data), `${what}: decryptFile reads ${other.name}'s file`);
          }
        }
      }
    }
  });

  it("the command line as age's: modes, exit codes, errors and hints", () => {
    ok(keygen(['-o', path('cmd-key.txt')]), 'keygen');
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

  it('keys it cannot use: -r, -R, -i and age-keygen -y name the type seen, tell unsupported from malformed, print no key', () => {
    ok(keygen(['-o', path('k-key.txt')]), 'keygen');
    const identity = readFileSync(path('k-key.txt'), 'utf8').split('\n')[2]!;
    const recipient = ok(keygen(['-y', path('k-key.txt')]), 'keygen -y')
      .toString()
      .trim();
    // A post-quantum recipient's length, 1,959 characters (age-keygen -pq): Bech32 of random bytes under its prefix.
    // Random bytes, not an ML-KEM key (its coefficients must be below 3329); an identity one byte short.
    const pq = bech32.encode('age1pq', bech32.toWords(rand(1216)), false);
    const pqIdentity = bech32.encode('AGE-SECRET-KEY-PQ-', bech32.toWords(rand(31)), false).toUpperCase();
    writeFileSync(path('k-lower.txt'), `# created by hand\n${identity.toLowerCase()}\n`);
    writeFileSync(path('k-pq.txt'), `${pqIdentity}\n`);
    writeFileSync(path('k-ssh'), '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n');
    writeFileSync(path('k-recipients.txt'), `${recipient}\n# next: post-quantum\n${pq}\n`);
    writeFileSync(path('plain'), 'x');
    ok(fourfold(['-r', recipient, '-o', path('k.age'), path('plain')]), 'encrypt');
    const cases: [string[], RegExp][] = [
      [['-r', pq, path('plain')], /-r "age1pq1\w{5}…" is a malformed post-quantum recipient \(age1pq1\.\.\.\): its ML-KEM-768 key fails FIPS 203's check/],
      [['-r', recipient.toUpperCase(), path('plain')], /-r "AGE1\w{8}…" is in upper case: age's recipients are lower case/],
      [['-R', path('k-recipients.txt'), path('plain')], /k-recipients\.txt": line 3 is a malformed post-quantum recipient/],
      [['-d', '-i', path('k-lower.txt'), path('k.age')], /k-lower\.txt": line 2 is in lower case: age's identities are upper case \(AGE-SECRET-KEY-1\.\.\.\)/],
      [
        ['-d', '-i', path('k-pq.txt'), path('k.age')],
        /k-pq\.txt": line 1 is a malformed post-quantum identity \(AGE-SECRET-KEY-PQ-1\.\.\.\): it holds 31 bytes, not 32/,
      ],
      [['-d', '-i', path('k-ssh'), path('k.age')], /malformed SSH identity: "[^"]*k-ssh" is cut short/],
      [
        ['-d', '-i', path('k-recipients.txt'), path('k.age')],
        /line 1 is a recipient \(age1\.\.\., a public key\), not an identity[\s\S]*hint: did you mean to use -R/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = fourfold(args);
      const err = r.stderr.toString();
      assert.equal(r.status, 1, `${args.join(' ')}: exit 1`);
      assert.match(err, message);
      for (const key of [pq, identity, pqIdentity]) assert.ok(!err.includes(key.slice(20, 40)), `no key printed: ${err}`);
      assert.ok(err.length < 400, `${err.length} characters: ${err}`);
    }
    const y = keygen(['-y', path('k-lower.txt')]);
    assert.equal(y.status, 1, 'age-keygen -y refuses a lower-case identity, as age-keygen does');
    assert.match(y.stderr.toString(), /^fourfold age-keygen: error: failed to parse input: line 2 is in lower case/);
    assert.ok(!y.stderr.toString().includes(identity.slice(20, 40).toLowerCase()), 'no key printed');
  });

  it("key case: age and age-keygen refuse what fourfold's command refuses", { skip: NO_CLIENTS }, () => {
    ok(keygen(['-o', path('c-key.txt')]), 'keygen');
    const identity = readFileSync(path('c-key.txt'), 'utf8').split('\n')[2]!;
    const recipient = ok(keygen(['-y', path('c-key.txt')]), 'keygen -y')
      .toString()
      .trim();
    writeFileSync(path('c-lower.txt'), `${identity.toLowerCase()}\n`);
    writeFileSync(path('plain'), 'x');
    ok(fourfold(['-r', recipient, '-o', path('c.age'), path('plain')]), 'encrypt');
    for (const [args, what] of [
      [['-y', path('c-lower.txt')], 'age-keygen -y, a lower-case identity'],
      [['-d', '-i', path('c-lower.txt'), path('c.age')], 'age -d -i, a lower-case identity'],
      [['-r', recipient.toUpperCase(), path('plain')], 'age -r, an upper-case recipient'],
    ] as const) {
      const keygenCall = args[0] === '-y';
      assert.equal(run(keygenCall ? (AGE_KEYGEN ?? 'age-keygen') : AGE!, [...args]).status, 1, `${what}: Go's exits 1`);
      assert.equal((keygenCall ? keygen([...args]) : fourfold([...args])).status, 1, `${what}: fourfold's exits 1`);
    }
  });

  it('armor: fourfold age accepts what age accepts and refuses what it refuses, at its limits and around them', { skip: NO_CLIENTS }, () => {
    ok(keygen(['-o', path('armor-key.txt')]), 'keygen');
    const recipient = ok(keygen(['-y', path('armor-key.txt')]), 'keygen -y')
      .toString()
      .trim();
    writeFileSync(path('armor-plain'), rand(200));
    ok(run(AGE!, ['-r', recipient, '-a', '-o', path('armor.age'), path('armor-plain')]), 'age -a');
    const text = readFileSync(path('armor.age'), 'latin1');
    const lines = text.split('\n').slice(0, -1);
    const [begin, data, last, end] = [lines[0]!, lines.slice(1, -2), lines.at(-2)!, lines.at(-1)!];
    const withLast = (line: string) => `${[begin, ...data, line, end].join('\n')}\n`;
    const nonCanonical = last.replace(/(.)(=+)$/, (_, c: string, pad: string) => `${c === 'A' ? 'B' : String.fromCharCode(c.charCodeAt(0) + 1)}${pad}`);
    // Whitespace is ASCII's here: age's TrimSpace also takes Unicode's (U+00A0, U+0085...), which fourfold refuses.
    const cases: Record<string, string> = {
      valid: text,
      CRLF: text.replaceAll('\n', '\r\n'),
      '1023 bytes of whitespace after': `${text}${' '.repeat(1023)}`,
      '1024 bytes of whitespace after': `${text}${' '.repeat(1024)}`,
      '1025 bytes of whitespace after': `${text}${' '.repeat(1025)}`,
      '1024 bytes of whitespace before, a line': `${' '.repeat(1023)}\n${text}`,
      '1024 bytes of whitespace before, CRLF': `${' '.repeat(1022)}\r\n${text}`,
      '1025 bytes of whitespace before, CRLF': `${' '.repeat(1023)}\r\n${text}`,
      '1025 bytes of whitespace before, two lines': `${' '.repeat(500)}\n${' '.repeat(523)}\n${text}`,
      'tabs, VT and FF around': `\t\v\f\n${text}\t\v\f\r\n`,
      'no line feed after END': text.slice(0, -1),
      'CR, no line feed after END': `${text.slice(0, -1)}\r`,
      'CR CR LF after END': `${text.slice(0, -1)}\r\r\n`,
      'CR CR LF after BEGIN': text.replace(`${begin}\n`, `${begin}\r\r\n`),
      'CR CR LF after the last line': withLast(`${last}\r\r`),
      'a bare CR inside the last line': withLast(`${last.slice(0, 4)}\r${last.slice(4)}`),
      'CR alone ends the lines': text.replaceAll('\n', '\r'),
      'data after END': `${text}x`,
      'a NUL after END': `${text}\0`,
      'a space after END': text.replace(`${end}\n`, `${end} \n`),
      'a lowercase END': text.replace('END AGE', 'end AGE'),
      'a full line of 63 columns': text.replace(`${data[0]!}\n`, `${data[0]!.slice(0, 63)}\n`),
      'a full line of 65 columns': text.replace(`${data[0]!}\n`, `${data[0]!}A\n`),
      'the last line without padding': withLast(last.replace(/=+$/, '')),
      'the last line not canonical': withLast(nonCanonical),
      'an empty line before END': withLast(`${last}\n`),
    };
    for (const [what, armored] of Object.entries(cases)) {
      writeFileSync(path('case.age'), Buffer.from(armored, 'latin1'));
      const theirs = run(AGE!, ['-d', '-i', path('armor-key.txt'), path('case.age')]);
      const ours = fourfold(['-d', '-i', path('armor-key.txt'), path('case.age')]);
      assert.equal(
        ours.status === 0,
        theirs.status === 0,
        `${what}: age exit ${theirs.status} (${theirs.stderr}), fourfold exit ${ours.status} (${ours.stderr})`,
      );
      if (ours.status === 0) assert.ok(ours.stdout.equals(theirs.stdout), `${what}: the same plaintext`);
    }
    assert.ok(/=$/.test(last) && nonCanonical !== last, 'the armor has a padded last line');
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
        // Half the input, the pipe left open: the command writes its temporary file, then waits for more.
        // What it has not read when it dies is refused (EPIPE), as expected.
        child.stdin.on('error', () => {});
        child.stdin.write(input.subarray(0, input.length >> 1));
        await until(() => readdirSync(outDir).length > 0, `${mode[0]}: a temporary file`);
        child.kill(signal);
        assert.equal(await ended, signal, `${mode[0]} ${signal}: ended by the signal`);
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
        await until(() => readdirSync(outDir).length > 1, `${mode[0]}: a temporary file`);
        child.kill(signal);
        assert.equal(await ended, signal, `${mode[0]} ${signal}: ended by the signal`);
        assert.deepEqual(readdirSync(outDir), ['out'], `${mode[0]} ${signal}: nothing left but the file that was there`);
        assert.equal(readFileSync(join(outDir, 'out'), 'utf8'), 'the file that was there\n', `${mode[0]} ${signal}: the file unchanged`);
      }
    }
    rmSync(plain);
    rmSync(path('sf.age'));
  });
});

/** Resolves once `condition` holds; rejects, naming `what`, when it has not after 60 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited 60 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
