/**
 * An AEAD's output may lie over the memory of its other arguments (the
 * aad, the key, the nonce), as long as it does not partially overlap the
 * message: both tiers then give the bytes of separate buffers. The aad is
 * absorbed before any output is written (the simd tier always did; the js
 * tier encrypted into the output first, and its tag then covered the
 * overwritten aad).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { chacha20poly1305, xchacha20poly1305, type Aead } from 'fourfold';
import { assertBytes, forEveryTier, rand } from '../helpers.js';
import { noble } from '../chacha/peers.js';

type Make = (key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array) => Aead;
const AEADS: { name: string; make: Make; reference: Make; nonce: number }[] = [
  { name: 'chacha20poly1305', make: chacha20poly1305, reference: noble.chacha20poly1305, nonce: 12 },
  { name: 'xchacha20poly1305', make: xchacha20poly1305, reference: noble.xchacha20poly1305, nonce: 24 },
];

const AAD = 48;

/** One buffer holding the key at 0, the nonce at 32, the aad at 64 and `message` past room for an output over them. */
function place(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, message: Uint8Array) {
  const at = 4096 + message.length + 64;
  const buf = new Uint8Array(at + message.length);
  const view = (offset: number, bytes: Uint8Array) => {
    const v = buf.subarray(offset, offset + bytes.length);
    v.set(bytes);
    return v;
  };
  return { buf, key: view(0, key), nonce: view(32, nonce), aad: view(64, aad), message: view(at, message) };
}

/** Output offsets: over the aad's start, middle and end, and from inside the key or the nonce across the aad. */
const OFFSETS = [64, 69, 64 + AAD - 1, 50, 0];

forEveryTier("an AEAD's output over its aad", () => {
  for (const size of [100, 40000]) {
    it(`encrypt and decrypt into an output that covers the aad give the bytes of a separate output (${size} bytes)`, () => {
      for (const a of AEADS) {
        const [key, nonce, aad, message] = [rand(32), rand(a.nonce), rand(AAD), rand(size)];
        const sealed = a.reference(key, nonce, aad).encrypt(message);
        for (const at of OFFSETS) {
          const e = place(key, nonce, aad, message);
          const out = e.buf.subarray(at, at + size + 16);
          assert.equal(a.make(e.key, e.nonce, e.aad).encrypt(e.message, out), out);
          assertBytes(out, sealed, `${a.name} encrypt, output at ${at}`);

          const d = place(key, nonce, aad, sealed);
          const plain = d.buf.subarray(at, at + size);
          assert.equal(a.make(d.key, d.nonce, d.aad).decrypt(d.message, plain), plain);
          assertBytes(plain, message, `${a.name} decrypt, output at ${at}`);
        }
      }
    });
  }
});
