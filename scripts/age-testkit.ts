/**
 * Writes test/vectors/age-testkit.json from a checkout of the age test
 * kit (C2SP/CCTV, age/testdata: https://age-encryption.org/testkit), one
 * entry per vector: its header fields as the kit writes them, and the age
 * file's bytes, base64 (still zlib-compressed where the kit compressed
 * them), so that every engine's test bundle can carry them as JSON.
 *
 *   git clone https://github.com/C2SP/CCTV /tmp/CCTV
 *   tsx scripts/age-testkit.ts /tmp/CCTV/age/testdata
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: tsx scripts/age-testkit.ts <CCTV>/age/testdata');

const vectors = readdirSync(dir)
  .sort()
  .map((name) => {
    const raw = readFileSync(join(dir, name));
    const blank = raw.indexOf('\n\n');
    const fields: Record<string, string[]> = {};
    for (const line of raw.subarray(0, blank).toString('utf8').split('\n')) {
      const colon = line.indexOf(': ');
      (fields[line.slice(0, colon)] ??= []).push(line.slice(colon + 2));
    }
    return { name, fields, file: raw.subarray(blank + 2).toString('base64') };
  });

const out = {
  source: 'the age test kit, C2SP/CCTV age/testdata at 1e3d286 (0BSD, CC0 or Unlicense), converted by scripts/age-testkit.ts',
  vectors,
};
writeFileSync(new URL('../test/vectors/age-testkit.json', import.meta.url), `${JSON.stringify(out, null, 1)}\n`);
console.log(`${vectors.length} vectors`);
