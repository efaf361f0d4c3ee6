/**
 * A second user for the tests of what other users of the machine can do
 * to the command (compile-cache.test.ts, plugin-path.test.ts): an unused
 * uid that setpriv(1) takes, no account needed. The tests run as root
 * (CI does); elsewhere they are skipped, saying so, and on CI a run that
 * is not root fails.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ON_CI = /^(?:true|1)$/i.test(process.env.CI ?? '');

/** Why such a test is skipped here, or false. */
export const NOT_ROOT: false | string = process.getuid?.() !== 0 && !ON_CI ? 'runs as root, to act as a second user with setpriv (CI runs it as root)' : false;

/** A uid and gid that no account or group has. */
function unusedId(): number {
  const taken = new Set(
    ['/etc/passwd', '/etc/group'].flatMap((f) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n') : []).map((line) => Number(line.split(':')[2]))),
  );
  let id = 47_351;
  while (taken.has(id)) id++;
  return id;
}

/** The other user's uid, and its gid. */
export const OTHER = unusedId();

/** Runs `script` with sh as the other user; it must succeed. */
export function asOther(script: string): void {
  const r = spawnSync('setpriv', [`--reuid=${OTHER}`, `--regid=${OTHER}`, '--clear-groups', 'sh', '-ec', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, `as uid ${OTHER}: ${r.error ?? r.stderr}`);
}

/** Opens `base` to the other user (0755) and makes each folder in it with its mode (chmod: the umask leaves sticky and group or other write bits alone). */
export function makeFolders(base: string, modes: Record<string, number>): void {
  chmodSync(base, 0o755);
  for (const [name, mode] of Object.entries(modes)) {
    mkdirSync(join(base, name));
    chmodSync(join(base, name), mode);
  }
}
