/**
 * The fuzzing's properties of the calls that return promises or streams
 * across the pool: fourfold/parallel (inputs past PARALLEL_MIN, which
 * the pool cuts into pieces, against the same peers as the synchronous
 * calls) and age files (against typage, both ways, to X25519 recipients
 * and passphrases, binary and armored, through the one-shot calls and the
 * streams). test/fuzz/properties.ts and the modules it imports have the
 * rest, test/fuzz/property.ts the shape.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as P from 'fourfold/parallel';
import * as age from 'fourfold/age';
import { argon2Verify, argon2dAsync, argon2dHash, argon2iAsync, argon2iHash, argon2idAsync, argon2idHash } from 'fourfold/argon2';
import { base64nopad } from '@scure/base';
import { AuthenticationError } from 'fourfold';
import { armor, Decrypter, Encrypter } from 'age-encryption';
import { xsalsa20poly1305 as nobleXsalsaPoly } from '@noble/ciphers/salsa.js';
import { scrypt as nobleScrypt } from '@noble/hashes/scrypt.js';
import { blocksOf, loadSodium, sodium, sumo, TWO64 } from '../helpers.js';
import { noble, nodeAeadEncrypt, nodeChacha20, nodeChacha20orig, nodeXchacha20 } from '../chacha/peers.js';
import { sodiumSalsa20, sodiumXsalsa20 } from '../salsa/peers.js';
import { counterValue, counterBlock, refDecryptBlock, refEncryptBlock, TWO128 } from '../serpent/reference.js';
import { allowWorkers } from '../parallel/pool-helpers.js';
import { PARALLEL_MIN } from '../internal.js';
import {
  bytesOf,
  type CounterDraw,
  counterArb,
  counterFor,
  cut,
  drain,
  equal,
  flipped,
  isZero,
  join,
  keyArb,
  layoutArb,
  place,
  splitArb,
  streamOf,
  tiersOf,
} from './gen.js';
import { hashWasmOnce } from './hash-properties.js';
import { argon2Arb, argon2Options, nobleArgon2 } from './kdf-properties.js';
import type { FuzzProperty } from './property.js';
import { secretstreamStreams } from './secretstream-properties.js';

const MiB = 1 << 20;

/** Lengths past PARALLEL_MIN (where the pool takes a call), its edges and the 1 MiB pieces' ±1 among them, and one below. */
export const bigLength = fc.oneof(
  fc.constantFrom(PARALLEL_MIN - 1, PARALLEL_MIN, PARALLEL_MIN + 1, PARALLEL_MIN + MiB - 1, PARALLEL_MIN + MiB, PARALLEL_MIN + MiB + 1, 2 * PARALLEL_MIN + 63),
  fc.integer({ min: PARALLEL_MIN, max: PARALLEL_MIN + 2 * MiB }),
);
const bigData = fc.record({ length: bigLength, seed: fc.nat() });

/** Two workers, even on a machine with fewer cores, kept at work whatever the load (test/parallel/pool-helpers.ts). */
export async function poolSetup(): Promise<void> {
  P.configure({ workers: 2 });
  allowWorkers(2);
  await loadSodium();
}

type ParallelStream = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter?: number | bigint) => Promise<Uint8Array>;

const STREAMS: [string, ParallelStream, number, bigint, (k: Uint8Array, n: Uint8Array, d: Uint8Array, c: bigint) => Uint8Array][] = [
  ['chacha20', P.chacha20, 12, 1n << 32n, (k, n, d, c) => nodeChacha20(k, n, d, Number(c))],
  ['chacha20orig', P.chacha20orig, 8, TWO64, nodeChacha20orig],
  ['xchacha20', P.xchacha20, 24, TWO64, nodeXchacha20],
  ['salsa20', P.salsa20, 8, TWO64, (k, n, d, c) => sodiumSalsa20(k, n, d, c)],
  ['xsalsa20', P.xsalsa20, 24, TWO64, (k, n, d, c) => sodiumXsalsa20(k, n, d, c)],
];

export const parallelStreams: FuzzProperty = {
  name: 'parallel-streams',
  cases: 12,
  tiers: tiersOf(true),
  setup: poolSetup,
  property: () =>
    fc.asyncProperty(
      fc.integer({ min: 0, max: STREAMS.length - 1 }),
      keyArb(32),
      keyArb(24),
      bigData,
      counterArb,
      fc.record({ output: fc.constantFrom('new' as const, 'caller' as const, 'inplace' as const), input: layoutArb, out: layoutArb }),
      async (which, key, nonce24, d, draw, how) => {
        const [, fn, nonceLength, limit, ref] = STREAMS[which]!;
        const nonce = nonce24.subarray(0, nonceLength);
        const data = bytesOf(d.length, d.seed);
        const counter = counterFor(draw as CounterDraw, limit, blocksOf(data.length));
        const expected = ref(key, nonce, data, BigInt(counter ?? 0));
        const call = (i: Uint8Array, o?: Uint8Array) => (counter === undefined ? fn(key, nonce, i, o) : fn(key, nonce, i, o, counter));
        const input = place(data, how.input);
        if (how.output === 'inplace') return (await call(input.view, input.view)) === input.view && equal(input.view, expected) && input.intact();
        if (how.output === 'new') return equal(await call(input.view), expected) && equal(input.view, data);
        const out = place(data.length, how.out);
        return (await call(input.view, out.view)) === out.view && equal(out.view, expected) && out.intact() && input.intact();
      },
    ),
};

type ParallelAeadCall = (
  key: Uint8Array,
  nonce: Uint8Array,
) => { encrypt(p: Uint8Array, o?: Uint8Array): Promise<Uint8Array>; decrypt(c: Uint8Array, o?: Uint8Array): Promise<Uint8Array> };

const AEADS: [string, ParallelAeadCall, number, (k: Uint8Array, n: Uint8Array, aad: Uint8Array | undefined, p: Uint8Array) => Uint8Array, boolean][] = [
  ['chacha20poly1305', (k, n, aad?: Uint8Array) => P.chacha20poly1305(k, n, aad), 12, nodeAeadEncrypt, true],
  ['xchacha20poly1305', (k, n, aad?: Uint8Array) => P.xchacha20poly1305(k, n, aad), 24, (k, n, aad, p) => noble.xchacha20poly1305(k, n, aad).encrypt(p), true],
  ['xsalsa20poly1305', (k, n) => P.xsalsa20poly1305(k, n), 24, (k, n, _, p) => nobleXsalsaPoly(k, n).encrypt(p), false],
  [
    'secretbox',
    (k, n) => {
      const box = P.secretbox(k, n);
      return { encrypt: (p, o) => box.seal(p, o), decrypt: (c, o) => box.open(c, o) };
    },
    24,
    (k, n, _, p) => sodium.crypto_secretbox_easy(p.slice(), n, k),
    false,
  ],
];

/** The parallel AEADs: the peer's bytes, opened here, and a flipped bit (ciphertext, tag or aad) rejected with the output zeroed. */
export const parallelAeads: FuzzProperty = {
  name: 'parallel-aeads',
  cases: 12,
  tiers: tiersOf(true),
  setup: poolSetup,
  property: () =>
    fc.asyncProperty(
      fc.integer({ min: 0, max: AEADS.length - 1 }),
      keyArb(32),
      keyArb(24),
      bigData,
      fc.uint8Array({ maxLength: 100 }),
      fc.record({ input: layoutArb, out: layoutArb, bit: fc.nat(), aadBit: fc.boolean() }),
      async (which, key, nonce24, d, aad0, how) => {
        const [, make, nonceLength, ref, withAad] = AEADS[which]!;
        const nonce = nonce24.subarray(0, nonceLength);
        const aad = withAad && aad0.length > 0 ? aad0 : undefined;
        const mk = (a: Uint8Array | undefined = aad) => (make as (k: Uint8Array, n: Uint8Array, a?: Uint8Array) => ReturnType<ParallelAeadCall>)(key, nonce, a);
        const pt = bytesOf(d.length, d.seed);
        const sealed = ref(key, nonce, aad, pt);
        const out = place(sealed.length, how.out);
        let ok = (await mk().encrypt(place(pt, how.input).view, out.view)) === out.view && equal(out.view, sealed) && out.intact();
        const plain = place(pt.length, how.out);
        ok &&= equal(await mk().decrypt(place(sealed, how.input).view, plain.view), pt) && plain.intact();
        const badAad = how.aadBit && aad !== undefined;
        const wiped = new Uint8Array(pt.length).fill(0xee);
        await assert.rejects(
          (badAad ? mk(flipped(aad, how.bit)) : mk()).decrypt(badAad ? sealed : flipped(sealed, how.bit), wiped),
          (e) => e instanceof AuthenticationError,
        );
        return ok && isZero(wiped);
      },
    ),
};

/** Poly1305, BLAKE3 and scrypt through the pool, against libsodium, hash-wasm and @noble/hashes. */
export const parallelHashes: FuzzProperty = {
  name: 'parallel-hashes',
  cases: 12,
  tiers: tiersOf(false),
  setup: poolSetup,
  property: () =>
    fc.asyncProperty(
      keyArb(32),
      bigData,
      fc.record({ dkLen: fc.integer({ min: 1, max: 100 }), keyed: fc.boolean(), layout: layoutArb }),
      fc.record({
        logN: fc.integer({ min: 1, max: 8 }),
        r: fc.integer({ min: 1, max: 4 }),
        p: fc.integer({ min: 1, max: 6 }),
        salt: fc.uint8Array({ maxLength: 40 }),
      }),
      async (key, d, h, s) => {
        const data = place(bytesOf(d.length, d.seed), h.layout).view;
        let ok = equal(await P.poly1305(data, key), sumo().crypto_onetimeauth(data, key));
        const opts = h.keyed ? { dkLen: h.dkLen, key } : { dkLen: h.dkLen };
        ok &&= equal(await P.blake3(data, opts), await hashWasmOnce(data, h.dkLen, h.keyed ? key : undefined));
        const so = { N: 2 ** s.logN, r: s.r, p: s.p, dkLen: h.dkLen };
        ok &&= equal(await P.scrypt(key, s.salt, so), nobleScrypt(key, s.salt, so));
        return ok;
      },
    ),
};

const ARGON2_ASYNC = { argon2id: argon2idAsync, argon2i: argon2iAsync, argon2d: argon2dAsync } as const;
const ARGON2_HASH = { argon2id: argon2idHash, argon2i: argon2iHash, argon2d: argon2dHash } as const;
const ARGON2_PARALLEL = { argon2id: P.argon2id, argon2i: P.argon2i, argon2d: P.argon2d } as const;

/** The password with one bit changed, or a byte where it has none. */
function otherPassword(password: string | Uint8Array, bit: number): Uint8Array {
  const bytes = typeof password === 'string' ? new TextEncoder().encode(password) : password;
  return bytes.length === 0 ? Uint8Array.of(bit & 0xff) : flipped(bytes, bit);
}

/**
 * argon2idAsync, argon2iAsync and argon2dAsync against @noble/hashes (the
 * parameters of the property 'argon2'), in turns as short as asyncTick
 * allows; and the PHC strings: argon2idHash (or argon2iHash,
 * argon2dHash) with the drawn salt and parameters writes noble's tag,
 * and argon2Verify gives true for the password (and key), false for the
 * password with one bit changed or without a key it was made with.
 */
export const argon2Async: FuzzProperty = {
  name: 'argon2-async',
  cases: 20,
  tiers: tiersOf(false),
  property: () =>
    fc.asyncProperty(argon2Arb, fc.integer({ min: 1, max: 8 }), fc.nat(), async (d, asyncTick, bit) => {
      const opts = argon2Options(d);
      const expected = nobleArgon2[d.type](d.password, d.salt, opts);
      assert.ok(equal(await ARGON2_ASYNC[d.type](d.password, d.salt, { ...opts, asyncTick }), expected), `${d.type}Async against @noble/hashes`);
      // A PHC string: version 0x13 and no associated data, the only ones it writes.
      const { t, m, p, dkLen, key } = opts;
      const phcExpected = nobleArgon2[d.type](d.password, d.salt, { t, m, p, dkLen, ...(key === undefined ? {} : { key }) });
      const phc = await ARGON2_HASH[d.type](d.password, { t, m, p, dkLen, salt: d.salt, ...(key === undefined ? {} : { key }) });
      const fields = phc.split('$');
      const salt = typeof d.salt === 'string' ? new TextEncoder().encode(d.salt) : d.salt;
      assert.deepEqual(fields.slice(0, 5), ['', d.type, 'v=19', `m=${m},t=${t},p=${p}`, base64nopad.encode(salt)], `${d.type}Hash's fields`);
      assert.equal(fields[5], base64nopad.encode(phcExpected), `${d.type}Hash's hash against @noble/hashes`);
      const verifyOpts = key === undefined ? {} : { key };
      assert.equal(await argon2Verify(phc, d.password, verifyOpts), true, 'argon2Verify, the password');
      assert.equal(await argon2Verify(phc, otherPassword(d.password, bit), verifyOpts), false, 'argon2Verify, a bit of the password changed');
      // An empty key is no key (RFC 9106 §3.2: only its length, 0, goes into H0).
      if (key !== undefined && key.length > 0) assert.equal(await argon2Verify(phc, d.password), false, 'argon2Verify without the key');
      return true;
    }),
};

/** fourfold/parallel's argon2id, argon2i and argon2d (two workers; the calling thread fills lanes too when p > 1) against @noble/hashes. */
export const parallelArgon2: FuzzProperty = {
  name: 'parallel-argon2',
  cases: 10,
  tiers: tiersOf(false),
  setup: poolSetup,
  property: () =>
    fc.asyncProperty(argon2Arb, async (d) => {
      const opts = argon2Options(d);
      return equal(await ARGON2_PARALLEL[d.type](d.password, d.salt, opts), nobleArgon2[d.type](d.password, d.salt, opts));
    }),
};

/**
 * Serpent through the pool: mipher's block cipher on blocks drawn
 * anywhere in the output (CTR's keystream, ECB's blocks, CBC decryption's
 * D(c[i]) xor c[i-1]), the whole of it against the synchronous call.
 */
export const parallelSerpent: FuzzProperty = {
  name: 'parallel-serpent',
  cases: 10,
  tiers: tiersOf(false),
  setup: poolSetup,
  property: () =>
    fc.asyncProperty(
      keyArb(32),
      keyArb(16),
      bigData,
      fc.constantFrom('ctr' as const, 'ecb' as const, 'cbc' as const),
      fc.array(fc.nat(), { minLength: 4, maxLength: 8 }),
      async (key, iv, d, mode, picks) => {
        const data = bytesOf(mode === 'ctr' ? d.length : d.length - (d.length % 16), d.seed);
        const opts = { disablePadding: true };
        const blocks = Math.ceil(data.length / 16);
        const pick = [0, blocks - 1, ...picks.map((p) => p % blocks)];
        if (mode === 'ctr') {
          const out = await P.serpent.ctr(key, iv).encrypt(data);
          return pick.every((i) => {
            const ks = refEncryptBlock(key, counterBlock((counterValue(iv) + BigInt(i)) % TWO128));
            return out.subarray(16 * i, 16 * i + 16).every((b, j) => b === (data[16 * i + j]! ^ ks[j]!));
          });
        }
        if (mode === 'ecb') {
          const out = await P.serpent.ecb(key, opts).encrypt(data);
          return pick.every((i) => equal(out.subarray(16 * i, 16 * i + 16), refEncryptBlock(key, data.subarray(16 * i, 16 * i + 16))));
        }
        const out = await P.serpent.cbc(key, iv, opts).decrypt(data);
        return pick.every((i) => {
          const prev = i === 0 ? iv : data.subarray(16 * i - 16, 16 * i);
          return equal(
            out.subarray(16 * i, 16 * i + 16),
            refDecryptBlock(key, data.subarray(16 * i, 16 * i + 16)).map((b, j) => b ^ prev[j]!),
          );
        });
      },
    ),
};

// ------------------------------------------------------------------ age

export const CHUNK = 65536;
/** Payload lengths around age's 64 KiB chunks: k chunks and -2..2 bytes, or anywhere up to four chunks. */
const ageLength = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: -2, max: 2 })).map(([k, d]) => Math.max(0, k * CHUNK + d)),
  fc.integer({ min: 0, max: 4 * CHUNK }),
);
/** A small scrypt work factor for passphrase files: the format is what is tested, not the cost. */
export const WORK_FACTOR = 10;
export const PASSPHRASE = 'correct horse battery staple';

let identity: string | undefined;
let recipient: string | undefined;

/** The binary file under `file` (armored or not). */
export const binary = (file: Uint8Array): Uint8Array => (file[0] === 0x2d ? armor.decode(new TextDecoder().decode(file)) : file);

/** Where the payload starts: after the header's MAC line and the 16-byte nonce. */
export function payloadStart(file: Uint8Array): number {
  const text = new TextDecoder('latin1').decode(file);
  return text.indexOf('\n', text.indexOf('\n--- ') + 1) + 1 + 16;
}

function ageProperty(
  name: string,
  api: Pick<typeof age, 'encrypt' | 'decrypt' | 'encryptStream' | 'decryptStream'>,
  length: fc.Arbitrary<number>,
  cases: number,
): FuzzProperty {
  return {
    name,
    cases,
    tiers: tiersOf(true),
    setup: async () => {
      if (name.startsWith('parallel')) await poolSetup();
      identity ??= await age.generateIdentity();
      recipient ??= await age.identityToRecipient(identity);
    },
    property: () =>
      fc.asyncProperty(
        fc.record({ length, seed: fc.nat() }),
        fc.record({ passphrase: fc.boolean(), armored: fc.boolean(), streams: fc.boolean() }),
        splitArb,
        splitArb,
        fc.nat(),
        async (d, how, inCuts, outCuts, bit) => {
          const data = bytesOf(d.length, d.seed);
          const to = how.passphrase ? { passphrase: PASSPHRASE, workFactor: WORK_FACTOR } : { recipients: [recipient!] };
          const from = how.passphrase ? { passphrase: PASSPHRASE } : { identities: [identity!] };
          const options = { armor: how.armored };
          // fourfold encrypts (one shot, or its stream cut anywhere), typage decrypts.
          const ours = how.streams
            ? await drain(streamOf(cut(data, inCuts)).pipeThrough(api.encryptStream(to, options)))
            : await api.encrypt(data, to, options);
          const d1 = new Decrypter();
          if (how.passphrase) d1.addPassphrase(PASSPHRASE);
          else d1.addIdentity(identity!);
          if (!equal(await d1.decrypt(binary(ours)), data)) return false;
          // typage encrypts, fourfold decrypts (one shot, or its stream cut anywhere).
          const enc = new Encrypter();
          if (how.passphrase) {
            enc.setPassphrase(PASSPHRASE);
            enc.setScryptWorkFactor(WORK_FACTOR);
          } else enc.addRecipient(recipient!);
          const sealed = await enc.encrypt(data);
          const theirs = how.armored ? new TextEncoder().encode(armor.encode(sealed)) : sealed;
          const opened = how.streams ? await drain(streamOf(cut(theirs, outCuts)).pipeThrough(api.decryptStream(from))) : await api.decrypt(theirs, from);
          if (!equal(opened, data)) return false;
          // A flipped bit: the payload's (its nonce too) fails AuthenticationError, the header's also
          // AgeFormatError or NoIdentityMatchError; the stream releases no chunk from the changed one on.
          const file = binary(ours);
          const at = bit % (file.length * 8);
          const inPayload = at >= 8 * (payloadStart(file) - 16);
          const accept = (e: unknown) =>
            e instanceof AuthenticationError || (!inPayload && (e instanceof age.AgeFormatError || e instanceof age.NoIdentityMatchError));
          if (!how.streams) {
            await assert.rejects(api.decrypt(flipped(file, at), from), accept);
            return true;
          }
          const released: Uint8Array[] = [];
          const reader = streamOf(cut(flipped(file, at), outCuts))
            .pipeThrough(api.decryptStream(from))
            .getReader();
          await assert.rejects(
            (async () => {
              for (let r = await reader.read(); !r.done; r = await reader.read()) released.push(r.value);
            })(),
            accept,
          );
          const out = join(released);
          const chunk = inPayload ? Math.floor((at / 8 - payloadStart(file)) / (CHUNK + 16)) : 0;
          return out.length <= Math.max(0, chunk) * CHUNK && equal(out, data.subarray(0, out.length));
        },
      ),
  };
}

export const asyncProperties: FuzzProperty[] = [
  ageProperty('age', age, ageLength, 24),
  parallelStreams,
  parallelAeads,
  parallelHashes,
  parallelSerpent,
  secretstreamStreams('parallel-secretstream', P.secretstream, 3 * MiB, 6),
  ageProperty('parallel-age', P.age, bigLength, 6),
];
