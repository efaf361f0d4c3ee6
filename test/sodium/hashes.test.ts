/**
 * fourfold/sodium's hashes and MACs against libsodium-wrappers-sumo:
 * crypto_generichash (output lengths 16..64, 0..15 and 65 refused, keys of 0..64 bytes,
 * init/update/final in pieces, salt_personal), crypto_kdf (every subkey
 * length, ids up to 2^64 - 1, contexts), crypto_shorthash and _siphashx24,
 * crypto_auth and its HMACs (one-shot, verify, init/update/final with keys
 * of any length), crypto_hash and SHA-256/512 incremental; over message
 * lengths 0 to 1 MiB, strings and bytes, every output format; wrong
 * arguments throw as there.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { forEachTier, NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, LENGTHS, loadSumo, mine, newer, onNativePath, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
type Call = (...a: unknown[]) => unknown;

/** Runs an init/update/final family on both with `pieces` of `message`; asserts the same output. */
function incremental(prefix: string, initArgs: unknown[], message: Uint8Array, finalArgs: unknown[], label: string): void {
  for (const cuts of [[], [0], [1], [63, 64, 65], [Math.floor(message.length / 3), Math.floor(message.length / 2)]]) {
    const bounds = [0, ...cuts.filter((c) => c <= message.length), message.length];
    const results = [mine, peer()].map((lib) => {
      const state = (lib[`${prefix}_init`] as Call)(...initArgs);
      for (let i = 1; i < bounds.length; i++) (lib[`${prefix}_update`] as Call)(state, message.subarray(bounds[i - 1], bounds[i]));
      return (lib[`${prefix}_final`] as Call)(state, ...finalArgs, 'hex');
    });
    assert.equal(results[0], results[1], `${prefix} ${label} cut at ${cuts}`);
  }
}

function againstLibsodium(): void {
  it('crypto_generichash: every output length, keys of every length, in pieces, every format', opts, () => {
    for (const n of LENGTHS) {
      const m = rand(n);
      for (const len of n < 200 ? [16, 17, 32, 63, 64] : [32, 64]) {
        for (const key of n < 200 ? [null, undefined, new Uint8Array(0), rand(1), rand(16), rand(32), rand(64), 'string key'] : [null, rand(64)]) {
          same('crypto_generichash', [len, m, key], `${n}/${len}`);
        }
      }
      incremental('crypto_generichash', [rand(32), 32], m, [32], `${n}`);
      incremental('crypto_generichash', [null, 64], m, [64], `${n}`);
      incremental('crypto_generichash', [null, 64], m, [16], `${n} read shorter`);
    }
    for (const f of FORMATS) same('crypto_generichash', [32, 'text', null, f]);
    for (const len of [-1, '32', 1.5]) same('crypto_generichash', [len, 'm']);
    // 1..15 bytes: 0.8.4 hashes them (and "invalid usage" for 0 and 65), libsodium.js now refuses 0..15 and 65 as out of range.
    const range = (name: string) => `TypeError: ${name} must be >= 16 and <= 64`;
    for (const len of [0, 1, 15, 65]) {
      newer('crypto_generichash', [len, 'm'], range('hash_length'), `${len}`);
      newer('crypto_generichash_init', [null, len], range('hash_length'), `${len}`);
      newer('crypto_generichash_blake2b_salt_personal', [len, null, null, null], range('subkey_len'), `${len}`);
      const ours = sodium.crypto_generichash_init(null, 32);
      const theirs = (peer().crypto_generichash_init as Call)(null, 32);
      assert.throws(() => sodium.crypto_generichash_final(ours, len), { name: 'TypeError', message: 'hash_length must be >= 16 and <= 64' });
      if (len > 0 && len < 16)
        assert.equal((peer().crypto_generichash_final as Call)(theirs, len, 'hex'), sodium.crypto_generichash(32, '', null, 'hex').slice(0, 2 * len));
    }
    same('crypto_generichash', [32, 'm', rand(65)]);
    same('crypto_generichash', [32, 'm', null, new Uint8Array(2)]);
    same('crypto_generichash_init', [rand(65), 32]);
    // final may read another length than init named: that many bytes of the final chain value, as libsodium's blake2b_final copies them.
    for (const [initLength, finalLength] of [
      [32, 64],
      [32, 33],
      [16, 64],
      [64, 16],
      [20, 31],
    ]) {
      for (const n of [0, 1, 64, 127, 128, 129, 20000]) {
        incremental('crypto_generichash', [null, initLength], rand(n), [finalLength], `${n}: init ${initLength}, final ${finalLength}`);
        incremental('crypto_generichash', [rand(16), initLength], rand(n), [finalLength], `${n} keyed: init ${initLength}, final ${finalLength}`);
      }
    }
    const state = sodium.crypto_generichash_init(null, 32);
    sodium.crypto_generichash_final(state, 32);
    assert.throws(() => sodium.crypto_generichash_update(state, 'm'), /state_address is unknown/, 'a state ends with final');
    for (let i = 0; i < 20; i++) {
      const key = i % 2 === 0 ? null : rand(1 + (i % 64));
      same('crypto_generichash_blake2b_salt_personal', [16 + ((i * 3) % 49), key, i % 3 === 0 ? null : rand(16), i % 4 === 0 ? null : rand(16)]);
    }
    same('crypto_generichash_blake2b_salt_personal', [32, null, rand(15), null]);
  });

  it('crypto_generichash_init/update/final: runs of updates across where gathered input goes to a hasher', opts, () => {
    // Splits whose running totals cross 64, 128 (a block), the doublings of a buffer and 4096 (hashed at
    // the end up to there, else in an incremental hasher), with and without a key.
    const runs = [
      [4096],
      [4095, 1],
      [4096, 1],
      [4097],
      [1, 4096],
      [64, 64, 1],
      [...Array.from({ length: 64 }, () => 64), 1],
      [...Array.from({ length: 130 }, () => 1), 4000, 200],
      [127, 1, 255, 513, 1025, 2049, 17],
      [0, 3000, 0, 1096, 0, 1, 0],
      [5000, 64, 1],
    ];
    for (const sizes of runs) {
      const pieces = sizes.map((n) => rand(n));
      for (const key of [null, rand(32), rand(64)]) {
        const results = [mine, peer()].map((lib) => {
          const state = (lib.crypto_generichash_init as Call)(key, 64);
          for (const piece of pieces) (lib.crypto_generichash_update as Call)(state, piece);
          return (lib.crypto_generichash_final as Call)(state, 64, 'hex');
        });
        assert.equal(results[0], results[1], `updates of ${sizes.join(', ')}, key ${key?.length ?? 'none'}`);
      }
    }
  });

  it('crypto_generichash states at once, ended in any order: the buffers kept between hashes never mix their input', () => {
    // More states than buffers are kept, of every size class, some freed unfinished; each round's states
    // take the buffers the last round's gave back.
    const sizes = [1, 64, 65, 100, 128, 129, 300, 600, 1000, 2000, 2049, 3000, 4096, 4097, 5000];
    for (let round = 0; round < 3; round++) {
      const states = Array.from({ length: 30 }, (_, i) => {
        const pieces = [rand(sizes[i % sizes.length]), rand(sizes[(i * 7 + round) % sizes.length])];
        return {
          state: sodium.crypto_generichash_init(null, 32),
          pieces,
          expected: sodium.crypto_generichash(32, Uint8Array.from([...pieces[0], ...pieces[1]]), null, 'hex'),
        };
      });
      for (const part of [0, 1]) for (const s of states) sodium.crypto_generichash_update(s.state, s.pieces[part]);
      states.forEach((s, i) => {
        if (i % 5 === round) sodium.free(s.state);
      });
      for (const i of states.map((_, k) => (k * 11) % states.length)) {
        const s = states[i];
        if (i % 5 !== round) assert.equal(sodium.crypto_generichash_final(s.state, 32, 'hex'), s.expected, `round ${round}, state ${i}`);
      }
    }
  });

  it("crypto_generichash_update keeps what it was given, not the caller's array", () => {
    for (const n of [1, 64, 65, 1000, 4096, 5000]) {
      const chunk = rand(n);
      const expected = sodium.crypto_generichash(32, Uint8Array.from([...chunk, ...chunk]), null, 'hex');
      const state = sodium.crypto_generichash_init(null, 32);
      const original = chunk.slice();
      sodium.crypto_generichash_update(state, chunk);
      chunk.fill(0xa5);
      sodium.crypto_generichash_update(state, original);
      assert.equal(sodium.crypto_generichash_final(state, 32, 'hex'), expected, `${n} bytes`);
    }
  });

  it('crypto_kdf_derive_from_key: every subkey length, ids to 2^64 - 1, contexts', opts, () => {
    const key = rand(32);
    for (let len = 16; len <= 64; len++) same('crypto_kdf_derive_from_key', [len, len * 1000, 'Examples', key]);
    for (const id of [0, 1, 255, 256, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 0n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n, -1, -1n, 2 ** 32, 1.5, '1']) {
      same('crypto_kdf_derive_from_key', [32, id, 'Examples', key], String(id));
    }
    for (const ctx of ['12345678', 'abcdefé', 'abcdefg', '123456789', '', rand(8), null]) same('crypto_kdf_derive_from_key', [32, 1, ctx, key], String(ctx));
    same('crypto_kdf_derive_from_key', [32, 1, 'Examples', rand(31)]);
    for (const f of FORMATS) same('crypto_kdf_derive_from_key', [32, 7, 'Examples', key, f]);
    // Out of 16..64: a TypeError before the other arguments are read, as libsodium.js's current source (0.8.4: "invalid usage", last).
    for (const len of [0, 15, 65])
      newer('crypto_kdf_derive_from_key', [len, 1, 'Examples', key], 'TypeError: subkey_len must be >= 16 and <= 64', `${len} bytes`);
    newer('crypto_kdf_derive_from_key', [15, 1, 'too long a context', key], 'TypeError: subkey_len must be >= 16 and <= 64');
    assert.equal(sodium.crypto_kdf_keygen().length, 32);
  });

  it('crypto_shorthash and _siphashx24: every length to 100 and 1 MiB', opts, () => {
    for (const n of [...Array.from({ length: 100 }, (_, i) => i), 1000, 1 << 20]) {
      const m = rand(n);
      const key = rand(16);
      same('crypto_shorthash', [m, key], `${n}`);
      same('crypto_shorthash_siphashx24', [m, key], `${n}`);
    }
    for (const f of FORMATS) {
      same('crypto_shorthash', ['text', rand(16), f]);
      same('crypto_shorthash_siphashx24', ['text', rand(16), f]);
    }
    same('crypto_shorthash', ['m', rand(15)]);
    same('crypto_shorthash_siphashx24', ['m', rand(17)]);
    assert.equal(sodium.crypto_shorthash_keygen().length, 16);
  });

  it('crypto_auth and _hmacsha256, _hmacsha512, _hmacsha512256: tags, verify, in pieces with any key', opts, () => {
    const families = ['crypto_auth_hmacsha512256', 'crypto_auth_hmacsha256', 'crypto_auth_hmacsha512'];
    for (const n of LENGTHS) {
      const m = rand(n);
      const key = rand(32);
      const tag = same('crypto_auth', [m, key], `${n}`) as Uint8Array;
      same('crypto_auth_verify', [tag, m, key]);
      same('crypto_auth_verify', [tag, m, rand(32)]);
      for (const family of families) {
        const t = same(family, [m, key], `${n}`) as Uint8Array;
        same(`${family}_verify`, [t, m, key]);
        const changed = t.slice();
        changed[t.length - 1] ^= 1;
        same(`${family}_verify`, [changed, m, key]);
        for (const initKey of n < 200 ? [key, null, rand(1), rand(200), 'a string key'] : [key]) incremental(family, [initKey], m, [], `${n}`);
      }
    }
    for (const family of ['crypto_auth', ...families]) {
      for (const f of FORMATS) same(family, ['text', rand(32), f]);
      same(family, ['m', rand(31)]);
      same(family, ['m', rand(33)]);
      same(`${family}_verify`, [rand(31), 'm', rand(32)]);
      assert.equal((mine[`${family}_keygen`] as () => Uint8Array)().length, 32);
    }
    same('crypto_auth_hmacsha512_init', [5]);
    const state = sodium.crypto_auth_hmacsha256_init(rand(32));
    sodium.crypto_auth_hmacsha256_final(state);
    assert.throws(() => sodium.crypto_auth_hmacsha256_final(state), /state_address is unknown/, 'a state ends with final');
    assert.throws(() => sodium.crypto_hash_sha256_update(sodium.crypto_auth_hmacsha512_init(null), 'm'), /invalid usage/, "another family's state");
  });

  it('crypto_hash, crypto_hash_sha256 and _sha512: one-shot and in pieces', opts, () => {
    for (const n of LENGTHS) {
      const m = rand(n);
      same('crypto_hash', [m], `${n}`);
      same('crypto_hash_sha256', [m], `${n}`);
      same('crypto_hash_sha512', [m], `${n}`);
      incremental('crypto_hash_sha256', [], m, [], `${n}`);
      incremental('crypto_hash_sha512', [], m, [], `${n}`);
    }
    for (const f of FORMATS) {
      same('crypto_hash', ['é text', f]);
      same('crypto_hash_sha256', ['é text', f]);
    }
    same('crypto_hash', [5]);
  });
}

forEachTier('fourfold/sodium hashes against libsodium-wrappers-sumo', againstLibsodium);
onNativePath('fourfold/sodium hashes against libsodium-wrappers-sumo', againstLibsodium);
