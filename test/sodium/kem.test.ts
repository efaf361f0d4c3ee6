/**
 * fourfold/sodium's crypto_kem (X-Wing), crypto_kem_xwing_* and
 * crypto_kem_mlkem768_* against libsodium-wrappers-sumo: key pairs from
 * seeds and deterministic encapsulations byte for byte, each side
 * decapsulating the other's ciphertexts, implicit rejection of changed
 * ciphertexts giving the same other secret on both, every output format,
 * wrong lengths and invalid public keys refused as there.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, loadSumo, mine, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
type Call = (...a: unknown[]) => unknown;
type Pair = { publicKey: Uint8Array; privateKey: Uint8Array };

const KEMS = [
  { prefix: 'crypto_kem_xwing', seed: 32, encSeed: 64 },
  { prefix: 'crypto_kem_mlkem768', seed: 64, encSeed: 32 },
];

for (const { prefix, seed, encSeed } of KEMS) {
  it(`${prefix}: key pairs, encapsulations and decapsulations byte for byte; each side's ciphertexts`, opts, () => {
    for (let i = 0; i < 8; i++) {
      const pair = same(`${prefix}_seed_keypair`, [rand(seed)]) as Pair;
      const e = same(`${prefix}_enc_deterministic`, [pair.publicKey, rand(encSeed)]) as { ciphertext: Uint8Array; sharedSecret: Uint8Array };
      same(`${prefix}_dec`, [e.ciphertext, pair.privateKey]);
      for (const [encer, decer] of [
        [mine, peer()],
        [peer(), mine],
      ]) {
        const r = (encer![`${prefix}_enc`] as Call)(pair.publicKey) as { ciphertext: Uint8Array; sharedSecret: Uint8Array };
        assert.deepEqual((decer![`${prefix}_dec`] as Call)(r.ciphertext, pair.privateKey), r.sharedSecret);
      }
      const changed = e.ciphertext.slice();
      changed[i * 100] ^= 1;
      same(`${prefix}_dec`, [changed, pair.privateKey], 'implicit rejection');
    }
    const pair = (mine[`${prefix}_keypair`] as Call)() as Pair & { keyType: string };
    assert.equal(pair.keyType, ((peer()[`${prefix}_keypair`] as Call)() as { keyType: string }).keyType);
    for (const f of FORMATS) {
      same(`${prefix}_seed_keypair`, [rand(seed), f]);
      same(`${prefix}_enc_deterministic`, [pair.publicKey, rand(encSeed), f]);
    }
    same(`${prefix}_seed_keypair`, [rand(seed - 1)]);
    same(`${prefix}_enc_deterministic`, [pair.publicKey, rand(encSeed + 1)]);
    same(`${prefix}_enc`, [pair.publicKey.subarray(1)]);
    same(`${prefix}_dec`, [rand(100), pair.privateKey]);
    same(`${prefix}_dec`, [
      (mine[`${prefix}_enc`] as Call as (pk: Uint8Array) => { ciphertext: Uint8Array })(pair.publicKey).ciphertext,
      pair.privateKey.subarray(1),
    ]);
  });
}

it('ML-KEM-768 public keys with coefficients past q are refused as there', opts, () => {
  same('crypto_kem_mlkem768_enc', [new Uint8Array(1184).fill(255)]);
  same('crypto_kem_mlkem768_enc_deterministic', [new Uint8Array(1184).fill(255), rand(32)]);
});

it('crypto_kem: X-Wing, as libsodium', opts, () => {
  same('crypto_kem_primitive', []);
  const pair = same('crypto_kem_seed_keypair', [rand(32)]) as Pair;
  assert.deepEqual(pair, sodium.crypto_kem_xwing_seed_keypair(pair.privateKey));
  const theirs = (peer().crypto_kem_enc as Call)(pair.publicKey) as { ciphertext: Uint8Array; sharedSecret: Uint8Array };
  assert.deepEqual(sodium.crypto_kem_dec(theirs.ciphertext, pair.privateKey), theirs.sharedSecret);
  assert.equal(sodium.crypto_kem_keypair().keyType, 'xwing');
});
