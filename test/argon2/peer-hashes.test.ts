/**
 * argon2Verify against the strings node-argon2 and @node-rs/argon2 write,
 * made afresh by them at test time: their variants, parameters (node-argon2
 * writes m,p,t), lengths, associated data, secrets and versions; true for
 * the password, false for another; and needsRehash agrees with theirs.
 * Node only: both are native addons, which the bundled engines cannot load
 * (test/argon2/stored-hashes.test.ts has their strings, recorded, for those).
 *
 * Neither is imported by name: each is tried first in a child process (a
 * native binary that does not run here can crash the process that loads
 * it: node-argon2's prebuilt one crashes Node 20 on some machines, where
 * npm ci builds it from C++ source instead), then imported. node-argon2 is
 * an optional dependency of test/native-peers, which npm ci leaves out
 * where it cannot build it (no compiler or Node's headers); @node-rs/argon2
 * only ever uses a prebuilt binary, which it may not have for this
 * platform. A peer that does not load skips its tests, saying why; with
 * CI=true they run and fail with that reason instead.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type * as NodeRs from '@node-rs/argon2';
import { argon2idHash, argon2Verify, needsRehash } from 'fourfold/argon2';
import { rand } from '../helpers.js';

const ON_CI = /^(?:true|1)$/i.test(process.env.CI ?? '');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the tests call of node-argon2: its own types are not imported, as npm ci may leave the package out. */
interface NodeArgon2 {
  argon2d: 0;
  argon2i: 1;
  argon2id: 2;
  hash(
    password: string,
    options?: {
      type?: 0 | 1 | 2;
      memoryCost?: number;
      timeCost?: number;
      parallelism?: number;
      hashLength?: number;
      salt?: Buffer;
      secret?: Buffer;
      associatedData?: Buffer;
      version?: number;
    },
  ): Promise<string>;
  verify(digest: string, password: string): Promise<boolean>;
  needsRehash(digest: string, options: { memoryCost: number; timeCost: number; parallelism: number }): boolean;
}

/** Why a child process that imported a peer failed: its own failure (a timeout), its signal, a missing package, or the first line that names an error. */
function failure(probe: { error?: Error; signal: NodeJS.Signals | null; stderr: string }): string {
  if (probe.error !== undefined) return `the child process that tried it failed: ${probe.error.message}`;
  if (probe.signal !== null) return `loading it ended Node ${process.version} with ${probe.signal}: its native binary does not run here`;
  if (/ERR_MODULE_NOT_FOUND|Cannot find (?:package|module)/.test(probe.stderr)) return 'it is not installed';
  const lines = probe.stderr.trim().split('\n');
  return `it failed: ${lines.find((l) => /Error/.test(l)) ?? lines[0]}`;
}

/**
 * A peer, loaded, or why it is not (`hint`: how an install comes to lack
 * it); `hashOnce` is what the child process runs, with the module as `m`,
 * to show that it works.
 */
async function peer<T>(name: string, specifier: string, hashOnce: string, hint: string): Promise<{ module?: T; missing?: string }> {
  const script = `const m = await import(${JSON.stringify(specifier)});\nawait ${hashOnce};`;
  const probe = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (probe.status !== 0) return { missing: `${name} does not load here (${failure(probe)}): ${hint}` };
  return { module: (await import(specifier)) as T };
}

/** The peer's module; on CI one that does not load fails the test that needs it (elsewhere its tests are skipped). */
function need<T>(p: { module?: T; missing?: string }): T {
  if (p.module === undefined) throw new Error(`${p.missing}; CI=true: its tests fail instead of skipping`);
  return p.module;
}

/** Skipped where the peer does not load, saying why; never on CI. */
const skipWithout = (p: { missing?: string }): false | string => (p.missing === undefined || ON_CI ? false : `${p.missing}; on CI it fails`);

const NODE_ARGON2 = await peer<{ default: NodeArgon2 }>(
  'node-argon2',
  'argon2',
  'm.default.hash("pw", { memoryCost: 8, timeCost: 1, parallelism: 1 })',
  "npm ci builds it from C++ source where its prebuilt binary does not run, and leaves it out without a compiler or Node's headers (test/native-peers/package.json)",
);
const NODE_RS = await peer<typeof NodeRs>(
  '@node-rs/argon2',
  '@node-rs/argon2',
  'm.hash("pw", { memoryCost: 8, timeCost: 1, parallelism: 1 })',
  'it has prebuilt binaries only, in packages for some platforms',
);

/** Checks that `phc` verifies for `password` and not for another, with `opts`; a keyed one not without its key. */
async function verifies(phc: string, password: string, opts?: { key: Uint8Array }): Promise<void> {
  assert.equal(await argon2Verify(phc, password, opts), true, phc);
  assert.equal(await argon2Verify(phc, `${password}.`, opts), false, phc);
  if (opts !== undefined) assert.equal(await argon2Verify(phc, password), false, `${phc} without the key`);
}

const PASSWORDS = ['hunter2', '', 'pässwörd 🔑'];

describe('node-argon2 0.45', { skip: skipWithout(NODE_ARGON2) }, () => {
  it('its default string (argon2id, m=65536, p=4, t=3: the parameters as m,p,t)', async () => {
    const nodeArgon2 = need(NODE_ARGON2).default;
    const phc = await nodeArgon2.hash('correct horse battery staple');
    assert.match(phc, /^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    await verifies(phc, 'correct horse battery staple');
  });

  it('argon2id, argon2i and argon2d, with parallelism 1 to 4 and hash lengths 4, 16, 32 and 64', async () => {
    const nodeArgon2 = need(NODE_ARGON2).default;
    for (const type of [nodeArgon2.argon2id, nodeArgon2.argon2i, nodeArgon2.argon2d] as (0 | 1 | 2)[]) {
      for (const [parallelism, hashLength] of [
        [1, 4],
        [2, 16],
        [3, 32],
        [4, 64],
      ] as const) {
        for (const password of PASSWORDS) {
          await verifies(await nodeArgon2.hash(password, { type, parallelism, hashLength, memoryCost: 64, timeCost: 2 }), password);
        }
      }
    }
  });

  it('its associatedData (written as data=), raw salts of 8 to 48 bytes, its secret and version 0x10', async () => {
    const nodeArgon2 = need(NODE_ARGON2).default;
    const associatedData = Buffer.from(rand(20));
    const withData = await nodeArgon2.hash('hunter2', { memoryCost: 32, timeCost: 1, associatedData });
    assert.match(withData, /,data=/);
    await verifies(withData, 'hunter2');
    assert.equal(await nodeArgon2.verify(withData, 'hunter2'), true);
    for (const length of [8, 16, 33, 48]) {
      await verifies(await nodeArgon2.hash('hunter2', { memoryCost: 16, timeCost: 1, parallelism: 1, salt: Buffer.from(rand(length)) }), 'hunter2');
    }
    const secret = rand(32);
    await verifies(await nodeArgon2.hash('hunter2', { memoryCost: 16, timeCost: 1, parallelism: 1, secret: Buffer.from(secret) }), 'hunter2', { key: secret });
    const v10 = await nodeArgon2.hash('hunter2', { memoryCost: 16, timeCost: 1, parallelism: 1, version: 0x10 });
    assert.match(v10, /\$v=16\$/);
    await verifies(v10, 'hunter2');
  });

  it("its verify takes argon2idHash's strings; needsRehash agrees with its needsRehash", async () => {
    const nodeArgon2 = need(NODE_ARGON2).default;
    const ours = await argon2idHash('hunter2', { m: 64, t: 3, p: 4 });
    assert.equal(await nodeArgon2.verify(ours, 'hunter2'), true);
    assert.equal(await nodeArgon2.verify(ours, 'hunter3'), false);
    const theirs = await nodeArgon2.hash('hunter2', { memoryCost: 64, timeCost: 3, parallelism: 4 });
    for (const [m, t, p] of [
      [64, 3, 4],
      [128, 3, 4],
      [64, 2, 4],
      [64, 3, 1],
    ] as const) {
      const expected = nodeArgon2.needsRehash(theirs, { memoryCost: m, timeCost: t, parallelism: p });
      assert.equal(needsRehash(theirs, { m, t, p }), expected, `m=${m}, t=${t}, p=${p}`);
    }
  });
});

describe('@node-rs/argon2 2.2', { skip: skipWithout(NODE_RS) }, () => {
  /** Its Algorithm and Version are const enums (declarations only): Argon2d 0, Argon2i 1, Argon2id 2; V0x10 0, V0x13 1. */
  const ALGORITHMS = [0, 1, 2] as const;

  it('its default string (argon2id, m=19456, t=2, p=1): true, and not to be rehashed at the defaults', async () => {
    const nodeRs = need(NODE_RS);
    const phc = await nodeRs.hash('correct horse battery staple');
    assert.match(phc, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await verifies(phc, 'correct horse battery staple');
    assert.equal(needsRehash(phc), false);
  });

  it('its three algorithms, both versions, output lengths and lanes', async () => {
    const nodeRs = need(NODE_RS);
    for (const algorithm of ALGORITHMS) {
      for (const version of [0, 1] as const) {
        for (const password of PASSWORDS) {
          const phc = await nodeRs.hash(password, { algorithm, version, memoryCost: 64, timeCost: 2, parallelism: 2, outputLen: 24 });
          assert.match(phc, version === 0 ? /\$v=16\$/ : /\$v=19\$/);
          await verifies(phc, password);
        }
      }
    }
  });

  it('its secret is the key; its verify takes our strings', async () => {
    const nodeRs = need(NODE_RS);
    const secret = rand(16);
    await verifies(await nodeRs.hash('hunter2', { memoryCost: 32, timeCost: 1, secret: Buffer.from(secret) }), 'hunter2', { key: secret });
    const ours = await argon2idHash('hunter2', { m: 64, t: 2, p: 2, key: secret });
    assert.equal(await nodeRs.verify(ours, 'hunter2', { secret: Buffer.from(secret) }), true);
    assert.equal(await nodeRs.verify(ours, 'hunter2'), false);
  });
});
