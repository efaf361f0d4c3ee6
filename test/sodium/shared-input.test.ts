/**
 * The class test of shared input for fourfold/sodium's calls that open a
 * sealed message: the ciphertext on a SharedArrayBuffer that a second
 * thread keeps changing (one byte flipped and flipped back, over and
 * over) while this thread opens it again and again. Each call either
 * throws or returns the message that was sealed: never bytes that were not
 * verified (the input is read once: copied, then checked, then opened).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { assertBytes, NO_SECOND_THREAD, rand, type SpinningThread, spinThread } from '../helpers.js';

const MESSAGE = rand(4096);
const n24 = rand(24);
const n12 = rand(12);
const n8 = rand(8);
const k = rand(32);
const alice = sodium.crypto_box_keypair();
const bob = sodium.crypto_box_keypair();
const xalice = sodium.crypto_box_curve25519xchacha20poly1305_keypair();
const xbob = sodium.crypto_box_curve25519xchacha20poly1305_keypair();

/** Each opening call: what it opens (sealed here) and how. */
const CALLS: [string, () => Uint8Array, (sealed: Uint8Array) => Uint8Array][] = [
  [
    'crypto_aead_xchacha20poly1305_ietf_decrypt',
    () => sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(MESSAGE, null, null, n24, k),
    (c) => sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(null, c, null, n24, k),
  ],
  [
    'crypto_aead_chacha20poly1305_ietf_decrypt',
    () => sodium.crypto_aead_chacha20poly1305_ietf_encrypt(MESSAGE, null, null, n12, k),
    (c) => sodium.crypto_aead_chacha20poly1305_ietf_decrypt(null, c, null, n12, k),
  ],
  [
    'crypto_aead_chacha20poly1305_decrypt',
    () => sodium.crypto_aead_chacha20poly1305_encrypt(MESSAGE, null, null, n8, k),
    (c) => sodium.crypto_aead_chacha20poly1305_decrypt(null, c, null, n8, k),
  ],
  ['crypto_secretbox_open_easy', () => sodium.crypto_secretbox_easy(MESSAGE, n24, k), (c) => sodium.crypto_secretbox_open_easy(c, n24, k)],
  [
    'crypto_box_open_easy',
    () => sodium.crypto_box_easy(MESSAGE, n24, bob.publicKey, alice.privateKey),
    (c) => sodium.crypto_box_open_easy(c, n24, alice.publicKey, bob.privateKey),
  ],
  ['crypto_box_seal_open', () => sodium.crypto_box_seal(MESSAGE, bob.publicKey), (c) => sodium.crypto_box_seal_open(c, bob.publicKey, bob.privateKey)],
  [
    'crypto_box_curve25519xchacha20poly1305_open_easy',
    () => sodium.crypto_box_curve25519xchacha20poly1305_easy(MESSAGE, n24, xbob.publicKey, xalice.privateKey),
    (c) => sodium.crypto_box_curve25519xchacha20poly1305_open_easy(c, n24, xalice.publicKey, xbob.privateKey),
  ],
];

let thread: SpinningThread;
before(async () => {
  if (!NO_SECOND_THREAD) thread = await spinThread();
});
after(async () => {
  await thread?.stop();
});

for (const [name, seal, open] of CALLS) {
  it(`${name}: a ciphertext another thread keeps changing opens to the message or throws`, { skip: NO_SECOND_THREAD }, async () => {
    const sealed = seal();
    const shared = new Uint8Array(new SharedArrayBuffer(sealed.length));
    shared.set(sealed);
    // A byte of the encrypted message, past any tag or header, flipped on and off.
    await thread.spin('d.b[d.at] ^= 1;', { b: shared, at: sealed.length - 100 });
    let opened = 0;
    let refused = 0;
    try {
      for (let i = 0; i < 300; i++) {
        let out: Uint8Array | undefined;
        try {
          out = open(shared);
        } catch {
          refused++;
        }
        if (out !== undefined) {
          assertBytes(out, MESSAGE, `${name}: what it returned`);
          opened++;
        }
      }
    } finally {
      await thread.pause();
    }
    assert.ok(thread.turns() > 0, 'the other thread changed the bytes');
    assert.equal(opened + refused, 300);
  });
}
