/**
 * age's SSH recipient types (C2SP age, "The ssh-ed25519 and ssh-rsa
 * recipient types"), for compatibility with keys people already have.
 * Each stanza names its key by a 4-byte fingerprint (SHA-256 of the
 * public key's wire form), so these files are not anonymous.
 *
 * - ssh-ed25519: X25519 to the Ed25519 key's Montgomery form, the shared
 *   secret multiplied again by a tweak (HKDF-SHA-256 salted with the key),
 *   the wrap key HKDF-SHA-256 of that under the share and the recipient,
 *   label "age-encryption.org/v1/ssh-ed25519". The identity's scalar is
 *   SHA-512(seed)'s first 32 bytes, Ed25519's own secret scalar.
 * - ssh-rsa: RSA-OAEP with SHA-256 and label "age-encryption.org/v1/ssh-rsa".
 *
 * A stanza whose fingerprint is an identity's but which does not open
 * under it is an error, not a miss, as in age. This module and its key
 * parsers (ssh-keys.ts, ssh-private-keys.ts) are imported only when an SSH key is used; RSA,
 * SHA-512 and AES are the platform's (WebCrypto).
 */
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bigOf, bigBytes, power } from './bigint.js';
import { AgeFormatError } from './errors.js';
import { decodeBase64, encodeBase64, type Stanza } from './header.js';
import { checkBody, unwrap } from './identities.js';
import { FILE_KEY_BYTES, utf8, wrap } from './recipients.js';
import { forgetSecret, publicKeyFromLine, SSH_ED25519, SSH_RSA, type SshKeyFile, type SshPublicKey, type SshSecret, webCrypto } from './ssh-keys.js';
import { multiplierOf, publicKeyWith } from './x25519.js';
import { joined, zeroize, EMPTY, isZero } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';

export { publicKeyFromLine, SshKeyError } from './ssh-keys.js';
export { readPrivateKeyFile } from './ssh-private-keys.js';
export type { SshKeyFile, SshPublicKey } from './ssh-keys.js';

const ED25519_LABEL = utf8('age-encryption.org/v1/ssh-ed25519');
const RSA_LABEL = new TextEncoder().encode('age-encryption.org/v1/ssh-rsa');
/** The stanza's first argument: base64 of SHA-256(blob)'s first 4 bytes. */
export const fingerprint = (key: SshPublicKey): string => encodeBase64(sha256(key.blob).subarray(0, 4));

// ---------------------------------------------------------------- Ed25519 to X25519

const ED25519_P = 2n ** 255n - 19n;
/** Edwards25519's d = -121665 / 121666 (RFC 8032 §5.1). */
const D = (-121665n * power(121666n, ED25519_P - 2n, ED25519_P)) % ED25519_P;

/** Little-endian, as RFC 8032 and RFC 7748 write field elements. */
const fromLE = (bytes: Uint8Array): bigint => bigOf(bytes.slice().reverse());
const toLE = (value: bigint): Uint8Array => bigBytes(value, 32).reverse();

/**
 * The Montgomery u of an Ed25519 public key, u = (1 + y) / (1 - y) (RFC
 * 7748 §4.1), once the point decodes (RFC 8032 §5.1.3: x² = (y² - 1) /
 * (d y² + 1) has a root); y is read as Go's edwards25519 reads it (the
 * sign bit dropped, any value below 2^255 reduced). Public data only, so
 * BigInt arithmetic serves.
 */
export function montgomeryOf(point: Uint8Array, what: string): Uint8Array {
  const y = fromLE(point) & ((1n << 255n) - 1n);
  const y2 = (y * y) % ED25519_P;
  const ratio = ((y2 - 1n + ED25519_P) * power(D * y2 + 1n, ED25519_P - 2n, ED25519_P)) % ED25519_P;
  // Euler's criterion: ratio is 0 or a square.
  if (ratio !== 0n && power(ratio, (ED25519_P - 1n) / 2n, ED25519_P) !== 1n) throw new RangeError(`${what} is not a valid Ed25519 public key: no point has it`);
  return toLE(((1n + y) * power(1n - y + ED25519_P, ED25519_P - 2n, ED25519_P)) % ED25519_P);
}

// ---------------------------------------------------------------- ssh-ed25519

/** HKDF-SHA-256 with an empty secret, salted with the public key's wire form: the scalar the shared secret is multiplied by, binding it to the SSH key. */
const tweakOf = (key: SshPublicKey): Uint8Array => hkdf(sha256, EMPTY, key.blob, ED25519_LABEL, 32);

/** The wrap key from the plain X25519 shared secret (wiped): X25519(tweak, shared), then HKDF under share || recipient. */
async function ed25519WrapKey(shared: Uint8Array, key: SshPublicKey, share: Uint8Array, recipient: Uint8Array): Promise<Uint8Array> {
  const tweak = tweakOf(key);
  try {
    const tweaked = await (await multiplierOf(tweak))(shared);
    try {
      return hkdf(sha256, tweaked, joined([share, recipient]), ED25519_LABEL, 32);
    } finally {
      zeroize(tweaked);
    }
  } finally {
    zeroize(tweak);
    zeroize(shared);
  }
}

async function ed25519Stanza(key: SshPublicKey & { type: typeof SSH_ED25519 }, fileKey: Uint8Array, what: string): Promise<Stanza> {
  const recipient = montgomeryOf(key.point, what);
  const ephemeral = crypto.getRandomValues(new Uint8Array(32));
  try {
    const multiply = await multiplierOf(ephemeral);
    const share = await publicKeyWith(multiply);
    const shared = await multiply(recipient);
    if (isZero(shared)) throw new RangeError(`${what} is a low-order Ed25519 key: it gives no shared secret`);
    const wrapKey = await ed25519WrapKey(shared, key, share, recipient);
    return { type: SSH_ED25519, args: [fingerprint(key), encodeBase64(share)], body: wrap(wrapKey, fileKey) };
  } finally {
    zeroize(ephemeral);
  }
}

// ---------------------------------------------------------------- ssh-rsa

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const OAEP = { name: 'RSA-OAEP', hash: 'SHA-256' } as const;

async function rsaStanza(key: SshPublicKey & { type: typeof SSH_RSA }, fileKey: Uint8Array): Promise<Stanza> {
  const subtle = webCrypto();
  const jwk: JsonWebKey = { kty: 'RSA', n: base64url(key.n), e: base64url(key.e), alg: 'RSA-OAEP-256', ext: true };
  const publicKey = await subtle.importKey('jwk', jwk, OAEP, false, ['encrypt']);
  const plain = fileKey.slice();
  try {
    const body = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP', label: RSA_LABEL }, publicKey, plain));
    return { type: SSH_RSA, args: [fingerprint(key)], body };
  } finally {
    zeroize(plain);
  }
}

/** The stanza wrapping `fileKey` for an SSH public key line ("ssh-ed25519 AAAA..."); `what` names it in errors. */
export async function sshStanza(line: string, fileKey: Uint8Array, what: string): Promise<Stanza> {
  const key = publicKeyFromLine(line, what);
  return key.type === SSH_ED25519 ? ed25519Stanza(key, fileKey, what) : rsaStanza(key, fileKey);
}

// ---------------------------------------------------------------- identities

/** An SSH private key to decrypt with: its file, read, and the passphrase it takes (asked for only when a stanza is the key's). */
export interface SshIdentity {
  readonly file: SshKeyFile;
  readonly passphrase?: () => Promise<Uint8Array>;
  /** Names it in errors. */
  readonly what: string;
}

/** The file key from an ssh-ed25519 stanza that is this key's. */
async function ed25519Unwrap(s: Stanza, secret: SshSecret & { type: typeof SSH_ED25519 }): Promise<Uint8Array | undefined> {
  if (s.args.length !== 2) throw new AgeFormatError(`an ssh-ed25519 stanza with ${s.args.length + 1} arguments (3 expected)`);
  const share = decodeBase64(s.args[1]!, "an ssh-ed25519 stanza's share");
  if (share.length !== 32) throw new AgeFormatError(`an ssh-ed25519 stanza's share of ${share.length} bytes (32 expected)`);
  checkBody(s);
  const seed = secret.seed.slice();
  const digest = new Uint8Array(
    await webCrypto()
      .digest('SHA-512', seed)
      .finally(() => zeroize(seed)),
  );
  const scalar = digest.slice(0, 32);
  zeroize(digest);
  try {
    const multiply = await multiplierOf(scalar);
    const ours = await publicKeyWith(multiply);
    const shared = await multiply(share);
    if (isZero(shared)) throw new AgeFormatError('an ssh-ed25519 stanza whose share gives an all-zero shared secret (a low-order point)');
    return unwrap(await ed25519WrapKey(shared, secret.public, share, ours), s.body);
  } finally {
    zeroize(scalar);
  }
}

/**
 * The file key from OAEP's message. WebKitGTK's RSA-OAEP returns the
 * message as an integer, its leading zero bytes dropped (one file key in
 * 256 starts with one), so a shorter message is put back to 16 bytes. A
 * stanza made short on purpose gains nothing: the key it opens to must
 * still pass the header's MAC, and its maker knows that key already.
 */
function leftPadded(message: Uint8Array): Uint8Array {
  if (message.length === FILE_KEY_BYTES) return message;
  const fileKey = new Uint8Array(FILE_KEY_BYTES);
  fileKey.set(message, FILE_KEY_BYTES - message.length);
  zeroize(message);
  return fileKey;
}

/** The file key from an ssh-rsa stanza that is this key's. */
async function rsaUnwrap(s: Stanza, secret: SshSecret & { type: typeof SSH_RSA }): Promise<Uint8Array | undefined> {
  if (s.args.length !== 1) throw new AgeFormatError(`an ssh-rsa stanza with ${s.args.length + 1} arguments (2 expected)`);
  const { n, e, d, p, q, dp, dq, qi } = secret.rsa;
  if (s.body.length !== n.length) throw new AgeFormatError(`an ssh-rsa stanza's body of ${s.body.length} bytes (the key's ${n.length} expected)`);
  const subtle = webCrypto();
  const jwk: JsonWebKey = { kty: 'RSA', alg: 'RSA-OAEP-256', ext: false, n: base64url(n), e: base64url(e) };
  Object.assign(jwk, { d: base64url(d), p: base64url(p), q: base64url(q), dp: base64url(dp), dq: base64url(dq), qi: base64url(qi) });
  const privateKey = await subtle.importKey('jwk', jwk, OAEP, false, ['decrypt']);
  try {
    const message = new Uint8Array(await subtle.decrypt({ name: 'RSA-OAEP', label: RSA_LABEL }, privateKey, s.body.slice()));
    return message.length <= FILE_KEY_BYTES ? leftPadded(message) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file key from the first SSH stanza one of `identities` opens, or
 * undefined when none is theirs. A stanza with an identity's fingerprint
 * that does not open is an AuthenticationError, as in age; a
 * passphrase-protected key is opened (its passphrase asked for) only when
 * a stanza has its fingerprint.
 */
export async function sshUnwrap(stanzas: readonly Stanza[], identities: readonly SshIdentity[]): Promise<Uint8Array | undefined> {
  for (const identity of identities) {
    const { file, what } = identity;
    const print = fingerprint(file.public);
    // Its first stanza only: one that does not open is an error (as in age), so a file of many such stanzas costs one RSA or X25519 operation.
    const mine = stanzas.find((s) => s.type === file.public.type && s.args[0] === print);
    if (mine === undefined) continue;
    const passphrase = file.encrypted ? await identity.passphrase?.() : undefined;
    let secret: SshSecret;
    try {
      secret = await file.open(passphrase);
    } finally {
      if (passphrase !== undefined) zeroize(passphrase);
    }
    try {
      const fileKey = secret.type === SSH_ED25519 ? await ed25519Unwrap(mine, secret) : await rsaUnwrap(mine, secret);
      if (fileKey !== undefined) return fileKey;
      throw new AuthenticationError(`an ${file.public.type} stanza is for ${what} (its fingerprint is the key's) but does not decrypt under it`);
    } finally {
      forgetSecret(secret);
    }
  }
  return undefined;
}

/** The public key line ("ssh-ed25519 AAAA...") of a private key file: what age -e -i encrypts to. */
export function publicLine(key: SshPublicKey): string {
  return `${key.type} ${btoa(String.fromCharCode(...key.blob))}`;
}
