/**
 * A full disk, simulated: encryptFile and decryptFile (fourfold/age and
 * fourfold/parallel) run in a child process whose file-size limit
 * (`ulimit -f`, RLIMIT_FSIZE) is a quarter of the output, so that the
 * writes fail partway through with EFBIG, as they would with ENOSPC on a
 * full disk: by a worker, or on the calling thread. Each call must reject
 * with that error, leave the destination as it was and no temporary file.
 * Node on Linux or macOS (a shell with ulimit, and Node's own fs in the
 * child; Node ignores SIGXFSZ, so a write past the limit fails instead
 * of ending the process).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as age from 'fourfold/age';
import { rand } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const isNode = typeof (globalThis as { Deno?: unknown }).Deno === 'undefined' && typeof (globalThis as { Bun?: unknown }).Bun === 'undefined';
const SKIP = !isNode || process.platform === 'win32' ? 'not applicable: needs Node and a POSIX shell (ulimit -f)' : false;

/** What the child does: each call from `input` to `out` (which holds 'what was there'), and what it saw after. */
const CHILD = `
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as age from 'fourfold/age';
import { age as all, terminate } from 'fourfold/parallel';
const [dir, identity] = process.argv.slice(1);
const to = { recipients: [age.identityToRecipient(identity)] };
const from = { identities: [identity] };
const results = [];
for (const [name, api] of [['fourfold/age', age], ['fourfold/parallel', all]]) {
  for (const way of ['encrypt', 'decrypt']) {
    writeFileSync(dir + '/out', 'what was there');
    let error;
    try {
      if (way === 'encrypt') await api.encryptFile(dir + '/plain', dir + '/out', to);
      else await api.decryptFile(dir + '/file.age', dir + '/out', from);
    } catch (e) {
      error = { code: e.code, message: e.message };
    }
    results.push({ name, way, error, out: readFileSync(dir + '/out', 'utf8'), files: readdirSync(dir).sort() });
  }
}
await terminate();
console.log(JSON.stringify(results));
`;

it('a full disk (writes failing with EFBIG partway): the call rejects with it, the destination is as it was, no temporary file', { skip: SKIP }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fourfold-full-'));
  try {
    const identity = age.generateIdentity();
    const data = rand(16 << 20);
    writeFileSync(join(dir, 'plain'), data);
    writeFileSync(join(dir, 'file.age'), await age.encrypt(data, { recipients: [age.identityToRecipient(identity)] }));
    // ulimit -f counts KiB in bash: 4 MiB, a quarter of either output.
    const r = spawnSync('bash', ['-c', 'ulimit -f 4096 && exec "$0" --input-type=module -e "$1" "$2" "$3"', process.execPath, CHILD, dir, identity], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(r.status, 0, `the child failed: ${r.stderr}`);
    const results = JSON.parse(r.stdout) as { name: string; way: string; error?: { code?: string; message: string }; out: string; files: string[] }[];
    assert.equal(results.length, 4);
    for (const { name, way, error, out, files } of results) {
      const what = `${name} ${way}File`;
      assert.equal(error?.code, 'EFBIG', `${what}: ${error === undefined ? 'resolved' : error.message}`);
      assert.equal(out, 'what was there', `${what}: the destination as it was`);
      assert.deepEqual(files, ['file.age', 'out', 'plain'], `${what}: no temporary file`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
