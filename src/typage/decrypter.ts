/**
 * typage's Decrypter on fourfold's age (src/age): identities of every
 * type fourfold reads (X25519 and post-quantum strings, age-keygen
 * files, SSH private keys), private X25519 CryptoKeys, a caller's own
 * Identity objects and passphrases, tried in the order they were added
 * until one unwraps the file key; then the header's MAC, then each chunk,
 * verified before its plaintext is released. Chunks open on the worker
 * pool where it helps (fourfold/parallel's age).
 */
import { decryptFor } from '../age/whole.js';
import { AgeFormatError, NoIdentityMatchError } from '../age/errors.js';
import { DEFAULT_MAX_WORK_FACTOR, forgetKeys, openHeader, type Receiver, unwrapFileKey } from '../age/file-key.js';
import { parseHeader, type Stanza as AgeStanza } from '../age/header.js';
import { x25519Unwrap } from '../age/identities.js';
import { engineReady } from '../age/pipeline.js';
import { KEY_SSH } from '../age/key-types.js';
import { givenIdentityKeys, type IdentityKey, type SshKeyWithPassphrase } from '../age/keys.js';
import type { Scrypt } from '../age/recipients.js';
import { type Multiplier, publicKeyWith } from '../age/x25519.js';
import { streamCode, TYPAGE_RUNNERS } from './runners.js';
import * as check from '../runtime/assert.js';
import { zeroize } from '../runtime/bytes.js';
import { cryptoKeyMultiplier, isCryptoKey } from './crypto-key.js';
import { type Identity, isReadableStream, type ReadableStreamWithSize } from './stanza.js';

/** What a Decrypter tries, in the order it was given. */
type Entry = { readonly keys: IdentityKey[] } | { readonly passphrase: Uint8Array } | { readonly multiply: Multiplier } | { readonly identity: Identity };

/** A receiver of fourfold's for one key or passphrase, on copies (the call wipes them). */
function receiverOf(entry: { keys: IdentityKey[] } | { passphrase: Uint8Array }): Receiver {
  if ('passphrase' in entry) return { passphrase: entry.passphrase.slice(), maxWorkFactor: DEFAULT_MAX_WORK_FACTOR };
  const copies = entry.keys.map((k) => (k.type === KEY_SSH ? { ...k, passphrase: k.passphrase?.slice() } : { ...k, bytes: k.bytes.slice() }));
  return { identities: copies, maxWorkFactor: DEFAULT_MAX_WORK_FACTOR };
}

/** Identity objects' code (age/custom-keys.ts), imported the first time a file is tried with one. */
// biome-ignore format: the parentheses keep Vite's preload helper out (age/keys.ts)
const objectCode = () => import(('../age/custom-keys.js'));

/** The file key one entry unwraps from `stanzas`, or undefined when none is its. */
async function unwrapEntry(entry: Entry, stanzas: readonly AgeStanza[], kdf: Scrypt): Promise<Uint8Array | undefined> {
  if ('identity' in entry) return (await objectCode()).unwrapWithObjects([{ identity: entry.identity, name: 'identity' }])(stanzas);
  if ('multiply' in entry) {
    const x25519 = stanzas.filter((s) => s.type === 'X25519');
    const publicKey = x25519.length === 0 ? undefined : await publicKeyWith(entry.multiply);
    for (const s of x25519) {
      const fileKey = await x25519Unwrap(s, entry.multiply, publicKey!);
      if (fileKey !== undefined) return fileKey;
    }
    return undefined;
  }
  const receiver = receiverOf(entry);
  try {
    return await unwrapFileKey(stanzas, receiver, kdf);
  } catch (e) {
    if (e instanceof NoIdentityMatchError) return undefined;
    throw e;
  } finally {
    forgetKeys(receiver);
  }
}

/**
 * Decrypts files with passphrases (addPassphrase) and identities
 * (addIdentity), as many and as often as needed: typage's Decrypter, on
 * fourfold.
 */
export class Decrypter {
  readonly #entries: Entry[] = [];

  /** A passphrase to try on a passphrase-encrypted file (a file asking for an scrypt work factor above 20 is refused). */
  addPassphrase(s: string): void {
    if (typeof s !== 'string') throw new TypeError(`the passphrase must be a string, got ${check.describe(s)}`);
    this.#entries.push({ passphrase: new TextEncoder().encode(s) });
  }

  /**
   * An identity to try: a string ("AGE-SECRET-KEY-1...",
   * "AGE-SECRET-KEY-PQ-1...", an age-keygen file's text, an SSH private
   * key's text), checked now (RangeError); { sshKey, passphrase } for a
   * protected SSH key; a private X25519 CryptoKey with the deriveBits
   * usage; or an object of your own with unwrapFileKey.
   */
  addIdentity(s: string | CryptoKey | Identity | SshKeyWithPassphrase): void {
    if (isCryptoKey(s)) this.#entries.push({ multiply: cryptoKeyMultiplier(s) });
    else if (typeof (s as Identity | undefined)?.unwrapFileKey === 'function') this.#entries.push({ identity: s as Identity });
    else this.#entries.push({ keys: givenIdentityKeys(s, 'identity') });
  }

  /** The receiver of one file: the entries, in their order; typage's message when none matches. */
  #receiver(): Receiver {
    const entries = [...this.#entries];
    const unwrap = async (stanzas: readonly AgeStanza[], kdf: Scrypt): Promise<Uint8Array> => {
      // A passphrase's file is authenticated by it alone (C2SP age, "The scrypt recipient type"), whichever entry would read it.
      if (stanzas.length > 1 && stanzas.some((s) => s.type === 'scrypt')) throw new AgeFormatError('an scrypt stanza must be the only one in the header');
      for (const entry of entries) {
        const fileKey = await unwrapEntry(entry, stanzas, kdf);
        if (fileKey !== undefined) return fileKey;
      }
      throw new NoIdentityMatchError("no identity matched any of the file's recipients");
    };
    // Keys and CryptoKeys alone unwrap as fourfold/age's identities do: its whole file is not copied first (a third of a 64 MiB decrypt).
    const quickUnwrap = entries.every((entry) => 'keys' in entry || 'multiply' in entry);
    return { unwrap, quickUnwrap, maxWorkFactor: DEFAULT_MAX_WORK_FACTOR };
  }

  /**
   * The plaintext of an age file: bytes, or with "text" its UTF-8 as a
   * string; for a ReadableStream, once the header is opened, a stream of
   * the plaintext that tells its size, each chunk released after it
   * verified. Armored files are read as they are. Rejects with
   * NoIdentityMatchError when nothing opens the file, AgeFormatError for
   * a malformed one, AuthenticationError for a changed one.
   */
  async decrypt(file: Uint8Array, outputFormat?: 'uint8array'): Promise<Uint8Array>;
  /** The plaintext of an age file as a string, its UTF-8 decoded (the bytes wiped after). */
  async decrypt(file: Uint8Array, outputFormat: 'text'): Promise<string>;
  /** A stream of the plaintext of the age file `file` streams, once its header is opened: each chunk released after it verified; size() gives the plaintext's size from the file's. */
  async decrypt(file: ReadableStream<Uint8Array>): Promise<ReadableStreamWithSize>;
  async decrypt(file: Uint8Array | ReadableStream<Uint8Array>, outputFormat?: 'text' | 'uint8array'): Promise<string | Uint8Array | ReadableStreamWithSize> {
    if (isReadableStream(file)) return this.#decryptStream(file);
    if (outputFormat !== undefined && outputFormat !== 'text' && outputFormat !== 'uint8array')
      throw new TypeError(`outputFormat must be "text" or "uint8array", got ${check.describe(outputFormat)}`);
    const plaintext = await decryptFor(TYPAGE_RUNNERS, check.bytes(file, 'file'), this.#receiver());
    if (outputFormat !== 'text') return plaintext;
    try {
      return new TextDecoder().decode(plaintext);
    } finally {
      zeroize(plaintext);
    }
  }

  async #decryptStream(file: ReadableStream<Uint8Array>): Promise<ReadableStreamWithSize> {
    // The entries as they are now: what the Decrypter is told after the call does not reach this file.
    const receiver = this.#receiver();
    return (await streamCode()).decryptedStream(receiver, TYPAGE_RUNNERS, file);
  }

  /**
   * The file key of a header (the file's start, through its MAC line;
   * what follows is ignored), once its MAC verifies: for code that
   * decrypts the payload elsewhere. Keep it to that file alone.
   */
  async decryptHeader(header: Uint8Array): Promise<Uint8Array> {
    const parsed = parseHeader(check.bytes(header, 'header'));
    await engineReady();
    if (parsed === undefined) throw new AgeFormatError('the header ends before its MAC line');
    return openHeader(parsed, this.#receiver(), TYPAGE_RUNNERS.scrypt);
  }
}
