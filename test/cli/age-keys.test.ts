/**
 * `fourfold age` and `fourfold age-keygen` against the Go `age` and the
 * Rust `rage` (age-clients.ts finds them), their keys: key files
 * each reads, post-quantum keys, SSH keys (.pub and key files, a protected
 * key typed at the terminal, RSA lines with a needless leading zero,
 * fields a tab separates, an even modulus refused), age-plugin-tagtest's
 * tag recipients, keys it cannot use named by their type, and key case
 * refused as age refuses it. Node only: it starts processes. Without the
 * clients every test that runs them is skipped, saying so, except on CI
 * (CI=true), where their absence fails them.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { bech32 } from '@scure/base';
import { loadJson, rand } from '../helpers.js';
import { AGE, AGE_KEYGEN, CAN_PTY, NO_AGE, NO_CLIENTS, ok, onPath, skipUnless } from './age-clients.js';
import { againstAgeAndRage, fourfold, keygen, newKey, path, run, tools } from './age-folder.js';
import { withLeadingZero, withPublicLine } from '../age/ssh-forms.js';

/** age's test plugin for tag recipients: `-j tagtest` decrypts files to its fixed keys (test/vectors/age-tagtest.json). */
const NO_TAGTEST = skipUnless(onPath('age-plugin-tagtest'), 'age-plugin-tagtest (go install filippo.io/age/tag/internal/age-plugin-tagtest@v1.3.2)');

againstAgeAndRage(() => {
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
});
