/**
 * `fourfold age` against the Go `age` (go install
 * filippo.io/age/cmd/...@v1.3.2) and the Rust `rage` (cargo install rage
 * --locked), which .ci/run installs, their files: each tool decrypts what
 * each encrypts, X25519 binary and armored at sizes 0, 1, 64 KiB - 1,
 * 64 KiB, 64 KiB + 1, several chunks and 100 MiB; passphrases both ways
 * (age-plugin-batchpass's environment variables, -p typed at a terminal
 * through `script`), a work-factor-22 file from age; the library's file
 * calls (encryptFile, decryptFile: paths, handles, armor) read and read by
 * both clients; armor at its limits. Node only: it starts processes.
 * Without age and rage every test that runs them is skipped, saying so,
 * except on CI (CI=true), where their absence fails them.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';
import { rand } from '../helpers.js';
import { AGE, CAN_PTY, CLI, NO_CLIENTS, NODE, ok } from './age-clients.js';
import { againstAgeAndRage, decryptWithPassphrase, encryptWithPassphrase, fourfold, keygen, path, run, tools } from './age-folder.js';

const SIZES = [0, 1, 65535, 65536, 65537, 5 * 65536 + 3];

againstAgeAndRage(() => {
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
});
