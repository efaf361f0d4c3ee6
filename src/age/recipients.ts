/**
 * Two of the native recipient types (C2SP age, "The X25519 recipient
 * type" and "The scrypt recipient type"; the hybrid one, loaded only when
 * its keys appear, is hybrid.ts): how each wraps the 16-byte file key
 * into a stanza, and the key derivations its identity shares (the
 * unwrapping side, with the checks the specification asks of an
 * identity, is identities.ts). The wrap is ChaCha20-Poly1305 with a zero
 * nonce under a key derived per stanza (HKDF-SHA-256 of an X25519 shared
 * secret, or scrypt of the passphrase).
 */
import { AgeFormatError } from './errors.js';
import { type Multiplier, withEphemeral } from './x25519.js';
import { encodeBase64, type Stanza } from './header.js';
import { hkdfSha256 } from './sha256.js';
import { lazyJsEngine as engine } from '../chacha/tiers-on-demand.js';
import { EMPTY, isZero, zeroize } from '../runtime/bytes.js';
import { nativeScrypt } from '../runtime/native.js';

export const FILE_KEY_BYTES = 16;
/** age's own stanzas wrap under a key used once, with a zero nonce. */
export const ZERO_NONCE: Uint8Array = new Uint8Array(12);
export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

const X25519_INFO = utf8('age-encryption.org/v1/X25519');
const SCRYPT_SALT_LABEL = utf8('age-encryption.org/v1/scrypt');

/** Wraps the file key under `key` (wiped after), with `nonce` (age's own stanzas: zeros). */
export function wrap(key: Uint8Array, fileKey: Uint8Array, nonce: Uint8Array = ZERO_NONCE): Uint8Array {
  try {
    // ChaCha20-Poly1305 (RFC 8439) on the engine itself, as identities.ts unwrap opens it: a 32-byte key and a 12-byte nonce by construction.
    return engine().seal(key, nonce, EMPTY, fileKey);
  } finally {
    zeroize(key);
  }
}

// ---------------------------------------------------------------- X25519

/** wrap key = HKDF-SHA-256(shared secret, salt = ephemeral share || recipient, "age-encryption.org/v1/X25519"). */
export function x25519WrapKey(shared: Uint8Array, share: Uint8Array, recipient: Uint8Array): Uint8Array {
  const salt = new Uint8Array(64);
  salt.set(share);
  salt.set(recipient, 32);
  try {
    return hkdfSha256(shared, salt, X25519_INFO, 32);
  } finally {
    zeroize(shared);
  }
}

/** The shared secret of a multiplier's scalar and `publicKey`, refused when it is all zeros (a low-order share): the specification says to abort. */
export async function sharedSecret(multiply: Multiplier, publicKey: Uint8Array): Promise<Uint8Array> {
  const shared = await multiply(publicKey);
  if (isZero(shared)) throw new AgeFormatError('an X25519 stanza whose share gives an all-zero shared secret (a low-order point)');
  return shared;
}

/** An X25519 stanza wrapping `fileKey` for the recipient public key `recipient`, with a new ephemeral secret. */
export function x25519Stanza(recipient: Uint8Array, fileKey: Uint8Array): Promise<Stanza> {
  return withEphemeral(async (share, multiply) => {
    const key = x25519WrapKey(await sharedSecret(multiply, recipient), share, recipient);
    return { type: 'X25519', args: [encodeBase64(share)], body: wrap(key, fileKey) };
  });
}

// ---------------------------------------------------------------- scrypt

/** The KDF an age call uses for passphrases: scrypt with r = 8, p = 1 and a 32-byte key, on this thread or a worker. */
export type Scrypt = (passphrase: Uint8Array, salt: Uint8Array, N: number) => Promise<Uint8Array>;

/** The salt scrypt sees: "age-encryption.org/v1/scrypt" || the stanza's 16-byte salt. */
export function scryptSalt(salt: Uint8Array): Uint8Array {
  const full = new Uint8Array(SCRYPT_SALT_LABEL.length + salt.length);
  full.set(SCRYPT_SALT_LABEL);
  full.set(salt, SCRYPT_SALT_LABEL.length);
  return full;
}

/**
 * The largest work factor fourfold's own scrypt runs: a lane of N = 2^w
 * with r = 8 holds 1024 * (2^w + 2) bytes (RFC 7914 §5: V and X), 2 GiB
 * at 21, and at 22 4 GiB and 2 KiB, more than the 2^32 bytes a
 * WebAssembly memory addresses.
 */
export const WASM_MAX_WORK_FACTOR = 21;

/** The largest work factor fourfold takes (workFactor, maxWorkFactor), as the Go age's SetWorkFactor. */
const NATIVE_MAX_WORK_FACTOR = 30;

/** The largest work factor this runtime computes: any with node:crypto's scrypt (Node, Deno, Bun), else WASM_MAX_WORK_FACTOR. */
export const reachableWorkFactor = (): number => (nativeScrypt() === undefined ? WASM_MAX_WORK_FACTOR : NATIVE_MAX_WORK_FACTOR);

/** Why a work factor above reachableWorkFactor() cannot be computed here: the end of a message (naming no node: module, which would mark a browser bundle as carrying one). */
export const unreachable = (workFactor: number): string =>
  `needs ${2 ** (workFactor - 20)} GiB and 2 KiB of memory for scrypt, more than the 4 GiB a WebAssembly memory holds, and this runtime has no scrypt of its own (Node, Deno and Bun have one, in their crypto module); fourfold computes up to ${WASM_MAX_WORK_FACTOR} here`;

/** A scrypt of fourfold's API (fourfold/scrypt's scryptAsync, fourfold/parallel's scrypt). */
type ApiScrypt = (passphrase: Uint8Array, salt: Uint8Array, options: { N: number; r: number; p: number; dkLen: number; maxmem: number }) => Promise<Uint8Array>;

/**
 * age's scrypt (r = 8, p = 1, a 32-byte key) on `load`'s, a module
 * imported the first time a call takes a passphrase, so that a page whose
 * files are for keys carries none of it; maxmem leaves room for N, as a
 * file's work factor is bounded by the caller (maxWorkFactor).
 */
export const lazyScrypt =
  (load: () => Promise<ApiScrypt>): Scrypt =>
  async (passphrase, salt, N) =>
    (await load())(passphrase, salt, { N, r: 8, p: 1, dkLen: 32, maxmem: 1024 * (N + 3) });

/** age's scrypt (r = 8, p = 1, a 32-byte key) on node:crypto, where reachableWorkFactor() said it is. */
export const nodeAgeScrypt: Scrypt = (passphrase, salt, N) => nativeScrypt()!(passphrase, salt, { N, r: 8, p: 1, dkLen: 32 });

/** The scrypt for work factor `workFactor`: `kdf` (fourfold's) up to WASM_MAX_WORK_FACTOR, node:crypto's above. */
export const scryptFor = (workFactor: number, kdf: Scrypt): Scrypt => (workFactor <= WASM_MAX_WORK_FACTOR ? kdf : nodeAgeScrypt);

/** An scrypt stanza wrapping `fileKey` under `passphrase` with work factor `workFactor` (N = 2^workFactor) and a new salt. */
export async function scryptStanza(passphrase: Uint8Array, workFactor: number, fileKey: Uint8Array, kdf: Scrypt): Promise<Stanza> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await scryptFor(workFactor, kdf)(passphrase, scryptSalt(salt), 2 ** workFactor);
  return { type: 'scrypt', args: [encodeBase64(salt), String(workFactor)], body: wrap(key, fileKey) };
}
