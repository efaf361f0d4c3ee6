/**
 * --profile=sodium's ops (core/ops/sodium.ts): opt-in, fourfold's two tiers
 * and libsodium-wrappers-sumo, whose bytes every fourfold column reproduces
 * (random outputs as libsodium opens them). Needs dist/.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { loadLibraries } from '../core/libraries.js';
import { allOps } from '../core/ops/index.js';
import { runBenchmark } from '../core/run.js';
import { parseOptions, type Options } from '../node/options.js';

const KiB = 1024;
const MiB = 1 << 20;

/** The call families the profile times, every one fourfold/sodium shares with libsodium.js, by op name. */
const FAMILIES = [
  ...['chacha20poly1305', 'chacha20poly1305-ietf', 'xchacha20poly1305-ietf'].flatMap((aead) =>
    ['encrypt', 'encrypt-detached', 'decrypt', 'decrypt-detached'].map((call) => `aead-${aead}-${call}`),
  ),
  ...['secretbox-easy', 'secretbox-open-easy', 'secretstream-push', 'secretstream-pull', 'onetimeauth', 'kdf', 'shorthash'],
  ...['stream-chacha20-xor', 'stream-chacha20-ietf-xor', 'stream-xchacha20-xor', 'generichash', 'generichash-incremental'],
  ...['auth', 'auth-hmacsha256', 'auth-hmacsha512', 'hash-sha256', 'hash-sha512', 'pwhash-argon2id', 'pwhash-scryptsalsa208sha256'],
  ...['box-easy', 'box-open-easy', 'box-seal', 'box-seal-open', 'scalarmult', 'kx-client-session-keys', 'sign-detached', 'sign-verify-detached'],
].map((family) => `sodium-${family}`);

/** The rows whose whole work is a dependency's, with the columns of its bare calls (core/ops/sodium-dependencies.ts), in Node. */
const DEPENDENCY_COLUMNS: Record<string, string[]> = {
  ...Object.fromEntries(['auth', 'auth-hmacsha256', 'auth-hmacsha512', 'hash-sha256', 'hash-sha512'].map((f) => [`sodium-${f}`, ['noble-hashes', 'node']])),
  ...Object.fromEntries(['sign-detached', 'sign-verify-detached', 'scalarmult'].map((f) => [`sodium-${f}`, ['noble-curves', 'node']])),
};

it('every family is an opt-in op with both fourfold tiers, fourfold (native) and libsodium; a dependency row with its bare calls', async () => {
  const ops = allOps((await loadLibraries({})).apis).filter((d) => d.op.startsWith('sodium-'));
  assert.deepEqual(ops.map((d) => d.op).sort(), [...FAMILIES].sort());
  for (const d of ops) {
    assert.equal(d.optIn, true, d.op);
    const expected = ['fourfold', 'fourfold (native)', 'fourfold-js', 'sodium', ...(DEPENDENCY_COLUMNS[d.op] ?? [])];
    assert.deepEqual(d.entries.map((e) => e.library).sort(), expected.sort(), d.op);
  }
});

it("--profile=sodium: each op's fourfold columns give libsodium's bytes", async () => {
  const profile = (parseOptions(['--profile=sodium']) as Options).config;
  assert.deepEqual(profile.ops, ['sodium']);
  const timing = { warmupMs: 1, sampleMs: 0.2, samples: 3, minSamples: 3, budgetMs: 50 };
  const result = await runBenchmark({
    ...profile,
    libs: ['fourfold', 'fourfold-js', 'fourfold (native)', 'sodium', 'node', 'noble-hashes', 'noble-curves'],
    sizes: [64],
    // The calls without a message at their size; the password hashes at their least memory here.
    opSizes: { ...profile.opSizes, 'sodium-pwhash-argon2id': [8 * KiB], 'sodium-pwhash-scryptsalsa208sha256': [MiB] },
    timing: { ...profile.timing, sizes: timing },
    capMs: 0,
    opCapMs: undefined,
    versions: {},
  });
  const fourfold = result.cases.filter((c) => c.library.startsWith('fourfold'));
  // The dependencies' bare calls give libsodium's bytes too, on their rows alone.
  const bare = result.cases.filter((c) => !c.library.startsWith('fourfold') && c.library !== 'sodium');
  assert.deepEqual(
    bare.map((c) => `${c.op} ${c.library}`).sort(),
    Object.entries(DEPENDENCY_COLUMNS)
      .flatMap(([op, bareColumns]) => bareColumns.map((column) => `${op} ${column}`))
      .sort(),
  );
  for (const c of bare) assert.equal(c.checkedBy, 'sodium', `${c.op} ${c.library}`);
  assert.deepEqual([...new Set(fourfold.map((c) => c.op))].sort(), [...FAMILIES].sort());
  for (const c of fourfold) assert.equal(c.checkedBy, 'sodium', `${c.op} ${c.size} ${c.library}`);
  // The two tiers everywhere; ready() naming none where node:crypto has ChaCha (Node, Deno).
  const columns = [...new Set(fourfold.map((c) => c.library))].sort();
  assert.ok(columns.join() === 'fourfold,fourfold (native),fourfold-js' || columns.join() === 'fourfold,fourfold-js', columns.join());
  assert.equal(fourfold.length, columns.length * FAMILIES.length);
});
