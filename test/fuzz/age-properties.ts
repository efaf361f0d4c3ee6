/**
 * The fuzzing's properties of age's calls beyond the one-shot and stream
 * ones (test/fuzz/async-properties.ts has those): decryptRange on every
 * kind of source, encryptFile / decryptFile on Blobs, paths and file
 * handles, and the keys, each against typage (`age-encryption`), both
 * ways, on fourfold/age and on fourfold/parallel's age. A changed bit
 * must fail as docs/age.md says, and leave no output behind.
 */
import assert from 'node:assert/strict';
import { mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import * as P from 'fourfold/parallel';
import * as age from 'fourfold/age';
import { AuthenticationError } from 'fourfold';
import {
  armor,
  Decrypter,
  Encrypter,
  generateHybridIdentity as typageHybrid,
  generateIdentity as typageIdentity,
  identityToRecipient as typageRecipient,
} from 'age-encryption';
import { bech32 } from '@scure/base';
import { binary, CHUNK, PASSPHRASE, payloadStart, poolSetup, WORK_FACTOR } from './async-properties.js';
import { bytesOf, equal, flipped, keyArb, tiersOf } from './gen.js';
import type { FuzzProperty } from './property.js';
import { PARALLEL_MIN } from '../internal.js';

type AgeApi = typeof age | typeof P.age;
const SEALED = CHUNK + 16;

/** Payload lengths of a few chunks: k chunks and -1..1 bytes, or anywhere up to three chunks and a byte. */
const fewChunks = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: -1, max: 1 })).map(([k, d]) => Math.max(0, k * CHUNK + d)),
  fc.integer({ min: 0, max: 3 * CHUNK + 1 }),
);

/**
 * Lengths about PARALLEL_MIN, where fourfold/parallel's file calls and
 * ranges go to the pool's workers: its edges ±1 and a chunk past it, or
 * anywhere from a chunk below to four above.
 */
const pastParallelMin = fc.oneof(
  fc.constantFrom(PARALLEL_MIN - 1, PARALLEL_MIN, PARALLEL_MIN + 1, PARALLEL_MIN + CHUNK - 1, PARALLEL_MIN + CHUNK, PARALLEL_MIN + CHUNK + 1),
  fc.integer({ min: PARALLEL_MIN - CHUNK, max: PARALLEL_MIN + 4 * CHUNK }),
);

let identity: string | undefined;
let recipient: string | undefined;

async function keysSetup(parallel: boolean): Promise<void> {
  if (parallel) await poolSetup();
  if (identity !== undefined) return;
  const id = age.generateIdentity();
  identity = id;
  recipient = age.identityToRecipient(id);
}

/** A property's name, budget, tiers (age's: the default one too) and setup (the pool's, for fourfold/parallel's). */
const shell = (name: string, cases: number): Omit<FuzzProperty, 'property'> => ({
  name,
  cases,
  tiers: tiersOf(true),
  setup: () => keysSetup(name.startsWith('parallel')),
});

const toOf = (passphrase: boolean): age.AgeTo => (passphrase ? { passphrase: PASSPHRASE, workFactor: WORK_FACTOR } : { recipients: [recipient!] });
/** The work factor bounded, so that a changed header cannot ask for a slow scrypt. */
const fromOf = (passphrase: boolean): age.AgeFrom => (passphrase ? { passphrase: PASSPHRASE, maxWorkFactor: WORK_FACTOR } : { identities: [identity!] });

/** typage's binary file of `data`, to the recipient or the passphrase. */
async function typageSeal(data: Uint8Array, passphrase: boolean, to = recipient!): Promise<Uint8Array> {
  const e = new Encrypter();
  if (passphrase) {
    e.setPassphrase(PASSPHRASE);
    e.setScryptWorkFactor(WORK_FACTOR);
  } else e.addRecipient(to);
  return e.encrypt(data);
}

/** typage's plaintext of `file` (binary or armored). */
async function typageOpen(file: Uint8Array, passphrase: boolean, id = identity!): Promise<Uint8Array> {
  const d = new Decrypter();
  if (passphrase) d.addPassphrase(PASSPHRASE);
  else d.addIdentity(id);
  return d.decrypt(binary(file));
}

/** Where a changed bit `at` of the binary `file` lies: the header, the payload nonce, or chunk `chunk` of `chunks`. */
function partOf(file: Uint8Array, at: number): { part: 'header' | 'nonce' | 'chunk'; chunk: number; chunks: number } {
  const start = payloadStart(file);
  const chunks = Math.max(1, Math.ceil((file.length - start) / SEALED));
  const byte = at >> 3;
  if (byte < start - 16) return { part: 'header', chunk: -1, chunks };
  if (byte < start) return { part: 'nonce', chunk: -1, chunks };
  return { part: 'chunk', chunk: Math.floor((byte - start) / SEALED), chunks };
}

/** The errors a changed file may give: AuthenticationError, and for a changed header also AgeFormatError or NoIdentityMatchError. */
const failsAs = (header: boolean) => (e: unknown) =>
  e instanceof AuthenticationError || (header && (e instanceof age.AgeFormatError || e instanceof age.NoIdentityMatchError));

/** A fresh directory for `f`, removed after it; `f` gets the path of a name in it, and the names in it. */
async function inDirectory<T>(f: (path: (name: string) => string, names: () => Promise<string[]>) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(joinPath(tmpdir(), 'fourfold-fuzz-'));
  try {
    return await f(
      (name) => joinPath(dir, name),
      async () => (await readdir(dir)).sort(),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ decryptRange

/**
 * A range's end: the plaintext's start, a chunk's edge (k chunks, -1..1),
 * its end (-1..5), anywhere up to past the end, or as far as a number goes.
 */
const pointArb = fc.record({
  kind: fc.constantFrom('start' as const, 'chunk' as const, 'end' as const, 'any' as const, 'far' as const),
  k: fc.nat(),
  d: fc.integer({ min: -1, max: 5 }),
  u: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
});
type Point = { kind: 'start' | 'chunk' | 'end' | 'any' | 'far'; k: number; d: number; u: number };

function pointOf(p: Point, length: number): number {
  const chunks = Math.ceil(length / CHUNK) + 1;
  if (p.kind === 'start') return 0;
  if (p.kind === 'chunk') return Math.max(0, (p.k % (chunks + 1)) * CHUNK + Math.min(p.d, 1));
  if (p.kind === 'end') return Math.max(0, length + p.d);
  if (p.kind === 'any') return Math.floor(p.u * (length + 10));
  return Number.MAX_SAFE_INTEGER;
}

/** Arguments decryptRange refuses with a RangeError before it reads: end below start, a negative or fractional one. */
const badArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant('none' as const) },
  { weight: 1, arbitrary: fc.constantFrom('reversed' as const, 'negative' as const, 'fraction' as const) },
);

/** decryptRange's [start, end) for a range a <= b, or, as `bad` says, end below start, one negative, or start fractional. */
function argumentsOf(bad: 'none' | 'reversed' | 'negative' | 'fraction', a: number, b: number): [number, number] {
  if (bad === 'reversed') return a === b ? [a + 1, a] : [b, a];
  if (bad === 'negative') return a === b ? [-1, b] : [a, -b];
  if (bad === 'fraction') return [a + 0.5, b + 1];
  return [a, b];
}

/** Where decryptRange reads from: a Blob, a { size, read } over the bytes, a path, a file: URL, a Node file handle. */
const sourceArb = fc.constantFrom('blob' as const, 'source' as const, 'path' as const, 'url' as const, 'handle' as const);

/**
 * decryptRange on a file typage or fourfold made (to the recipient or a
 * passphrase), of a drawn length about the 64 KiB chunks: any [start,
 * end), empty ones, at chunk edges and the end and past it, gives typage's
 * plaintext sliced as Blob.slice clamps; arguments out of range are a
 * RangeError; an armored file an AgeFormatError. A changed bit (docs/age.md:
 * the call reads the header, the range's chunks and the final chunk) fails
 * in those, and in any other chunk still gives the range's bytes; the
 * bytes a { size, read } source gives (views of the caller's) stay as
 * they were.
 */
function rangeProperty(name: string, api: AgeApi, length: fc.Arbitrary<number>, cases: number): FuzzProperty {
  return {
    ...shell(name, cases),
    property: () =>
      fc.asyncProperty(
        fc.record({ length, seed: fc.nat() }),
        fc.record({
          typage: fc.boolean(),
          passphrase: fc.boolean(),
          armored: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
          source: sourceArb,
        }),
        fc.tuple(pointArb, pointArb),
        badArb,
        fc.option(fc.nat(), { nil: undefined }),
        async (d, how, [p, q], bad, bit) => {
          const data = bytesOf(d.length, d.seed);
          const file = how.typage ? await typageSeal(data, how.passphrase) : await api.encrypt(data, toOf(how.passphrase));
          const plain = await typageOpen(file, how.passphrase);
          if (!equal(plain, data)) return false;
          const [a, b] = [pointOf(p, data.length), pointOf(q, data.length)].sort((x, y) => x - y) as [number, number];
          const [start, end] = argumentsOf(bad, a, b);
          const from = fromOf(how.passphrase);
          const changed = bit === undefined ? file : flipped(file, bit);
          const at = bit === undefined ? -1 : bit % (file.length * 8);
          const bytes = how.armored && bit === undefined ? new TextEncoder().encode(armor.encode(file)) : changed;
          const original = bytes.slice();
          const call = withSource(bytes, how.source, (source) => api.decryptRange(source, start, end, from));
          if (bad !== 'none') {
            await assert.rejects(call, RangeError);
            return equal(bytes, original);
          }
          if (how.armored && bit === undefined) {
            await assert.rejects(call, (e) => e instanceof age.AgeFormatError && /armored/.test(e.message));
            return equal(bytes, original);
          }
          const from_ = Math.min(start, data.length);
          const to = Math.min(end, data.length);
          if (at >= 0) {
            const { part, chunk, chunks } = partOf(file, at);
            const read = part !== 'chunk' || chunk === chunks - 1 || (from_ < to && Math.floor(from_ / CHUNK) <= chunk && chunk < Math.ceil(to / CHUNK));
            if (read) {
              await assert.rejects(call, failsAs(part === 'header'));
              return equal(bytes, original);
            }
          }
          const got = await call;
          return got instanceof Uint8Array && equal(got, plain.subarray(from_, to)) && equal(bytes, original);
        },
      ),
  };
}

/** `call` on `bytes` as a `kind` of source (a file in a fresh directory for a path, URL or handle). */
async function withSource<T>(bytes: Uint8Array, kind: 'blob' | 'source' | 'path' | 'url' | 'handle', call: (s: age.RangeInput) => Promise<T>): Promise<T> {
  if (kind === 'blob') return call(new Blob([bytes.slice()]));
  // Views of the caller's bytes, which the call must not change.
  if (kind === 'source') return call({ size: bytes.length, read: async (offset: number, length: number) => bytes.subarray(offset, offset + length) });
  return inDirectory(async (path) => {
    await writeFile(path('file.age'), bytes);
    if (kind === 'path') return call(path('file.age'));
    if (kind === 'url') return call(pathToFileURL(path('file.age')));
    const handle = await open(path('file.age'), 'r');
    try {
      return await call(handle);
    } finally {
      await handle.close();
    }
  });
}

// ------------------------------------------------------------------ encryptFile, decryptFile

/**
 * encryptFile and decryptFile on a Blob (into a Blob), on paths in a
 * fresh directory and on Node file handles, binary or armored, to the
 * recipient or a passphrase: fourfold's file is typage's plaintext, and
 * typage's file (binary or armored) fourfold's, with no temporary file
 * left. A changed bit of typage's file fails (AuthenticationError; a
 * header's also AgeFormatError or NoIdentityMatchError), and leaves no
 * Blob, the output path as it was (or absent) and nothing beside it, and
 * an output handle emptied.
 */
function filesProperty(name: string, api: AgeApi, length: fc.Arbitrary<number>, cases: number): FuzzProperty {
  return {
    ...shell(name, cases),
    property: () =>
      fc.asyncProperty(
        fc.record({
          form: fc.constantFrom('blob' as const, 'path' as const, 'handle' as const),
          passphrase: fc.boolean(),
          armored: fc.boolean(),
          theirsArmored: fc.boolean(),
          existing: fc.boolean(),
        }),
        fc.record({ length, seed: fc.nat() }),
        fc.nat(),
        async (how, d, bit) => {
          const data = bytesOf(d.length, d.seed);
          const to = toOf(how.passphrase);
          const from = fromOf(how.passphrase);
          const options = { armor: how.armored };
          const sealed = await typageSeal(data, how.passphrase);
          const theirs = how.theirsArmored ? new TextEncoder().encode(armor.encode(sealed)) : sealed;
          const bad = flipped(sealed, bit);
          const accept = failsAs(partOf(sealed, bit % (sealed.length * 8)).part === 'header');
          const armoredRight = (file: Uint8Array) => (file[0] === 0x2d) === how.armored;

          if (how.form === 'blob') {
            const ours = await api.encryptFile(new Blob([data.slice()]), undefined, to, options);
            if (!(ours instanceof Blob)) return false;
            const file = new Uint8Array(await ours.arrayBuffer());
            if (!armoredRight(file) || !equal(await typageOpen(file, how.passphrase), data)) return false;
            const back = await api.decryptFile(new Blob([theirs.slice()]), undefined, from);
            if (!(back instanceof Blob) || !equal(new Uint8Array(await back.arrayBuffer()), data)) return false;
            await assert.rejects(api.decryptFile(new Blob([bad.slice()]), undefined, from), accept);
            return true;
          }

          return inDirectory(async (path, names) => {
            const OLD = new TextEncoder().encode('what was there');
            await writeFile(path('plain'), data);
            await writeFile(path('theirs.age'), theirs);
            await writeFile(path('bad.age'), bad);
            if (how.existing) await writeFile(path('out'), OLD);
            if (how.form === 'path') {
              await api.encryptFile(path('plain'), path('ours.age'), to, options);
              const file = new Uint8Array(await readFile(path('ours.age')));
              if (!armoredRight(file) || !equal(await typageOpen(file, how.passphrase), data)) return false;
              await api.decryptFile(path('theirs.age'), path('back'), from);
              if (!equal(new Uint8Array(await readFile(path('back'))), data)) return false;
              await assert.rejects(api.decryptFile(path('bad.age'), path('out'), from), accept);
              const left = ['back', 'bad.age', 'ours.age', ...(how.existing ? ['out'] : []), 'plain', 'theirs.age'];
              assert.deepEqual(await names(), left, 'no temporary file, and no output where there was none');
              return !how.existing || equal(new Uint8Array(await readFile(path('out'))), OLD);
            }
            // Node file handles: an output handle is written from its start, and emptied on a failure.
            const handles = await Promise.all([
              open(path('plain'), 'r'),
              open(path('ours.age'), 'w+'),
              open(path('theirs.age'), 'r'),
              open(path('back'), 'w+'),
              open(path('bad.age'), 'r'),
              open(path('out'), 'r+').catch(() => open(path('out'), 'w+')),
            ]);
            try {
              const [plainH, oursH, theirsH, backH, badH, outH] = handles;
              await api.encryptFile(plainH, oursH, to, options);
              const file = new Uint8Array(await readFile(path('ours.age')));
              if (!armoredRight(file) || !equal(await typageOpen(file, how.passphrase), data)) return false;
              await api.decryptFile(theirsH, backH, from);
              if (!equal(new Uint8Array(await readFile(path('back'))), data)) return false;
              await assert.rejects(api.decryptFile(badH, outH, from), accept);
              assert.deepEqual(await names(), ['back', 'bad.age', 'ours.age', 'out', 'plain', 'theirs.age'], 'no temporary file');
              return (await readFile(path('out'))).length === 0;
            } finally {
              for (const h of handles) await h.close();
            }
          });
        },
      ),
  };
}

// ------------------------------------------------------------------ keys

/** A native identity of `bytes` (an X25519 scalar, or a hybrid key's seed), as age-keygen writes it. */
const identityOf = (bytes: Uint8Array, hybrid: boolean): string =>
  bech32.encode(hybrid ? 'AGE-SECRET-KEY-PQ-' : 'AGE-SECRET-KEY-', bech32.toWords(bytes), false).toUpperCase();

/** 32-byte keys, one time in four all zeros or all ones. */
const secretArb = fc.oneof({ weight: 3, arbitrary: keyArb(32) }, { weight: 1, arbitrary: fc.constantFrom(new Uint8Array(32), new Uint8Array(32).fill(0xff)) });

/**
 * generateIdentity, generateHybridIdentity and identityToRecipient against
 * typage's: an identity from drawn bytes, X25519 or post-quantum hybrid,
 * gives typage's recipient, as do identities either library made; a file
 * to it from either library opens in the other, and an identity of
 * another key gets NoIdentityMatchError.
 */
export const ageKeys: FuzzProperty = {
  name: 'age-keys',
  cases: 3,
  tiers: tiersOf(true),
  property: () =>
    fc.asyncProperty(secretArb, fc.boolean(), fc.record({ length: fewChunks, seed: fc.nat() }), async (secret, hybrid, d) => {
      const id = identityOf(secret, hybrid);
      const recipientHere = await age.identityToRecipient(id);
      if (recipientHere !== (await typageRecipient(id))) return false;
      const ours = hybrid ? age.generateHybridIdentity() : age.generateIdentity();
      const theirs = await (hybrid ? typageHybrid() : typageIdentity());
      if ((await age.identityToRecipient(ours)) !== (await typageRecipient(ours))) return false;
      if ((await age.identityToRecipient(theirs)) !== (await typageRecipient(theirs))) return false;
      if (!ours.startsWith(hybrid ? 'AGE-SECRET-KEY-PQ-1' : 'AGE-SECRET-KEY-1')) return false;
      const data = bytesOf(d.length, d.seed);
      const file = await age.encrypt(data, { recipients: [recipientHere] });
      if (!equal(await typageOpen(file, false, id), data)) return false;
      const sealed = await typageSeal(data, false, recipientHere);
      if (!equal(await age.decrypt(sealed, { identities: [ours, id] }), data)) return false;
      await assert.rejects(age.decrypt(sealed, { identities: [theirs] }), age.NoIdentityMatchError);
      return true;
    }),
};

export const ageCallProperties: FuzzProperty[] = [
  rangeProperty('age-range', age, fewChunks, 6),
  filesProperty('age-files', age, fewChunks, 4),
  ageKeys,
  rangeProperty('parallel-age-range', P.age, pastParallelMin, 2),
  filesProperty('parallel-age-files', P.age, pastParallelMin, 2),
];
