/**
 * fourfold/sodium's state handles as libsodium.js's current source checks
 * its state addresses (after the 0.8.4 release, which had no `free` and
 * left a finished state's address to be reused): every family's state
 * ends at its _final (a second _final, an _update after it, throw
 * "state_address is unknown"); `free` ends one, twice throws; what is no
 * state (null, numbers, strings, other objects) is a TypeError; another
 * family's state is "invalid usage".
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';

type Call = (...a: unknown[]) => unknown;
const lib = sodium as unknown as Record<string, Call>;
const key32 = new Uint8Array(32);

/** Each family: how to start a state, feed it, and end it. */
const FAMILIES: { name: string; init: () => unknown; update: (s: unknown) => unknown; final: (s: unknown) => unknown }[] = [
  ...['crypto_hash_sha256', 'crypto_hash_sha512', 'crypto_hash_sha3256', 'crypto_hash_sha3512'].map((name) => ({
    name,
    init: () => lib[`${name}_init`](),
    update: (s: unknown) => lib[`${name}_update`](s, 'm'),
    final: (s: unknown) => lib[`${name}_final`](s),
  })),
  ...['crypto_auth_hmacsha256', 'crypto_auth_hmacsha512', 'crypto_auth_hmacsha512256'].map((name) => ({
    name,
    init: () => lib[`${name}_init`](key32),
    update: (s: unknown) => lib[`${name}_update`](s, 'm'),
    final: (s: unknown) => lib[`${name}_final`](s),
  })),
  {
    name: 'crypto_generichash',
    init: () => sodium.crypto_generichash_init(null, 32),
    update: (s) => lib.crypto_generichash_update(s, 'm'),
    final: (s) => lib.crypto_generichash_final(s, 32),
  },
  {
    name: 'crypto_onetimeauth',
    init: () => sodium.crypto_onetimeauth_init(key32),
    update: (s) => lib.crypto_onetimeauth_update(s, 'm'),
    final: (s) => lib.crypto_onetimeauth_final(s),
  },
  {
    name: 'crypto_sign',
    init: () => sodium.crypto_sign_init(),
    update: (s) => lib.crypto_sign_update(s, 'm'),
    final: (s) => lib.crypto_sign_final_create(s, sodium.crypto_sign_seed_keypair(key32).privateKey),
  },
];

const NOT_STATES = [0, -1, 1.5, Number.NaN, 2 ** 32, 'foo', true, {}, { kind: 'crypto_generichash' }, [], () => 1];

it('every state ends at its _final: a second _final or an _update after it throws "state_address is unknown"', () => {
  for (const f of FAMILIES) {
    const state = f.init();
    f.update(state);
    f.final(state);
    assert.throws(() => f.final(state), { name: 'Error', message: 'state_address is unknown' }, `${f.name}: _final twice`);
    assert.throws(() => f.update(state), { name: 'Error', message: 'state_address is unknown' }, `${f.name}: _update after _final`);
  }
});

it('free ends a state; twice throws; its _update and _final then throw; no state is a TypeError', () => {
  for (const f of FAMILIES) {
    const state = f.init();
    f.update(state);
    assert.equal(sodium.free(state), undefined);
    assert.throws(() => sodium.free(state), { name: 'Error', message: 'state_address is unknown' }, `${f.name}: free twice`);
    assert.throws(() => f.update(state), { name: 'Error', message: 'state_address is unknown' }, `${f.name}: freed`);
    assert.throws(() => f.final(state), { name: 'Error', message: 'state_address is unknown' }, `${f.name}: freed`);
    for (const bad of NOT_STATES) {
      const addressLike = typeof bad === 'number' && Number.isInteger(bad) && bad > 0 && bad < 2 ** 32;
      assert.throws(() => f.update(bad), addressLike ? { name: 'Error' } : TypeError, `${f.name}: ${String(bad)}`);
    }
    assert.throws(() => f.update(null), { name: 'TypeError', message: 'state_address cannot be null or undefined' });
  }
  for (const bad of NOT_STATES) assert.throws(() => sodium.free(bad), TypeError, `free(${String(bad)})`);
  assert.throws(() => sodium.free(undefined), { name: 'TypeError', message: 'state_address cannot be null or undefined' });
  // A number libsodium.js could have handed out, but did not: unknown, as there.
  assert.throws(() => sodium.free(109240), { name: 'Error', message: 'state_address is unknown' });
});

it("another family's state is invalid usage, and stays usable by its own", () => {
  const sha = sodium.crypto_hash_sha256_init();
  for (const f of FAMILIES.filter((g) => g.name !== 'crypto_hash_sha256')) assert.throws(() => f.update(sha), /invalid usage/, f.name);
  sodium.crypto_hash_sha256_update(sha, 'abc');
  assert.equal(sodium.to_hex(sodium.crypto_hash_sha256_final(sha)), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

it('secretstream and XOF states live until free', () => {
  const { state } = sodium.crypto_secretstream_xchacha20poly1305_init_push(key32);
  sodium.crypto_secretstream_xchacha20poly1305_push(state, 'm', null, 0);
  sodium.free(state);
  assert.throws(() => sodium.crypto_secretstream_xchacha20poly1305_push(state, 'm', null, 0), { name: 'Error', message: 'state_address is unknown' });
  assert.throws(() => sodium.crypto_secretstream_xchacha20poly1305_rekey(state), { name: 'Error', message: 'state_address is unknown' });
  const xof = sodium.crypto_xof_shake128_init();
  sodium.crypto_xof_shake128_update(xof, 'm');
  assert.equal(sodium.crypto_xof_shake128_squeeze(xof, 32).length, 32);
  assert.equal(sodium.crypto_xof_shake128_squeeze(xof, 32).length, 32);
  sodium.free(xof);
  assert.throws(() => sodium.crypto_xof_shake128_squeeze(xof, 32), { name: 'Error', message: 'state_address is unknown' });
});
