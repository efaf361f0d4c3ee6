/**
 * typage's Encrypter on fourfold's age (src/age): recipients of every
 * type fourfold writes (X25519, post-quantum hybrid, tag, SSH) as
 * strings, a caller's own Recipient objects, or a passphrase; files made
 * whole or streamed, their chunks sealed on the worker pool where it
 * helps (fourfold/parallel's age: on this thread for small inputs and
 * where there are no workers).
 */
import { encryptFor } from '../age/whole.js';
import { DEFAULT_WORK_FACTOR, forgetKeys, type Sender, senderOf } from '../age/file-key.js';
import { recipientKey } from '../age/keys.js';
import { reachableWorkFactor, unreachable } from '../age/recipients.js';
import { streamCode, TYPAGE_RUNNERS } from './runners.js';
import * as check from '../runtime/assert.js';
import { zeroize } from '../runtime/bytes.js';
import { isReadableStream, type ReadableStreamWithSize, type Recipient } from './stanza.js';

/** typage's message when a passphrase and recipients meet (age puts a passphrase alone in a file). */
const BOTH = "can't encrypt to both recipients and passphrases";

/**
 * Encrypts files to a passphrase (setPassphrase) or to recipients
 * (addRecipient), then encrypt() as many times as needed: typage's
 * Encrypter, on fourfold.
 */
export class Encrypter {
  #passphrase: Uint8Array | undefined;
  #workFactor = DEFAULT_WORK_FACTOR;
  readonly #recipients: string[] = [];
  readonly #custom: Recipient[] = [];

  /**
   * Encrypts to a passphrase (scrypt), once and with no recipients. It
   * must resist offline guessing: 4 or 5 random words, or 10 random
   * letters and digits.
   */
  setPassphrase(s: string): void {
    if (this.#passphrase !== undefined) throw new Error('can encrypt to at most one passphrase');
    if (this.#recipients.length + this.#custom.length > 0) throw new Error(BOTH);
    if (typeof s !== 'string') throw new TypeError(`the passphrase must be a string, got ${check.describe(s)}`);
    this.#passphrase = new TextEncoder().encode(s);
  }

  /** scrypt's work factor for a passphrase, log2 of N (default 18, 256 MiB); the decrypter must allow it (20 by default, typage's and fourfold's). */
  setScryptWorkFactor(logN: number): void {
    const n = check.count(logN, 'logN');
    if (n < 1 || n > reachableWorkFactor()) throw new RangeError(`logN ${n} ${n < 1 ? 'must be 1 or more' : unreachable(n)}`);
    this.#workFactor = n;
  }

  /**
   * Encrypts to a recipient as well: a string ("age1...", "age1pq1...",
   * "age1tag1...", "age1tagpq1...", "ssh-ed25519 AAAA...", "ssh-rsa
   * AAAA..."), checked now (RangeError), or an object of your own with
   * wrapFileKey. A file to post-quantum recipients has only those.
   */
  addRecipient(s: string | Recipient): void {
    if (this.#passphrase !== undefined) throw new Error(BOTH);
    if (typeof s === 'string') {
      recipientKey(s, 'recipient');
      this.#recipients.push(s);
    } else if (typeof (s as Recipient | undefined)?.wrapFileKey === 'function') this.#custom.push(s);
    else throw new TypeError(`a recipient must be a string ("age1...") or a Recipient (wrapFileKey), got ${check.describe(s)}`);
  }

  /** The sender of one file: its own copies of the keys, which the call wipes. */
  #sender(): Sender {
    if (this.#passphrase !== undefined) return { passphrase: this.#passphrase.slice(), workFactor: this.#workFactor };
    if (this.#recipients.length + this.#custom.length === 0) throw new Error('no recipients: call addRecipient or setPassphrase first');
    // fourfold/age takes Recipient objects among its recipients (src/age/custom-keys.ts): their stanzas checked and copied, each given a copy of the key.
    return senderOf({ recipients: [...this.#recipients, ...this.#custom] });
  }

  /**
   * An age file (binary; armor.encode armors it) of `file`: bytes, a
   * string (its UTF-8), or a ReadableStream, for which it resolves, once
   * the header is made, to a stream of the file that tells its size.
   */
  async encrypt(file: Uint8Array | string): Promise<Uint8Array>;
  /** A stream of the age file of the plaintext `file` streams, once the header is made; size() gives the file's size from the plaintext's. */
  async encrypt(file: ReadableStream<Uint8Array>): Promise<ReadableStreamWithSize>;
  async encrypt(file: Uint8Array | string | ReadableStream<Uint8Array>): Promise<Uint8Array | ReadableStreamWithSize> {
    if (isReadableStream(file)) return this.#encryptStream(file);
    const text = typeof file === 'string';
    const input = text ? new TextEncoder().encode(file) : check.bytes(file, 'file');
    try {
      return await encryptFor(TYPAGE_RUNNERS, this.#sender(), input, false);
    } finally {
      if (text) zeroize(input);
    }
  }

  async #encryptStream(file: ReadableStream<Uint8Array>): Promise<ReadableStreamWithSize> {
    // The keys are copied now, as for bytes: what the Encrypter is told after the call does not reach this file.
    const sender = this.#sender();
    try {
      return await (await streamCode()).encryptedStream(sender, TYPAGE_RUNNERS, file);
    } finally {
      forgetKeys(sender);
    }
  }
}
