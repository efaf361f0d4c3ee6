/**
 * The differential fuzzing's properties: one per group of public calls,
 * each against implementations written apart from fourfold (@noble,
 * libsodium-wrappers, node:crypto, hash-wasm, mipher, typage), with its
 * own budget of cases for npm test's run (test/fuzz/fuzz.test.ts) and the
 * tiers its calls can take. The long run (scripts/fuzz.ts) runs the same
 * ones round-robin. This file has the stream ciphers, the subkeys, the
 * AEADs and Serpent, and the list of the synchronous properties; Poly1305
 * and BLAKE3 are in hash-properties.ts, scrypt and Argon2 in
 * kdf-properties.ts, secretstream in secretstream-properties.ts, the shape
 * in property.ts. What each draws is in test/fuzz/gen.ts; the parallel
 * calls and age's one-shot calls and streams are in
 * test/fuzz/async-properties.ts, age's ranges, file calls and keys in
 * test/fuzz/age-properties.ts.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AuthenticationError } from 'fourfold';
import { chacha8, chacha12, chacha20, chacha20orig, chacha20poly1305, hchacha20, xchacha20, xchacha20poly1305 } from 'fourfold/chacha';
import { hsalsa20, salsa20, salsa208, salsa2012, secretbox, xsalsa20, xsalsa20poly1305 } from 'fourfold/salsa';
import { cbc, ctr, ecb, PaddingError } from 'fourfold/serpent';
import * as ss from 'fourfold/secretstream';
import { hsalsa, xsalsa20poly1305 as nobleXsalsaPoly } from '@noble/ciphers/salsa.js';
import { blocksOf, loadSodium, sodium, TWO64 } from '../helpers.js';
import { coreStream64, coreStreamIetf, noble, nobleHchacha, nodeAeadEncrypt, nodeChacha20, nodeChacha20orig, nodeXchacha20 } from '../chacha/peers.js';
import { coreStream, sodiumReduced, sodiumSalsa20, sodiumXsalsa20 } from '../salsa/peers.js';
import { pkcs7, refCtr, refDecrypt, refEncrypt } from '../serpent/reference.js';
import { bytesOf, type CounterDraw, counterArb, counterFor, dataArb, equal, flipped, isZero, keyArb, layoutArb, place, tiersOf } from './gen.js';
import type { FuzzProperty } from './property.js';

import { blake3s, poly } from './hash-properties.js';
import { scrypts } from './kdf-properties.js';
import { secretstreamMessages, secretstreamStreams } from './secretstream-properties.js';

/** The 2^32 and 2^64 limits of the block counters. */
const TWO32N = 1n << 32n;

/** Edges of the ChaCha and Salsa20 lengths: a block, the SIMD groups of 4 and 8 blocks, the native tier's crossovers (4 to 8.25 KiB). */
const STREAM_EDGES = [64, 256, 512, 4224, 5968, 8448];
const STREAM_MAX = 20_000;

/** One of the three ways a result is asked for: a new array, the caller's array (placed), or in place. */
const outputArb = fc.constantFrom('new' as const, 'caller' as const, 'inplace' as const);

type StreamCall = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter?: number | bigint) => Uint8Array;

/** Runs a stream cipher's call as `output` says, on a placed input, and checks the result, the input and the guards. */
function checkStream(
  fn: StreamCall,
  args: { key: Uint8Array; nonce: Uint8Array; data: Uint8Array; counter: number | bigint | undefined },
  how: { output: 'new' | 'caller' | 'inplace'; input: { offset: number; shared: boolean }; out: { offset: number; shared: boolean } },
  expected: Uint8Array,
): boolean {
  const { key, nonce, data, counter } = args;
  const call = (d: Uint8Array, o?: Uint8Array) => (counter === undefined ? fn(key, nonce, d, o) : fn(key, nonce, d, o, counter));
  const input = place(data, how.input);
  if (how.output === 'inplace') {
    assert.equal(call(input.view, input.view), input.view, 'in place returns the output');
    return equal(input.view, expected) && input.intact();
  }
  if (how.output === 'caller') {
    const out = place(data.length, how.out);
    assert.equal(call(input.view, out.view), out.view, 'returns the caller output');
    return equal(out.view, expected) && equal(input.view, data) && out.intact() && input.intact();
  }
  return equal(call(input.view), expected) && equal(input.view, data);
}

const streamArgs = {
  data: dataArb(STREAM_MAX, STREAM_EDGES),
  counter: counterArb,
  output: outputArb,
  input: layoutArb,
  out: layoutArb,
};

/** A stream property: `ref` is the peer's bytes for the drawn counter (0 where none is given). */
function streamProperty(
  name: string,
  fn: StreamCall,
  keyLength: number,
  nonceLength: number,
  limit: bigint,
  ref: (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, counter: bigint) => Uint8Array,
  native: boolean,
  cases = 120,
): FuzzProperty {
  return {
    name,
    cases,
    tiers: tiersOf(native),
    setup: loadSodium,
    property: () =>
      fc.asyncProperty(keyArb(keyLength), keyArb(nonceLength), fc.record(streamArgs), async (key, nonce, d) => {
        const data = bytesOf(d.data.length, d.data.seed);
        const counter = counterFor(d.counter as CounterDraw, limit, blocksOf(data.length));
        const expected = ref(key, nonce, data, BigInt(counter ?? 0));
        return checkStream(fn, { key, nonce, data, counter }, d, expected);
      }),
  };
}

/** The IETF ChaCha20 reference: node:crypto (OpenSSL) below the 2^32 wrap, noble's core there. */
const ietf =
  (rounds: 20 | 12 | 8) =>
  (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, c: bigint): Uint8Array =>
    rounds === 20 ? nodeChacha20(key, nonce, data, Number(c)) : coreStreamIetf(key, nonce, data, Number(c), rounds);

export const chachaStreams: FuzzProperty[] = [
  streamProperty('chacha20', chacha20, 32, 12, TWO32N, ietf(20), true),
  streamProperty('chacha12', chacha12, 32, 12, TWO32N, ietf(12), false, 60),
  streamProperty('chacha8', chacha8, 32, 12, TWO32N, ietf(8), false, 60),
  streamProperty('chacha20orig', chacha20orig, 32, 8, TWO64, nodeChacha20orig, false),
  streamProperty('chacha20orig-16', chacha20orig, 16, 8, TWO64, (k, n, d, c) => coreStream64(k, n, d, c), false, 60),
  streamProperty('xchacha20', xchacha20, 32, 24, TWO64, nodeXchacha20, true),
];

export const salsaStreams: FuzzProperty[] = [
  streamProperty('salsa20', salsa20, 32, 8, TWO64, (k, n, d, c) => sodiumSalsa20(k, n, d, c), false),
  streamProperty('salsa2012', salsa2012, 32, 8, TWO64, (k, n, d, c) => (c === 0n ? sodiumReduced(12, k, n, d) : coreStream(12, k, n, d, c)), false, 60),
  streamProperty('salsa208', salsa208, 32, 8, TWO64, (k, n, d, c) => (c === 0n ? sodiumReduced(8, k, n, d) : coreStream(8, k, n, d, c)), false, 60),
  streamProperty('xsalsa20', xsalsa20, 32, 24, TWO64, (k, n, d, c) => sodiumXsalsa20(k, n, d, c), false),
];

const words = (b: Uint8Array): Uint32Array => Uint32Array.from({ length: b.length / 4 }, (_, i) => new DataView(b.buffer, b.byteOffset).getUint32(4 * i, true));
const wordBytes = (w: Uint32Array): Uint8Array => {
  const out = new Uint8Array(w.length * 4);
  for (const [i, v] of w.entries()) new DataView(out.buffer).setUint32(4 * i, v, true);
  return out;
};
const SIGMA = words(new TextEncoder().encode('expand 32-byte k'));

export const subkeys: FuzzProperty = {
  name: 'hchacha20-hsalsa20',
  cases: 200,
  tiers: tiersOf(false),
  property: () =>
    fc.asyncProperty(keyArb(32), keyArb(16), layoutArb, async (key, nonce, layout) => {
      const k = place(key, layout);
      const n = place(nonce, layout);
      const out = new Uint32Array(8);
      hsalsa(SIGMA, words(key), words(nonce), out);
      return equal(hchacha20(k.view, n.view), nobleHchacha(key, nonce)) && equal(hsalsa20(k.view, n.view), wordBytes(out)) && k.intact() && n.intact();
    }),
};

// ------------------------------------------------------------------ AEADs

type AeadCall = (
  key: Uint8Array,
  nonce: Uint8Array,
  aad?: Uint8Array,
) => { encrypt(pt: Uint8Array, output?: Uint8Array): Uint8Array; decrypt(ct: Uint8Array, output?: Uint8Array): Uint8Array };

const aeadArgs = {
  data: dataArb(STREAM_MAX, [16, ...STREAM_EDGES]),
  aad: dataArb(300, [16]),
  withAad: fc.boolean(),
  output: outputArb,
  input: layoutArb,
  out: layoutArb,
  tamper: fc.record({ where: fc.constantFrom('body' as const, 'aad' as const), bit: fc.nat() }),
};

/**
 * An AEAD property: the sealed bytes equal the peer's, the peer's open
 * here, the outputs go where asked, and a flipped bit of the ciphertext,
 * the tag or the aad makes decrypt throw AuthenticationError with the
 * output zeroed (no plaintext released).
 */
function aeadProperty(name: string, make: AeadCall, nonceLength: number, peer: AeadCall, native: boolean, aadAllowed = true): FuzzProperty {
  return {
    name,
    cases: 120,
    tiers: tiersOf(native),
    property: () =>
      fc.asyncProperty(keyArb(32), keyArb(nonceLength), fc.record(aeadArgs), async (key, nonce, d) => {
        const pt = bytesOf(d.data.length, d.data.seed);
        const aad = aadAllowed && d.withAad ? bytesOf(d.aad.length, d.aad.seed ^ 1) : undefined;
        const mk = (a = aad) => (a === undefined ? make(key, nonce) : make(key, nonce, a));
        const sealed = aad === undefined ? peer(key, nonce).encrypt(pt) : peer(key, nonce, aad).encrypt(pt);
        const input = place(pt, d.input);
        let ok: boolean;
        if (d.output === 'inplace') {
          const room = place(pt.length + 16, d.input);
          room.view.set(pt);
          ok = equal(mk().encrypt(room.view.subarray(0, pt.length), room.view), sealed) && room.intact();
          const back = mk().decrypt(room.view, room.view.subarray(0, pt.length));
          ok &&= equal(back, pt) && room.intact();
        } else if (d.output === 'caller') {
          const out = place(sealed.length, d.out);
          ok = mk().encrypt(input.view, out.view) === out.view && equal(out.view, sealed) && out.intact();
          const sealedIn = place(sealed, d.input);
          const plain = place(pt.length, d.out);
          ok &&= mk().decrypt(sealedIn.view, plain.view) === plain.view && equal(plain.view, pt) && plain.intact() && sealedIn.intact();
        } else {
          ok = equal(mk().encrypt(input.view), sealed) && equal(mk().decrypt(place(sealed, d.input).view), pt) && equal(input.view, pt);
        }
        // Tampering: a bit of the ciphertext or tag, or of the aad where there is one.
        const badAad = d.tamper.where === 'aad' && aad !== undefined && aad.length > 0;
        const bad = badAad ? sealed : flipped(sealed, d.tamper.bit);
        const open = badAad ? mk(flipped(aad, d.tamper.bit)) : mk();
        const out = new Uint8Array(pt.length).fill(0xee);
        assert.throws(() => open.decrypt(bad, out), AuthenticationError, 'a flipped bit must fail');
        return ok && isZero(out);
      }),
  };
}

const nodeAead: AeadCall = (key, nonce, aad) => ({
  encrypt: (pt) => nodeAeadEncrypt(key, nonce, aad, pt),
  decrypt: () => assert.fail('not used'),
});

export const aeads: FuzzProperty[] = [
  aeadProperty('chacha20poly1305', chacha20poly1305, 12, nodeAead, true),
  aeadProperty('xchacha20poly1305', xchacha20poly1305, 24, noble.xchacha20poly1305, true),
  aeadProperty('xsalsa20poly1305', xsalsa20poly1305 as AeadCall, 24, nobleXsalsaPoly as unknown as AeadCall, false, false),
  aeadProperty(
    'secretbox',
    (key, nonce) => {
      const box = secretbox(key, nonce);
      return { encrypt: (p, o) => box.seal(p, o), decrypt: (c, o) => box.open(c, o) };
    },
    24,
    (key, nonce) => ({
      encrypt: (pt) => sodium.crypto_secretbox_easy(pt, nonce, key),
      decrypt: () => assert.fail('not used'),
    }),
    false,
    false,
  ),
];
aeads.find((p) => p.name === 'secretbox')!.setup = loadSodium;

// ------------------------------------------------------------------ Serpent

export const serpent: FuzzProperty = {
  name: 'serpent',
  cases: 120,
  tiers: tiersOf(false),
  property: () =>
    fc.asyncProperty(
      fc.constantFrom(16, 24, 32).chain((n) => keyArb(n)),
      keyArb(16),
      dataArb(3000, [16, 64, 128, 256]),
      fc.record({ mode: fc.constantFrom('ecb' as const, 'cbc' as const, 'ctr' as const), padding: fc.boolean(), top: fc.boolean() }),
      fc.record({ output: fc.constantFrom('new' as const, 'caller' as const), input: layoutArb, out: layoutArb }),
      fc.nat(),
      async (key, iv0, d, m, how, bit) => {
        let data = bytesOf(d.length, d.seed);
        const padding = m.mode !== 'ctr' && m.padding;
        if (m.mode !== 'ctr' && !padding) data = data.subarray(0, data.length - (data.length % 16));
        // CTR near the 2^128 wrap: the IV's high bytes all ones.
        const iv = m.mode === 'ctr' && m.top ? Uint8Array.from(iv0, (b, i) => (i < 14 ? 0xff : b)) : iv0;
        const ref = m.mode === 'ctr' ? refCtr(key, iv, data) : refEncrypt(key, m.mode === 'cbc' ? iv : undefined, padding ? pkcs7(data) : data);
        const opts = { disablePadding: !padding };
        const c = () => (m.mode === 'ecb' ? ecb(key, opts) : m.mode === 'cbc' ? cbc(key, iv, opts) : ctr(key, iv));
        const input = place(data, how.input);
        let ok: boolean;
        if (how.output === 'caller') {
          const out = place(ref.length, how.out);
          ok = c().encrypt(input.view, out.view) === out.view && equal(out.view, ref) && out.intact();
          const back = place(ref.length, how.out);
          ok &&= equal(c().decrypt(place(ref, how.input).view, back.view), data) && back.intact();
        } else {
          ok = equal(c().encrypt(input.view), ref) && equal(c().decrypt(ref), data);
        }
        ok &&= equal(input.view, data) && input.intact();
        if (m.mode !== 'ctr') assert.ok(equal(refDecrypt(key, m.mode === 'cbc' ? iv : undefined, ref), padding ? pkcs7(data) : data), 'the reference');
        // A padded message's last block changed: a PaddingError, or bytes that are not the plaintext.
        if (padding) {
          try {
            ok &&= !equal(c().decrypt(flipped(ref, ref.length * 8 - 128 + (bit % 128))), data);
          } catch (e) {
            ok &&= e instanceof PaddingError;
          }
        }
        return ok;
      },
    ),
};

export const syncProperties: FuzzProperty[] = [
  ...chachaStreams,
  ...salsaStreams,
  subkeys,
  ...aeads,
  poly,
  blake3s,
  serpent,
  scrypts,
  secretstreamMessages,
  secretstreamStreams('secretstream-streams', ss, 200_000, 40),
];
