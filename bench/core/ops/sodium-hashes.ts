/**
 * fourfold/sodium's hashes, MACs and key derivations against libsodium's
 * (sodium-calls.ts): crypto_generichash one-shot (32-byte hash, no key)
 * and incremental (init, one update of the whole message, final),
 * crypto_kdf (a 32-byte subkey), crypto_shorthash (SipHash-2-4),
 * crypto_auth and its _hmacsha256 and _hmacsha512, crypto_hash_sha256 and
 * _sha512, and the password hashes: crypto_pwhash's Argon2id at
 * OPSLIMIT_INTERACTIVE (t = 2) with the case's memory as memlimit (64 MiB
 * is MEMLIMIT_INTERACTIVE), and crypto_pwhash_scryptsalsa208sha256 with
 * opslimit memlimit / 32, so that libsodium's choice of N takes the memory
 * given (N = memlimit / 1 KiB, r = 8, p = 1: 16 MiB is both INTERACTIVE
 * limits).
 */
import { bytes } from '../fixtures.js';
import type { Apis } from '../libraries.js';
import { each, only, type Sodium, sodiumCall, sodiumOps } from './sodium-calls.js';
import { messageOf } from './shared.js';
import type { OpDefinition, Shape } from './types.js';

interface Keyed {
  readonly key: Uint8Array;
  readonly message: Uint8Array;
}

/** A key of `keyBytes` and the shape's message, from `label`'s streams. */
const keyed = (label: string, keyBytes: number) => (shape: Shape) => ({ key: bytes(`${label} key`, keyBytes), message: messageOf(`${label} message`, shape) });

const HASH_BYTES = 32;
const KiB = 1024;
const MiB = 1 << 20;

const generichash = [
  sodiumCall<Keyed>({
    op: 'sodium-generichash',
    inputs: keyed('sodium generichash', 0),
    bind: each((s, i) => s.crypto_generichash(HASH_BYTES, i.message, null)),
  }),
  sodiumCall<Keyed>({
    op: 'sodium-generichash-incremental',
    inputs: keyed('sodium generichash', 0),
    bind: each((s, i) => {
      const state = s.crypto_generichash_init(null, HASH_BYTES);
      s.crypto_generichash_update(state, i.message);
      return s.crypto_generichash_final(state, HASH_BYTES);
    }),
  }),
];

const kdf = sodiumCall<Keyed>({
  op: 'sodium-kdf',
  inputs: keyed('sodium kdf', 32),
  bind: each((s, i) => s.crypto_kdf_derive_from_key(HASH_BYTES, 1, 'contexts', i.key)),
  takesSize: only(HASH_BYTES),
});

const shorthash = sodiumCall<Keyed>({
  op: 'sodium-shorthash',
  inputs: keyed('sodium shorthash', 16),
  bind: each((s, i) => s.crypto_shorthash(i.message, i.key)),
});

/** The MACs: the op's name, the key's bytes, the call. */
const MACS: readonly { name: string; keyBytes: number; mac: (s: Sodium) => Sodium['crypto_auth'] }[] = [
  { name: 'auth', keyBytes: 32, mac: (s) => s.crypto_auth },
  { name: 'auth-hmacsha256', keyBytes: 32, mac: (s) => s.crypto_auth_hmacsha256 },
  { name: 'auth-hmacsha512', keyBytes: 32, mac: (s) => s.crypto_auth_hmacsha512 },
];

const macs = MACS.map(({ name, keyBytes, mac }) =>
  sodiumCall<Keyed>({ op: `sodium-${name}`, inputs: keyed(`sodium ${name}`, keyBytes), bind: each((s, i) => mac(s)(i.message, i.key)) }),
);

const digests = [
  sodiumCall<Keyed>({ op: 'sodium-hash-sha256', inputs: keyed('sodium hash', 0), bind: each((s, i) => s.crypto_hash_sha256(i.message)) }),
  sodiumCall<Keyed>({ op: 'sodium-hash-sha512', inputs: keyed('sodium hash', 0), bind: each((s, i) => s.crypto_hash_sha512(i.message)) }),
];

interface Password {
  readonly password: Uint8Array;
  readonly salt: Uint8Array;
  /** The case's size: memlimit, in bytes. */
  readonly memory: number;
}

/** A password, a salt of `saltBytes` (Argon2's 16, scrypt's 32) and the case's memory. */
const password =
  (saltBytes: number) =>
  (shape: Shape): Password => ({
    password: bytes('sodium pwhash password', 16),
    salt: bytes('sodium pwhash salt', saltBytes),
    memory: shape.size,
  });

const passwordHashes = [
  sodiumCall<Password>({
    op: 'sodium-pwhash-argon2id',
    inputs: password(16),
    bind: each((s, i) => s.crypto_pwhash(HASH_BYTES, i.password, i.salt, s.crypto_pwhash_OPSLIMIT_INTERACTIVE, i.memory, s.crypto_pwhash_ALG_ARGON2ID13)),
    // Argon2's memory in whole KiB, at least libsodium's 8 KiB.
    takesSize: (size) => size >= 8 * KiB && size % KiB === 0,
    sizeIsMemory: true,
  }),
  sodiumCall<Password>({
    op: 'sodium-pwhash-scryptsalsa208sha256',
    inputs: password(32),
    bind: each((s, i) => s.crypto_pwhash_scryptsalsa208sha256(HASH_BYTES, i.password, i.salt, i.memory / 32, i.memory)),
    // A power of two from 1 MiB (N = 2^10): opslimit memlimit / 32 is then at least libsodium's least, 32768.
    takesSize: (size) => size >= MiB && (size & (size - 1)) === 0,
    sizeIsMemory: true,
  }),
];

export function sodiumHashOps(apis: Apis): OpDefinition<unknown>[] {
  return sodiumOps(apis, [...generichash, kdf, shorthash, ...macs, ...digests, ...passwordHashes]);
}
