/**
 * age's native keys (C2SP age): an X25519 identity is 32 random bytes,
 * Bech32-encoded with the human-readable part AGE-SECRET-KEY- in upper
 * case, its recipient X25519(identity, basepoint), Bech32 with age in
 * lower case; a post-quantum hybrid identity (ML-KEM-768 + X25519) is a
 * 32-byte seed under AGE-SECRET-KEY-PQ-, its recipient the 1,216-byte
 * encapsulation key made from it under age1pq. Each is read only in the
 * case age writes it, as age's own parsers read them; key-types.ts says
 * what any other string is. Bech32 is BIP 173's without its length limit
 * (text-encodings.ts); an identity's recipient is key-recipients.ts's; the
 * hybrid type's code (hybrid.ts) is imported only when such a key is used.
 */
import { bech32 } from './text-encodings.js';
import { bech32Flaw, KEY_HYBRID, notAnIdentity, notARecipient, reducedKey, KEY_SSH, KEY_TAG, KEY_X25519 } from './key-types.js';
import { multiplierOf, publicKeyWith } from './x25519.js';
import * as check from '../runtime/assert.js';
import { zeroize } from '../runtime/bytes.js';

/** A native key read from its string: its type, and its bytes (a secret, a seed, or a public key). */
export interface NativeKey {
  readonly type: typeof KEY_X25519 | typeof KEY_HYBRID;
  readonly bytes: Uint8Array;
}

/** An SSH key as given: a public key line, or a private key file's text and, where it is protected, its passphrase (a copy, wiped after). */
export interface SshKey {
  readonly type: typeof KEY_SSH;
  readonly text: string;
  readonly passphrase?: Uint8Array;
  /** What its errors call it (identities[2]); by default, its place among a receiver's keys. */
  readonly name?: string;
  /** Asks for the passphrase, where the caller can (the command, at the terminal): only when a stanza is the key's. */
  readonly ask?: () => Promise<Uint8Array>;
}

/** A tag recipient's string ("age1tag1..." or, post-quantum, "age1tagpq1..."). */
export interface TagKey {
  readonly type: typeof KEY_TAG;
  readonly text: string;
}

/** A key that decrypts. */
export type IdentityKey = NativeKey | SshKey;
/** A key that encrypts, or decrypts. */
export type Key = IdentityKey | TagKey;

/** Whether a recipient's key is post-quantum: hybrid (age1pq1...) or a hybrid tag (age1tagpq1...). */
export const postQuantum = (k: Key): boolean => k.type === KEY_HYBRID || (k.type === KEY_TAG && k.text.startsWith('age1tagpq1'));

/** An SSH private key given with its passphrase. */
export interface SshKeyWithPassphrase {
  /** The private key file's text: OpenSSH's format ("-----BEGIN OPENSSH PRIVATE KEY-----"), PKCS#1 or PKCS#8. */
  readonly sshKey: string;
  /** Its passphrase: a string (its UTF-8 bytes) or bytes. */
  readonly passphrase: string | Uint8Array;
}

/** Whether `text` reads as an SSH public key line ("ssh-ed25519 AAAA...", the type ended by a space or a tab, as Go's ssh package reads it), to be parsed in full where it is used. */
const sshLine = (text: string): boolean => /^ssh-(?:ed25519|rsa)[ \t]+[A-Za-z0-9+/]/.test(text);
/** Whether `text` reads as a tag recipient (age1tag1... or age1tagpq1..., lower case): its Bech32 is checked here, its point where it is used. */
const tagLine = (text: string): boolean => /^age1tag(?:pq)?1[^1A-Z]*$/.test(text);
/** Whether `text` reads as a PEM private key, to be parsed in full where it is used. */
const pemKey = (text: string): boolean => /^\s*-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(text);

const IDENTITY_PREFIX = 'age-secret-key-';
const RECIPIENT_PREFIX = 'age';
const HYBRID_IDENTITY_PREFIX = 'age-secret-key-pq-';
const HYBRID_RECIPIENT_PREFIX = 'age1pq';
/** A hybrid recipient: ML-KEM-768's encapsulation key (1,184 bytes) and an X25519 public key. */
const HYBRID_RECIPIENT_BYTES = 1216;

/**
 * The `length` bytes of `text` when it is Bech32 with human-readable part
 * `prefix`, written as age writes it (`prefix1` at its start, in `upper`
 * case or lower), or undefined.
 */
function decodeKey(text: string, prefix: string, upper: boolean, length = 32): Uint8Array | undefined {
  const written = upper ? text.toUpperCase() : text.toLowerCase();
  if (text !== written || !written.startsWith(upper ? `${prefix.toUpperCase()}1` : `${prefix}1`)) return undefined;
  try {
    const { prefix: found, words } = bech32.decode(text as `${string}1${string}`, false);
    const bytes = bech32.fromWords(words);
    return found === prefix && bytes.length === length ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** The key of an identity string (X25519, "AGE-SECRET-KEY-1...", or hybrid, "AGE-SECRET-KEY-PQ-1...", upper case), or a RangeError naming `name` and what the string is instead. */
export function identityKey(identity: unknown, name: string): NativeKey {
  if (typeof identity !== 'string') throw new TypeError(`${name} must be a string ("AGE-SECRET-KEY-1..."), got ${check.describe(identity)}`);
  const x25519Key = decodeKey(identity, IDENTITY_PREFIX, true);
  if (x25519Key !== undefined) return { type: KEY_X25519, bytes: x25519Key };
  const seed = decodeKey(identity, HYBRID_IDENTITY_PREFIX, true);
  if (seed !== undefined) return { type: KEY_HYBRID, bytes: seed };
  throw new RangeError(`${name} is ${notAnIdentity(identity)}`);
}

/**
 * The lines of an identity file's text that hold keys, with their
 * numbers, as age reads such a file (the Go age's ParseIdentities and its
 * command's -i): one key a line, a line's ending "\r" dropped, empty lines
 * and lines starting with "#" (age-keygen's comments) skipped, nothing
 * else trimmed.
 */
function identityFileLines(text: string): { line: string; n: number }[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.endsWith('\r') ? line.slice(0, -1) : line, n: i + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'));
}

/**
 * The keys of an identity string: one identity, or an identity file's
 * text (age-keygen's, comments and all; several keys, X25519 and
 * post-quantum), read as age reads the file (identityFileLines). A
 * TypeError or RangeError names `name`, and the line of a file; the keys
 * read before it are wiped.
 */
export function identityFileKeys(text: unknown, name: string): NativeKey[] {
  if (typeof text !== 'string') throw new TypeError(`${name} must be a string ("AGE-SECRET-KEY-1..."), got ${check.describe(text)}`);
  // As age's -i reads a file that starts so, read whole: a PEM block (not an SSH private key: pemKey) or an age file.
  const start = text.trimStart();
  if (start.startsWith('-----BEGIN') || text.startsWith('age-encryption.org/')) throw new RangeError(`${name} is ${notAnIdentity(start)}`);
  const lines = identityFileLines(text);
  if (lines.length === 0) noIdentityIn(text, name);
  const several = text.includes('\n');
  const keys: NativeKey[] = [];
  try {
    for (const { line, n } of lines) keys.push(identityKey(line, several ? `${name} line ${n}` : name));
  } catch (e) {
    for (const key of keys) zeroize(key.bytes);
    throw e;
  }
  return keys;
}

/** The one key of an identity string, or of an identity file's text that holds one (identityFileKeys); a RangeError for a file of several, their keys wiped. */
export function singleIdentityKey(identity: unknown, name: string): NativeKey {
  const keys = identityFileKeys(identity, name);
  if (keys.length > 1) {
    for (const k of keys) zeroize(k.bytes);
    throw new RangeError(`${name} holds ${keys.length} identities (an identity file's lines): give it one, a line of the file`);
  }
  return keys[0]!;
}

/** Refuses an identity file's text that holds no key: empty, or comments only. */
function noIdentityIn(text: string, name: string): never {
  throw new RangeError(
    `${name} holds no identity (${text.trim() === '' ? 'it is empty' : 'only comments'}): an identity file has a key a line, AGE-SECRET-KEY-1... or AGE-SECRET-KEY-PQ-1..., and # comments`,
  );
}

/**
 * The keys of an identity as a call gives it: an age identity string or
 * an identity file's text (identityFileKeys), an SSH private key's text,
 * or { sshKey, passphrase }; a TypeError or RangeError naming `name` and
 * what is wrong. An SSH key is only recognized here: ssh.ts reads it when
 * the call runs.
 */
export function givenIdentityKeys(identity: unknown, name: string): IdentityKey[] {
  if (typeof identity === 'string' && pemKey(identity)) return [{ type: KEY_SSH, text: identity, name }];
  // A Promise, an Array...: what a string was expected for is said.
  if (typeof identity !== 'object' || check.describe(identity) !== 'object') return identityFileKeys(identity, name);
  const o = check.options(identity, name, ['sshKey', 'passphrase']) as Record<string, unknown>;
  const { sshKey, passphrase } = o;
  if (typeof sshKey !== 'string' || !pemKey(sshKey))
    throw new TypeError(`${name}.sshKey must be an SSH private key's text ("-----BEGIN OPENSSH PRIVATE KEY-----..."), got ${check.describe(sshKey)}`);
  const bytes = typeof passphrase === 'string' ? new TextEncoder().encode(passphrase) : check.bytes(passphrase, `${name}.passphrase`).slice();
  if (bytes.length === 0) throw new RangeError(`${name}.passphrase must not be empty`);
  return [{ type: KEY_SSH, text: sshKey, passphrase: bytes, name }];
}

/** The key of a recipient string (X25519, "age1...", hybrid, "age1pq1...", tag, "age1tag1...", lower case, or SSH, "ssh-ed25519 AAAA..."), or a RangeError naming `name` and what the string is instead. */
export function recipientKey(recipient: unknown, name: string): Key {
  if (typeof recipient !== 'string') throw new TypeError(`${name} must be a string ("age1..."), got ${check.describe(recipient)}`);
  if (sshLine(recipient)) return { type: KEY_SSH, text: recipient };
  if (tagLine(recipient) && bech32Flaw(recipient, recipient.startsWith('age1tagpq1') ? 1249 : 33) === undefined) return { type: KEY_TAG, text: recipient };
  const publicKey = decodeKey(recipient, RECIPIENT_PREFIX, false);
  if (publicKey !== undefined) return { type: KEY_X25519, bytes: publicKey };
  const hybrid = decodeKey(recipient, HYBRID_RECIPIENT_PREFIX, false, HYBRID_RECIPIENT_BYTES);
  if (hybrid !== undefined) {
    if (!reducedKey(hybrid))
      throw new RangeError(
        `${name} is a malformed post-quantum recipient (age1pq1...): its ML-KEM-768 key fails FIPS 203's check (a coefficient of 3329 or more)`,
      );
    return { type: KEY_HYBRID, bytes: hybrid };
  }
  throw new RangeError(`${name} is ${notARecipient(recipient)}`);
}

/** An X25519 public key as its recipient string, "age1...". */
export const encodeRecipient = (publicKey: Uint8Array): string => bech32.encode(RECIPIENT_PREFIX, bech32.toWords(publicKey), false);

/** An X25519 identity string as age writes it (generateIdentity, age-keygen): identityToRecipient gives its recipient at once. */
export type X25519Identity = `AGE-SECRET-KEY-1${string}`;
/** A post-quantum hybrid identity string as age writes it (generateHybridIdentity, age-keygen -pq): identityToRecipient gives a Promise of its recipient. */
export type HybridIdentity = `AGE-SECRET-KEY-PQ-1${string}`;

/** 32 bytes from the platform's CSPRNG (crypto.getRandomValues), encoded under `prefix` in upper case. */
function newIdentity(prefix: string): string {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  try {
    return bech32.encode(prefix, bech32.toWords(secret), false).toUpperCase();
  } finally {
    zeroize(secret);
  }
}

/**
 * A new X25519 identity, "AGE-SECRET-KEY-1...", from the platform's
 * CSPRNG (crypto.getRandomValues), as age-keygen makes them.
 *
 * @example
 * ```ts
 * import { generateIdentity, identityToRecipient } from 'fourfold/age';
 * const identity = generateIdentity(); // keep it secret: it decrypts
 * const recipient = identityToRecipient(identity); // "age1...": give it to whoever encrypts to you
 * ```
 */
export const generateIdentity = (): X25519Identity => newIdentity(IDENTITY_PREFIX) as X25519Identity;

/**
 * A new post-quantum hybrid identity (ML-KEM-768 + X25519),
 * "AGE-SECRET-KEY-PQ-1...", as `age-keygen -pq` makes them: a 32-byte
 * seed from the platform's CSPRNG. Its recipient ("age1pq1...", about
 * 1,960 characters) is `await identityToRecipient(identity)`. A file
 * encrypted to hybrid recipients stays safe against a future quantum
 * computer; age refuses to mix them with X25519 recipients in one file.
 *
 * @example
 * ```ts
 * import { generateHybridIdentity, identityToRecipient } from 'fourfold/age';
 * const identity = generateHybridIdentity();
 * const recipient = await identityToRecipient(identity); // "age1pq1..."
 * ```
 */
export const generateHybridIdentity = (): HybridIdentity => newIdentity(HYBRID_IDENTITY_PREFIX) as HybridIdentity;

/*
 * Each key type's code is imported the first time such a key is used.
 * The specifiers are in parentheses on purpose: bundlers still see a
 * literal and emit the chunk, but Vite wraps only a bare string's
 * import() in its preload helper, about 600 bytes gzip in every page that
 * uses fourfold/age, X25519 alone included. Without it, the chunk a type's
 * code shares with another (hpke.ts, bigint.ts) is fetched after that code
 * rather than beside it, once.
 */
/** The hybrid type's code (hybrid.ts). */
// biome-ignore format: the parentheses keep Vite's preload helper out (above)
export const hybridCode = () => import(('./hybrid.js'));
/** The SSH types' code (ssh.ts). */
// biome-ignore format: the parentheses keep Vite's preload helper out (above)
export const sshCode = () => import(('./ssh.js'));
/** The tag types' code (tag.ts). */
// biome-ignore format: the parentheses keep Vite's preload helper out (above)
export const tagCode = () => import(('./tag.js'));

/** The hybrid recipient ("age1pq1...") of a seed (wiped after). */
export async function hybridRecipientOf(seed: Uint8Array): Promise<string> {
  try {
    return (await hybridCode()).hybridRecipient(seed);
  } finally {
    zeroize(seed);
  }
}

/**
 * The recipient of a native identity's key (its bytes wiped after): an
 * X25519 one's from the platform's X25519 (x25519.ts: WebCrypto, or
 * @noble/curves where it has none), a hybrid one's from its type's code.
 * key-recipients.ts's identityToRecipient gives the same, X25519's at once.
 */
export async function recipientOfKey(key: NativeKey): Promise<string> {
  if (key.type === KEY_HYBRID) return hybridRecipientOf(key.bytes);
  try {
    return encodeRecipient(await publicKeyWith(await multiplierOf(key.bytes)));
  } finally {
    zeroize(key.bytes);
  }
}
