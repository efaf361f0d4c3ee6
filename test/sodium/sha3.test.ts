/**
 * fourfold/sodium's SHA-3 and XOFs against libsodium-wrappers-sumo:
 * crypto_hash_sha3256 and _sha3512 (one-shot and init/update/final cut at
 * the rate's edges), crypto_xof_shake128/256 and _turboshake128/256
 * (one-shot at output lengths across the rate, and init or
 * init_with_domain, update in pieces, squeeze in pieces); message lengths 0
 * to 1 MiB around both rates (136 and 168 bytes), strings and bytes, every
 * output format; a state of one primitive refused by another's calls; a
 * domain outside 0..255 and absorbing after squeezing refused.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, LENGTHS, loadSumo, mine, newer, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
type Call = (...a: unknown[]) => unknown;

/** Message lengths around both rates, and the shared ones. */
const SIZES = [...new Set([...LENGTHS, 135, 136, 137, 167, 168, 169, 335, 336, 337])].sort((a, b) => a - b);
/** Cut points: none, the first byte, around both rates. */
const CUTS = [[], [0], [1], [135, 136, 137], [167, 168, 169]];

it('crypto_hash_sha3256 and _sha3512: one-shot and in pieces, every length and format', opts, () => {
  for (const name of ['crypto_hash_sha3256', 'crypto_hash_sha3512']) {
    for (const n of SIZES) {
      const m = rand(n);
      same(name, [m], `${n}`);
      for (const cuts of CUTS) {
        const bounds = [0, ...cuts.filter((c) => c <= n), n];
        const results = [mine, peer()].map((lib) => {
          const state = (lib[`${name}_init`] as Call)();
          for (let i = 1; i < bounds.length; i++) (lib[`${name}_update`] as Call)(state, m.subarray(bounds[i - 1], bounds[i]));
          return (lib[`${name}_final`] as Call)(state, 'hex');
        });
        assert.equal(results[0], results[1], `${name} ${n} cut at ${cuts}`);
      }
    }
    for (const f of FORMATS) same(name, ['a string, not bytes', f], `format ${f}`);
  }
});

const XOFS = ['crypto_xof_shake128', 'crypto_xof_shake256', 'crypto_xof_turboshake128', 'crypto_xof_turboshake256'];

it('the XOFs one-shot: every message length, output lengths across the rate, every format', opts, () => {
  for (const name of XOFS) {
    for (const n of SIZES) {
      const m = rand(n);
      for (const out of n < 200 ? [0, 1, 32, 135, 136, 137, 168, 169, 1000] : [64]) same(name, [out, m], `${n} -> ${out}`);
    }
    for (const f of FORMATS) same(name, [32, 'a string, not bytes', f], `format ${f}`);
  }
});

it('the XOFs in pieces: init or init_with_domain, update cut anywhere, squeeze in pieces', opts, () => {
  for (const name of XOFS) {
    for (const n of [0, 1, 136, 168, 1000, 4096]) {
      const m = rand(n);
      for (const domain of [undefined, 0x00, 0x01, 0x06, 0x1f, 0x7f, 0x80, 0xff]) {
        for (const cuts of CUTS) {
          const bounds = [0, ...cuts.filter((c) => c <= n), n];
          const results = [mine, peer()].map((lib) => {
            const state = domain === undefined ? (lib[`${name}_init`] as Call)() : (lib[`${name}_init_with_domain`] as Call)(domain);
            for (let i = 1; i < bounds.length; i++) (lib[`${name}_update`] as Call)(state, m.subarray(bounds[i - 1], bounds[i]));
            return [1, 31, 136, 168, 200].map((k) => (lib[`${name}_squeeze`] as Call)(state, k, 'hex')).join('');
          });
          assert.equal(results[0], results[1], `${name} ${n} domain ${domain} cut at ${cuts}`);
        }
      }
    }
  }
});

it("a state is its own primitive's; a domain outside 0..255 and absorbing after squeezing are refused", opts, () => {
  const sha = sodium.crypto_hash_sha3256_init();
  assert.throws(() => sodium.crypto_hash_sha3512_update(sha, 'x'), /invalid usage/);
  assert.throws(() => sodium.crypto_xof_shake128_squeeze(sha, 1), /invalid usage/);
  const done = sodium.crypto_hash_sha3256_init();
  sodium.crypto_hash_sha3256_final(done);
  assert.throws(() => sodium.crypto_hash_sha3256_final(done), /state_address is unknown/, 'a finished state');
  for (const name of XOFS) {
    const init = mine[`${name}_init_with_domain`] as Call;
    for (const bad of [-1, 1.5, null, undefined, '1']) same(`${name}_init_with_domain`, [bad], `domain ${bad}`);
    // 0.8.4 takes 256 as 0 (an unsigned char); libsodium.js's current source refuses it.
    for (const bad of [256, 0x1ff]) newer(`${name}_init_with_domain`, [bad], 'TypeError: domain must be >= 0 and <= 255', `domain ${bad}`);
    assert.throws(() => init(2 ** 31), TypeError);
    const state = (mine[`${name}_init`] as Call)();
    (mine[`${name}_squeeze`] as Call)(state, 8);
    assert.throws(() => (mine[`${name}_update`] as Call)(state, 'more'), /invalid usage/, `${name}: update after squeeze`);
  }
});

it('the FIPS 202 and RFC 9861 answers for "abc" and the empty message', () => {
  assert.equal(sodium.crypto_hash_sha3256('abc', 'hex'), '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532');
  assert.equal(sodium.crypto_xof_shake128(16, new Uint8Array(0), 'hex'), '7f9c2ba4e88f827d616045507605853e');
  // RFC 9861, section 5: TurboSHAKE128 of the empty message, D = 0x1F, the first 32 bytes.
  assert.equal(sodium.crypto_xof_turboshake128(32, new Uint8Array(0), 'hex'), '1e415f1c5983aff2169217277d17bb538cd945a397ddec541f1ce41af2c1b74c');
});
