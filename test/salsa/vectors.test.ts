/**
 * Known-answer tests from NaCl (kept in libsodium's test suite) and the
 * Salsa20 specification: HSalsa20 (core1, core2, core5), the Salsa20
 * hash of the specification's example (core4), 4 MiB of Salsa20 and
 * XSalsa20 keystream by their SHA-256/512 (core3, stream, stream2), the
 * first keystream bytes for every length 0..63 (stream), and the secretbox
 * of "Cryptography in NaCl". The transcriptions are checked against
 * libsodium too, so a slip cannot masquerade as an implementation bug.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import { hsalsa20, salsa20, secretbox, xsalsa20, xsalsa20poly1305 } from 'fourfold/salsa';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { assertBytes, forEachTier, hex, loadJson, loadSodium, NO_SODIUM, sodium, toHex } from '../helpers.js';
import { sodiumSalsa20, sodiumXsalsa20 } from './peers.js';

interface Vectors {
  hsalsa20: { name: string; key: string; input: string; output: string }[];
  salsa20Block: { name: string; key: string; input: string; output: string }[];
  salsa20Stream: { name: string; key: string; nonce: string; length: number; sha256: string; sha512: string }[];
  xsalsa20Stream: { name: string; key: string; nonce: string; length: number; sha256: string; prefix63: string }[];
  secretbox: { name: string; key: string; nonce: string; plaintext: string; sealed: string }[];
}

const V = loadJson<Vectors>('vectors/salsa.json');

/** SHA-2 by @noble/hashes, where crypto.subtle was used before: Hermes has no crypto.subtle. */
function digest(algorithm: 'SHA-256' | 'SHA-512', data: Uint8Array): string {
  return toHex((algorithm === 'SHA-256' ? sha256 : sha512)(data));
}

before(async () => {
  await loadSodium();
});

it('the transcribed vectors agree with libsodium', { skip: NO_SODIUM }, () => {
  for (const v of V.salsa20Stream) {
    const stream = sodiumSalsa20(hex(v.key), hex(v.nonce), new Uint8Array(v.length));
    assert.equal(digest('SHA-256', stream), v.sha256, v.name);
    assert.equal(digest('SHA-512', stream), v.sha512, v.name);
  }
  for (const v of V.xsalsa20Stream) {
    assert.equal(digest('SHA-256', sodiumXsalsa20(hex(v.key), hex(v.nonce), new Uint8Array(v.length))), v.sha256, v.name);
  }
  for (const v of V.secretbox) assertBytes(sodium.crypto_secretbox_easy(hex(v.plaintext), hex(v.nonce), hex(v.key)), hex(v.sealed), v.name);
  for (const v of V.salsa20Block) {
    const input = hex(v.input);
    const counter = new DataView(input.buffer).getBigUint64(8, true);
    assertBytes(sodiumSalsa20(hex(v.key), input.subarray(0, 8), new Uint8Array(64), counter), hex(v.output), v.name);
  }
});

forEachTier('known answers', () => {
  it('HSalsa20: NaCl core1, core2, core5', () => {
    for (const v of V.hsalsa20) assertBytes(hsalsa20(hex(v.key), hex(v.input)), hex(v.output), v.name);
  });

  it('the Salsa20 hash of the specification example (NaCl core4): nonce = input 0..7, block counter = input 8..15', () => {
    for (const v of V.salsa20Block) {
      const input = hex(v.input);
      const counter = new DataView(input.buffer).getBigUint64(8, true);
      assertBytes(salsa20(hex(v.key), input.subarray(0, 8), new Uint8Array(64), undefined, counter), hex(v.output), v.name);
      // The same block as the 3rd of a longer stream: the counter advances through the 4-wide groups.
      const long = salsa20(hex(v.key), input.subarray(0, 8), new Uint8Array(64 * 9), undefined, counter - 2n);
      assertBytes(long.subarray(128, 192), hex(v.output), `${v.name} inside a longer stream`);
    }
  });

  it('4 MiB of Salsa20 keystream (NaCl core3 / stream2) by SHA-256 and SHA-512', () => {
    for (const v of V.salsa20Stream) {
      const stream = salsa20(hex(v.key), hex(v.nonce), new Uint8Array(v.length));
      assert.equal(digest('SHA-256', stream), v.sha256, v.name);
      assert.equal(digest('SHA-512', stream), v.sha512, v.name);
    }
  });

  it('4 MiB of XSalsa20 keystream (NaCl stream) by SHA-256, and its first bytes at every length 0..63', () => {
    for (const v of V.xsalsa20Stream) {
      assert.equal(digest('SHA-256', xsalsa20(hex(v.key), hex(v.nonce), new Uint8Array(v.length))), v.sha256, v.name);
      const prefix = hex(v.prefix63);
      for (let i = 0; i < 64; i++) {
        // libsodium's stream test: 64 bytes set to i, the first i replaced by keystream.
        const out = new Uint8Array(64).fill(i);
        xsalsa20(hex(v.key), hex(v.nonce), new Uint8Array(i), out.subarray(0, i));
        const expected = new Uint8Array(64).fill(i);
        expected.set(prefix.subarray(0, i));
        assertBytes(out, expected, `${v.name} prefix ${i}`);
      }
    }
  });

  it('the secretbox of "Cryptography in NaCl": seal, open, and a forgery rejected', () => {
    for (const v of V.secretbox) {
      const [key, nonce, pt, sealed] = [hex(v.key), hex(v.nonce), hex(v.plaintext), hex(v.sealed)];
      assertBytes(xsalsa20poly1305(key, nonce).encrypt(pt), sealed, `${v.name} encrypt`);
      assertBytes(secretbox(key, nonce).seal(pt), sealed, `${v.name} seal`);
      assertBytes(xsalsa20poly1305(key, nonce).decrypt(sealed), pt, `${v.name} decrypt`);
      assertBytes(secretbox(key, nonce).open(sealed), pt, `${v.name} open`);
      for (const at of [0, 15, 16, sealed.length - 1]) {
        const bad = sealed.slice();
        bad[at] ^= 0x80;
        assert.throws(() => secretbox(key, nonce).open(bad), AuthenticationError, `${v.name} byte ${at} flipped`);
      }
    }
  });
});
