/**
 * node:crypto's X25519 pairs (an age stanza's ephemeral key, native.ts
 * generate()) amid garbage collections. Node 20 writes a generated key's
 * JWK while it holds the key's lock, and a collection at that moment that
 * finalizes generateKeyPairSync's job takes the same lock: the process
 * stops for ever (a `fourfold age -r` in a hundred or so on a loaded
 * machine). A child with a 1 MiB young generation, which collects every
 * few hundred pairs, makes 30,000 of them as native.ts does: with the
 * JWK export it stopped within 10,000 in every try.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const g = globalThis as { Deno?: unknown; Bun?: unknown };
const NOT_NODE = g.Deno !== undefined || g.Bun !== undefined ? "Node's key jobs and V8's flags: Deno and Bun make pairs their own way" : false;

const PAIRS = 30_000;

const child = `
  const { nativeX25519 } = await import(${JSON.stringify(new URL('../../dist/runtime/native.js', import.meta.url).href)});
  const x = nativeX25519();
  let made = 0;
  let garbage = [];
  for (let i = 0; i < ${PAIRS}; i++) {
    const pair = x.generate();
    if (pair?.publicKey.length === 32) made++;
    garbage.push({ i });
    if (garbage.length > 64) garbage = [];
  }
  console.log(String(made));`;

it(`${PAIRS} X25519 pairs on node:crypto amid garbage collections: none stops the process`, { skip: NOT_NODE }, () => {
  const r = spawnSync(process.execPath, ['--max-semi-space-size=1', '--input-type=module', '-e', child], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.error, undefined, `the child stopped (a deadlock): ${r.error?.message}`);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), String(PAIRS), 'every pair made, its public key 32 bytes');
});
