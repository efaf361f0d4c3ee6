/**
 * The file key and the header around it: who a file is for (recipients or
 * a passphrase), the stanzas that wrap a new 16-byte file key for them,
 * and the header MAC (C2SP age, "Header MAC"): HMAC-SHA-256 under
 * HKDF-SHA-256(file key, salt = empty, info = "header") over the header up
 * to and including "---". Opening a header finds a stanza that one of the
 * identities (or the passphrase) unwraps, then checks the MAC with the
 * file key it gives.
 */
import { isObjectIdentity, isObjectRecipient, type ObjectIdentity, type ObjectRecipient } from './object-keys.js';
import { AgeFormatError, NoIdentityMatchError } from './errors.js';
import { type Header, headerBytes, headerToMac, MAX_HEADER, MAX_STANZAS, type Stanza } from './header.js';
import { KEY_HYBRID, KEY_SSH, KEY_TAG, KEY_X25519 } from './key-types.js';
import {
  givenIdentityKeys,
  hybridCode,
  type IdentityKey,
  type Key,
  postQuantum,
  recipientKey,
  type SshKey,
  type SshKeyWithPassphrase,
  sshCode,
  tagCode,
} from './keys.js';
import { scryptUnwrap, x25519Unwrap } from './identities.js';
import { FILE_KEY_BYTES, reachableWorkFactor, type Scrypt, scryptStanza, unreachable, x25519Stanza } from './recipients.js';
import { hkdfSha256, hmacSha256, sha256Ready } from './sha256.js';
import { multiplierOf, publicKeyWith } from './x25519.js';
import * as check from '../runtime/assert.js';
import { equalBytes, zeroize, EMPTY } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';
import { randomBytes } from '../runtime/native.js';

// Recipient and identity objects' code (custom-keys.ts), imported the first time a call is given one.
// biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
const objectCode = () => import(('./custom-keys.js'));

/** What wraps a file key for `recipients`, objects: their code is imported when the first file key is wrapped. */
const objectsWrap =
  (recipients: { recipient: ObjectRecipient; name: string }[]) =>
  async (fileKey: Uint8Array): Promise<Stanza[]> =>
    (await objectCode()).wrapForObjects(recipients)(fileKey);

/** What unwraps a file key with `identities`, objects: their code is imported when a header is first opened. */
const objectsUnwrap =
  (identities: { identity: ObjectIdentity; name: string }[]) =>
  async (stanzas: readonly Stanza[]): Promise<Uint8Array | undefined> =>
    (await objectCode()).unwrapWithObjects(identities)(stanzas);

/** A file encrypted to recipients: whoever holds one of their identities decrypts it. */
export interface ToRecipients {
  /**
   * The recipients: age's X25519 ("age1...": identityToRecipient, or
   * age-keygen's "Public key") or post-quantum ("age1pq1..."), or SSH
   * public keys ("ssh-ed25519 AAAA..." or "ssh-rsa AAAA...", a line of
   * ~/.ssh/id_ed25519.pub), or a hardware key's tag recipient
   * ("age1tag1..." or, post-quantum, "age1tagpq1...": encrypt-only), or
   * objects that wrap the file key themselves (typage's Recipient
   * interface: a passkey's webauthn.WebAuthnRecipient). A file to
   * post-quantum recipients has only those.
   */
  readonly recipients: readonly (string | ObjectRecipient)[];
  /** Not with recipients: a file is encrypted to recipients or to a passphrase (age puts a passphrase alone in a file). */
  readonly passphrase?: never;
  /** Goes with a passphrase only. */
  readonly workFactor?: never;
}

/** A file encrypted with a passphrase (scrypt): whoever knows it decrypts it. */
export interface ToPassphrase {
  /** The passphrase: a string (its UTF-8 bytes) or bytes. */
  readonly passphrase: string | Uint8Array;
  /**
   * scrypt's work factor, log2 of N (default 18, age's: 256 MiB and about
   * half a second here); the decrypter must allow it. Above 21 (4 GiB and
   * more, beyond WebAssembly's memory) it runs on node:crypto's scrypt,
   * and where the runtime has none (browsers) it is refused (RangeError).
   */
  readonly workFactor?: number;
  /** Not with a passphrase: a file is encrypted to recipients or to a passphrase (age puts a passphrase alone in a file). */
  readonly recipients?: never;
}

/** Who a file is encrypted to: X25519 recipients, or a passphrase. */
export type AgeTo = ToRecipients | ToPassphrase;

/** Decryption with identities. */
export interface FromIdentities {
  /**
   * The identities, any one of which matches a recipient of the file:
   * age's ("AGE-SECRET-KEY-1...", "AGE-SECRET-KEY-PQ-1...": generateIdentity,
   * or the whole text of an age-keygen key file, read as `age -i` reads it:
   * a key a line, # comments, several keys), or SSH private keys (ssh-ed25519 or
   * ssh-rsa: the text of ~/.ssh/id_ed25519; { sshKey, passphrase } for a
   * passphrase-protected one), or objects that unwrap it themselves
   * (typage's Identity interface: a passkey's webauthn.WebAuthnIdentity),
   * tried after the keys.
   */
  readonly identities: readonly (string | SshKeyWithPassphrase | ObjectIdentity)[];
  /** Not with identities: a file is decrypted with identities or with a passphrase. */
  readonly passphrase?: never;
  /** Goes with a passphrase only. */
  readonly maxWorkFactor?: never;
}

/** Decryption with a passphrase. */
export interface FromPassphrase {
  /** The passphrase: a string (its UTF-8 bytes) or bytes. */
  readonly passphrase: string | Uint8Array;
  /**
   * The largest scrypt work factor a file may ask for (default 20: 1 GiB
   * and a couple of seconds); a file asking for more is refused
   * (AgeFormatError) before any work, so that a file cannot make its
   * reader spend minutes or gigabytes. Above 21 (age allows 22), scrypt
   * runs on node:crypto's; where the runtime has none (browsers), such a
   * file is refused (AgeFormatError), saying why.
   */
  readonly maxWorkFactor?: number;
  /** Not with a passphrase: a file is decrypted with identities or with a passphrase. */
  readonly identities?: never;
}

/** Who decrypts: X25519 identities, or a passphrase. */
export type AgeFrom = FromIdentities | FromPassphrase;

/** age's default scrypt work factor for encryption: N = 2^18, 256 MiB. */
export const DEFAULT_WORK_FACTOR = 18;
/**
 * The largest work factor a file may ask of a decrypter by default: N =
 * 2^20, 1 GiB. age's own bound is 22 (4 GiB), which fourfold computes
 * where node:crypto's scrypt is (recipients.ts), and a browser cannot.
 */
export const DEFAULT_MAX_WORK_FACTOR = 20;

const HEADER_INFO = new TextEncoder().encode('header');

/** `to` checked and copied: public keys, or the passphrase's bytes. */
export interface Sender {
  readonly recipients?: Key[];
  /** The stanzas other programs (the command's age plugins) wrap the file key in, after `recipients`'s: they check that the kinds agree. */
  readonly others?: (fileKey: Uint8Array, recipients: readonly Key[]) => Promise<Stanza[]>;
  readonly passphrase?: Uint8Array;
  readonly workFactor: number;
}

/** `from` checked and copied: identities' secret keys, or the passphrase's bytes. */
export interface Receiver {
  readonly identities?: IdentityKey[];
  /** The file key other programs (the command's age plugins) unwrap, tried after `identities`. */
  readonly others?: (stanzas: readonly Stanza[]) => Promise<Uint8Array | undefined>;
  /** An API's own list of identities and passphrases, tried in its order (the typage API's Decrypter), in place of `identities` or `passphrase`. */
  readonly unwrap?: (stanzas: readonly Stanza[], kdf: Scrypt) => Promise<Uint8Array>;
  /** Whether `unwrap` runs no scrypt and none of a caller's code (keys alone): a whole file is then read in place, as for `identities`. */
  readonly quickUnwrap?: boolean;
  readonly passphrase?: Uint8Array;
  readonly maxWorkFactor: number;
}

function passphraseOf(value: unknown, name: string): Uint8Array {
  // An array may be passphrases (typage's Decrypter takes several) or bytes: told by its kind alone, no element read.
  if (check.describe(value) === 'Array') {
    throw new TypeError(
      `${name} must be a string or a Uint8Array, got Array: one passphrase (try several in turn); for bytes in an array, Uint8Array.from(array)`,
    );
  }
  if (typeof value !== 'string' && check.describe(value) !== 'Uint8Array')
    throw new TypeError(`${name} must be a string or a Uint8Array, got ${check.describe(value)}`);
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : check.bytes(value, name).slice();
  if (bytes.length === 0) throw new RangeError(`${name} must not be empty`);
  return bytes;
}

function workFactorOf(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = check.count(value, name);
  if (n < 1 || n > 30) throw new RangeError(`${name} must be an integer from 1 to 30 (scrypt's N = 2^${name}), got ${n}`);
  return n;
}

/** A list of strings, read once into an array of ours. */
function stringList(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) throw new TypeError(`${name} must be an array of strings, got ${check.describe(value)}`);
  const list = [...(value as unknown[])];
  if (list.length === 0) throw new RangeError(`${name} must not be empty`);
  return list;
}

/** `to` as the header needs it; a TypeError or RangeError naming what is wrong. */
export function senderOf(to: unknown): Sender {
  if (typeof to === 'string')
    throw new TypeError(
      `to must be { recipients } or { passphrase }, got a string: ${to.startsWith('age1') ? '{ recipients: [recipient] }' : '{ passphrase }'}`,
    );
  const o = check.options(to, 'to', ['recipients', 'passphrase', 'workFactor']) as Record<string, unknown> | undefined;
  if (o === undefined) throw new TypeError('to must be { recipients } or { passphrase }, got undefined');
  const { recipients, passphrase, workFactor } = o;
  if ((recipients === undefined) === (passphrase === undefined)) throw new TypeError('to takes recipients or a passphrase, one of them');
  if (passphrase !== undefined) {
    const factor = workFactorOf(workFactor, 'workFactor', DEFAULT_WORK_FACTOR);
    if (factor > reachableWorkFactor()) throw new RangeError(`workFactor ${factor} ${unreachable(factor)}`);
    return { passphrase: passphraseOf(passphrase, 'passphrase'), workFactor: factor };
  }
  if (workFactor !== undefined) throw new TypeError('workFactor goes with a passphrase, not recipients');
  const given = stringList(recipients, 'recipients').map((r, i) => ({ r, name: `recipients[${i}]` }));
  const objects = given.flatMap(({ r, name }) => (isObjectRecipient(r) ? [{ recipient: r, name }] : []));
  const keys = given.flatMap(({ r, name }) => (isObjectRecipient(r) ? [] : [recipientKey(r, name)]));
  const pq = keys.filter(postQuantum).length;
  // C2SP age: a file to a post-quantum recipient carries no other kind, or a quantum computer reads it through that one.
  if (pq > 0 && pq < keys.length)
    throw new RangeError(
      'recipients mixes post-quantum (age1pq1..., age1tagpq1...) and classic (age1..., age1tag1..., ssh-...) keys: a file to post-quantum ones must have only those, as age has it',
    );
  return { recipients: keys, workFactor: DEFAULT_WORK_FACTOR, ...(objects.length > 0 ? { others: objectsWrap(objects) } : {}) };
}

/** What a string given as `from` was likely meant to be: an identity, typage's output format, or a passphrase. */
function fromString(from: string): string {
  if (/^AGE-/i.test(from)) return '{ identities: [identity] }';
  if (from === 'text' || from === 'uint8array') return 'decrypt takes (file, from) and gives bytes; for text, new TextDecoder().decode(plaintext)';
  return '{ passphrase }';
}

/** `from` as opening a header needs it; a TypeError or RangeError naming what is wrong. */
export function receiverOf(from: unknown): Receiver {
  if (typeof from === 'string') throw new TypeError(`from must be { identities } or { passphrase }, got a string: ${fromString(from)}`);
  const o = check.options(from, 'from', ['identities', 'passphrase', 'maxWorkFactor']) as Record<string, unknown> | undefined;
  if (o === undefined) throw new TypeError('from must be { identities } or { passphrase }, got undefined');
  const { identities, passphrase, maxWorkFactor } = o;
  if ((identities === undefined) === (passphrase === undefined)) throw new TypeError('from takes identities or a passphrase, one of them');
  if (passphrase !== undefined) {
    return { passphrase: passphraseOf(passphrase, 'passphrase'), maxWorkFactor: workFactorOf(maxWorkFactor, 'maxWorkFactor', DEFAULT_MAX_WORK_FACTOR) };
  }
  if (maxWorkFactor !== undefined) throw new TypeError('maxWorkFactor goes with a passphrase, not identities');
  const keys: IdentityKey[] = [];
  const objects: { identity: ObjectIdentity; name: string }[] = [];
  const receiver = { identities: keys, maxWorkFactor: DEFAULT_MAX_WORK_FACTOR };
  try {
    for (const [i, id] of stringList(identities, 'identities').entries()) {
      if (isObjectIdentity(id)) objects.push({ identity: id, name: `identities[${i}]` });
      else keys.push(...givenIdentityKeys(id, `identities[${i}]`));
    }
  } catch (e) {
    forgetKeys(receiver);
    throw e;
  }
  return objects.length > 0 ? { ...receiver, others: objectsUnwrap(objects) } : receiver;
}

/** Wipes what a sender or receiver copied. */
export function forgetKeys(party: Sender | Receiver): void {
  if (party.passphrase !== undefined) zeroize(party.passphrase);
  if ('identities' in party) for (const key of party.identities ?? []) zeroize(key.type === KEY_SSH ? (key.passphrase ?? EMPTY) : key.bytes);
}

const macKey = (fileKey: Uint8Array): Uint8Array => hkdfSha256(fileKey, EMPTY, HEADER_INFO, 32);

/** The header MAC of `macked` under `fileKey`. */
function macOf(fileKey: Uint8Array, macked: Uint8Array): Uint8Array {
  const key = macKey(fileKey);
  try {
    return hmacSha256(key, macked);
  } finally {
    zeroize(key);
  }
}

/** A new file key, and the header carrying it: after X25519 for recipients (milliseconds), after scrypt for a passphrase (seconds). */
export async function sealHeader(s: Sender, kdf: Scrypt): Promise<Sealed> {
  await sha256Ready();
  const fileKey = randomBytes(FILE_KEY_BYTES);
  try {
    const stanzas =
      s.passphrase === undefined
        ? [...(await recipientStanzas(s.recipients!, fileKey)), ...((await s.others?.(fileKey, s.recipients!)) ?? [])]
        : [await scryptStanza(s.passphrase, s.workFactor, fileKey, kdf)];
    const macked = headerToMac(stanzas);
    // Only a plugin's stanzas can go past these: a header age would not read is not written.
    if (stanzas.length > MAX_STANZAS || macked.length > MAX_HEADER)
      throw new RangeError(`a header of ${stanzas.length} stanzas and ${macked.length} bytes, more than age reads`);
    return { header: headerBytes(macked, macOf(fileKey, macked)), fileKey };
  } catch (e) {
    zeroize(fileKey);
    throw e;
  }
}

/** A stanza per recipient, in their order; the hybrid, SSH and tag types' code loaded only where such a key is. */
async function recipientStanzas(keys: readonly Key[], fileKey: Uint8Array): Promise<Stanza[]> {
  const hybrid = keys.some((k) => k.type === KEY_HYBRID) ? await hybridCode() : undefined;
  const ssh = keys.some((k) => k.type === KEY_SSH) ? await sshCode() : undefined;
  const tag = keys.some((k) => k.type === KEY_TAG) ? await tagCode() : undefined;
  return Promise.all(
    keys.map((k, i) => {
      if (k.type === KEY_SSH) return ssh!.sshStanza(k.text, fileKey, `recipients[${i}]`);
      if (k.type === KEY_TAG) return tag!.tagStanza(k.text, fileKey, `recipients[${i}]`);
      return k.type === KEY_X25519 ? x25519Stanza(k.bytes, fileKey) : hybrid!.hybridStanza(k.bytes, fileKey, `recipients[${i}]`);
    }),
  );
}

/** A header's bytes and the file key it carries. */
export interface Sealed {
  readonly header: Uint8Array;
  readonly fileKey: Uint8Array;
}

/**
 * The file key some stanza gives `r` (after X25519 for identities, after
 * scrypt for a passphrase), or a NoIdentityMatchError that says why none
 * did.
 */
export async function unwrapFileKey(stanzas: readonly Stanza[], r: Receiver, kdf: Scrypt): Promise<Uint8Array> {
  const scrypts = stanzas.filter((s) => s.type === 'scrypt');
  // A passphrase's file is authenticated by it: an scrypt stanza must be alone.
  if (scrypts.length > 0 && stanzas.length > 1) throw new AgeFormatError('an scrypt stanza must be the only one in the header');
  if (r.passphrase !== undefined) {
    if (scrypts.length === 0) throw new NoIdentityMatchError('the file is not encrypted with a passphrase: decrypt it with its identity');
    const fileKey = await scryptUnwrap(scrypts[0]!, r.passphrase, r.maxWorkFactor, kdf);
    if (fileKey === undefined) throw new NoIdentityMatchError('wrong passphrase: it does not decrypt the file');
    return fileKey;
  }
  if (scrypts.length > 0) throw new NoIdentityMatchError('the file is encrypted with a passphrase: decrypt it with { passphrase }');
  const ssh = await sshIdentities(r.identities!);
  const secrets = r.identities!.flatMap((k) => (k.type === KEY_X25519 ? [k.bytes] : []));
  const x25519 = stanzas.filter((s) => s.type === KEY_X25519);
  if (x25519.length > 0 && secrets.length > 0) {
    // Each identity made ready once for every stanza, with its public key (the wrap key's salt).
    const multipliers = await Promise.all(secrets.map(multiplierOf));
    const publicKeys = await Promise.all(multipliers.map(publicKeyWith));
    for (const s of x25519) {
      for (const [i, multiply] of multipliers.entries()) {
        const fileKey = await x25519Unwrap(s, multiply, publicKeys[i]!);
        if (fileKey !== undefined) return fileKey;
      }
    }
  }
  const seeds = r.identities!.flatMap((k) => (k.type === KEY_HYBRID ? [k.bytes] : []));
  const hybrid = stanzas.filter((s) => s.type === KEY_HYBRID);
  const fileKey = hybrid.length > 0 && seeds.length > 0 ? await (await hybridCode()).hybridUnwrap(hybrid, seeds) : undefined;
  if (fileKey !== undefined) return fileKey;
  const sshFileKey = ssh === undefined ? undefined : await ssh.code.sshUnwrap(stanzas, ssh.identities);
  if (sshFileKey !== undefined) return sshFileKey;
  const otherFileKey = await r.others?.(stanzas);
  if (otherFileKey !== undefined) return otherFileKey;
  throw new NoIdentityMatchError(`no identity matches any of the file's ${stanzas.length} recipient stanza${stanzas.length === 1 ? '' : 's'}`);
}

/**
 * The SSH identities among `keys`, read (each file parsed; its public key
 * known), with their code; undefined where there are none. A
 * passphrase-protected key with no passphrase is refused here, before any
 * stanza is tried.
 */
async function sshIdentities(keys: readonly Key[]) {
  const given = keys.flatMap((k, i) => (k.type === KEY_SSH ? [{ key: k, what: k.name ?? `identities[${i}]` }] : []));
  if (given.length === 0) return undefined;
  const code = await sshCode();
  const identities = await Promise.all(
    given.map(async ({ key, what }) => {
      const file = await code.readPrivateKeyFile(key.text, what);
      if (file.encrypted && key.passphrase === undefined && key.ask === undefined)
        throw new RangeError(`${what} is a passphrase-protected SSH key: give it as { sshKey, passphrase }`);
      return { file, what, passphrase: askFor(key) };
    }),
  );
  return { code, identities };
}

/** How an SSH key's passphrase is had: asked for, or a copy of the one given (the copy is wiped where it is used). */
const askFor = (key: SshKey): (() => Promise<Uint8Array>) | undefined =>
  key.ask ?? (key.passphrase === undefined ? undefined : async () => key.passphrase!.slice());

/** The file key, once the header's MAC verifies under it. */
function macVerified(h: Header, fileKey: Uint8Array): Uint8Array {
  const mac = macOf(fileKey, h.macked);
  if (fileKey.length !== FILE_KEY_BYTES || !equalBytes(mac, 0, h.mac, 0, 32)) {
    zeroize(fileKey);
    throw new AuthenticationError("the header's MAC does not verify: the header was changed");
  }
  return fileKey;
}

/** The file key of a parsed header for `r` (after X25519 for identities, after scrypt for a passphrase), once its MAC verifies. */
export async function openHeader(h: Header, r: Receiver, kdf: Scrypt): Promise<Uint8Array> {
  await sha256Ready();
  return macVerified(h, await (r.unwrap ?? ((stanzas, f) => unwrapFileKey(stanzas, r, f)))(h.stanzas, kdf));
}
