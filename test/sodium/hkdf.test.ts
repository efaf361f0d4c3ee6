/**
 * fourfold/sodium's crypto_kdf_hkdf_sha256_* and _sha512_* against
 * libsodium's C calls in libsodium-wrappers-sumo 0.8.4's WebAssembly (its
 * wrappers have HKDF's constants but not its calls, which libsodium.js's
 * current source adds): extract one-shot and in pieces, salts absent,
 * empty and long, expand at every edge length to 255 blocks; RFC 5869's
 * first vector; wrong lengths, types and ranges refused. And what the
 * library says of itself: the version, randombytes_stir and _close.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, loadSumo, native, peer } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
type Call = (...a: unknown[]) => unknown;
const lib = sodium as unknown as Record<string, Call>;
const hex = (b: unknown) => Buffer.from(b as Uint8Array).toString('hex');

const HKDFS = [
  { name: 'crypto_kdf_hkdf_sha256', bytes: 32 },
  { name: 'crypto_kdf_hkdf_sha512', bytes: 64 },
];

/** libsodium's extract and expand, in C. */
function reference(name: string, bytes: number, salt: Uint8Array | null, ikm: Uint8Array, length: number, ctx: string): { prk: string; okm: string } {
  return native((c, put, read) => {
    const prk = put(new Uint8Array(bytes));
    assert.equal(c[`_${name}_extract`](prk, salt === null ? 0 : put(salt), salt === null ? 0 : salt.length, put(ikm), ikm.length), 0);
    const info = new TextEncoder().encode(ctx);
    const okm = put(new Uint8Array(length));
    assert.equal(c[`_${name}_expand`](okm, length, put(info), info.length, prk), 0);
    return { prk: hex(read(prk, bytes)), okm: hex(read(okm, length)) };
  });
}

it('extract and expand as libsodium: salts, keying material and contexts of many lengths, every output length edge', opts, () => {
  for (const { name, bytes } of HKDFS) {
    const max = 255 * bytes;
    for (const saltLength of [null, 0, 1, bytes, 2 * bytes + 1, 200]) {
      for (const ikmLength of [0, 1, 22, 64, 129, 1000]) {
        const salt = saltLength === null ? null : rand(saltLength);
        const ikm = rand(ikmLength);
        for (const [length, ctx] of [
          [0, ''],
          [1, 'c'],
          [bytes - 1, 'context'],
          [bytes, 'é context'],
          [bytes + 1, ''],
          [1000, 'x'.repeat(300)],
          [max, 'max'],
        ] as const) {
          const expected = reference(name, bytes, salt, ikm, length, ctx);
          const prk = lib[`${name}_extract`](salt, ikm) as Uint8Array;
          assert.equal(hex(prk), expected.prk, `${name} extract salt ${saltLength} ikm ${ikmLength}`);
          assert.equal(hex(lib[`${name}_expand`](length, ctx, prk)), expected.okm, `${name} expand ${length}`);
        }
        // In pieces: the same PRK wherever the keying material is cut.
        for (const cuts of [[], [0], [1], [Math.floor(ikmLength / 3), Math.floor(ikmLength / 2)]]) {
          const bounds = [0, ...cuts.filter((c) => c <= ikmLength), ikmLength];
          const state = lib[`${name}_extract_init`](salt);
          for (let k = 1; k < bounds.length; k++) lib[`${name}_extract_update`](state, ikm.subarray(bounds[k - 1], bounds[k]));
          assert.equal(hex(lib[`${name}_extract_final`](state)), reference(name, bytes, salt, ikm, 0, '').prk, `${name} in pieces at ${cuts}`);
        }
      }
    }
  }
});

it("RFC 5869's test case 3 (SHA-256, no salt, no info); strings as bytes; every output format", () => {
  const prk = sodium.crypto_kdf_hkdf_sha256_extract(null, sodium.from_hex('0b'.repeat(22)));
  assert.equal(sodium.to_hex(prk), '19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04');
  assert.equal(
    sodium.crypto_kdf_hkdf_sha256_expand(42, '', prk, 'hex'),
    '8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8',
  );
  assert.deepEqual(
    sodium.crypto_kdf_hkdf_sha256_extract('salt', 'ikm'),
    sodium.crypto_kdf_hkdf_sha256_extract(sodium.from_string('salt'), sodium.from_string('ikm')),
  );
  const key = rand(64);
  const bytes = sodium.crypto_kdf_hkdf_sha512_expand(16, 'ctx', key);
  for (const f of FORMATS.filter((g) => g !== 'text')) {
    const out = lib.crypto_kdf_hkdf_sha512_expand(16, 'ctx', key, f);
    assert.equal(out, f === 'hex' ? sodium.to_hex(bytes) : f === 'base64' ? sodium.to_base64(bytes) : out, String(f));
    if (typeof out !== 'string') assert.deepEqual(out, bytes);
  }
});

it('wrong lengths, types and ranges throw as libsodium.js says; a finished extraction is unknown', () => {
  for (const { name, bytes } of HKDFS) {
    const max = 255 * bytes;
    assert.throws(() => lib[`${name}_expand`](max + 1, 'c', rand(bytes)), { name: 'TypeError', message: `out_len must be >= 0 and <= ${max}` });
    assert.throws(() => lib[`${name}_expand`](-1, 'c', rand(bytes)), { name: 'TypeError', message: 'out_len must be an unsigned integer' });
    assert.throws(() => lib[`${name}_expand`](16, rand(4), rand(bytes)), { name: 'TypeError', message: 'ctx must be a string' });
    assert.throws(() => lib[`${name}_expand`](16, 'c', rand(bytes - 1)), { name: 'TypeError', message: 'invalid prk length' });
    assert.throws(() => lib[`${name}_extract`](null, null), { name: 'TypeError', message: 'ikm cannot be null or undefined' });
    assert.equal((lib[`${name}_keygen`]() as Uint8Array).length, bytes);
    const state = lib[`${name}_extract_init`](null);
    lib[`${name}_extract_final`](state);
    assert.throws(() => lib[`${name}_extract_update`](state, 'more'), { message: 'state_address is unknown' });
  }
  assert.throws(() => sodium.crypto_kdf_hkdf_sha256_extract_update(sodium.crypto_kdf_hkdf_sha512_extract_init(null), 'x'), /invalid usage/);
});

it("the library's own calls: the version libsodium-wrappers 0.8.4 reports; randombytes_stir and _close do nothing and throw nothing", opts, () => {
  assert.equal(sodium.sodium_version_string(), (peer().sodium_version_string as () => string)());
  assert.equal(sodium.SODIUM_VERSION_STRING, peer().SODIUM_VERSION_STRING);
  assert.equal(sodium.randombytes_stir(), undefined);
  assert.equal(sodium.randombytes_close(), undefined);
  assert.equal(sodium.randombytes_buf(16).length, 16);
});
