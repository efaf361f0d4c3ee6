/**
 * scrypt against three independent implementations: node:crypto (OpenSSL:
 * Node, Deno and Bun have it), libsodium's crypto_pwhash_scryptsalsa208sha256_ll
 * (the sumo build of libsodium-wrappers) and @noble/hashes. Random N from 2
 * to 2^14, r from 1 to 16, p from 1 to 4, passwords and salts of 0 to 200
 * bytes and keys of 1 to 200 bytes, with the edges of each drawn on
 * purpose; both tiers, sync and async.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { scrypt, scryptAsync } from 'fourfold/scrypt';
import { scrypt as nobleScrypt } from '@noble/hashes/scrypt.js';
import { assertBytes, forEachTier, loadSodium, NO_SODIUM, rand, randInt, sumo, type TierName } from '../helpers.js';

interface Case {
  password: Uint8Array;
  salt: Uint8Array;
  N: number;
  r: number;
  p: number;
  dkLen: number;
}

const nodeCrypto = (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.('node:crypto') as
  | typeof import('node:crypto')
  | undefined;
const NO_NODE_SCRYPT: false | string = typeof nodeCrypto?.scryptSync === 'function' ? false : 'not applicable: this engine has no node:crypto';

interface SodiumScrypt {
  crypto_pwhash_scryptsalsa208sha256_ll(password: Uint8Array, salt: Uint8Array, N: number, r: number, p: number, dkLen: number): Uint8Array;
}

/** A value in [lo, hi], the ends drawn one time in four. */
function pick(lo: number, hi: number): number {
  const roll = randInt(8);
  return roll === 0 ? lo : roll === 1 ? hi : lo + randInt(hi - lo + 1);
}

/**
 * A random case whose work N * r * p stays within `limit` (the js tier,
 * which some engines run without a JIT, gets less), the edges of N, r and
 * p included.
 */
function randomCase(limit: number): Case {
  for (;;) {
    const N = 2 ** pick(1, 14);
    const r = pick(1, 16);
    const p = pick(1, 4);
    if (N * r * p > limit) continue;
    return { password: rand(pick(0, 200)), salt: rand(pick(0, 200)), N, r, p, dkLen: pick(1, 200) };
  }
}

const label = (c: Case) => `N=${c.N} r=${c.r} p=${c.p} dkLen=${c.dkLen} password ${c.password.length} salt ${c.salt.length}`;
const budget = (tier: TierName) => (tier === 'simd' ? 2 ** 17 : 2 ** 14);
const options = (c: Case) => ({ N: c.N, r: c.r, p: c.p, dkLen: c.dkLen });

before(async () => {
  await loadSodium();
});

forEachTier('scrypt against its peers', (tier) => {
  it('@noble/hashes: random cases, sync and async', async () => {
    for (let i = 0; i < 24; i++) {
      const c = randomCase(budget(tier));
      const want = nobleScrypt(c.password, c.salt, { ...options(c), maxmem: 2 ** 31 });
      assertBytes(scrypt(c.password, c.salt, options(c)), want, label(c));
      assertBytes(await scryptAsync(c.password, c.salt, options(c)), want, `async ${label(c)}`);
    }
  });

  it('libsodium crypto_pwhash_scryptsalsa208sha256_ll: random cases', { skip: NO_SODIUM }, () => {
    const sodium = sumo() as unknown as SodiumScrypt;
    for (let i = 0; i < 24; i++) {
      const c = randomCase(budget(tier));
      const want = sodium.crypto_pwhash_scryptsalsa208sha256_ll(c.password, c.salt, c.N, c.r, c.p, c.dkLen);
      assertBytes(scrypt(c.password, c.salt, options(c)), want, label(c));
    }
  });

  it('node:crypto.scrypt (OpenSSL): random cases, and the largest N, r and p drawn', { skip: NO_NODE_SCRYPT }, () => {
    const cases = [...Array.from({ length: 24 }, () => randomCase(budget(tier))), { ...randomCase(2), N: 2 ** 14, r: 16, p: tier === 'simd' ? 4 : 1 }];
    for (const c of cases) {
      const want = nodeCrypto!.scryptSync(c.password, c.salt, c.dkLen, { N: c.N, r: c.r, p: c.p, maxmem: 2 ** 31 });
      assertBytes(scrypt(c.password, c.salt, options(c)), new Uint8Array(want), label(c));
    }
  });

  it('a string is its UTF-8 bytes, as the peers take it: ASCII, accents, emoji, a lone surrogate', () => {
    for (const text of ['', 'password', 'pâté', '🔑 key', 'a\ud800b']) {
      const bytes = new TextEncoder().encode(text);
      const opts = { N: 16, r: 1, p: 1 };
      assertBytes(scrypt(text, text, opts), scrypt(bytes, bytes, opts), JSON.stringify(text));
      assertBytes(scrypt(text, 'salt', opts), nobleScrypt(bytes, 'salt', { ...opts, dkLen: 32 }), JSON.stringify(text));
    }
  });

  it('defaults: r = 8, p = 1, dkLen = 32, as node:crypto and every KDF user writes them', () => {
    const want = nobleScrypt('pw', 'salt', { N: 1024, r: 8, p: 1, dkLen: 32 });
    const got = scrypt('pw', 'salt', { N: 1024 });
    assert.equal(got.length, 32);
    assertBytes(got, want);
  });
});
