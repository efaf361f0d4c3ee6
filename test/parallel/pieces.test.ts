/**
 * The AEAD pieces of fourfold/parallel (poly1305/polynomial.ts's
 * PieceCrypt): one pass on the simd tier (poly1305/one-pass.ts), two on
 * the js tier. Each piece's output must be the keystream XOR of
 * noble's ChaCha core (test/chacha/peers.ts coreStreamIetf) or
 * @noble/ciphers (or, for counters near and past 2^32 that noble's 32-bit
 * counter does not take, the synchronous stream cipher, itself checked
 * there against coreStream64), and its polynomial that of the ciphertext in
 * BigInt (RFC 8439 §2.5.1 without s), zero-padded for ChaCha20-Poly1305
 * and padded as Poly1305 pads for secretbox. No workers: the pieces alone.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { xchacha20 as nobleXchacha20 } from '@noble/ciphers/chacha.js';
import { xsalsa20 as nobleXsalsa20 } from '@noble/ciphers/salsa.js';
import { ready } from 'fourfold';
import { xchacha20 } from 'fourfold/chacha';
import { xsalsa20 } from 'fourfold/salsa';
import { jsChacha, jsPoly1305, jsSalsa, type PieceCrypt, simdChachaPiece, simdSalsaPiece, twoPasses } from '../internal.js';
import { assertBytes, NO_SIMD, rand } from '../helpers.js';
import { coreStreamIetf } from '../chacha/peers.js';

const P = (1n << 130n) - 5n;

const fromLe = (b: Uint8Array): bigint => {
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]!);
  return n;
};
const clamp = (key: Uint8Array): bigint => fromLe(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;

/** The polynomial of `m` under r, from zero: a partial last block zero-padded to a whole one (`zeroPad`), or padded as Poly1305 pads. */
function bigPolynomial(m: Uint8Array, r: bigint, zeroPad: boolean): bigint {
  let h = 0n;
  for (let i = 0; i < m.length; i += 16) {
    const chunk = m.subarray(i, Math.min(i + 16, m.length));
    const bits = zeroPad ? 128n : BigInt(8 * chunk.length);
    h = ((h + fromLe(chunk) + (1n << bits)) * r) % P;
  }
  return h;
}

interface Piece {
  readonly tier: string;
  readonly crypt: PieceCrypt;
  readonly skip: false | string;
}

/** Both ChaCha20-Poly1305s' pieces: the kernel's one pass, and the js tier's two. */
const CHACHA_PIECES: Piece[] = [
  { tier: 'simd', crypt: simdChachaPiece, skip: NO_SIMD },
  { tier: 'js', crypt: twoPasses(jsChacha.xor, jsPoly1305), skip: false },
];

interface Family {
  readonly name: string;
  readonly zeroPad: boolean;
  readonly nonceLength: number;
  readonly pieces: Piece[];
  /** The keystream from block `counter` XORed into `data`, by a reference. */
  readonly reference: (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, counter: number) => Uint8Array;
}

/** Where noble's counter (which must stay below 2^32 - 1 with room to spare) does not reach. */
const PAST_32 = (counter: number, length: number) => counter + Math.ceil(length / 64) >= 2 ** 31;

const FAMILIES: Family[] = [
  {
    name: 'ChaCha20-Poly1305 (12-byte nonce)',
    zeroPad: true,
    nonceLength: 12,
    pieces: CHACHA_PIECES,
    reference: (key, nonce, data, counter) => coreStreamIetf(key, nonce, data, counter),
  },
  {
    name: 'XChaCha20-Poly1305 (24-byte nonce)',
    zeroPad: true,
    nonceLength: 24,
    pieces: CHACHA_PIECES,
    reference: (key, nonce, data, counter) =>
      PAST_32(counter, data.length) ? xchacha20(key, nonce, data, undefined, BigInt(counter)) : nobleXchacha20(key, nonce, data, undefined, counter),
  },
  {
    name: 'secretbox (XSalsa20-Poly1305)',
    zeroPad: false,
    nonceLength: 24,
    pieces: [
      { tier: 'simd', crypt: simdSalsaPiece, skip: NO_SIMD },
      { tier: 'js', crypt: twoPasses(jsSalsa.xor, jsPoly1305), skip: false },
    ],
    reference: (key, nonce, data, counter) =>
      PAST_32(counter, data.length) ? xsalsa20(key, nonce, data, undefined, BigInt(counter)) : nobleXsalsa20(key, nonce, data, undefined, counter),
  },
];

/** Lengths around a Poly1305 block, a keystream block, a 4-block group and the kernels' 32 KiB slice. */
const LENGTHS = [0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000, 32767, 32768, 32769, 65536 + 15, 3 * 32768 + 100];

for (const f of FAMILIES) {
  for (const { tier, crypt, skip } of f.pieces) {
    describe(`${f.name}: a piece (${tier} tier)`, { skip }, () => {
      // A browser compiles the kernels in the background: the simd pieces need them instantiated.
      before(async () => {
        if (tier === 'simd') assert.equal(await ready(), 'simd');
      });
      for (const decrypt of [false, true]) {
        it(`${decrypt ? 'decrypts' : 'encrypts'}: the reference's keystream XOR, and the polynomial of the ciphertext, at every length and into its own input`, () => {
          for (const n of LENGTHS) {
            for (const counter of f.nonceLength === 12 ? [1, 7, 2 ** 32 - 1 - Math.ceil(n / 64)] : [1, 2 ** 32 - 2, 2 ** 40 + 3]) {
              const key = rand(32);
              const nonce = rand(f.nonceLength);
              const polyKey = rand(32);
              const input = rand(n);
              const expected = f.reference(key, nonce, input, counter);
              const ciphertext = decrypt ? input : expected;
              const label = `${n} bytes from block ${counter}`;
              const output = new Uint8Array(n);
              const h = crypt({ key, nonce, counter, polyKey }, f.zeroPad, decrypt, input, output);
              assertBytes(output, expected, label);
              assert.equal(fromLe(h), bigPolynomial(ciphertext, clamp(polyKey), f.zeroPad), `${label}: polynomial`);
              // In place: the output is the input's own memory.
              const inPlace = input.slice();
              const h2 = crypt({ key, nonce, counter, polyKey }, f.zeroPad, decrypt, inPlace, inPlace);
              assertBytes(inPlace, expected, `${label}, in place`);
              assertBytes(h2, h, `${label}, in place: polynomial`);
            }
          }
        });
      }
    });
  }
}
