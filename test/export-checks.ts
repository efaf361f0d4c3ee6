/**
 * The checks of exports.test.ts's table that take more than a line: the
 * inputs (a key, a message), the check's type, fourfold/argon2's and
 * fourfold/age's checks (one-shot calls, streams, ranges, files, passkeys),
 * a TransformStream's output, and a temporary folder for the file calls.
 */
import assert from 'node:assert/strict';
import * as root from 'fourfold';
import * as argon2Entry from 'fourfold/argon2';
import * as ageEntry from 'fourfold/age';
import { concat, ENGINE_HAS_FETCH_API } from './helpers.js';

export const pattern = (length: number, seed: number): Uint8Array => Uint8Array.from({ length }, (_, i) => (i * 7 + seed) & 0xff);
export const KEY = pattern(32, 1);
export const MESSAGE = pattern(100, 2);

/** `x` as a Uint8Array of `length` bytes. */
export function bytes(x: unknown, length: number, label: string): Uint8Array {
  assert.ok(x instanceof Uint8Array, `${label}: a Uint8Array, got ${Object.prototype.toString.call(x)}`);
  assert.equal(x.length, length, `${label}: length`);
  return x;
}

// biome-ignore lint/suspicious/noExplicitAny: each check calls its export as its kind (a stream cipher, an AEAD...), which no one type describes.
export type Check = (exported: any) => void | Promise<void>;

/** fourfold/argon2's checks: each variant sync, Async (the same bytes), as a PHC string that verifies; argon2Verify and needsRehash. */
export function argon2Checks(): Record<string, Check> {
  const checks: Record<string, Check> = {};
  const sync = { argon2id: argon2Entry.argon2id, argon2i: argon2Entry.argon2i, argon2d: argon2Entry.argon2d };
  for (const name of ['argon2id', 'argon2i', 'argon2d'] as const) {
    checks[name] = (f) => {
      const key = bytes(f('password', MESSAGE, { t: 1, m: 8 }), 32, 'key');
      assert.notDeepEqual(bytes(f('passwore', MESSAGE, { t: 1, m: 8 }), 32, 'key'), key, 'another password, another key');
    };
    checks[`${name}Async`] = async (f) => {
      const opts = { t: 2, m: 16, p: 2, dkLen: 40 };
      assert.deepEqual(bytes(await f('password', MESSAGE, opts), 40, 'key'), sync[name]('password', MESSAGE, opts));
    };
    checks[`${name}Hash`] = async (f) => {
      const phc: string = await f('password', { t: 1, m: 8 });
      assert.match(phc, new RegExp(`^\\$${name}\\$v=19\\$m=8,t=1,p=1\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}$`));
      assert.equal(await argon2Entry.argon2Verify(phc, 'password'), true);
    };
  }
  checks.argon2Verify = async (f) => {
    const phc = await argon2Entry.argon2idHash('password', { t: 1, m: 8 });
    assert.equal(await f(phc, 'password'), true);
    assert.equal(await f(phc, 'passwore'), false);
  };
  checks.needsRehash = async (f) => {
    const phc = await argon2Entry.argon2idHash('password', { t: 1, m: 8 });
    assert.equal(f(phc, { t: 1, m: 8 }), false);
    assert.equal(f(phc), true, "not at argon2idHash's defaults");
  };
  return checks;
}

/** Everything a TransformStream gives for `input` written in one chunk. */
export async function through(t: TransformStream<Uint8Array, Uint8Array>, input: Uint8Array): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reading = (async () => {
    const reader = t.readable.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  })();
  const writer = t.writable.getWriter();
  await writer.write(input);
  await writer.close();
  await reading;
  return concat(...parts);
}

/** A temporary directory's files through node:fs, where the engine has it (the age file calls' checks); undefined elsewhere. */
export function tempFiles() {
  const host = globalThis.process as { getBuiltinModule?(name: string): unknown } | undefined;
  const fs = host?.getBuiltinModule?.('node:fs') as typeof import('node:fs') | undefined;
  const os = host?.getBuiltinModule?.('node:os') as typeof import('node:os') | undefined;
  if (fs === undefined || os === undefined) return undefined;
  const dir = fs.mkdtempSync(`${os.tmpdir()}/fourfold-exports-`);
  const path = (name: string) => `${dir}/${name}`;
  return {
    path,
    write: (name: string, data: Uint8Array) => fs.writeFileSync(path(name), data),
    read: (name: string) => new Uint8Array(fs.readFileSync(path(name))),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** fourfold/age's checks: keys, one-shot calls and streams both ways, ranges, the file calls, the passkeys' entry. */
export function ageChecks(): Record<string, Check> {
  return {
    generateIdentity: (f) => assert.match(f(), /^AGE-SECRET-KEY-1[0-9A-Z]{58}$/),
    identityToRecipient: (f) => assert.match(f(ageEntry.generateIdentity()), /^age1[0-9a-z]{58}$/),
    generateHybridIdentity: async (f) => {
      const identity = f();
      assert.match(identity, /^AGE-SECRET-KEY-PQ-1[0-9A-Z]{58}$/);
      assert.match(await ageEntry.identityToRecipient(identity), /^age1pq1[0-9a-z]{1952}$/);
    },
    encrypt: async (f) => {
      const id = ageEntry.generateIdentity();
      const file = await f(MESSAGE, { recipients: [ageEntry.identityToRecipient(id)] });
      assert.deepEqual(await ageEntry.decrypt(file, { identities: [id] }), MESSAGE);
    },
    decrypt: async (f) => {
      const file = await ageEntry.encrypt(MESSAGE, { passphrase: 'pw', workFactor: 4 });
      assert.deepEqual(await f(file, { passphrase: 'pw' }), MESSAGE);
    },
    encryptStream: async (f) => {
      if (typeof TransformStream !== 'function') return assert.throws(() => f({ passphrase: 'pw' }), TypeError);
      const id = ageEntry.generateIdentity();
      const file = await through(f({ recipients: [ageEntry.identityToRecipient(id)] }), MESSAGE);
      assert.deepEqual(await ageEntry.decrypt(file, { identities: [id] }), MESSAGE);
    },
    decryptStream: async (f) => {
      if (typeof TransformStream !== 'function') return assert.throws(() => f({ passphrase: 'pw' }), TypeError);
      const file = await ageEntry.encrypt(MESSAGE, { passphrase: 'pw', workFactor: 4 });
      assert.deepEqual(await through(f({ passphrase: 'pw' }), file), MESSAGE);
    },
    decryptRange: async (f) => {
      const file = await ageEntry.encrypt(MESSAGE, { passphrase: 'pw', workFactor: 4 });
      const source = { size: file.length, read: async (offset: number, length: number) => file.slice(offset, offset + length) };
      assert.deepEqual(await f(source, 10, 20, { passphrase: 'pw' }), MESSAGE.subarray(10, 20));
    },
    openRangeReader: async (f) => {
      const file = await ageEntry.encrypt(MESSAGE, { passphrase: 'pw', workFactor: 4 });
      const reader = await f({ size: file.length, read: async (offset: number, length: number) => file.slice(offset, offset + length) }, { passphrase: 'pw' });
      assert.equal(reader.size, MESSAGE.length);
      assert.deepEqual(await reader.read(10, 20), MESSAGE.subarray(10, 20));
      await reader.close();
    },
    // Its requests: test/age/http-source.test.ts; here, what it refuses before any.
    httpRangeSource: (f) => assert.rejects(f('https://example.org/film.webm.age', { readAhead: -1 }), RangeError),
    rangeResponse: async (f) => {
      // Where there is no Request or Response (node --jitless, Hermes) there is nothing to answer: test/age/range-response.test.ts says so.
      if (!ENGINE_HAS_FETCH_API) return;
      const file = await ageEntry.encrypt(MESSAGE, { passphrase: 'pw', workFactor: 4 });
      const reader = await ageEntry.openRangeReader(
        { size: file.length, read: async (offset: number, length: number) => file.slice(offset, offset + length) },
        { passphrase: 'pw' },
      );
      const response = await f(new Request('https://example.org/film.webm', { headers: { range: 'bytes=10-19' } }), reader);
      assert.equal(response.status, 206);
      assert.deepEqual(new Uint8Array(await response.arrayBuffer()), MESSAGE.subarray(10, 20));
    },
    RangeRequestError: (E) => {
      const e = new E('x', 'status', 404) as InstanceType<typeof ageEntry.RangeRequestError>;
      assert.ok(e instanceof Error);
      assert.deepEqual([e.reason, e.status], ['status', 404]);
    },
    encryptFile: async (f) => {
      const id = ageEntry.generateIdentity();
      const files = tempFiles();
      if (files === undefined) return assert.rejects(f('in', 'out', { passphrase: 'pw' }), TypeError);
      files.write('plain', MESSAGE);
      await f(files.path('plain'), files.path('file.age'), { recipients: [ageEntry.identityToRecipient(id)] });
      assert.deepEqual(await ageEntry.decrypt(files.read('file.age'), { identities: [id] }), MESSAGE);
      files.remove();
    },
    decryptFile: async (f) => {
      const files = tempFiles();
      if (files === undefined) return assert.rejects(f('in', 'out', { passphrase: 'pw' }), TypeError);
      files.write('file.age', await ageEntry.encrypt(MESSAGE, { passphrase: 'pw', workFactor: 4 }));
      await f(files.path('file.age'), files.path('plain'), { passphrase: 'pw' });
      assert.deepEqual(files.read('plain'), MESSAGE);
      files.remove();
    },
    AgeFormatError: (E) => assert.ok(new E('x') instanceof Error),
    NoIdentityMatchError: (E) => assert.ok(new E('x') instanceof root.AuthenticationError, 'an AuthenticationError'),
    // Each refuses bad input before it asks the browser anything (test/age/passkeys.test.ts has the rest).
    webauthn: async (w) => {
      assert.deepEqual(Object.keys(w).sort(), ['PrfUnsupportedError', 'WebAuthnIdentity', 'WebAuthnRecipient', 'createCredential']);
      assert.ok(new w.PrfUnsupportedError('x') instanceof Error);
      await assert.rejects(w.createCredential({}), TypeError);
      assert.throws(() => new w.WebAuthnIdentity({ identity: 'AGE-SECRET-KEY-1' }), RangeError);
      await assert.rejects(new w.WebAuthnRecipient().wrapFileKey(new Uint8Array(15)), RangeError);
    },
  };
}
