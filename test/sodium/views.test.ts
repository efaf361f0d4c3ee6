/**
 * fourfold/sodium's calls given their bytes as a program often holds them:
 * a view into the middle of a larger ArrayBuffer (bytes of another value on
 * both sides of it), and a Node Buffer (Buffer.from of a short value is a
 * view into Node's shared 8 KiB pool, at an offset). Each call gives what
 * libsodium-wrappers-sumo gives for the same bytes in plain arrays, on each
 * tier, at message lengths around the 64-byte block, and leaves the bytes
 * around the view untouched.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachTier, NO_SODIUM, rand } from '../helpers.js';
import { loadSumo, mine, outcome, peer } from './peer.js';

before(loadSumo);

/** Node's Buffer, where the engine has one. */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Bytes that fill the memory around an offset view: a call that reads or writes past its view shows them. */
const AROUND = 0xa5;

/** Bytes of the larger buffer around an offset view: 5 before it, 8 after. */
const SPARE = 13;

/** How a test hands fourfold/sodium its bytes. */
const VIEWS = {
  'a view at an offset into a larger buffer': (b: Uint8Array): Uint8Array => {
    const memory = new Uint8Array(b.length + SPARE).fill(AROUND);
    const view = memory.subarray(5, 5 + b.length);
    view.set(b);
    return view;
  },
  'a Node Buffer': (b: Uint8Array): Uint8Array => NodeBuffer!.from(b),
} as const;

const LENGTHS = [0, 1, 63, 64, 65, 1000];

/** Each call, with its arguments for a message of `n` bytes (made with the peer where a call opens what another sealed). */
function calls(n: number): [string, unknown[]][] {
  const s = peer() as Record<string, (...a: unknown[]) => Record<string, Uint8Array> & Uint8Array>;
  const m = rand(n);
  const [k, k16, n8, n12, n24, ad, seed] = [rand(32), rand(16), rand(8), rand(12), rand(24), rand(9), rand(32)];
  const box = s.crypto_box_seed_keypair(seed);
  const other = s.crypto_box_keypair();
  const signer = s.crypto_sign_seed_keypair(seed);
  const list: [string, unknown[]][] = [];
  for (const [aead, nonce] of [
    ['crypto_aead_chacha20poly1305', n8],
    ['crypto_aead_chacha20poly1305_ietf', n12],
    ['crypto_aead_xchacha20poly1305_ietf', n24],
  ] as const) {
    const sealed = s[`${aead}_encrypt`](m, ad, null, nonce, k);
    const detached = s[`${aead}_encrypt_detached`](m, ad, null, nonce, k);
    list.push(
      [`${aead}_encrypt`, [m, ad, null, nonce, k]],
      [`${aead}_decrypt`, [null, sealed, ad, nonce, k]],
      [`${aead}_encrypt_detached`, [m, ad, null, nonce, k]],
      [`${aead}_decrypt_detached`, [null, detached.ciphertext, detached.mac, ad, nonce, k]],
    );
  }
  const secretbox = s.crypto_secretbox_detached(m, n24, k);
  const boxed = s.crypto_box_easy(m, n24, other.publicKey, box.privateKey);
  const sm = s.crypto_sign(m, signer.privateKey);
  list.push(
    ['crypto_secretbox_easy', [m, n24, k]],
    ['crypto_secretbox_open_easy', [s.crypto_secretbox_easy(m, n24, k), n24, k]],
    ['crypto_secretbox_detached', [m, n24, k]],
    ['crypto_secretbox_open_detached', [secretbox.cipher, secretbox.mac, n24, k]],
    ['crypto_box_easy', [m, n24, other.publicKey, box.privateKey]],
    ['crypto_box_open_easy', [boxed, n24, box.publicKey, other.privateKey]],
    ['crypto_box_beforenm', [other.publicKey, box.privateKey]],
    ['crypto_box_easy_afternm', [m, n24, k]],
    ['crypto_box_seal_open', [s.crypto_box_seal(m, box.publicKey), box.publicKey, box.privateKey]],
    ['crypto_box_seed_keypair', [seed]],
    ['crypto_stream_chacha20_xor', [m, n8, k]],
    ['crypto_stream_chacha20_xor_ic', [m, n8, 7, k]],
    ['crypto_stream_chacha20_ietf_xor', [m, n12, k]],
    ['crypto_stream_chacha20_ietf_xor_ic', [m, n12, 7, k]],
    ['crypto_stream_xchacha20_xor', [m, n24, k]],
    ['crypto_stream_xchacha20_xor_ic', [m, n24, 7, k]],
    ['crypto_core_hchacha20', [k16, k, null]],
    ['crypto_core_hsalsa20', [k16, k, k16]],
    ['crypto_generichash', [32, m, null]],
    ['crypto_generichash', [64, m, k]],
    ['crypto_generichash_blake2b_salt_personal', [32, k, k16, k16]],
    ['crypto_kdf_derive_from_key', [32, 7, 'context_', k]],
    ['crypto_shorthash', [m, k16]],
    ['crypto_shorthash_siphashx24', [m, k16]],
    ['crypto_auth', [m, k]],
    ['crypto_auth_verify', [s.crypto_auth(m, k), m, k]],
    ['crypto_auth_hmacsha256', [m, k]],
    ['crypto_auth_hmacsha512_verify', [s.crypto_auth_hmacsha512(m, k), m, k]],
    ['crypto_hash', [m]],
    ['crypto_hash_sha256', [m]],
    ['crypto_onetimeauth', [m, k]],
    ['crypto_onetimeauth_verify', [s.crypto_onetimeauth(m, k), m, k]],
    ['crypto_sign_detached', [m, signer.privateKey]],
    ['crypto_sign_verify_detached', [s.crypto_sign_detached(m, signer.privateKey), m, signer.publicKey]],
    ['crypto_sign', [m, signer.privateKey]],
    ['crypto_sign_open', [sm, signer.publicKey]],
    ['crypto_sign_seed_keypair', [seed]],
    ['crypto_sign_ed25519_pk_to_curve25519', [signer.publicKey]],
    ['crypto_sign_ed25519_sk_to_curve25519', [signer.privateKey]],
    ['crypto_scalarmult', [box.privateKey, other.publicKey]],
    ['crypto_scalarmult_base', [box.privateKey]],
    ['crypto_kx_client_session_keys', [box.publicKey, box.privateKey, other.publicKey]],
    ['crypto_kx_server_session_keys', [box.publicKey, box.privateKey, other.publicKey]],
    ['crypto_pwhash_scryptsalsa208sha256_ll', [m, k, 1024, 8, 1, 32]],
    ['crypto_pwhash', [32, m, k16, 1, 8192, 2]],
    ['to_hex', [m]],
    ['to_base64', [m]],
    ['memcmp', [m, m.slice()]],
    ['compare', [m, m.slice()]],
    ['is_zero', [m]],
  );
  return list;
}

/**
 * The arguments with each byte array handed over through `view`, and a
 * check that the memory of each view is as it was, and around it where the
 * memory is the test's own (Node's Buffer pool serves other allocations).
 */
function viewed(args: readonly unknown[], view: (b: Uint8Array) => Uint8Array): { args: unknown[]; untouched(): void } {
  const watched: [Uint8Array, Uint8Array][] = [];
  const mapped = args.map((a) => {
    if (!(a instanceof Uint8Array)) return a;
    const v = view(a);
    const memory = v.buffer.byteLength === v.length + SPARE ? new Uint8Array(v.buffer) : v;
    watched.push([memory, memory.slice()]);
    return v;
  });
  const untouched = () => {
    for (const [memory, was] of watched) assert.deepEqual(memory, was, 'the memory of the view and around it');
  };
  return { args: mapped, untouched };
}

forEachTier('fourfold/sodium with views and Buffers against libsodium-wrappers-sumo', () => {
  for (const [how, view] of Object.entries(VIEWS)) {
    const skip = NO_SODIUM || (how === 'a Node Buffer' && NodeBuffer === undefined ? 'no Node Buffer in this engine' : false);
    it(`every call's bytes as ${how}`, { skip }, () => {
      for (const n of LENGTHS) {
        for (const [name, args] of calls(n)) {
          const given = viewed(args, view);
          const ours = outcome(() => (mine[name] as (...a: unknown[]) => unknown)(...given.args));
          const theirs = outcome(() => (peer()[name] as (...a: unknown[]) => unknown)(...args.map((a) => (a instanceof Uint8Array ? a.slice() : a))));
          assert.deepEqual(ours, theirs, `${name}, ${n} message bytes`);
          assert.ok(!('error' in ours), `${name}, ${n} message bytes: ${'error' in ours ? ours.error : ''}`);
          given.untouched();
        }
      }
    });

    it(`secretstream's init_pull and pull with the header, key, message and data as ${how}`, { skip }, () => {
      const s = peer() as Record<string, (...a: unknown[]) => { state: unknown; header: Uint8Array } & Uint8Array>;
      for (const n of LENGTHS) {
        const [key, message, ad] = [rand(32), rand(n), rand(5)];
        const { state, header } = s.crypto_secretstream_xchacha20poly1305_init_push(key);
        const chunk = s.crypto_secretstream_xchacha20poly1305_push(state, message, ad, 0);
        const given = viewed([header, key, chunk, ad], view);
        const [h, k, c, a] = given.args;
        const sodium = mine as Record<string, (...a: unknown[]) => unknown>;
        const pulled = sodium.crypto_secretstream_xchacha20poly1305_pull(sodium.crypto_secretstream_xchacha20poly1305_init_pull(h, k), c, a) as {
          message: Uint8Array;
          tag: number;
        };
        assert.deepEqual([...pulled.message], [...message], `${n} bytes`);
        assert.equal(pulled.tag, 0);
        given.untouched();
      }
    });
  }
});
