/**
 * The age plugins the command runs, on a machine with other users
 * (nothing the command runs can be planted by another user, as its
 * compile cache cannot: compile-cache.test.ts). A plugin runs in the temporary folder, as age's, which every user
 * writes; an empty or relative entry of PATH (a trailing colon, ".") named
 * that folder when the plugin's process searched PATH there. Another user
 * (other-user.ts) puts programs named age-plugin-NAME in the shared
 * temporary folder; root's `fourfold age -d` with such a PATH runs none of
 * them: a plugin found nowhere else is "not found", as in Go's age (which
 * refuses what such entries find, exec.ErrDot), and the real plugin in an
 * absolute folder of PATH runs even where the empty entry comes first.
 * The test failed so before the fix.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bech32 } from '@scure/base';
import { CLI, IS_NODE, NODE } from './age-clients.js';
import { asOther, makeFolders, NOT_ROOT } from './other-user.js';

const TEST_PLUGIN = fileURLToPath(new URL('./age-plugin-fourfoldtest.mjs', import.meta.url));
const skip = !IS_NODE ? 'runs the command, a Node program, with Node' : NOT_ROOT;
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

const base = mkdtempSync(join(tmpdir(), 'fourfold-plugin-path-'));
after(() => rmSync(base, { recursive: true, force: true }));
const at = (name: string) => join(base, name);
const MARKER = at('planted-ran');
const plain = crypto.getRandomValues(new Uint8Array(1000));

/** `fourfold age ARGS` as root in `work`, with the shared temporary folder as TMPDIR and `path` as PATH; the marker of a planted plugin checked and cleared. */
function victim(path: string, args: string[]): { stdout: Buffer; stderr: string; status: number | null } {
  const r = spawnSync(NODE, [CLI, 'age', ...args], { cwd: at('work'), env: { ...process.env, PATH: path, TMPDIR: at('shared') } });
  const ran = existsSync(MARKER);
  rmSync(MARKER, { force: true });
  assert.equal(ran, false, `PATH=${path} fourfold age ${args.join(' ')}: the other user's plugin ran`);
  return { stdout: r.stdout, stderr: r.stderr.toString(), status: r.status };
}

before(() => {
  if (skip !== false) return;
  makeFolders(base, { shared: 0o1777, bin: 0o755, work: 0o700 });
  writeFileSync(at('work/plain'), plain);
  // An X25519 file, and one to the test plugin's recipient, which root's own age-plugin-fourfoldtest (in bin) wraps.
  const keygen = spawnSync(NODE, [CLI, 'age-keygen', '-o', at('work/key.txt')], { encoding: 'utf8' });
  assert.equal(keygen.status, 0, keygen.stderr);
  const recipient = keygen.stderr.match(/Public key: (age1\S+)/)![1]!;
  writeFileSync(at('bin/age-plugin-fourfoldtest'), `#!/bin/sh\nexec '${process.execPath}' '${TEST_PLUGIN}' "$@"\n`);
  chmodSync(at('bin/age-plugin-fourfoldtest'), 0o755);
  const words = bech32.toWords(crypto.getRandomValues(new Uint8Array(16)));
  writeFileSync(at('work/plugin-key.txt'), `${bech32.encode('AGE-PLUGIN-FOURFOLDTEST-', words, false).toUpperCase()}\n`);
  for (const [to, file] of [
    [recipient, 'x25519.age'],
    [bech32.encode('age1fourfoldtest', words, false), 'plugin.age'],
  ]) {
    const r = spawnSync(NODE, [CLI, 'age', '-r', to!, '-o', at(`work/${file}`), at('work/plain')], {
      env: { ...process.env, PATH: `${at('bin')}:${SYSTEM_PATH}` },
    });
    assert.equal(r.status, 0, r.stderr.toString());
  }
  // The other user's programs in the shared temporary folder, where the plugins run: one of a name root has nowhere, and one named as root's test plugin.
  asOther(`for name in planted fourfoldtest; do
  printf '#!/bin/sh\\necho ran > "%s"\\nexit 1\\n' "${MARKER}" > "${at('shared')}/age-plugin-$name"
  chmod 755 "${at('shared')}/age-plugin-$name"
done`);
});

it('a plugin is never found through an empty or relative PATH entry, which names the shared temporary folder where it runs', { skip }, () => {
  for (const path of [`${SYSTEM_PATH}:`, `:${SYSTEM_PATH}`, `.:${SYSTEM_PATH}`, `${SYSTEM_PATH}::/nowhere`]) {
    const r = victim(path, ['-d', '-j', 'planted', 'x25519.age']);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /^fourfold age: error: "planted" plugin not found: there is no age-plugin-planted in PATH$/m, path);
  }
});

it("the plugin in an absolute folder of PATH runs, not the other user's of that name, even behind an empty entry", { skip }, () => {
  for (const path of [`:${at('bin')}:${SYSTEM_PATH}`, `.:${at('bin')}:${SYSTEM_PATH}`]) {
    const r = victim(path, ['-d', '-i', 'plugin-key.txt', 'plugin.age']);
    assert.equal(r.status, 0, `${path}: ${r.stderr}`);
    assert.deepEqual(new Uint8Array(r.stdout), plain, path);
  }
  // A file no plugin is asked about decrypts as ever.
  assert.deepEqual(new Uint8Array(victim(`:${SYSTEM_PATH}`, ['-d', '-i', 'key.txt', 'x25519.age']).stdout), plain);
});
