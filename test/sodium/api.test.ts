/**
 * fourfold/sodium's surface against libsodium-wrappers-sumo's: every
 * constant it exports has libsodium-wrappers' value; every call of
 * libsodium-wrappers is here or in the list of what fourfold leaves out
 * (docs/api.md names each with what to use), and nothing is here under a
 * name libsodium has not; the default export holds every named export;
 * `ready` resolves.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import sodiumDefault, * as sodium from 'fourfold/sodium';
import { NO_SODIUM } from '../helpers.js';
import { loadSumo, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };

/** What fourfold/sodium leaves out, by prefix: docs/api.md, "From libsodium", says what to use instead. */
export const LEFT_OUT = [
  'crypto_aead_aegis128l',
  'crypto_aead_aegis256',
  'crypto_aead_aes256gcm',
  'crypto_ipcrypt',
  'sodium_bin2ip',
  'sodium_ip2bin',
  'symbols',
  'randombytes_set_implementation',
  // libsodium-wrappers' Emscripten module itself.
  'libsodium',
];

/**
 * The names fourfold/sodium has that libsodium-wrappers-sumo 0.8.4 lacks:
 * libsodium's C calls it adds, and what libsodium.js's current source has
 * after the 0.8.4 release (`free`, HKDF's calls, whose constants 0.8.4 has).
 */
const EXTRA = [
  'crypto_stream_salsa20_xor',
  'crypto_stream_salsa20_xor_ic',
  'crypto_stream_xsalsa20_xor',
  'crypto_stream_xsalsa20_xor_ic',
  'free',
  ...['sha256', 'sha512'].flatMap((h) =>
    ['extract', 'extract_init', 'extract_update', 'extract_final', 'expand', 'keygen'].map((c) => `crypto_kdf_hkdf_${h}_${c}`),
  ),
];

/** The types a user's compiler sees (npm test type-checks this file): a string output format gives a string, none or 'uint8array' bytes. */
export const TYPED: [string, string, Uint8Array, Uint8Array] = [
  sodium.crypto_generichash(32, 'abc', null, 'hex'),
  sodium.to_hex(sodium.crypto_secretbox_easy('m', new Uint8Array(24), new Uint8Array(32))),
  sodium.crypto_generichash(32, 'abc'),
  sodium.crypto_hash_sha3256('abc', 'uint8array'),
];

const names = (lib: object) => Object.keys(lib).filter((k) => k !== 'default');
const leftOut = (name: string) => LEFT_OUT.some((p) => name.startsWith(p));

it("every constant has libsodium-wrappers-sumo's value", opts, () => {
  const theirs = peer();
  let count = 0;
  for (const [name, value] of Object.entries(sodium)) {
    if (typeof value === 'function' || name === 'ready' || name === 'default') continue;
    assert.ok(name in theirs, `${name} is libsodium-wrappers'`);
    assert.deepEqual(value, theirs[name], name);
    count++;
  }
  assert.ok(count > 60, `${count} constants`);
});

it('every call of libsodium-wrappers-sumo is here or left out by name; nothing here that libsodium has not', opts, () => {
  const theirs = peer();
  const missing = names(theirs).filter((n) => !(n in sodium) && !leftOut(n));
  assert.deepEqual(missing, [], 'calls neither provided nor listed as left out');
  const foreign = names(sodium).filter((n) => !(n in theirs) && !EXTRA.includes(n));
  assert.deepEqual(foreign, [], 'names libsodium-wrappers has not');
  const stubbed = names(sodium).filter((n) => leftOut(n) && !EXTRA.includes(n));
  assert.deepEqual(stubbed, [], 'a name listed as left out is exported');
  // Each family's constants come with its calls: a constant of theirs whose family fourfold provides is here.
  const families = new Set(
    names(sodium)
      .filter((n) => typeof (sodium as Record<string, unknown>)[n] !== 'function')
      .map((n) => n.replace(/_[A-Z][A-Z0-9_]*$/, '')),
  );
  const absent = names(theirs).filter((n) => typeof theirs[n] !== 'function' && families.has(n.replace(/_[A-Z][A-Z0-9_]*$/, '')) && !(n in sodium));
  assert.deepEqual(absent, []);
});

it('the default export holds every named export, the same objects; ready resolves', async () => {
  const d = sodiumDefault as unknown as Record<string, unknown>;
  for (const name of names(sodium)) assert.equal(d[name], (sodium as Record<string, unknown>)[name], name);
  assert.deepEqual(Object.keys(d).sort(), names(sodium).sort());
  assert.equal(await sodium.ready, undefined);
  assert.ok(Object.isFrozen(d));
});

it(
  'every call that takes an output format checks it first, as libsodium-wrappers does: a wrong one throws its error whatever the other arguments',
  opts,
  () => {
    const theirs = peer() as Record<string, (...a: unknown[]) => unknown>;
    const ours = sodium as unknown as Record<string, (...a: unknown[]) => unknown>;
    const outcome = (f: () => unknown) => {
      try {
        f();
        return 'returned';
      } catch (e) {
        return `${(e as Error).constructor.name}: ${(e as Error).message}`;
      }
    };
    let checked = 0;
    for (const name of names(theirs)) {
      if (!/^(crypto|randombytes)_/.test(name) || typeof theirs[name] !== 'function' || typeof ours[name] !== 'function') continue;
      for (const wrong of ['bogus', 5, {}]) {
        // libsodium-wrappers' output format is its calls' last parameter: the others left undefined.
        const args = [...new Array(Math.max(theirs[name].length - 1, 0)).fill(undefined), wrong];
        const expected = outcome(() => theirs[name](...args));
        if (!/output format/.test(expected)) continue;
        assert.equal(
          outcome(() => ours[name](...args)),
          expected,
          `${name}(..., ${JSON.stringify(wrong)})`,
        );
        checked++;
      }
    }
    assert.ok(checked > 3 * 200, `${checked} checks`);
  },
);

it('the opens check a short ciphertext before their other arguments, and name them as libsodium-wrappers does', opts, () => {
  const short = (n: number) => new Uint8Array(n);
  const cases: [string, unknown[]][] = [
    ['crypto_box_open_easy', [short(15), 5, 5, 5]],
    ['crypto_box_curve25519xchacha20poly1305_open_easy', [short(15), 5, 5, 5]],
    ['crypto_secretbox_open_easy', [short(15), 5, 5]],
    ['crypto_box_seal_open', [short(47), 5, 5]],
    ['crypto_box_curve25519xchacha20poly1305_seal_open', [short(47), 5, 5]],
    ['crypto_box_curve25519xchacha20poly1305_seal_open', [short(48), short(32), short(31)]],
    ['crypto_box_curve25519xchacha20poly1305_seal_open', [short(48), short(32), null]],
    ['crypto_sign_open', [short(63), 5]],
    ['crypto_aead_chacha20poly1305_decrypt', [null, short(15), 5, 5, 5]],
    ['crypto_aead_chacha20poly1305_ietf_decrypt', [null, short(15), 5, 5, 5]],
    ['crypto_aead_xchacha20poly1305_ietf_decrypt', [null, short(15), 5, 5, 5]],
  ];
  for (const [name, args] of cases) same(name, args, JSON.stringify(args.map((a) => (a instanceof Uint8Array ? a.length : a))));
});

it('calls with two wrong arguments name the one libsodium-wrappers names', opts, () => {
  const short = (n: number) => new Uint8Array(n);
  // libsodium-wrappers reads an _afternm open's nonce and key before the box's length, and a BLAKE2b key past 64 bytes is C's refusal, after every argument.
  same('crypto_box_open_easy_afternm', [short(15), 5, short(32)]);
  same('crypto_box_open_easy_afternm', [short(15), short(24), null]);
  same('crypto_box_curve25519xchacha20poly1305_open_easy_afternm', [short(16), 5, 5]);
  same('crypto_generichash_blake2b_salt_personal', [32, short(65), 5, null]);
  same('crypto_generichash_blake2b_salt_personal', [32, short(65), null, short(3)]);
  same('crypto_generichash_blake2b_salt_personal', [32, short(65), null, null]);
  // An XOF squeezed, then updated with a chunk of another type: the chunk's error first.
  for (const xof of ['shake128', 'shake256', 'turboshake128', 'turboshake256']) {
    const libraries = [sodium, peer()] as unknown as Record<string, (...a: unknown[]) => unknown>[];
    const errors = libraries.map((lib) => {
      const state = lib[`crypto_xof_${xof}_init`]!();
      lib[`crypto_xof_${xof}_squeeze`]!(state, 8);
      try {
        lib[`crypto_xof_${xof}_update`]!(state, 5);
        return 'returned';
      } catch (e) {
        return (e as Error).message;
      }
    });
    assert.equal(errors[0], errors[1], xof);
  }
});
