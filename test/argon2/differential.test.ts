/**
 * Argon2 against three independent implementations, on both tiers:
 * @noble/hashes (every case: all three types, versions 0x10 and 0x13,
 * secret key and associated data), libsodium's crypto_pwhash (the sumo
 * build of libsodium-wrappers: argon2id13 and argon2i13, its shape of
 * call: one lane, a 16-byte salt, no key or associated data, t >= 3 for
 * argon2i, m >= 8 KiB, 16 bytes of output or more) and hash-wasm (all
 * three types at version 0x13 with a secret, no associated data, a
 * password of 1 byte or more).
 *
 * The cases: first the edges, drawn on purpose for each type: m = 8p
 * (segments of 2 blocks) and m from 8p + 1 to 12p - 1 and other values
 * that are not multiples of 4p (m' rounds down), segments of 127, 128,
 * 129, 256 and 257 blocks (where argon2i and argon2id's second address
 * block starts), p = 3 (lanes that are no power of two), t = 1 (argon2id
 * switching from i to d within the only pass), version 0x10 over several
 * passes, tags of 4, 63 to 65, 96, 97, 128, 1024 and 1025 bytes (H' in
 * one call, two and many), inputs of 0 and 128 bytes, an 8-byte salt, an
 * empty key and empty associated data (the same as none). Then random
 * ones: t from 1 to 4, m from 8p to 4096 KiB, p from 1 to 4, password,
 * salt (8 or more), key and associated data of 0 to 128 bytes (or none),
 * tags of 4 to 128 bytes and sometimes 65, 1024 or 1025.
 *
 * The parameters come from a fixed xorshift stream, so every run does the
 * same work; the bytes come from the helpers' seeded source (replay with
 * FOURFOLD_TEST_SEED). A case costs t * m KiB of block compressions
 * (none more than 16 MiB-passes), about 10 ms per MiB-pass in plain
 * JavaScript (the js tier, and noble) on a 2-core machine. The counts
 * keep the whole file near 13 s there: noble's tags (93 edges and 160
 * random cases, about 290 MiB-passes, 3 s) are computed once and serve
 * both tiers; the js tier's own calls are the same 290 and the Async
 * calls on the edges and every third random case (130) and the peers'
 * cases (40 for hash-wasm, 100 for libsodium), about 5.5 s; the simd
 * tier and the WebAssembly peers are several times faster. The first
 * test checks those budgets, so a change of seed or counts that
 * outgrows them fails.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { argon2d, argon2dAsync, argon2i, argon2iAsync, argon2id, argon2idAsync, type Argon2Opts } from 'fourfold/argon2';
import { argon2d as nobleD, argon2i as nobleI, argon2id as nobleId } from '@noble/hashes/argon2.js';
import { argon2d as hashWasmD, argon2i as hashWasmI, argon2id as hashWasmId } from 'hash-wasm';
import { assertBytes, ENGINE_COMPILES_WASM, forEachTier, loadSodium, NO_SODIUM, rand, sumo } from '../helpers.js';

type Type = 'argon2d' | 'argon2i' | 'argon2id';
const TYPES: readonly Type[] = ['argon2d', 'argon2i', 'argon2id'];

interface Case {
  type: Type;
  version: 0x10 | 0x13;
  t: number;
  m: number;
  p: number;
  dkLen: number;
  password: Uint8Array;
  salt: Uint8Array;
  key?: Uint8Array;
  personalization?: Uint8Array;
  /** The edge a case was drawn for. */
  why?: string;
}

const SYNC = { argon2d, argon2i, argon2id };
const ASYNC = { argon2d: argon2dAsync, argon2i: argon2iAsync, argon2id: argon2idAsync };
const NOBLE = { argon2d: nobleD, argon2i: nobleI, argon2id: nobleId };
const HASH_WASM = { argon2d: hashWasmD, argon2i: hashWasmI, argon2id: hashWasmId };

interface SodiumPwhash {
  crypto_pwhash(keyLength: number, password: Uint8Array, salt: Uint8Array, opsLimit: number, memLimit: number, algorithm: number): Uint8Array;
  crypto_pwhash_ALG_ARGON2I13: number;
  crypto_pwhash_ALG_ARGON2ID13: number;
}

const NO_HASH_WASM: false | string = ENGINE_COMPILES_WASM
  ? false
  : 'not applicable: hash-wasm (the peer) compiles WebAssembly from bytes, which this engine lacks or refuses';

// ---------------------------------------------------------------- the parameters' stream

/** xorshift32 from a fixed seed: the same parameters, and so the same work, every run. */
let state = 0x2545f491;
function next(): number {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state;
}
/** An integer in [lo, hi], uniform. */
const between = (lo: number, hi: number) => lo + (next() % (hi - lo + 1));
/** An integer in [lo, hi], the ends drawn one time in four. */
function pick(lo: number, hi: number): number {
  const roll = next() % 8;
  return roll === 0 ? lo : roll === 1 ? hi : between(lo, hi);
}
const oneOf = <T>(xs: readonly T[]): T => xs[next() % xs.length]!;
/** Bytes of a length in [0, 128] (ends drawn often), or none one time in three. */
const optional = (): Uint8Array | undefined => (next() % 3 === 0 ? undefined : rand(pick(0, 128)));

// ---------------------------------------------------------------- the cases

/** A case with the given parameters and random inputs of the usual lengths, for every type unless named. */
function shaped(why: string, fields: Partial<Case> & { m: number }, types: readonly Type[] = TYPES): Case[] {
  return types.map((type) => ({
    type,
    version: 0x13,
    t: 1,
    p: 1,
    dkLen: 32,
    password: rand(pick(0, 128)),
    salt: rand(pick(8, 128)),
    key: optional(),
    personalization: optional(),
    why,
    ...fields,
  }));
}

const EDGES: Case[] = [
  // m = 8p: two blocks a segment, the least Argon2 allows.
  ...[1, 2, 3, 4].flatMap((p) => shaped(`m = 8p, p = ${p}`, { m: 8 * p, p, t: 1 + (p % 3) })),
  // m not a multiple of 4p: m' = 4p * floor(m / 4p), while H0 takes m as given.
  ...shaped("m = 9, p = 1: m' = 8", { m: 9, t: 2 }),
  ...shaped("m = 11, p = 1: m' = 8", { m: 11, t: 2, version: 0x10 }),
  ...shaped("m = 17, p = 2: m' = 16", { m: 17, p: 2, t: 3 }),
  ...shaped("m = 35, p = 3: m' = 24", { m: 35, p: 3, t: 2 }),
  ...shaped("m = 47, p = 4: m' = 32", { m: 47, p: 4, t: 2 }),
  ...shaped("m = 100, p = 3: m' = 96", { m: 100, p: 3, t: 3, version: 0x10 }),
  ...shaped("m = 1023, p = 4: m' = 1008", { m: 1023, p: 4, t: 1 }),
  // Segment lengths around the 128 addresses one address block gives (argon2i, argon2id's first half).
  ...shaped('127 blocks a segment', { m: 508, t: 2 }),
  ...shaped('128 blocks a segment', { m: 512, t: 2 }),
  ...shaped('129 blocks a segment', { m: 516, t: 2 }),
  ...shaped('256 blocks a segment', { m: 1024, t: 1 }),
  ...shaped('257 blocks a segment', { m: 1028, t: 1 }),
  ...shaped('128 blocks a segment, p = 3', { m: 3 * 512, p: 3, t: 1 }),
  ...shaped('129 blocks a segment, p = 3, version 0x10', { m: 3 * 516, p: 3, t: 2, version: 0x10 }),
  ...shaped('129 blocks a segment, p = 4', { m: 4 * 516, p: 4, t: 1 }),
  // p = 3: reference lanes chosen modulo a number that is no power of two.
  ...shaped('p = 3, four passes', { m: 3 * 40, p: 3, t: 4 }),
  ...shaped('p = 3, four passes, version 0x10', { m: 3 * 40 + 5, p: 3, t: 4, version: 0x10 }),
  // t = 1: argon2id's switch from data-independent to data-dependent addressing inside the only pass.
  ...shaped('t = 1, p = 1', { m: 256, t: 1 }),
  ...shaped('t = 1, p = 2', { m: 300, p: 2, t: 1 }),
  // Version 0x10 overwrites blocks in later passes where 0x13 XORs into them.
  ...shaped('version 0x10, two passes', { m: 64, t: 2, version: 0x10 }),
  ...shaped('version 0x10, p = 4, three passes', { m: 96, p: 4, t: 3, version: 0x10 }),
  // Tag lengths: H' in one BLAKE2b call (<= 64), two, and many (1024 and 1025 bytes).
  ...[4, 63, 64, 65, 96, 97, 128, 1024, 1025].flatMap((dkLen) => shaped(`dkLen = ${dkLen}`, { m: 16, t: 1, dkLen }, [oneOf(TYPES)])),
  // Lengths at their ends; an empty key and empty associated data, which are the same as none.
  ...shaped('empty inputs, 8-byte salt', { m: 8, t: 2, password: rand(0), salt: rand(8), key: rand(0), personalization: rand(0) }),
  ...shaped('128-byte inputs', { m: 32, t: 1, password: rand(128), salt: rand(128), key: rand(128), personalization: rand(128) }),
  ...shaped('no key, no associated data', { m: 16, t: 1, key: undefined, personalization: undefined }),
];

/** A random case: the parameters from the fixed stream. */
function randomCase(): Case {
  const p = pick(1, 4);
  // m log-uniform from 8p to 4096 KiB, so small and large memories are both common.
  const m = Math.min(4096, Math.max(8 * p, Math.round(2 ** (Math.log2(8 * p) + (next() / 2 ** 32) * (12 - Math.log2(8 * p))))));
  const roll = next() % 8;
  return {
    type: oneOf(TYPES),
    version: oneOf([0x10, 0x13] as const),
    t: pick(1, 4),
    m: roll === 0 ? 8 * p + (next() % (4 * p)) : m,
    p,
    dkLen: roll === 1 ? oneOf([65, 1024, 1025]) : pick(4, 128),
    password: rand(pick(0, 128)),
    salt: rand(pick(8, 128)),
    key: optional(),
    personalization: optional(),
  };
}

/** Cases whose work stays within `limit` KiB-passes each. */
function randomCases(n: number, make: () => Case, limit = 16 * 1024): Case[] {
  const out: Case[] = [];
  while (out.length < n) {
    const c = make();
    if (c.t * c.m <= limit) out.push(c);
  }
  return out;
}

const RANDOM = randomCases(160, randomCase);

/** hash-wasm's shape: version 0x13, a secret or none, no associated data, a password of 1 byte or more. */
const HASH_WASM_CASES = randomCases(24, () => ({
  ...randomCase(),
  version: 0x13,
  personalization: undefined,
  password: rand(pick(1, 128)),
}));

/** libsodium crypto_pwhash's shape: argon2id13 or argon2i13 (t >= 3), one lane, 16-byte salt, 16 bytes of output or more. */
const SODIUM_CASES = randomCases(16, () => {
  const type = oneOf(['argon2i', 'argon2id'] as const);
  return {
    type,
    version: 0x13,
    t: pick(type === 'argon2i' ? 3 : 1, 4),
    m: pick(8, 4096),
    p: 1,
    dkLen: pick(16, 128),
    password: rand(pick(0, 128)),
    salt: rand(16),
  };
});

// ---------------------------------------------------------------- calls

const hexLength = (b: Uint8Array | undefined) => (b === undefined ? 'none' : `${b.length}`);
const label = (c: Case) =>
  `${c.type} v=0x${c.version.toString(16)} t=${c.t} m=${c.m} p=${c.p} dkLen=${c.dkLen} password ${c.password.length} salt ${c.salt.length} ` +
  `key ${hexLength(c.key)} ad ${hexLength(c.personalization)}${c.why ? ` (${c.why})` : ''}`;

/** fourfold's options for a case: key and personalization only where it has them. */
function options(c: Case): Argon2Opts {
  const o: Argon2Opts = { t: c.t, m: c.m, p: c.p, dkLen: c.dkLen, version: c.version };
  if (c.key !== undefined) o.key = c.key;
  if (c.personalization !== undefined) o.personalization = c.personalization;
  return o;
}

/** noble's tag for a case, computed once and kept for the second tier. */
const nobleTags = new Map<Case, Uint8Array>();
function noble(c: Case): Uint8Array {
  let tag = nobleTags.get(c);
  if (tag === undefined) {
    tag = NOBLE[c.type](c.password, c.salt, { ...options(c), maxmem: 2 ** 32 - 1 });
    nobleTags.set(c, tag);
  }
  return tag;
}

/** fourfold's sync call, checking that it leaves its inputs as they were. */
function ours(c: Case): Uint8Array {
  const copies = [c.password, c.salt, c.key, c.personalization].map((b) => b?.slice());
  const tag = SYNC[c.type](c.password, c.salt, options(c));
  [c.password, c.salt, c.key, c.personalization].forEach((b, i) => {
    if (b !== undefined) assertBytes(b, copies[i]!, `${label(c)}: input ${i} modified`);
  });
  return tag;
}

/** fourfold's Async call; `tick` 1 makes it take many turns, so it stops and resumes within segments. */
const oursAsync = (c: Case, tick?: number) => ASYNC[c.type](c.password, c.salt, tick === undefined ? options(c) : { ...options(c), asyncTick: tick });

before(async () => {
  await loadSodium();
});

it('the cases cover what the header says', () => {
  const all = [...EDGES, ...RANDOM];
  for (const type of TYPES)
    for (const version of [0x10, 0x13])
      for (const t of [1, 2, 3, 4])
        assert.ok(
          all.some((c) => c.type === type && c.version === version && c.t === t),
          `${type} ${version} t=${t}`,
        );
  for (const p of [1, 2, 3, 4])
    assert.ok(
      RANDOM.some((c) => c.p === p && c.m % (4 * p) !== 0),
      `random: p = ${p} with m not a multiple of 4p`,
    );
  assert.ok(RANDOM.some((c) => c.key === undefined) && RANDOM.some((c) => c.key !== undefined && c.key.length === 0));
  assert.ok(RANDOM.some((c) => c.dkLen > 128));
  assert.ok(RANDOM.some((c) => c.m >= 2048));
  const work = (cs: Case[]) => cs.reduce((n, c) => n + c.t * c.m, 0) / 1024;
  // The budget of the header: under 320 MiB-passes through noble, under 160 through the WebAssembly peers.
  assert.ok(work(all) <= 320, `noble's cases: ${work(all)} MiB-passes`);
  assert.ok(work(HASH_WASM_CASES) + work(SODIUM_CASES) <= 160, `the WebAssembly peers' cases: ${work(HASH_WASM_CASES) + work(SODIUM_CASES)} MiB-passes`);
});

forEachTier('argon2 against its peers', () => {
  it(`@noble/hashes: ${EDGES.length} edges, sync and Async`, async () => {
    for (const [i, c] of EDGES.entries()) {
      const want = noble(c);
      assertBytes(ours(c), want, label(c));
      assertBytes(await oursAsync(c, i % 2 === 0 ? 1 : undefined), want, `Async ${label(c)}`);
    }
  });

  it(`@noble/hashes: ${RANDOM.length} random cases, sync, and every third Async`, async () => {
    for (const [i, c] of RANDOM.entries()) {
      const want = noble(c);
      assertBytes(ours(c), want, label(c));
      if (i % 3 === 0) assertBytes(await oursAsync(c, i % 2 === 0 ? 1 : undefined), want, `Async ${label(c)}`);
    }
  });

  it(`hash-wasm: ${HASH_WASM_CASES.length} random cases at version 0x13, with a secret or none`, { skip: NO_HASH_WASM }, async () => {
    for (const c of HASH_WASM_CASES) {
      const want = await HASH_WASM[c.type]({
        password: c.password,
        salt: c.salt,
        ...(c.key === undefined ? {} : { secret: c.key }),
        iterations: c.t,
        memorySize: c.m,
        parallelism: c.p,
        hashLength: c.dkLen,
        outputType: 'binary',
      });
      assertBytes(ours(c), want, label(c));
    }
  });

  it(`libsodium crypto_pwhash: ${SODIUM_CASES.length} random cases, argon2id13 and argon2i13`, { skip: NO_SODIUM }, () => {
    const sodium = sumo() as unknown as SodiumPwhash;
    for (const c of SODIUM_CASES) {
      const alg = c.type === 'argon2i' ? sodium.crypto_pwhash_ALG_ARGON2I13 : sodium.crypto_pwhash_ALG_ARGON2ID13;
      const want = sodium.crypto_pwhash(c.dkLen, c.password, c.salt, c.t, c.m * 1024, alg);
      assertBytes(ours(c), want, label(c));
    }
  });

  it('an empty key and empty associated data give the tag of none (RFC 9106: their lengths are hashed, 0)', () => {
    for (const type of TYPES) {
      const none = SYNC[type]('password', 'somesalt', { t: 2, m: 16, p: 2 });
      assertBytes(SYNC[type]('password', 'somesalt', { t: 2, m: 16, p: 2, key: new Uint8Array(0), personalization: '' }), none, type);
      assertBytes(none, NOBLE[type]('password', 'somesalt', { t: 2, m: 16, p: 2 }), type);
      // And a key or associated data of one byte changes it.
      assert.notDeepEqual(SYNC[type]('password', 'somesalt', { t: 2, m: 16, p: 2, key: new Uint8Array(1) }), none);
      assert.notDeepEqual(SYNC[type]('password', 'somesalt', { t: 2, m: 16, p: 2, personalization: new Uint8Array(1) }), none);
    }
  });

  it('a string is its UTF-8 bytes, as the peers take it: password, salt, key and associated data', () => {
    for (const text of ['', 'password', 'pâté', '🔑 key', 'a\ud800b']) {
      const salt = `salt of ${text}`;
      const bytes = (s: string) => new TextEncoder().encode(s);
      const opts = { t: 1, m: 8 };
      for (const type of TYPES) {
        const want = NOBLE[type](bytes(text), bytes(salt), { ...opts, key: bytes(text), personalization: bytes(text) });
        assertBytes(SYNC[type](text, salt, { ...opts, key: text, personalization: text }), want, `${type} ${JSON.stringify(text)}`);
      }
    }
  });

  it('defaults: p = 1, dkLen = 32, version 0x13, no key, no associated data', () => {
    for (const type of TYPES) {
      const got = SYNC[type]('pw', 'somesalt', { t: 2, m: 64 });
      assert.equal(got.length, 32);
      assertBytes(got, NOBLE[type]('pw', 'somesalt', { t: 2, m: 64, p: 1, dkLen: 32, version: 0x13 }), type);
    }
  });
});
