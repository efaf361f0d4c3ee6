/**
 * Argon2's published vectors through argon2d, argon2i and argon2id and
 * their Async forms, on both tiers: RFC 9106 section 5 (version 0x13,
 * with a secret key and associated data: the `key` and `personalization`
 * options) and the same inputs at version 0x10 (the reference
 * implementation's kats/*_v16), then the hashtest calls of the reference
 * implementation's src/test.c (argon2i at 0x10 and 0x13, argon2id at
 * 0x13: "password" and "somesalt" as strings, t from 1 to 4, m from 256
 * KiB to 1 GiB, p 1 and 2, no key or associated data; 0x13 through the
 * default version). Sources: test/vectors/argon2.json, each vector with
 * its own.
 *
 * What each tier runs, and why: a vector costs t * m KiB of block
 * compressions, about 10 ms per MiB-pass on the js tier (plain
 * JavaScript, noble's speed). The simd tier runs every vector
 * synchronously (about 8000 MiB-passes, half of them the two 1 GiB ones
 * of TEST_LARGE_RAM) and the Async form up to 64 MiB-passes; the js tier
 * runs up to 64 MiB-passes synchronously (the RFC's, the 256 KiB ones
 * and the 64 MiB t = 1 ones, about 2 s) and the Async form on the small
 * ones, as the differential test sweeps its code against three peers.
 * Engines without a JIT run the small ones only.
 *
 * Before any of that, the vector file is checked against itself and the
 * peers: each encoded string holds its vector's parameters, salt and tag,
 * and the tags agree with @noble/hashes (the vectors with a key,
 * associated data or version 0x10 that are cheap) and hash-wasm (version
 * 0x13 up to 64 MiB-passes), so a slip in the transcription cannot pass
 * for a bug.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { argon2d, argon2dAsync, argon2i, argon2iAsync, argon2id, argon2idAsync } from 'fourfold/argon2';
import { argon2d as nobleD, argon2i as nobleI, argon2id as nobleId } from '@noble/hashes/argon2.js';
import { argon2d as hashWasmD, argon2i as hashWasmI, argon2id as hashWasmId } from 'hash-wasm';
import { assertBytes, EMULATED, ENGINE_COMPILES_WASM, forEachTier, hex, loadJson, NO_JIT, toHex, type TierName } from '../helpers.js';

type Type = 'argon2d' | 'argon2i' | 'argon2id';

interface Kat {
  name: string;
  source: string;
  type: Type;
  version: 16 | 19;
  t: number;
  m: number;
  p: number;
  dkLen: number;
  password: string;
  salt: string;
  key: string;
  personalization: string;
  tag: string;
}

interface HashTest {
  name: string;
  source: string;
  type: Type;
  version: 16 | 19;
  t: number;
  m: number;
  p: number;
  dkLen: number;
  password: string;
  salt: string;
  tag: string;
  encoded: string;
  largeRam?: boolean;
}

const V = loadJson<{ source: string; kat: Kat[]; hashtest: HashTest[] }>('vectors/argon2.json');

const SYNC = { argon2d, argon2i, argon2id };
const ASYNC = { argon2d: argon2dAsync, argon2i: argon2iAsync, argon2id: argon2idAsync };
const NOBLE = { argon2d: nobleD, argon2i: nobleI, argon2id: nobleId };
const HASH_WASM = { argon2d: hashWasmD, argon2i: hashWasmI, argon2id: hashWasmId };

/** A vector's work in KiB-passes: t passes over m KiB. */
const cost = (v: { t: number; m: number }) => v.t * v.m;
const MIB = 1024;

/** The largest work each tier runs synchronously and through the Async form (see the header). */
const SYNC_BUDGET: Record<TierName, number> = { simd: Number.POSITIVE_INFINITY, js: 64 * MIB };
const ASYNC_BUDGET: Record<TierName, number> = { simd: 64 * MIB, js: 2 * MIB };
/** Without a JIT the js tier runs about a hundred times slower: the vectors up to 2 MiB-passes. */
const INTERPRETER_BUDGET = 2 * MIB;
/** Under emulation the simd tier's vectors up to 64 MiB-passes: every kernel path (t, p, both versions), in seconds. */
const EMULATED_BUDGET = 64 * MIB;

const NO_HASH_WASM: false | string = ENGINE_COMPILES_WASM
  ? false
  : 'not applicable: hash-wasm (the peer) compiles WebAssembly from bytes, which this engine lacks or refuses';
const utf8 = (s: string) => new TextEncoder().encode(s);

/** Why `v` is not run on `tier` in the `mode` form, or false. */
function skip(v: { t: number; m: number }, tier: TierName, mode: 'sync' | 'async'): false | string {
  const budget = (mode === 'sync' ? SYNC_BUDGET : ASYNC_BUDGET)[tier];
  if (cost(v) > budget) {
    return tier === 'js'
      ? `not run on the js tier (${cost(v) / MIB} MiB-passes, seconds of plain JavaScript): the simd tier runs it; the differential test sweeps the js tier`
      : `the ${mode} form runs the vectors up to ${budget / MIB} MiB-passes on this tier; the sync form runs this one`;
  }
  if (NO_JIT && cost(v) > INTERPRETER_BUDGET) return NO_JIT;
  if (EMULATED && cost(v) > EMULATED_BUDGET) return EMULATED;
  return false;
}

/** The fields of an encoded hash ($argon2id$v=19$m=..,t=..,p=..$salt$tag), or undefined where it does not parse. */
function parseEncoded(s: string) {
  const e = /^\$(argon2d|argon2i|argon2id)\$(?:v=(\d+)\$)?m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(s);
  if (e === null) return undefined;
  const b64 = (x: string) => new Uint8Array(Buffer.from(x, 'base64'));
  return {
    type: e[1],
    version: e[2] === undefined ? 0x10 : Number(e[2]),
    m: Number(e[3]),
    t: Number(e[4]),
    p: Number(e[5]),
    salt: b64(e[6]!),
    tag: b64(e[7]!),
  };
}

it('the vector file: the RFC and the reference give 6 keyed vectors and 28 hashtest calls, each with a source', () => {
  assert.equal(V.kat.length, 6);
  assert.equal(V.hashtest.length, 28);
  for (const v of [...V.kat, ...V.hashtest]) {
    assert.ok(v.source.length > 0, `${v.name}: no source`);
    assert.ok(v.version === 0x10 || v.version === 0x13, `${v.name}: version ${v.version}`);
    assert.equal(hex(v.tag).length, v.dkLen, `${v.name}: tag length`);
  }
  // Every type and both versions are present.
  for (const type of ['argon2d', 'argon2i', 'argon2id'] as const)
    for (const version of [0x10, 0x13])
      assert.ok(
        V.kat.some((v) => v.type === type && v.version === version),
        `${type} ${version}`,
      );
});

it('the vector file: each encoded string holds its vector type, version, m, t, p, salt and tag', () => {
  for (const v of V.hashtest) {
    const e = parseEncoded(v.encoded);
    assert.ok(e, `${v.name}: ${v.encoded} does not parse`);
    assert.deepEqual(
      { type: e.type, version: e.version, m: e.m, t: e.t, p: e.p, salt: toHex(e.salt), tag: toHex(e.tag) },
      { type: v.type, version: v.version, m: v.m, t: v.t, p: v.p, salt: toHex(utf8(v.salt)), tag: v.tag },
      v.name,
    );
  }
});

it('the vector file agrees with @noble/hashes: the keyed vectors and the small hashtest calls', () => {
  for (const v of V.kat) {
    const opts = { t: v.t, m: v.m, p: v.p, dkLen: v.dkLen, version: v.version, key: hex(v.key), personalization: hex(v.personalization) };
    assert.equal(toHex(NOBLE[v.type](hex(v.password), hex(v.salt), opts)), v.tag, v.name);
  }
  for (const v of V.hashtest.filter((h) => cost(h) <= INTERPRETER_BUDGET)) {
    assert.equal(toHex(NOBLE[v.type](v.password, v.salt, { t: v.t, m: v.m, p: v.p, dkLen: v.dkLen, version: v.version })), v.tag, v.name);
  }
});

it('the vector file agrees with hash-wasm: the version 0x13 hashtest calls up to 64 MiB-passes, tag and encoded string', {
  skip: NO_HASH_WASM || NO_JIT || EMULATED,
}, async () => {
  const checked = V.hashtest.filter((v) => v.version === 0x13 && cost(v) <= 64 * MIB);
  assert.equal(checked.length, 6);
  for (const v of checked) {
    const opts = { password: v.password, salt: v.salt, iterations: v.t, memorySize: v.m, parallelism: v.p, hashLength: v.dkLen };
    assert.equal(toHex(await HASH_WASM[v.type]({ ...opts, outputType: 'binary' })), v.tag, v.name);
    assert.equal(await HASH_WASM[v.type]({ ...opts, outputType: 'encoded' }), v.encoded, v.name);
  }
});

forEachTier('argon2, RFC 9106 section 5 and its inputs at version 0x10', (tier) => {
  for (const v of V.kat) {
    it(`${v.name} (${v.source.split(';')[0]})`, async () => {
      const opts = { t: v.t, m: v.m, p: v.p, dkLen: v.dkLen, version: v.version, key: hex(v.key), personalization: hex(v.personalization) };
      const password = hex(v.password);
      const salt = hex(v.salt);
      assertBytes(SYNC[v.type](password, salt, opts), hex(v.tag), `${tier} ${v.type}`);
      assertBytes(await ASYNC[v.type](password, salt, opts), hex(v.tag), `${tier} ${v.type}Async`);
      // The inputs are read, not written.
      assert.equal(toHex(password), v.password);
      assert.equal(toHex(opts.key), v.key);
      // The other two types give other tags from the same inputs.
      for (const other of (['argon2d', 'argon2i', 'argon2id'] as const).filter((t) => t !== v.type)) {
        assert.notEqual(toHex(SYNC[other](password, salt, opts)), v.tag, `${other} gives ${v.type}'s tag`);
      }
    });
  }
});

forEachTier('argon2, the reference implementation (src/test.c)', (tier) => {
  for (const v of V.hashtest) {
    // Version 0x13 through the default; 0x10 named.
    const opts = { t: v.t, m: v.m, p: v.p, ...(v.version === 0x10 ? { version: 0x10 as const } : {}) };
    it(`${v.name}: sync`, { skip: skip(v, tier, 'sync') }, () => {
      assert.equal(toHex(SYNC[v.type](v.password, v.salt, opts)), v.tag);
    });
    it(`${v.name}: Async, the password and salt as UTF-8 bytes`, { skip: skip(v, tier, 'async') }, async () => {
      assert.equal(toHex(await ASYNC[v.type](utf8(v.password), utf8(v.salt), opts)), v.tag);
    });
  }
});
