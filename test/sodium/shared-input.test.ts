/**
 * The class test of shared input for fourfold/sodium's calls that open or
 * verify: the ciphertext (signed message, message, password) on a
 * SharedArrayBuffer that a second thread keeps changing (one byte flipped
 * and flipped back, over and over) while this thread opens it again and
 * again, in every tier (node:crypto's ChaCha past the crossovers by
 * default, the simd and the js tier). Each opening call either throws or
 * returns the message that was sealed: never bytes that were not verified
 * (the input is read once: copied, then checked, then opened). A
 * verification returns a boolean, never throws, and is true again once
 * the bytes are back. Both outcomes must occur: then the calls read the
 * bytes the other thread changes. fourfold/sodium's calls take no output,
 * so the race of a shared output (read-once.test.ts) has nothing here.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { assertBytes, forEveryTier, NO_SECOND_THREAD, rand, spinThread } from '../helpers.js';

/**
 * Sealed inputs of at most 64 bytes (copied without asking whether they
 * are shared: codecs.ts), within the 2 KiB that the original AEAD's simd
 * tier takes in one kernel call (chacha/original.ts), one simd slice, and
 * more than the default tier's crossover to node:crypto's ChaCha.
 */
const SIZES = [24, 1024, 4096, 100_000];
const n24 = rand(24);
const n12 = rand(12);
const n8 = rand(8);
const k = rand(32);
const aad = rand(9);
const alice = sodium.crypto_box_keypair();
const bob = sodium.crypto_box_keypair();
const xalice = sodium.crypto_box_curve25519xchacha20poly1305_keypair();
const xbob = sodium.crypto_box_curve25519xchacha20poly1305_keypair();
const signer = sodium.crypto_sign_keypair();
const boxKey = sodium.crypto_box_beforenm(bob.publicKey, alice.privateKey);
const xboxKey = sodium.crypto_box_curve25519xchacha20poly1305_beforenm(xbob.publicKey, xalice.privateKey);

/** Each opening call: what it opens (sealed here from the message) and how; a detached one's tag stays private. */
type OpenCall = [string, (m: Uint8Array) => Uint8Array, (sealed: Uint8Array, m: Uint8Array) => Uint8Array];

/** A detached call sealed here: its ciphertext is raced, its tag kept (`open` gets it back by the ciphertext's message). */
function detached<D extends object>(seal: (m: Uint8Array) => D, body: (d: D) => Uint8Array, open: (c: Uint8Array, d: D) => Uint8Array) {
  const made = new Map<Uint8Array, D>();
  return {
    seal: (m: Uint8Array) => {
      const d = seal(m);
      made.set(m, d);
      return body(d);
    },
    open: (c: Uint8Array, m: Uint8Array) => open(c, made.get(m)!),
  };
}

const aeads = [
  ['crypto_aead_xchacha20poly1305_ietf', n24, sodium.crypto_aead_xchacha20poly1305_ietf_encrypt, sodium.crypto_aead_xchacha20poly1305_ietf_decrypt],
  ['crypto_aead_chacha20poly1305_ietf', n12, sodium.crypto_aead_chacha20poly1305_ietf_encrypt, sodium.crypto_aead_chacha20poly1305_ietf_decrypt],
  ['crypto_aead_chacha20poly1305', n8, sodium.crypto_aead_chacha20poly1305_encrypt, sodium.crypto_aead_chacha20poly1305_decrypt],
] as const;
const aeadsDetached = [
  [
    'crypto_aead_xchacha20poly1305_ietf',
    n24,
    sodium.crypto_aead_xchacha20poly1305_ietf_encrypt_detached,
    sodium.crypto_aead_xchacha20poly1305_ietf_decrypt_detached,
  ],
  [
    'crypto_aead_chacha20poly1305_ietf',
    n12,
    sodium.crypto_aead_chacha20poly1305_ietf_encrypt_detached,
    sodium.crypto_aead_chacha20poly1305_ietf_decrypt_detached,
  ],
  ['crypto_aead_chacha20poly1305', n8, sodium.crypto_aead_chacha20poly1305_encrypt_detached, sodium.crypto_aead_chacha20poly1305_decrypt_detached],
] as const;

function openCalls(): OpenCall[] {
  const list: OpenCall[] = [];
  for (const [name, nonce, encrypt, decrypt] of aeads) {
    list.push([`${name}_decrypt`, (m) => encrypt(m, aad, null, nonce, k), (c) => decrypt(null, c, aad, nonce, k)]);
  }
  for (const [name, nonce, encrypt, decrypt] of aeadsDetached) {
    const d = detached(
      (m) => encrypt(m, aad, null, nonce, k),
      (x) => x.ciphertext,
      (c, x) => decrypt(null, c, x.mac, aad, nonce, k),
    );
    list.push([`${name}_decrypt_detached`, d.seal, d.open]);
  }
  const secretbox = detached(
    (m) => sodium.crypto_secretbox_detached(m, n24, k),
    (x) => x.cipher,
    (c, x) => sodium.crypto_secretbox_open_detached(c, x.mac, n24, k),
  );
  const box = detached(
    (m) => sodium.crypto_box_detached(m, n24, bob.publicKey, alice.privateKey),
    (x) => x.ciphertext,
    (c, x) => sodium.crypto_box_open_detached(c, x.mac, n24, alice.publicKey, bob.privateKey),
  );
  const xbox = detached(
    (m) => sodium.crypto_box_curve25519xchacha20poly1305_detached(m, n24, xbob.publicKey, xalice.privateKey),
    (x) => x.ciphertext,
    (c, x) => sodium.crypto_box_curve25519xchacha20poly1305_open_detached(c, x.mac, n24, xalice.publicKey, xbob.privateKey),
  );
  const header = new Uint8Array(24);
  list.push(
    ['crypto_secretbox_open_easy', (m) => sodium.crypto_secretbox_easy(m, n24, k), (c) => sodium.crypto_secretbox_open_easy(c, n24, k)],
    ['crypto_secretbox_open_detached', secretbox.seal, secretbox.open],
    [
      'crypto_box_open_easy',
      (m) => sodium.crypto_box_easy(m, n24, bob.publicKey, alice.privateKey),
      (c) => sodium.crypto_box_open_easy(c, n24, alice.publicKey, bob.privateKey),
    ],
    ['crypto_box_open_detached', box.seal, box.open],
    ['crypto_box_open_easy_afternm', (m) => sodium.crypto_box_easy_afternm(m, n24, boxKey), (c) => sodium.crypto_box_open_easy_afternm(c, n24, boxKey)],
    ['crypto_box_seal_open', (m) => sodium.crypto_box_seal(m, bob.publicKey), (c) => sodium.crypto_box_seal_open(c, bob.publicKey, bob.privateKey)],
    [
      'crypto_box_curve25519xchacha20poly1305_open_easy',
      (m) => sodium.crypto_box_curve25519xchacha20poly1305_easy(m, n24, xbob.publicKey, xalice.privateKey),
      (c) => sodium.crypto_box_curve25519xchacha20poly1305_open_easy(c, n24, xalice.publicKey, xbob.privateKey),
    ],
    ['crypto_box_curve25519xchacha20poly1305_open_detached', xbox.seal, xbox.open],
    [
      'crypto_box_curve25519xchacha20poly1305_open_easy_afternm',
      (m) => sodium.crypto_box_curve25519xchacha20poly1305_easy_afternm(m, n24, xboxKey),
      (c) => sodium.crypto_box_curve25519xchacha20poly1305_open_easy_afternm(c, n24, xboxKey),
    ],
    [
      'crypto_box_curve25519xchacha20poly1305_seal_open',
      (m) => sodium.crypto_box_curve25519xchacha20poly1305_seal(m, xbob.publicKey),
      (c) => sodium.crypto_box_curve25519xchacha20poly1305_seal_open(c, xbob.publicKey, xbob.privateKey),
    ],
    [
      'crypto_secretstream_xchacha20poly1305_pull',
      (m) => {
        const start = sodium.crypto_secretstream_xchacha20poly1305_init_push(k);
        header.set(start.header);
        return sodium.crypto_secretstream_xchacha20poly1305_push(start.state, m, aad, sodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE);
      },
      (c) => {
        const pulled = sodium.crypto_secretstream_xchacha20poly1305_pull(sodium.crypto_secretstream_xchacha20poly1305_init_pull(header, k), c, aad);
        if (pulled === false) throw new Error('the message does not verify');
        return pulled.message;
      },
    ],
    ['crypto_sign_open', (m) => sodium.crypto_sign(m, signer.privateKey), (sm) => sodium.crypto_sign_open(sm, signer.publicKey)],
  );
  return list;
}

/** Each verification: the tag it checks (made here from the message) and the call on the raced bytes. */
type VerifyCall = [string, (m: Uint8Array) => (raced: Uint8Array) => boolean];

function verifyCalls(): VerifyCall[] {
  const macs = [
    ['crypto_auth_verify', sodium.crypto_auth, sodium.crypto_auth_verify],
    ['crypto_auth_hmacsha256_verify', sodium.crypto_auth_hmacsha256, sodium.crypto_auth_hmacsha256_verify],
    ['crypto_auth_hmacsha512_verify', sodium.crypto_auth_hmacsha512, sodium.crypto_auth_hmacsha512_verify],
    ['crypto_onetimeauth_verify', sodium.crypto_onetimeauth, sodium.crypto_onetimeauth_verify],
  ] as const;
  return [
    ...macs.map(([name, mac, verify]): VerifyCall => [name, (m) => (r) => verify(mac(m, k), r, k)]),
    ['crypto_sign_verify_detached', (m) => (r) => sodium.crypto_sign_verify_detached(sodium.crypto_sign_detached(m, signer.privateKey), r, signer.publicKey)],
    [
      'crypto_pwhash_str_verify (the password raced)',
      (m) => {
        const stored = sodium.crypto_pwhash_str(m, sodium.crypto_pwhash_OPSLIMIT_MIN, sodium.crypto_pwhash_MEMLIMIT_MIN);
        return (r) => sodium.crypto_pwhash_str_verify(stored, r);
      },
    ],
  ];
}

/** Node's Buffer, where the engine has one. */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** `bytes` on a new SharedArrayBuffer, in a Uint8Array or in a Node Buffer (whose slice() is a view of the same memory, not a copy). */
function onShared(bytes: Uint8Array, asBuffer = false): Uint8Array {
  const memory = new SharedArrayBuffer(bytes.length);
  const view = asBuffer ? NodeBuffer!.from(memory) : new Uint8Array(memory);
  view.set(bytes);
  return view;
}

/** Until both outcomes were seen three times (at least `least` calls, 600 at most), the other thread running between calls. */
async function race(thread: Awaited<ReturnType<typeof spinThread>>, least: number, call: () => 'yes' | 'no'): Promise<{ yes: number; no: number }> {
  const seen = { yes: 0, no: 0 };
  for (let i = 0; i < 600 && (i < least || seen.yes < 3 || seen.no < 3); i++) {
    await thread.turn();
    seen[call()]++;
  }
  return seen;
}

forEveryTier('fourfold/sodium, input on shared memory another thread changes', () => {
  const cases = [...SIZES.map((size) => [size, false] as const), [1024, true] as const];
  for (const [size, asBuffer] of cases) {
    const what = `${size} bytes${asBuffer ? ', in a Buffer' : ''}`;
    const skip = NO_SECOND_THREAD || (asBuffer && NodeBuffer === undefined ? 'no Node Buffer in this engine' : false);
    it(`an opening call returns the message sealed or throws (${what})`, { skip, timeout: 300_000 }, async () => {
      const thread = await spinThread();
      try {
        for (const [name, seal, open] of openCalls()) {
          const message = rand(size);
          const sealed = seal(message);
          const shared = onShared(sealed, asBuffer);
          // A byte of the encrypted message, past any tag or header, flipped on and off.
          await thread.spin('d.b[d.at] ^= 1;', { b: shared, at: sealed.length - Math.min(100, size >> 1) });
          const seen = await race(thread, size < 10_000 ? 60 : 20, () => {
            let out: Uint8Array;
            try {
              out = open(shared, message);
            } catch {
              return 'no';
            }
            assertBytes(out, message, `${name}: what it returned`);
            return 'yes';
          });
          await thread.pause();
          assert.ok(seen.yes > 0 && seen.no > 0, `${name}: ${seen.yes} calls opened and ${seen.no} refused; the race was not run`);
        }
      } finally {
        await thread.stop();
      }
    });
  }

  it('a verification returns a boolean, true again once the bytes are back (4096 bytes)', { skip: NO_SECOND_THREAD, timeout: 300_000 }, async () => {
    const thread = await spinThread();
    try {
      for (const [name, make] of verifyCalls()) {
        const message = rand(SIZES[0]!);
        const verify = make(message);
        const shared = onShared(message);
        await thread.spin('d.b[d.at] ^= 1;', { b: shared, at: message.length >> 1 });
        const seen = await race(thread, 20, () => {
          const verdict = verify(shared);
          assert.equal(typeof verdict, 'boolean', `${name}: a boolean`);
          return verdict ? 'yes' : 'no';
        });
        await thread.pause();
        assert.ok(seen.yes > 0 && seen.no > 0, `${name}: ${seen.yes} verified and ${seen.no} did not; the race was not run`);
        shared.set(message);
        assert.equal(verify(shared), true, `${name}: the message as it was verifies`);
      }
    } finally {
      await thread.stop();
    }
  });
});
