/**
 * The differential fuzzing's properties: one per group of public calls,
 * each against implementations written apart from fourfold (@noble,
 * libsodium-wrappers, node:crypto, hash-wasm, mipher, typage), with its
 * own budget of cases for npm test's run (test/fuzz/fuzz.test.ts) and the
 * tiers its calls can take. The long run (scripts/fuzz.ts) runs the same
 * ones round-robin. What each draws is in test/fuzz/gen.ts; the parallel
 * calls and age's one-shot calls and streams are in
 * test/fuzz/async-properties.ts, age's ranges, file calls and keys in
 * test/fuzz/age-properties.ts.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AuthenticationError } from 'fourfold';
import { chacha8, chacha12, chacha20, chacha20orig, chacha20poly1305, hchacha20, xchacha20, xchacha20poly1305 } from 'fourfold/chacha';
import { Poly1305, poly1305 } from 'fourfold/poly1305';
import { hsalsa20, salsa20, salsa208, salsa2012, secretbox, xsalsa20, xsalsa20poly1305 } from 'fourfold/salsa';
import { Blake3, blake3 } from 'fourfold/blake3';
import { cbc, ctr, ecb, PaddingError } from 'fourfold/serpent';
import { scrypt, scryptAsync } from 'fourfold/scrypt';
import { argon2d, argon2i, argon2id } from 'fourfold/argon2';
import * as ss from 'fourfold/secretstream';
import { hsalsa, xsalsa20poly1305 as nobleXsalsaPoly } from '@noble/ciphers/salsa.js';
import { scrypt as nobleScrypt } from '@noble/hashes/scrypt.js';
import { argon2d as nobleArgon2d, argon2i as nobleArgon2i, argon2id as nobleArgon2id } from '@noble/hashes/argon2.js';
import type { CallTier } from '../helpers.js';
import { blocksOf, hex, loadSodium, sodium, sumo, TWO64 } from '../helpers.js';
import {
  coreStream64,
  coreStreamIetf,
  noble,
  noblePoly1305,
  nobleHchacha,
  nodeAeadEncrypt,
  nodeChacha20,
  nodeChacha20orig,
  nodeXchacha20,
} from '../chacha/peers.js';
import { coreStream, sodiumReduced, sodiumSalsa20, sodiumXsalsa20 } from '../salsa/peers.js';
import { blake3 as hashWasmBlake3 } from 'hash-wasm';
import { nobleBlake3 } from '../blake3/reference.js';
import { pkcs7, refCtr, refDecrypt, refEncrypt } from '../serpent/reference.js';
import { sodiumStream } from '../secretstream/peer.js';
import {
  bytesOf,
  type CounterDraw,
  counterArb,
  counterFor,
  cut,
  dataArb,
  drain,
  equal,
  flipped,
  isZero,
  join,
  keyArb,
  layoutArb,
  lengthArb,
  place,
  splitArb,
  streamOf,
  tiersOf,
} from './gen.js';

/** A property of the fuzzing. */
export interface FuzzProperty {
  /** Its name, for --only and the report. */
  name: string;
  /** Cases per tier in npm test's run. */
  cases: number;
  /** The tiers its calls can take here (each runs the property). */
  tiers: readonly CallTier[];
  /** Loads what the peers need (once). */
  setup?(): Promise<void>;
  property(): fc.IAsyncProperty<never> | fc.IAsyncProperty<unknown[]>;
}

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

// ------------------------------------------------------------------ Poly1305, BLAKE3

export const poly: FuzzProperty = {
  name: 'poly1305',
  cases: 200,
  tiers: tiersOf(false),
  setup: loadSodium,
  property: () =>
    fc.asyncProperty(keyArb(32), dataArb(9000, [16, 64, 128, 256, 1024]), splitArb, layoutArb, async (key, d, splits, layout) => {
      const msg = bytesOf(d.length, d.seed);
      const expected = sumo().crypto_onetimeauth(msg, key);
      const placed = place(msg, layout);
      const h = new Poly1305(key);
      for (const piece of cut(placed.view, splits)) h.update(piece);
      const into = place(16, layout);
      h.digestInto(into.view);
      const c = poly1305.create(key);
      for (const piece of cut(msg, splits.slice(1))) c.update(piece);
      return equal(poly1305(placed.view, key), expected) && equal(into.view, expected) && equal(c.digest(), noblePoly1305(msg, key)) && into.intact();
    }),
};

const BLAKE3_EDGES = [64, 1024, 2048, 4096, 8192, 16384];

/**
 * hash-wasm's one-shot BLAKE3, which reuses one WebAssembly instance:
 * test/blake3/reference.ts's hashWasm keeps an instance per length and
 * key, and the thousands of keys a long run draws ran out of WebAssembly
 * memory.
 */
export const hashWasmOnce = async (data: Uint8Array, dkLen: number, key?: Uint8Array): Promise<Uint8Array> => hex(await hashWasmBlake3(data, 8 * dkLen, key));

export const blake3s: FuzzProperty = {
  name: 'blake3',
  cases: 160,
  tiers: tiersOf(false),
  property: () =>
    fc.asyncProperty(
      dataArb(40_000, BLAKE3_EDGES),
      fc.record({
        mode: fc.constantFrom('hash' as const, 'keyed' as const, 'derive' as const),
        key: keyArb(32),
        context: fc.string({ maxLength: 40 }),
        dkLen: lengthArb(300, [32, 64]),
        xof: fc.array(lengthArb(130, [32, 64]), { maxLength: 4 }),
      }),
      splitArb,
      layoutArb,
      async (d, m, splits, layout) => {
        const data = bytesOf(d.length, d.seed);
        const opts = { dkLen: m.dkLen, ...(m.mode === 'keyed' ? { key: m.key } : m.mode === 'derive' ? { context: m.context } : {}) };
        const nobleOpts = {
          dkLen: m.dkLen,
          ...(m.mode === 'keyed' ? { key: m.key } : m.mode === 'derive' ? { context: new TextEncoder().encode(m.context) } : {}),
        };
        const expected = nobleBlake3(data, nobleOpts);
        const placed = place(data, layout);
        assert.ok(equal(blake3(placed.view, opts), expected), 'blake3() against @noble/hashes');
        if (m.mode !== 'derive' && m.dkLen > 0) {
          assert.ok(equal(await hashWasmOnce(data, m.dkLen, m.mode === 'keyed' ? m.key : undefined), expected), 'hash-wasm against @noble/hashes');
        }
        const h = new Blake3(opts);
        for (const piece of cut(placed.view, splits)) h.update(piece);
        const copy = h.clone();
        const out = place(m.dkLen, layout);
        assert.ok(equal(h.digestInto(out.view), expected) && out.intact(), 'Blake3 updates and digestInto against @noble/hashes');
        // xof() continues the output stream, piece after piece.
        const total = m.xof.reduce((a, b) => a + b, 0);
        const whole = nobleBlake3(data, { ...nobleOpts, dkLen: Math.max(total, 1) }).subarray(0, total);
        assert.ok(equal(join(m.xof.map((n) => copy.xof(n))), whole), 'xof() of a clone against @noble/hashes');
        return placed.intact();
      },
    ),
};

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

// ------------------------------------------------------------------ scrypt

export const scrypts: FuzzProperty = {
  name: 'scrypt',
  cases: 50,
  tiers: tiersOf(false),
  property: () =>
    fc.asyncProperty(
      fc.record({
        logN: fc.integer({ min: 1, max: 10 }),
        r: fc.integer({ min: 1, max: 8 }),
        p: fc.integer({ min: 1, max: 3 }),
        dkLen: lengthArb(200, [32, 64]).filter((n) => n > 0),
        password: fc.oneof(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 80 })),
        salt: fc.oneof(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 80 })),
        async: fc.boolean(),
      }),
      async (c) => {
        const opts = { N: 2 ** c.logN, r: c.r, p: c.p, dkLen: c.dkLen };
        const expected = nobleScrypt(c.password, c.salt, opts);
        const got = c.async ? await scryptAsync(c.password, c.salt, opts) : scrypt(c.password, c.salt, opts);
        return equal(got, expected);
      },
    ),
};

// ------------------------------------------------------------------ Argon2

export type Argon2Type = 'argon2id' | 'argon2i' | 'argon2d';
export const ARGON2_TYPES: readonly Argon2Type[] = ['argon2id', 'argon2i', 'argon2d'];
export const nobleArgon2 = { argon2id: nobleArgon2id, argon2i: nobleArgon2i, argon2d: nobleArgon2d } as const;

/** An Argon2 call's parameters and inputs as drawn (argon2Case makes the call's options of them). */
export interface Argon2Draw {
  type: Argon2Type;
  t: number;
  p: number;
  /** An edge of m for this p (argon2Edges), or any m from 8p to ARGON2_MAX_M. */
  m: { edge: boolean; n: number };
  dkLen: number;
  version: 0x10 | 0x13 | undefined;
  password: string | Uint8Array;
  salt: string | Uint8Array;
  key: Uint8Array | undefined;
  personalization: Uint8Array | undefined;
}

/** The largest m drawn, in KiB: segments of up to 150 blocks a lane, the second block of addresses (128) among them. */
const ARGON2_MAX_M = 600;

/**
 * The edges of m for p lanes: 8p (segments of 2 blocks), m not a multiple
 * of 4p (m' rounds down, H0 takes m as given), and segments of 127, 128
 * and 129 blocks, where argon2i and argon2id's second block of addresses
 * starts; those within ARGON2_MAX_M.
 */
function argon2Edges(p: number): number[] {
  const edges = [8 * p, 8 * p + 1, 12 * p - 1, 12 * p, 16 * p + 3, ...[127, 128, 129].map((q) => 4 * q * p), 4 * 129 * p + 1];
  return edges.filter((m) => m <= Math.max(ARGON2_MAX_M, 8 * p));
}

/** Bytes or (one time in four) a string, of 0 to `max` bytes or UTF-16 units. */
const textOrBytes = (min: number, max: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.uint8Array({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: max }) },
  );

/** Bytes of 0 to 64, or none. */
const optionalBytes = fc.option(fc.uint8Array({ maxLength: 64 }), { freq: 3, nil: undefined });

export const argon2Arb: fc.Arbitrary<Argon2Draw> = fc.record({
  type: fc.constantFrom(...ARGON2_TYPES),
  t: fc.integer({ min: 1, max: 3 }),
  p: fc.integer({ min: 1, max: 4 }),
  m: fc.record({ edge: fc.boolean(), n: fc.nat() }),
  dkLen: fc.oneof(fc.constantFrom(4, 5, 31, 32, 33, 63, 64, 65, 80), fc.integer({ min: 4, max: 80 })),
  version: fc.constantFrom(0x10 as const, 0x13 as const, undefined),
  password: textOrBytes(0, 64),
  salt: textOrBytes(8, 64),
  key: optionalBytes,
  personalization: optionalBytes,
});

/** The m a draw names, for its p. */
export function argon2M(d: Argon2Draw): number {
  if (d.m.edge) {
    const edges = argon2Edges(d.p);
    return edges[d.m.n % edges.length]!;
  }
  return 8 * d.p + (d.m.n % (Math.max(ARGON2_MAX_M, 8 * d.p) - 8 * d.p + 1));
}

/** A draw's options, as fourfold's calls and @noble/hashes' take them (the same names); the options left out are the defaults. */
export function argon2Options(d: Argon2Draw): {
  t: number;
  m: number;
  p: number;
  dkLen: number;
  version?: number;
  key?: Uint8Array;
  personalization?: Uint8Array;
} {
  return {
    t: d.t,
    m: argon2M(d),
    p: d.p,
    dkLen: d.dkLen,
    ...(d.version === undefined ? {} : { version: d.version }),
    ...(d.key === undefined ? {} : { key: d.key }),
    ...(d.personalization === undefined ? {} : { personalization: d.personalization }),
  };
}

/** argon2id, argon2i and argon2d against @noble/hashes: every type and version, 1 to 4 lanes, m from 8p to 600 KiB and its edges. */
export const argon2s: FuzzProperty = {
  name: 'argon2',
  cases: 40,
  tiers: tiersOf(false),
  property: () =>
    fc.asyncProperty(argon2Arb, async (d) => {
      const opts = argon2Options(d);
      const expected = nobleArgon2[d.type](d.password, d.salt, opts);
      const call = { argon2id, argon2i, argon2d }[d.type];
      return equal(call(d.password, d.salt, opts), expected);
    }),
};

// ------------------------------------------------------------------ secretstream

const TAGS = [ss.TAG_MESSAGE, ss.TAG_PUSH, ss.TAG_REKEY, ss.TAG_FINAL];

export const secretstreamMessages: FuzzProperty = {
  name: 'secretstream-messages',
  cases: 120,
  tiers: tiersOf(false),
  setup: loadSodium,
  property: () =>
    fc.asyncProperty(
      keyArb(32),
      fc.array(fc.record({ data: dataArb(1200, [64, 256, 512]), tag: fc.constantFrom(...TAGS), aad: dataArb(40, [16]), rekey: fc.boolean() }), {
        minLength: 1,
        maxLength: 8,
      }),
      fc.record({ at: fc.nat(), bit: fc.nat() }),
      layoutArb,
      async (key, messages, tamper, layout) => {
        // fourfold pushes, libsodium pulls.
        const push = ss.initPush(key);
        const theirs = sodiumStream.initPull(push.header, key);
        const sodiumPush = sodiumStream.initPush(key);
        const pull = ss.initPull(sodiumPush.header, key);
        const sealed: Uint8Array[] = [];
        for (const m of messages) {
          const data = bytesOf(m.data.length, m.data.seed);
          const aad = bytesOf(m.aad.length, m.aad.seed);
          const c = push.push(place(data, layout).view, m.tag, aad);
          sealed.push(c);
          const got = sodiumStream.pull(theirs, c, aad);
          if (got === false || !equal(got.message, data) || got.tag !== m.tag) return false;
          // libsodium pushes, fourfold pulls.
          const c2 = sodiumStream.push(sodiumPush.state, data, m.tag, aad);
          const back = pull.pull(place(c2, layout).view, aad);
          if (!equal(back.message, data) || back.tag !== m.tag) return false;
          if (m.rekey) {
            push.rekey();
            sodiumStream.rekey(theirs);
            sodiumStream.rekey(sodiumPush.state);
            pull.rekey();
          }
        }
        // A flipped bit in one message: that message fails to pull (AuthenticationError).
        const replay = ss.initPull(push.header, key);
        const i = tamper.at % sealed.length;
        for (let j = 0; j < i; j++) {
          replay.pull(sealed[j]!, bytesOf(messages[j]!.aad.length, messages[j]!.aad.seed));
          if (messages[j]!.rekey) replay.rekey();
        }
        const aad = bytesOf(messages[i]!.aad.length, messages[i]!.aad.seed);
        assert.throws(() => replay.pull(flipped(sealed[i]!, tamper.bit), aad), AuthenticationError);
        return true;
      },
    ),
};

/**
 * The whole-stream calls: encryptStream's output, cut anywhere, is the
 * header and one libsodium message per chunkSize bytes (TAG_MESSAGE, then
 * a TAG_FINAL one with the rest), which libsodium opens; decryptStream
 * opens it cut anywhere else; a flipped bit errors the stream with
 * AuthenticationError before any plaintext of that message comes out.
 */
export function secretstreamStreams(
  name: string,
  api: { encryptStream: typeof ss.encryptStream; decryptStream: typeof ss.decryptStream },
  max: number,
  cases: number,
): FuzzProperty {
  return {
    name,
    cases,
    tiers: tiersOf(false),
    setup: loadSodium,
    property: () =>
      fc.asyncProperty(
        keyArb(32),
        dataArb(max, [64, 1024, 4096, 65536]),
        fc.constantFrom(undefined, 1, 16, 100, 4096, 65535, 65536),
        splitArb,
        splitArb,
        fc.nat(),
        async (key, d, chunkSize, inCuts, outCuts, bit) => {
          const size = chunkSize ?? 65536;
          // At most 40 messages: libsodium opens each one by one.
          const data = bytesOf(Math.min(d.length, 40 * size + (d.length % size)), d.seed);
          const options = chunkSize === undefined ? undefined : { chunkSize };
          const sealed = await drain(streamOf(cut(data, inCuts)).pipeThrough(api.encryptStream(key, options)));
          const whole = Math.floor(data.length / size);
          if (sealed.length !== 24 + data.length + 17 * (whole + 1)) return false;
          const state = sodiumStream.initPull(sealed.subarray(0, 24), key);
          const opened: Uint8Array[] = [];
          for (let at = 24, i = 0; at < sealed.length; i++) {
            const n = i < whole ? size + 17 : sealed.length - at;
            const got = sodiumStream.pull(state, sealed.subarray(at, at + n));
            if (got === false || got.tag !== (i < whole ? ss.TAG_MESSAGE : ss.TAG_FINAL)) return false;
            opened.push(got.message);
            at += n;
          }
          if (!equal(join(opened), data)) return false;
          if (!equal(await drain(streamOf(cut(sealed, outCuts)).pipeThrough(api.decryptStream(key, options))), data)) return false;
          // Tampered: the stream errors, and what came out before is plaintext of the messages before the changed one.
          const at = bit % (sealed.length * 8);
          const released: Uint8Array[] = [];
          const reader = streamOf(cut(flipped(sealed, at), outCuts))
            .pipeThrough(api.decryptStream(key, options))
            .getReader();
          await assert.rejects(
            (async () => {
              for (let r = await reader.read(); !r.done; r = await reader.read()) released.push(r.value);
            })(),
            (e: Error) => e.name === 'AuthenticationError',
          );
          const message = at < 24 * 8 ? 0 : Math.floor((at / 8 - 24) / (size + 17));
          return join(released).length <= message * size && equal(join(released), data.subarray(0, join(released).length));
        },
      ),
  };
}

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
