/**
 * fourfold/sodium's crypto_sign against libsodium-wrappers-sumo: key
 * pairs from seeds, combined and detached signatures byte for byte over
 * message lengths 0 to 1 MiB, open and verify_detached (changed bytes,
 * wrong keys, small-order and non-canonical keys and signatures answered
 * as there; cofactorless, an R with a torsion part refused), private keys
 * whose halves disagree signed as libsodium signs them, Ed25519ph through
 * init / update / final in any pieces, the conversions to X25519 keys,
 * every output format, wrong arguments.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, forEachPath, LENGTHS, loadSumo, mine, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
type Call = (...a: unknown[]) => unknown;
type Pair = { publicKey: Uint8Array; privateKey: Uint8Array };

const flipped = (b: Uint8Array, i: number): Uint8Array => {
  const c = b.slice();
  c[i] ^= 1;
  return c;
};

/** Encodings libsodium refuses as a public key or R: small order (the identity, order 2, 4 and 8 points) and non-canonical ones. */
const SMALL_ORDER = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  // y = p + 1, the identity's y written above p.
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
]
  .map((h) => Uint8Array.from(Buffer.from(h, 'hex')))
  // Each with x's sign bit flipped as well.
  .flatMap((b) => [b, Uint8Array.from(b, (x, i) => (i === 31 ? x ^ 0x80 : x))]);

forEachPath('fourfold/sodium signatures against libsodium-wrappers-sumo', () => {
  it('crypto_sign: key pairs, signatures and verification byte for byte', opts, () => {
    for (const n of LENGTHS) {
      const pair = same('crypto_sign_seed_keypair', [rand(32)]) as Pair;
      const m = rand(n);
      const sig = same('crypto_sign_detached', [m, pair.privateKey], `${n}`) as Uint8Array;
      const signed = same('crypto_sign', [m, pair.privateKey], `${n}`) as Uint8Array;
      same('crypto_sign_open', [signed, pair.publicKey], `${n}`);
      same('crypto_sign_verify_detached', [sig, m, pair.publicKey]);
      if (n <= 65) {
        for (let i = 0; i < 64; i += 3) {
          same('crypto_sign_verify_detached', [flipped(sig, i), m, pair.publicKey], `signature byte ${i}`);
          same('crypto_sign_open', [flipped(signed, i), pair.publicKey], `signature byte ${i}`);
        }
        if (n > 0) same('crypto_sign_verify_detached', [sig, flipped(m, n - 1), pair.publicKey]);
        for (let i = 0; i < 32; i += 4) same('crypto_sign_verify_detached', [sig, m, flipped(pair.publicKey, i)], `key byte ${i}`);
      }
    }
    const pair = sodium.crypto_sign_seed_keypair(rand(32));
    const sig = sodium.crypto_sign_detached('message', pair.privateKey);
    for (const bad of SMALL_ORDER) {
      same('crypto_sign_verify_detached', [sig, 'message', bad], 'small-order key');
      const r = sig.slice();
      r.set(bad);
      same('crypto_sign_verify_detached', [r, 'message', pair.publicKey], 'small-order R');
    }
    // S not below the group order: libsodium refuses it.
    const big = sig.slice();
    big.fill(0xff, 32);
    same('crypto_sign_verify_detached', [big, 'message', pair.publicKey]);
    for (const f of FORMATS) {
      same('crypto_sign', ['text é', pair.privateKey, f]);
      same('crypto_sign_detached', ['text', pair.privateKey, f]);
      same('crypto_sign_seed_keypair', [rand(32), f]);
      same('crypto_sign_open', [sodium.crypto_sign('text', pair.privateKey), pair.publicKey, f]);
    }
    same('crypto_sign_open', [rand(63), pair.publicKey]);
    same('crypto_sign_verify_detached', [rand(63), 'm', pair.publicKey]);
    same('crypto_sign', ['m', rand(32)]);
    same('crypto_sign_seed_keypair', [rand(31)]);
    const fresh = sodium.crypto_sign_keypair();
    assert.equal(fresh.keyType, 'ed25519');
    assert.equal(fresh.privateKey.length, 64);
    assert.ok((peer().crypto_sign_verify_detached as Call)(sodium.crypto_sign_detached('x', fresh.privateKey), 'x', fresh.publicKey));
  });

  it('crypto_sign_init / update / final_create / final_verify: Ed25519ph in any pieces', opts, () => {
    for (const n of [0, 1, 64, 1000, 100000]) {
      const pair = sodium.crypto_sign_seed_keypair(rand(32));
      const m = rand(n);
      const results = [mine, peer()].map((lib) => {
        const state = (lib.crypto_sign_init as Call)();
        (lib.crypto_sign_update as Call)(state, m.subarray(0, n >> 1));
        (lib.crypto_sign_update as Call)(state, m.subarray(n >> 1));
        return (lib.crypto_sign_final_create as Call)(state, pair.privateKey) as Uint8Array;
      });
      assert.deepEqual(results[0], results[1], `${n}`);
      for (const [lib, sig, expected] of [
        [mine, results[1]!, true],
        [peer(), results[0]!, true],
        [mine, flipped(results[0]!, 5), false],
      ] as const) {
        const state = (lib.crypto_sign_init as Call)();
        (lib.crypto_sign_update as Call)(state, m);
        assert.equal((lib.crypto_sign_final_verify as Call)(state, sig, pair.publicKey), expected);
      }
    }
    const state = sodium.crypto_sign_init();
    sodium.crypto_sign_final_create(state, sodium.crypto_sign_keypair().privateKey);
    assert.throws(() => sodium.crypto_sign_update(state, 'm'), /state_address is unknown/, 'a state ends with final');
  });

  it("a private key's halves need not agree: its second half is the public key signed with, as libsodium's", opts, () => {
    for (const n of [0, 1, 63, 64, 65, 1000]) {
      const m = rand(n);
      const random = rand(64);
      // Another key's public half, as a program that pairs a seed with a stored public key may.
      const mixed = new Uint8Array([...rand(32), ...sodium.crypto_sign_keypair().publicKey]);
      for (const sk of [random, mixed]) {
        same('crypto_sign_detached', [m, sk], `${n}`);
        same('crypto_sign', [m, sk, 'hex'], `${n}`);
        const ph = [mine, peer()].map((lib) => {
          const state = (lib.crypto_sign_init as Call)();
          (lib.crypto_sign_update as Call)(state, m);
          return (lib.crypto_sign_final_create as Call)(state, sk) as Uint8Array;
        });
        assert.deepEqual(ph[0], ph[1], `Ed25519ph ${n}`);
      }
    }
  });

  it('verification is cofactorless: an R with a torsion part is refused, as libsodium refuses it', opts, () => {
    // A signature made with R' = rB + T for T of order 8: the cofactored equation ([8]) holds, libsodium's does not.
    const { Point } = ed25519;
    const L = Point.Fn.ORDER;
    const T = Point.fromBytes(Uint8Array.from(Buffer.from('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 'hex')));
    const seed = rand(32);
    const { scalar, pointBytes: pk } = ed25519.utils.getExtendedPublicKey(seed);
    for (const prehashed of [false, true]) {
      const m = rand(40);
      const signed = prehashed ? sha512(m) : m;
      const dom = prehashed ? new Uint8Array([...new TextEncoder().encode('SigEd25519 no Ed25519 collisions'), 1, 0]) : new Uint8Array(0);
      const r = bytesToNumberLE(rand(32)) % L;
      const sigOf = (R: Uint8Array) => {
        const k = bytesToNumberLE(sha512(new Uint8Array([...dom, ...R, ...pk, ...signed]))) % L;
        return new Uint8Array([...R, ...numberToBytesLE((r + k * scalar) % L, 32)]);
      };
      const honest = sigOf(Point.BASE.multiply(r).toBytes());
      const torsion = sigOf(Point.BASE.multiply(r).add(T).toBytes());
      assert.ok(ed25519.verify(torsion, signed, pk) || prehashed, 'the cofactored equation holds');
      for (const [sig, expected] of [
        [honest, true],
        [torsion, false],
      ] as const) {
        if (!prehashed) {
          assert.equal(same('crypto_sign_verify_detached', [sig, m, pk]), expected);
          same('crypto_sign_open', [new Uint8Array([...sig, ...m]), pk]);
          continue;
        }
        for (const lib of [mine, peer()]) {
          const state = (lib.crypto_sign_init as Call)();
          (lib.crypto_sign_update as Call)(state, m);
          assert.equal((lib.crypto_sign_final_verify as Call)(state, sig, pk), expected, lib === mine ? 'fourfold' : 'libsodium');
        }
      }
    }
  });

  it('crypto_sign_update takes the chunk as it is at the call: one array reused for every chunk, plain or a Node Buffer', opts, () => {
    const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
    const pair = sodium.crypto_sign_seed_keypair(rand(32));
    const chunks = [rand(100), rand(100), rand(37)];
    const reused = (b: Uint8Array) => [new Uint8Array(b), ...(NodeBuffer === undefined ? [] : [NodeBuffer.alloc(b.length)])];
    for (const buffer of reused(new Uint8Array(100))) {
      // As a program reading a file into one buffer does: each chunk written over the last before final.
      const results = [mine, peer()].map((lib) => {
        const state = (lib.crypto_sign_init as Call)();
        for (const c of chunks) {
          buffer.set(c);
          (lib.crypto_sign_update as Call)(state, buffer.subarray(0, c.length));
        }
        buffer.fill(0);
        return (lib.crypto_sign_final_create as Call)(state, pair.privateKey) as Uint8Array;
      });
      assert.deepEqual(results[0], results[1], buffer.constructor.name);
    }
  });

  it('the Ed25519 keys to X25519 keys, and the parts of a private key', opts, () => {
    for (let i = 0; i < 30; i++) {
      const pair = sodium.crypto_sign_seed_keypair(rand(32));
      const xpk = same('crypto_sign_ed25519_pk_to_curve25519', [pair.publicKey]) as Uint8Array;
      const xsk = same('crypto_sign_ed25519_sk_to_curve25519', [pair.privateKey]) as Uint8Array;
      assert.deepEqual(sodium.crypto_scalarmult_base(xsk), xpk);
      same('crypto_sign_ed25519_sk_to_pk', [pair.privateKey]);
      same('crypto_sign_ed25519_sk_to_seed', [pair.privateKey, 'hex']);
      same('crypto_sign_ed25519_pk_to_curve25519', [rand(32)], 'random bytes');
      // Bytes that are seldom UTF-8, as text: the formatting's own error, not "invalid key".
      same('crypto_sign_ed25519_pk_to_curve25519', [pair.publicKey, 'text']);
    }
    for (const bad of SMALL_ORDER) same('crypto_sign_ed25519_pk_to_curve25519', [bad]);
    same('crypto_sign_ed25519_pk_to_curve25519', [new Uint8Array(32).fill(255)]);
    same('crypto_sign_ed25519_sk_to_curve25519', [rand(32)]);
  });
});
