/**
 * The package's public surface as one table: every export of every
 * synchronous entry point, called once with valid input, gives a result
 * of the right kind and length (and, where there is one, survives the
 * round trip back). The table must name every export, so a new export
 * needs a row; and the root re-exports each subpath's exports as the same
 * objects (serpent and secretstream as namespaces). Values are checked
 * against peers in each family's own tests; fourfold/parallel (the worker
 * pool) in test/parallel.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as root from 'fourfold';
import * as chacha from 'fourfold/chacha';
import * as poly from 'fourfold/poly1305';
import * as b3 from 'fourfold/blake3';
import * as b2 from 'fourfold/blake2';
import * as salsa from 'fourfold/salsa';
import * as serpent from 'fourfold/serpent';
import * as secretstream from 'fourfold/secretstream';
import * as scryptEntry from 'fourfold/scrypt';
import * as argon2Entry from 'fourfold/argon2';
import * as ageEntry from 'fourfold/age';
import { ENGINE_HAS_SIMD } from './helpers.js';
import { argon2Checks, bytes, type Check, ageChecks, KEY, MESSAGE, pattern, through } from './export-checks.js';

/** A stream cipher: `nonce`-byte nonce; the keystream XORed twice gives the message back. */
const stream =
  (nonce: number): Check =>
  (f) => {
    const n = pattern(nonce, 3);
    const c = bytes(f(KEY, n, MESSAGE), MESSAGE.length, 'ciphertext');
    assert.notDeepEqual(c, MESSAGE, 'the ciphertext is not the message');
    assert.deepEqual(f(KEY, n, c), MESSAGE, 'decrypted');
  };

/** A 32-byte subkey from a key and a 16-byte input (HChaCha20, HSalsa20). */
const subkey: Check = (f) => {
  bytes(f(KEY, pattern(16, 4)), 32, 'subkey');
};

/** An AEAD constructor (@noble/ciphers' shape): `nonce`-byte nonce, a 16-byte tag; a modified message fails with AuthenticationError. */
const aead =
  (nonce: number): Check =>
  (f) => {
    assert.deepEqual([f.nonceLength, f.tagLength, f.blockSize], [nonce, 16, 64], 'nonceLength, tagLength, blockSize');
    const n = pattern(nonce, 5);
    const sealed = bytes(f(KEY, n).encrypt(MESSAGE), MESSAGE.length + 16, 'sealed');
    assert.deepEqual(f(KEY, n).decrypt(sealed), MESSAGE, 'opened');
    sealed[0] ^= 1;
    assert.throws(() => f(KEY, n).decrypt(sealed), root.AuthenticationError);
  };

/** Serpent in a block mode: ciphers from `make()` encrypt the message to `length` bytes, which decrypt to it. */
function blockMode(make: () => serpent.Cipher, length: number): void {
  const c = bytes(make().encrypt(MESSAGE), length, 'ciphertext');
  assert.deepEqual(make().decrypt(c), MESSAGE, 'decrypted');
}

/** secretstream's encryptStream / decryptStream: web streams, or a TypeError that says so where the engine has none. */
const webStream: Check = async (f) => {
  if (typeof TransformStream !== 'function') {
    assert.throws(() => f(KEY), TypeError);
    return;
  }
  const sealed = await through(secretstream.encryptStream(KEY), MESSAGE);
  bytes(sealed, secretstream.HEADER_BYTES + MESSAGE.length + secretstream.ABYTES, 'sealed stream');
  assert.ok(f(KEY) instanceof TransformStream);
  assert.deepEqual(await through(secretstream.decryptStream(KEY), sealed), MESSAGE, 'opened stream');
};

const constant =
  (value: number): Check =>
  (v) =>
    assert.equal(v, value);

/** Each entry point: each of its exports and what a call must give. */
const TABLE: Record<string, { module: object; checks: Record<string, Check> }> = {
  'fourfold/chacha': {
    module: chacha,
    checks: {
      chacha20: stream(12),
      chacha8: stream(12),
      chacha12: stream(12),
      chacha20orig: stream(8),
      xchacha20: stream(24),
      hchacha20: subkey,
      chacha20poly1305: aead(12),
      xchacha20poly1305: aead(24),
    },
  },
  'fourfold/poly1305': {
    module: poly,
    checks: {
      poly1305: (f) => {
        const tag = bytes(f(MESSAGE, KEY), 16, 'tag');
        assert.deepEqual(f.create(KEY).update(MESSAGE.subarray(0, 7)).update(MESSAGE.subarray(7)).digest(), tag, 'incremental');
      },
      Poly1305: (C) => {
        assert.deepEqual(new C(KEY).update(MESSAGE).digest(), poly.poly1305(MESSAGE, KEY), 'the class behind create()');
        assert.ok(poly.poly1305.create(KEY) instanceof C);
      },
    },
  },
  'fourfold/blake3': {
    module: b3,
    checks: {
      blake3: (f) => {
        const digest = bytes(f(MESSAGE), 32, 'digest');
        assert.deepEqual([f.outputLen, f.blockLen, f.canXOF], [32, 64, true], "outputLen, blockLen, canXOF (as @noble/hashes')");
        assert.deepEqual(f.create().update(MESSAGE).digest(), digest, 'incremental');
        assert.deepEqual(bytes(f(MESSAGE, { dkLen: 100 }), 100, 'XOF').subarray(0, 32), digest, 'the XOF extends the digest');
        bytes(f(MESSAGE, { key: KEY }), 32, 'keyed');
      },
      Blake3: (C) => {
        assert.deepEqual(new C().update(MESSAGE).digest(), b3.blake3(MESSAGE), 'the class behind create()');
        assert.ok(b3.blake3.create() instanceof C);
      },
    },
  },
  'fourfold/blake2': {
    module: b2,
    checks: {
      blake2b: (f) => {
        const digest = bytes(f(MESSAGE), 64, 'digest');
        assert.deepEqual([f.outputLen, f.blockLen, f.canXOF], [64, 128, false], "outputLen, blockLen, canXOF (as @noble/hashes')");
        assert.deepEqual(f.create().update(MESSAGE.subarray(0, 7)).update(MESSAGE.subarray(7)).digest(), digest, 'incremental');
        bytes(f(MESSAGE, { key: KEY, dkLen: 32, salt: KEY.subarray(0, 16), personalization: KEY.subarray(16) }), 32, 'keyed, salted');
      },
      Blake2b: (C) => {
        assert.deepEqual(new C().update(MESSAGE).digest(), b2.blake2b(MESSAGE), 'the class behind create()');
        assert.ok(b2.blake2b.create() instanceof C);
      },
    },
  },
  'fourfold/salsa': {
    module: salsa,
    checks: {
      salsa20: stream(8),
      salsa2012: stream(8),
      salsa208: stream(8),
      xsalsa20: stream(24),
      hsalsa20: subkey,
      xsalsa20poly1305: aead(24),
      secretbox: (f) => {
        const n = pattern(24, 6);
        const sealed = bytes(f(KEY, n).seal(MESSAGE), MESSAGE.length + 16, 'sealed');
        assert.deepEqual(sealed, salsa.xsalsa20poly1305(KEY, n).encrypt(MESSAGE), 'xsalsa20poly1305 under its libsodium names');
        assert.deepEqual(f(KEY, n).open(sealed), MESSAGE, 'opened');
      },
    },
  },
  'fourfold/serpent': {
    module: serpent,
    checks: {
      // ECB and CBC pad to whole blocks (PKCS#7): 100 bytes become 112.
      ecb: (f) => blockMode(() => f(KEY), 112),
      cbc: (f) => blockMode(() => f(KEY, pattern(16, 7)), 112),
      ctr: (f) => blockMode(() => f(KEY, pattern(16, 8)), MESSAGE.length),
      PaddingError: (E) => {
        // A last block ending in 0 is not PKCS#7 padding.
        const block = serpent.ecb(KEY, { disablePadding: true }).encrypt(new Uint8Array(16));
        assert.throws(
          () => serpent.ecb(KEY).decrypt(block),
          (e: unknown) => e instanceof E && e instanceof Error && e.name === 'PaddingError',
        );
      },
    },
  },
  'fourfold/scrypt': {
    module: scryptEntry,
    checks: {
      scrypt: (f) => {
        const key = bytes(f('password', MESSAGE, { N: 16 }), 32, 'key');
        assert.notDeepEqual(bytes(f('passwore', MESSAGE, { N: 16 }), 32, 'key'), key, 'another password, another key');
      },
      scryptAsync: async (f) => {
        assert.deepEqual(
          bytes(await f('password', MESSAGE, { N: 16, r: 2, dkLen: 40 }), 40, 'key'),
          scryptEntry.scrypt('password', MESSAGE, { N: 16, r: 2, dkLen: 40 }),
        );
      },
    },
  },
  'fourfold/argon2': {
    module: argon2Entry,
    checks: argon2Checks(),
  },
  'fourfold/age': {
    module: ageEntry,
    checks: ageChecks(),
  },
  'fourfold/secretstream': {
    module: secretstream,
    checks: {
      initPush: (f) => {
        const push = f(KEY);
        bytes(push.header, secretstream.HEADER_BYTES, 'header');
        const sealed = bytes(push.push(MESSAGE, secretstream.TAG_FINAL), MESSAGE.length + secretstream.ABYTES, 'message');
        assert.deepEqual(secretstream.initPull(push.header, KEY).pull(sealed), { message: MESSAGE, tag: secretstream.TAG_FINAL });
      },
      initPull: (f) => {
        const push = secretstream.initPush(KEY);
        const pull = f(push.header, KEY);
        assert.deepEqual(pull.pull(push.push(MESSAGE)), { message: MESSAGE, tag: secretstream.TAG_MESSAGE });
      },
      encryptStream: webStream,
      decryptStream: webStream,
      TAG_MESSAGE: constant(0),
      TAG_PUSH: constant(1),
      TAG_REKEY: constant(2),
      TAG_FINAL: constant(3),
      KEY_BYTES: constant(32),
      HEADER_BYTES: constant(24),
      ABYTES: constant(17),
      MESSAGE_BYTES_MAX: constant(64 * (2 ** 32 - 2)),
    },
  },
  fourfold: {
    module: root,
    checks: {
      ready: async (f) => {
        const t = await f();
        assert.ok(t === 'simd' || t === 'js', `ready() resolved to ${t}`);
        assert.equal(root.tier(), t, 'tier() reports it');
      },
      tier: (f) => assert.ok(['simd', 'js'].includes(f())),
      simdUnavailable: (f) => {
        const why = f();
        if (ENGINE_HAS_SIMD) assert.equal(why, undefined, 'nothing stands in the way of the kernels here');
        else assert.match(why, /no WebAssembly/);
      },
      useKernels: (f) => {
        // Nothing handed over changes nothing; a name that is no kernel's is refused.
        assert.equal(f({}), undefined);
        assert.throws(() => f({ aes: {} }), RangeError);
      },
      AuthenticationError: (E) => {
        const e = new E('a message');
        assert.ok(e instanceof Error);
        assert.equal(e.message, 'a message');
      },
    },
  },
};

/** The root's exports besides its own: each subpath's (flat, or as a namespace), as the same objects. */
const FLAT = ['fourfold/chacha', 'fourfold/poly1305', 'fourfold/blake3', 'fourfold/blake2', 'fourfold/salsa', 'fourfold/scrypt', 'fourfold/argon2'];
const NAMESPACES: Record<string, string> = { serpent: 'fourfold/serpent', secretstream: 'fourfold/secretstream', age: 'fourfold/age' };

for (const [entry, { module, checks }] of Object.entries(TABLE)) {
  it(`'${entry}': each export, called with valid input, gives what it must`, async () => {
    const inherited = entry === 'fourfold' ? [...FLAT.flatMap((e) => Object.keys(TABLE[e]!.module)), ...Object.keys(NAMESPACES)] : [];
    assert.deepEqual(Object.keys(module).sort(), [...Object.keys(checks), ...inherited].sort(), 'the table names every export');
    for (const [name, check] of Object.entries(checks)) {
      try {
        await check((module as Record<string, unknown>)[name]);
      } catch (e) {
        // Name the export, keeping the assertion's own details.
        (e as Error).message = `${entry} ${name}: ${(e as Error).message}`;
        throw e;
      }
    }
  });
}

it("'fourfold' re-exports the subpaths' exports as the same objects", () => {
  const r = root as unknown as Record<string, Record<string, unknown>>;
  for (const entry of FLAT) {
    for (const [name, value] of Object.entries(TABLE[entry]!.module)) assert.equal(r[name], value, `${name} from ${entry}`);
  }
  for (const [ns, entry] of Object.entries(NAMESPACES)) {
    for (const [name, value] of Object.entries(TABLE[entry]!.module)) assert.equal(r[ns]![name], value, `${ns}.${name} from ${entry}`);
  }
});

it("the AEAD constructors carry @noble/ciphers' nonceLength, tagLength and blockSize", async () => {
  const noble = { ...(await import('@noble/ciphers/chacha.js')), ...(await import('@noble/ciphers/salsa.js')) };
  const ours = root as unknown as Record<string, { nonceLength: number; tagLength: number; blockSize: number }>;
  for (const name of ['chacha20poly1305', 'xchacha20poly1305', 'xsalsa20poly1305'] as const) {
    const theirs = noble[name] as unknown as { nonceLength: number; tagLength: number; blockSize: number };
    assert.deepEqual(
      { nonceLength: ours[name].nonceLength, tagLength: ours[name].tagLength, blockSize: ours[name].blockSize },
      { nonceLength: theirs.nonceLength, tagLength: theirs.tagLength, blockSize: theirs.blockSize },
      name,
    );
  }
});
