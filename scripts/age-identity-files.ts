/**
 * Writes test/vectors/age-identity-files.json with the Go age (v1.3.2,
 * `go install filippo.io/age/cmd/...@v1.3.2`): two key files as
 * age-keygen and age-keygen -pq write them, their recipients (age-keygen
 * -y), a file encrypted by age to each, and identity files' texts made
 * from the two key files (line ends, blank lines, comments, spaces, a
 * recipient, ...) with what `age -d -i` does with each: decrypts both
 * files, or refuses the identity file. test/age/identity-files.test.ts
 * holds fourfold to the same verdicts, in every engine.
 *
 *   PATH=$HOME/go/bin:$PATH tsx scripts/age-identity-files.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'fourfold-identity-files-'));
const path = (name: string): string => join(dir, name);
const run = (command: string, args: string[]): string => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

try {
  run('age-keygen', ['-o', path('x25519.txt')]);
  run('age-keygen', ['-pq', '-o', path('pq.txt')]);
  const x25519 = readFileSync(path('x25519.txt'), 'utf8');
  const pq = readFileSync(path('pq.txt'), 'utf8');
  const plaintext = 'made by age for fourfold\n';
  writeFileSync(path('plain'), plaintext);
  const files: Record<string, string> = {};
  for (const key of ['x25519', 'pq']) {
    run('age', ['-e', '-i', path(`${key}.txt`), '-o', path(`${key}.age`), path('plain')]);
    files[key] = readFileSync(path(`${key}.age`)).toString('base64');
  }
  const both = x25519 + pq;
  const keyLine = (text: string): string => text.split('\n').find((l) => l.startsWith('AGE-'))!;
  const texts: Record<string, string> = {
    'both key files, one after the other': both,
    'CRLF line ends': both.replaceAll('\n', '\r\n'),
    'no line end after the last key': both.replace(/\n$/, ''),
    'blank lines before, between and after': `\n\n${x25519}\n\n${pq}\n\n`,
    'the keys alone, no comments': `${keyLine(x25519)}\n${keyLine(pq)}\n`,
    'a comment after the keys': `${both}# another comment\n`,
    'a key line indented by a space': both.replace(keyLine(pq), ` ${keyLine(pq)}`),
    'a space after a key': both.replace(keyLine(pq), `${keyLine(pq)} `),
    'a tab after a key': both.replace(keyLine(x25519), `${keyLine(x25519)}\t`),
    'a comment indented by a space': both.replace('# created', ' # created'),
    'a byte order mark first': `\ufeff${both}`,
    'a key in lower case': both.replace(keyLine(x25519), keyLine(x25519).toLowerCase()),
    'a recipient line': `${both}${run('age-keygen', ['-y', path('x25519.txt')])}`,
    'two keys on one line': `${keyLine(x25519)} ${keyLine(pq)}\n`,
    'a line ending in two CRs': both.replace(`${keyLine(pq)}\n`, `${keyLine(pq)}\r\r\n`),
    'lines ended by CR alone': both.replaceAll('\n', '\r'),
    'comments only': '# created: 2026-11-27T00:00:00Z\n# nothing else\n',
    empty: '',
  };
  const variants = Object.entries(texts).map(([name, text]) => {
    writeFileSync(path('identities.txt'), text);
    const decrypts = ['x25519', 'pq'].map((key) => {
      const r = spawnSync('age', ['-d', '-i', path('identities.txt'), path(`${key}.age`)], { encoding: 'utf8' });
      return r.status === 0 && r.stdout === plaintext;
    });
    if (decrypts[0] !== decrypts[1]) throw new Error(`${name}: age decrypts one file and not the other`);
    return { name, text, age: decrypts[0] ? 'decrypts' : 'refuses' };
  });
  const out = {
    source:
      'filippo.io/age v1.3.2: key files written by age-keygen and age-keygen -pq, recipients by age-keygen -y, files by age -e -i; each variant is what age -d -i does with that identity file (decrypts both files, or refuses). Made by scripts/age-identity-files.ts; the keys are for fourfold tests only.',
    plaintext,
    keyFiles: { x25519, pq },
    recipients: { x25519: run('age-keygen', ['-y', path('x25519.txt')]).trim(), pq: run('age-keygen', ['-y', path('pq.txt')]).trim() },
    files,
    variants,
  };
  writeFileSync(new URL('../test/vectors/age-identity-files.json', import.meta.url), `${JSON.stringify(out, null, 1)}\n`);
  console.log(variants.map((v) => `${v.age.padEnd(8)} ${v.name}`).join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
