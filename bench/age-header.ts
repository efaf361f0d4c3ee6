/**
 * What a hostile age header costs its reader: fourfold's calls and the
 * commands, Go's age beside them, on headers at and past age's bounds
 * (1,024 recipient stanzas, 2 MiB). Node only:
 *
 *   node --import tsx bench/age-header.ts [--rounds=3]
 *
 * Headers (random X25519 shares and bodies, so that every stanza is tried
 * and none opens, and a random MAC): 1,024 X25519 stanzas tried by one
 * identity and by four (the most work a header may ask), 12,000 (refused:
 * past 1,024), and a 2 MiB header of unknown stanzas, one-shot and
 * through decryptStream in 1 KiB writes (read once, whatever the writes).
 * Reported: the median ms of --rounds, each call from a fresh file (Go's
 * age as a process per call, as fourfold's command).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as age from 'fourfold/age';
import { age as all } from 'fourfold/parallel';

const args = Object.fromEntries(process.argv.slice(2).map((a) => [...a.replace(/^--/, '').split('='), 'true'].slice(0, 2) as [string, string]));
const ROUNDS = Number(args.rounds ?? 3);
const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64').replace(/=+$/, '');

/** An age file whose header has `stanzas` (text, as the header writes them), a random MAC, then a short payload. */
function fileOf(stanzas: string): Uint8Array {
  return new Uint8Array(Buffer.concat([Buffer.from(`age-encryption.org/v1\n${stanzas}--- ${b64(random(32))}\n`), random(100)]));
}
const x25519 = (n: number) => Array.from({ length: n }, () => `-> X25519 ${b64(random(32))}\n${b64(random(32))}\n`).join('');
const unknown = (bytes: number) => `-> unknown ${'a'.repeat(2000)}\n\n`.repeat(Math.floor(bytes / 2020));

/** Through decryptStream in `write`-byte writes. */
async function streamed(file: Uint8Array, from: age.AgeFrom, write: number): Promise<void> {
  const stream = age.decryptStream(from);
  const reading = stream.readable.pipeTo(new WritableStream());
  const writer = stream.writable.getWriter();
  try {
    for (let at = 0; at < file.length; at += write) await writer.write(file.subarray(at, at + write));
    await writer.close();
  } finally {
    await reading.catch(() => {});
  }
}

const dir = mkdtempSync(join(tmpdir(), 'age-header-'));
const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'fourfold.js');
/** A command on `file` with identity files, its error's first line (every case here fails). */
function command(argv: string[], file: Uint8Array, ids: string[]): string {
  const path = join(dir, 'file.age');
  writeFileSync(path, file);
  const idArgs = ids.flatMap((id, i) => {
    writeFileSync(join(dir, `id${i}`), `${id}\n`);
    return ['-i', join(dir, `id${i}`)];
  });
  const run = spawnSync(argv[0]!, [...argv.slice(1), '-d', ...idArgs, path], { encoding: 'utf8' });
  return run.stderr.split('\n')[0]!;
}

const CASES: { name: string; file: () => Uint8Array; ids: number }[] = [
  { name: '1,024 X25519 stanzas, 1 identity', file: () => fileOf(x25519(1024)), ids: 1 },
  { name: '1,024 X25519 stanzas, 4 identities', file: () => fileOf(x25519(1024)), ids: 4 },
  { name: '12,000 X25519 stanzas (refused)', file: () => fileOf(x25519(12000)), ids: 1 },
  { name: '2 MiB of unknown stanzas', file: () => fileOf(unknown((2 << 20) - 200)), ids: 1 },
];

/** Go's age command: on the PATH or in Go's bin directory (bench/core/age-cli.ts looks in the same places). */
function goAge(): string | undefined {
  const candidates = ['age', join(process.env.GOPATH ?? join(process.env.HOME ?? '', 'go'), 'bin', 'age')];
  return candidates.find((c) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0);
}

const go = goAge();
const READERS: [string, (file: Uint8Array, ids: string[]) => Promise<unknown>][] = [
  ['decrypt', (file, identities) => age.decrypt(file, { identities })],
  ['decryptRange', (file, identities) => age.decryptRange(new Blob([file as Uint8Array<ArrayBuffer>]), 0, 1, { identities })],
  ['decryptStream, 1 KiB writes', (file, identities) => streamed(file, { identities }, 1024)],
  ['parallel decrypt', (file, identities) => all.decrypt(file, { identities })],
  ['fourfold age -d', async (file, ids) => command([process.execPath, CLI, 'age'], file, ids)],
];

if (go !== undefined) READERS.push(['age -d (Go)', async (file, ids) => command([go], file, ids)]);

const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
console.log(
  `node ${process.version}, ${ROUNDS} rounds; Go age: ${go === undefined ? 'not found' : execFileSync(go, ['--version'], { encoding: 'utf8' }).trim()}\n`,
);
console.log(`| header | ${READERS.map(([name]) => name).join(' | ')} |`);
console.log(`|---|${READERS.map(() => '---:').join('|')}|`);
for (const c of CASES) {
  const ids = Array.from({ length: c.ids }, () => age.generateIdentity());
  const cells: string[] = [];
  for (const [, read] of READERS) {
    const times: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const file = c.file();
      const t0 = performance.now();
      await read(file, ids).catch(() => {});
      times.push(performance.now() - t0);
    }
    cells.push(`${median(times).toFixed(0)} ms`);
  }
  console.log(`| ${c.name} (${(c.file().length / 1024).toFixed(0)} KiB) | ${cells.join(' | ')} |`);
}
await all.decrypt(new Uint8Array(0), { identities: [age.generateIdentity()] }).catch(() => {});
rmSync(dir, { recursive: true });
process.exit(0);
