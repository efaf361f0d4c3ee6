/**
 * fourfold/sodium's public-key boxes against libsodium-wrappers-sumo:
 * crypto_box and crypto_box_curve25519xchacha20poly1305 (key pairs from
 * seeds, beforenm, easy and detached, their _afternm forms, open), sealed
 * boxes each side opens from the other, crypto_scalarmult and crypto_kx;
 * byte for byte where the call is deterministic, over message lengths 0
 * to 1 MiB and every output format; wrong keys, changed bytes and
 * low-order public keys refused with libsodium-wrappers' errors.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { forEachTier, NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, LENGTHS, loadSumo, mine, onNativePath, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
type Call = (...a: unknown[]) => unknown;
type Pair = { publicKey: Uint8Array; privateKey: Uint8Array };

/** Low-order X25519 public keys (libsodium's blocklist's first entries): their shared secret is all zeros. */
const LOW_ORDER = [new Uint8Array(32), Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0))];

const flipped = (b: Uint8Array, i: number): Uint8Array => {
  const c = b.slice();
  c[i] ^= 1;
  return c;
};

function againstLibsodium(): void {
  for (const prefix of ['crypto_box', 'crypto_box_curve25519xchacha20poly1305']) {
    it(`${prefix}: seed key pairs, beforenm, easy, detached and afternm byte for byte; open`, opts, () => {
      for (const n of LENGTHS) {
        const alice = same(`${prefix}_seed_keypair`, [rand(32)]) as Pair;
        const bob = same(`${prefix}_seed_keypair`, [rand(32)]) as Pair;
        const nonce = rand(24);
        const m = rand(n);
        const box = same(`${prefix}_easy`, [m, nonce, bob.publicKey, alice.privateKey], `${n}`) as Uint8Array;
        same(`${prefix}_open_easy`, [box, nonce, alice.publicKey, bob.privateKey], `${n}`);
        const d = same(`${prefix}_detached`, [m, nonce, bob.publicKey, alice.privateKey], `${n}`) as { ciphertext: Uint8Array; mac: Uint8Array };
        same(`${prefix}_open_detached`, [d.ciphertext, d.mac, nonce, alice.publicKey, bob.privateKey], `${n}`);
        const k = same(`${prefix}_beforenm`, [bob.publicKey, alice.privateKey]) as Uint8Array;
        same(`${prefix}_easy_afternm`, [m, nonce, k], `${n}`);
        same(`${prefix}_open_easy_afternm`, [box, nonce, k], `${n}`);
        if (prefix !== 'crypto_box') {
          same(`${prefix}_detached_afternm`, [m, nonce, k], `${n}`);
          same(`${prefix}_open_detached_afternm`, [d.ciphertext, d.mac, nonce, k], `${n}`);
        }
        if (n <= 65) {
          for (let i = 0; i < box.length; i += 5) same(`${prefix}_open_easy`, [flipped(box, i), nonce, alice.publicKey, bob.privateKey], `byte ${i}`);
          same(`${prefix}_open_easy`, [box, flipped(nonce, 0), alice.publicKey, bob.privateKey]);
          same(`${prefix}_open_easy`, [box, nonce, bob.publicKey, bob.privateKey]);
          same(`${prefix}_open_easy_afternm`, [box, nonce, flipped(k, 3)]);
          same(`${prefix}_open_detached`, [d.ciphertext, flipped(d.mac, 15), nonce, alice.publicKey, bob.privateKey]);
        }
      }
      const a = sodium.crypto_box_seed_keypair(rand(32));
      const nonce = rand(24);
      for (const f of FORMATS) {
        same(`${prefix}_easy`, ['text é', nonce, a.publicKey, a.privateKey, f]);
        same(`${prefix}_seed_keypair`, [rand(32), f]);
        same(`${prefix}_detached`, ['text', nonce, a.publicKey, a.privateKey, f]);
      }
      for (const low of LOW_ORDER) {
        same(`${prefix}_easy`, ['m', nonce, low, a.privateKey]);
        same(`${prefix}_beforenm`, [low, a.privateKey]);
      }
      for (const short of [0, 15]) same(`${prefix}_open_easy`, [rand(short), nonce, a.publicKey, a.privateKey]);
      same(`${prefix}_easy`, ['m', rand(23), a.publicKey, a.privateKey]);
      same(`${prefix}_easy`, ['m', nonce, rand(31), a.privateKey]);
      same(`${prefix}_easy`, ['m', nonce, a.publicKey, rand(33)]);
      same(`${prefix}_seed_keypair`, [rand(31)]);
      const pair = (mine[`${prefix}_keypair`] as Call)() as Pair & { keyType: string };
      assert.equal(pair.keyType, ((peer()[`${prefix}_keypair`] as Call)() as { keyType: string }).keyType);
      assert.deepEqual(sodium.crypto_scalarmult_base(pair.privateKey), pair.publicKey);
    });

    it(`${prefix}_seal: each side opens the other's sealed boxes; wrong keys and changes refused`, opts, () => {
      for (const n of LENGTHS) {
        const bob = sodium.crypto_box_seed_keypair(rand(32));
        const m = rand(n);
        for (const [sealer, opener] of [
          [mine, peer()],
          [peer(), mine],
          [mine, mine],
        ]) {
          const sealed = (sealer![`${prefix}_seal`] as Call)(m, bob.publicKey) as Uint8Array;
          assert.equal(sealed.length, n + 48);
          assert.deepEqual((opener![`${prefix}_seal_open`] as Call)(sealed, bob.publicKey, bob.privateKey), m, `${n}`);
        }
        if (n <= 65) {
          const sealed = (mine[`${prefix}_seal`] as Call)(m, bob.publicKey) as Uint8Array;
          for (let i = 0; i < sealed.length; i += 7) {
            assert.throws(() => (mine[`${prefix}_seal_open`] as Call)(flipped(sealed, i), bob.publicKey, bob.privateKey), {
              message: 'incorrect key pair for the given ciphertext',
            });
          }
        }
      }
      const bob = sodium.crypto_box_seed_keypair(rand(32));
      const eve = sodium.crypto_box_seed_keypair(rand(32));
      if (prefix === 'crypto_box') same(`${prefix}_seal_open`, [sodium.crypto_box_seal('m', bob.publicKey), eve.publicKey, eve.privateKey]);
      same(`${prefix}_seal_open`, [rand(47), bob.publicKey, bob.privateKey]);
      if (prefix === 'crypto_box') same(`${prefix}_seal`, ['m', LOW_ORDER[0]]);
      // libsodium-wrappers' xchacha20poly1305 seal and seal_open ignore libsodium's -1 and return bytes: fourfold throws.
      else assert.throws(() => (mine[`${prefix}_seal`] as Call)('m', LOW_ORDER[0]), { message: 'invalid usage' });
      assert.throws(() => (mine[`${prefix}_seal_open`] as Call)(rand(60), bob.publicKey, bob.privateKey), {
        message: 'incorrect key pair for the given ciphertext',
      });
      for (const f of FORMATS) {
        const sealed = (mine[`${prefix}_seal`] as Call)('text', bob.publicKey, f === 'text' ? 'hex' : f);
        assert.ok(sealed !== undefined);
        same(`${prefix}_seal_open`, [(mine[`${prefix}_seal`] as Call)('text', bob.publicKey), bob.publicKey, bob.privateKey, f]);
      }
    });
  }

  it('crypto_scalarmult and _base; crypto_kx key pairs and session keys', opts, () => {
    for (let i = 0; i < 30; i++) {
      const sk = rand(32);
      const pk = same('crypto_scalarmult_base', [sk]) as Uint8Array;
      same('crypto_scalarmult', [rand(32), pk]);
      same('crypto_scalarmult', [sk, rand(32)]);
      const client = same('crypto_kx_seed_keypair', [rand(32)]) as Pair;
      const server = same('crypto_kx_seed_keypair', [rand(32)]) as Pair;
      const c = same('crypto_kx_client_session_keys', [client.publicKey, client.privateKey, server.publicKey]) as {
        sharedRx: Uint8Array;
        sharedTx: Uint8Array;
      };
      const s = same('crypto_kx_server_session_keys', [server.publicKey, server.privateKey, client.publicKey]) as {
        sharedRx: Uint8Array;
        sharedTx: Uint8Array;
      };
      assert.deepEqual([c.sharedRx, c.sharedTx], [s.sharedTx, s.sharedRx]);
    }
    for (const low of LOW_ORDER) {
      same('crypto_scalarmult', [rand(32), low]);
      const pair = sodium.crypto_kx_keypair();
      same('crypto_kx_client_session_keys', [pair.publicKey, pair.privateKey, low]);
      same('crypto_kx_server_session_keys', [pair.publicKey, pair.privateKey, low]);
    }
    const pair = sodium.crypto_kx_keypair();
    for (const f of FORMATS) {
      same('crypto_kx_client_session_keys', [pair.publicKey, pair.privateKey, pair.publicKey, f]);
      same('crypto_kx_seed_keypair', [rand(32), f]);
      same('crypto_scalarmult_base', [rand(32), f]);
    }
    same('crypto_kx_client_session_keys', [pair.publicKey, pair.privateKey, rand(31)]);
    same('crypto_kx_server_session_keys', [rand(33), pair.privateKey, pair.publicKey]);
    same('crypto_scalarmult', [rand(31), pair.publicKey]);
    assert.equal(sodium.crypto_kx_keypair().keyType, ((peer().crypto_kx_keypair as Call)() as { keyType: string }).keyType);
  });
}

forEachTier('fourfold/sodium boxes against libsodium-wrappers-sumo', againstLibsodium);
onNativePath('fourfold/sodium boxes against libsodium-wrappers-sumo', againstLibsodium);
