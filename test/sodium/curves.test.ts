/**
 * fourfold/sodium's Ed25519 and Ristretto255 group calls against
 * libsodium-wrappers-sumo, byte for byte: crypto_core_ed25519_* (validity,
 * add, sub, from_uniform, from_hash, the scalar arithmetic) and
 * crypto_scalarmult_ed25519_* (clamped and not, base and not);
 * crypto_core_ristretto255_* and crypto_scalarmult_ristretto255*. Inputs:
 * random points and bytes, the small-order points, non-canonical
 * encodings (y of p and above, x = 0 with its sign bit), the identity,
 * scalars 0, L, L - 1, 2^256 - 1 and random ones unreduced; every output
 * format; wrong lengths. Where 0.8.4 read a wrong-length input without
 * checking it (from_uniform, from_hash), libsodium.js's current source
 * throws, as fourfold.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { ED25519_TORSION_SUBGROUP } from '@noble/curves/ed25519.js';
import * as sodium from 'fourfold/sodium';
import { NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, loadSumo, newer, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
type Call = (...a: unknown[]) => Uint8Array;

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const le = (n: bigint, length = 32): Uint8Array => {
  const b = new Uint8Array(length);
  for (let i = 0; i < length; i++) b[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return b;
};
const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

/** Scalars at the edges: 0, 1, L - 1, L, L + 1, 2^252, 2^255 - 1, 2^256 - 1, and random unreduced ones. */
const SCALARS = (): Uint8Array[] => [0n, 1n, L - 1n, L, L + 1n, 2n ** 252n, 2n ** 255n - 1n, 2n ** 256n - 1n].map((n) => le(n)).concat([rand(32), rand(32)]);

/** Encodings at the edges of Ed25519's decoding: small order, non-canonical y (p, p + 1, 2^255 - 1), x = 0 with the sign bit set, the base point. */
function edgePoints(): Uint8Array[] {
  const torsion = ED25519_TORSION_SUBGROUP.map(hex);
  const withSign = (b: Uint8Array) => {
    const c = b.slice();
    c[31] |= 0x80;
    return c;
  };
  return [
    ...torsion,
    ...torsion.map(withSign),
    le(P),
    le(P + 1n),
    le(2n ** 255n - 1n),
    withSign(le(1n)),
    withSign(le(P - 1n)),
    le(0n),
    sodium.crypto_scalarmult_ed25519_base_noclamp(le(1n)),
  ];
}

it('crypto_core_ed25519: is_valid_point, add, sub over random, small-order and non-canonical encodings', opts, () => {
  const points = [...edgePoints(), ...Array.from({ length: 12 }, () => sodium.crypto_core_ed25519_random()), rand(32), rand(32)];
  for (const p of points) {
    same('crypto_core_ed25519_is_valid_point', [p]);
    for (const q of points.slice(0, 20)) {
      same('crypto_core_ed25519_add', [p, q]);
      same('crypto_core_ed25519_sub', [p, q]);
    }
  }
  const [p, q] = [sodium.crypto_core_ed25519_random(), sodium.crypto_core_ed25519_random()];
  for (const f of FORMATS) same('crypto_core_ed25519_add', [p, q, f]);
  same('crypto_core_ed25519_add', [p, rand(31)]);
  same('crypto_core_ed25519_is_valid_point', [rand(33)]);
  for (let i = 0; i < 50; i++) assert.equal(sodium.crypto_core_ed25519_is_valid_point(sodium.crypto_core_ed25519_random()), true);
});

it('crypto_core_ed25519_from_uniform and _from_hash: random and edge inputs; wrong lengths throw as libsodium.js now does', opts, () => {
  for (const r of [
    le(0n),
    le(1n),
    le(P - 1n),
    le(P),
    le(2n ** 255n - 1n),
    le(2n ** 256n - 1n),
    new Uint8Array(32).fill(0x80),
    ...Array.from({ length: 40 }, () => rand(32)),
  ]) {
    same('crypto_core_ed25519_from_uniform', [r]);
  }
  for (const h of [
    new Uint8Array(64),
    new Uint8Array(64).fill(0xff),
    le(2n ** 511n, 64).reverse(),
    le(P, 64).reverse(),
    ...Array.from({ length: 40 }, () => rand(64)),
  ]) {
    same('crypto_core_ed25519_from_hash', [h]);
  }
  for (const f of FORMATS) same('crypto_core_ed25519_from_uniform', [rand(32), f]);
  newer('crypto_core_ed25519_from_uniform', [rand(31)], 'TypeError: invalid r length');
  newer('crypto_core_ed25519_from_hash', [rand(63)], 'TypeError: invalid r length');
  newer('crypto_core_ristretto255_from_hash', [rand(32)], 'TypeError: invalid r length');
});

it('crypto_scalarmult_ed25519, _noclamp, _base, _base_noclamp: edge scalars and points, refusals as libsodium', opts, () => {
  const points = [...edgePoints(), sodium.crypto_core_ed25519_random(), sodium.crypto_core_ed25519_random(), rand(32)];
  for (const n of SCALARS()) {
    same('crypto_scalarmult_ed25519_base', [n]);
    same('crypto_scalarmult_ed25519_base_noclamp', [n]);
    for (const p of points) {
      same('crypto_scalarmult_ed25519', [n, p]);
      same('crypto_scalarmult_ed25519_noclamp', [n, p]);
    }
  }
  for (const f of FORMATS) same('crypto_scalarmult_ed25519', [rand(32), sodium.crypto_core_ed25519_random(), f]);
  same('crypto_scalarmult_ed25519', [rand(31), sodium.crypto_core_ed25519_random()]);
  same('crypto_scalarmult_ed25519_base', [rand(33)]);
});

it('the scalar arithmetic of both groups: invert, negate, complement, add, sub, mul, reduce, random', opts, () => {
  for (const group of ['crypto_core_ed25519', 'crypto_core_ristretto255']) {
    const scalars = SCALARS();
    for (const x of scalars) {
      for (const op of ['invert', 'negate', 'complement']) same(`${group}_scalar_${op}`, [x]);
      for (const y of scalars) for (const op of ['add', 'sub', 'mul']) same(`${group}_scalar_${op}`, [x, y]);
    }
    for (const s of [new Uint8Array(64), new Uint8Array(64).fill(0xff), le(L, 64), le(L * L, 64), rand(64), rand(64)]) same(`${group}_scalar_reduce`, [s]);
    same(`${group}_scalar_reduce`, [rand(32)]);
    same(`${group}_scalar_add`, [rand(31), rand(32)]);
    for (const f of FORMATS) same(`${group}_scalar_mul`, [rand(32), rand(32), f]);
    for (let i = 0; i < 50; i++) {
      const r = (sodium as unknown as Record<string, Call>)[`${group}_scalar_random`]();
      let n = 0n;
      for (let j = 31; j >= 0; j--) n = (n << 8n) | BigInt(r[j]);
      assert.ok(n > 0n && n < L, `${group}_scalar_random in [1, L)`);
    }
  }
});

it('crypto_core_ristretto255 and crypto_scalarmult_ristretto255: elements, the map, bad encodings, edge scalars', opts, () => {
  // RFC 9496 §A.2's bad encodings: non-canonical, negative, no square root.
  const bad = [
    '00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
    'f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    '0100000000000000000000000000000000000000000000000000000000000000',
  ];
  const elements = [new Uint8Array(32), ...bad.map(hex), ...Array.from({ length: 10 }, () => sodium.crypto_core_ristretto255_random()), rand(32), rand(32)];
  for (const p of elements) {
    same('crypto_core_ristretto255_is_valid_point', [p]);
    for (const q of elements) {
      same('crypto_core_ristretto255_add', [p, q]);
      same('crypto_core_ristretto255_sub', [p, q]);
    }
    for (const n of SCALARS()) same('crypto_scalarmult_ristretto255', [n, p]);
  }
  for (const n of SCALARS()) same('crypto_scalarmult_ristretto255_base', [n]);
  for (const h of [new Uint8Array(64), new Uint8Array(64).fill(0xff), ...Array.from({ length: 40 }, () => rand(64))])
    same('crypto_core_ristretto255_from_hash', [h]);
  for (const f of FORMATS) same('crypto_core_ristretto255_from_hash', [rand(64), f]);
  same('crypto_scalarmult_ristretto255', [rand(32), rand(31)]);
  for (let i = 0; i < 20; i++) assert.equal(sodium.crypto_core_ristretto255_is_valid_point(sodium.crypto_core_ristretto255_random()), true);
  assert.equal(peer().crypto_core_ristretto255_BYTES, sodium.crypto_core_ristretto255_BYTES);
});
