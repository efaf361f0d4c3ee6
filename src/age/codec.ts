/**
 * Encrypting and decrypting an age file as its bytes come, whatever
 * carries them (a one-shot call's array, a TransformStream's chunks): the
 * header, the payload nonce and the payload (pipeline.ts), armored or not.
 * Where chunks are sealed and opened and how passphrases are stretched come
 * from outside (Tools): this thread for fourfold/age, the worker pool for
 * fourfold/parallel's age.
 */
import { ArmorDecoder, ArmorEncoder, isArmored } from './armor.js';
import { AgeFormatError } from './errors.js';
import { forget, openHeader, type Receiver, type Sealed, type Sender, sealHeader } from './file-key.js';
import { parseHeader, type Stanza } from './header.js';
import { NONCE_BYTES, payloadKey } from './payload.js';
import { PayloadOpener, PayloadSealer, type Runner } from './pipeline.js';
import type { Scrypt } from './recipients.js';
import { zeroize } from '../runtime/bytes.js';

/** Where a call's heavy work runs: the payload's chunks, and scrypt for passphrases. */
export interface Tools {
  runner(): Runner;
  readonly scrypt: Scrypt;
}

/** Hands bytes on (to a stream's reader, or a one-shot call's parts). */
export type Emit = (bytes: Uint8Array) => void;

/** A header longer than this is refused: age's headers are a few hundred bytes a recipient. */
const MAX_HEADER = 1 << 20;

/** a then b, in a new array of ours (what is held across writes must not be the caller's). */
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Encrypts to a sender: call write() for the plaintext as it comes, then end(). */
export class Encryptor {
  private sealer: PayloadSealer | undefined;
  private readonly armor: ArmorEncoder | undefined;
  /** The header, while it is made (X25519 for recipients, scrypt for a passphrase). */
  private starting: Promise<void> | undefined;
  /** The header and nonce, until they are emitted with the first output. */
  private head: Uint8Array | undefined;

  constructor(
    private readonly sender: Sender,
    armored: boolean,
    private readonly tools: Tools,
    private readonly emit: Emit,
  ) {
    this.armor = armored ? new ArmorEncoder() : undefined;
    this.starting = sealHeader(sender, tools.scrypt).then((s) => this.start(s));
    // Reported by the first write or end; a stream made and never used must not leave it unhandled.
    this.starting.catch(() => {});
  }

  private out(bytes: Uint8Array): void {
    this.emit(this.armor === undefined ? bytes : this.armor.write(bytes));
  }

  /** The nonce and the payload key, from the sealed header. */
  private start({ header, fileKey }: Sealed): void {
    forget(this.sender);
    try {
      const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
      this.sealer = new PayloadSealer(payloadKey(fileKey, nonce), this.tools.runner(), (b) => this.out(b));
      this.head = concat(header, nonce);
    } finally {
      zeroize(fileKey);
    }
    this.starting = undefined;
  }

  /** The sealer, once the header is made, the header emitted before anything else. */
  private sealerNow(): PayloadSealer {
    if (this.head !== undefined) {
      const head = this.head;
      this.head = undefined;
      this.out(head);
    }
    return this.sealer!;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.starting !== undefined) {
      // The caller's bytes are read now: a copy waits for the header.
      const copy = bytes.slice();
      await this.starting;
      await this.sealerNow().write(copy);
      return zeroize(copy);
    }
    await this.sealerNow().write(bytes);
  }

  async end(): Promise<void> {
    if (this.starting !== undefined) await this.starting;
    await this.sealerNow().end();
    if (this.armor !== undefined) this.emit(this.armor.end());
  }

  /** Wipes what it holds, however the encryption ended. */
  forget(): void {
    forget(this.sender);
    this.sealer?.forget();
  }
}

/**
 * Who decrypts, or how to find out once the header is known (a command
 * asks for a passphrase only when the file has an scrypt stanza).
 */
export type ReceiverOrAsk = Receiver | ((stanzas: readonly Stanza[]) => Promise<Receiver>);

/** Decrypts for a receiver: write() the file's bytes as they come (armored or not), then end(). */
export class Decryptor {
  private phase: 'start' | 'header' | 'nonce' | 'payload' = 'start';
  private armor: ArmorDecoder | undefined;
  /** Bytes not used yet: the start (to tell armor), the header, the nonce. */
  private held: Uint8Array = new Uint8Array(0);
  private opener: PayloadOpener | undefined;

  private receiver: Receiver | undefined;

  constructor(
    private readonly from: ReceiverOrAsk,
    private readonly tools: Tools,
    private readonly emit: Emit,
  ) {
    if (typeof from !== 'function') this.receiver = from;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.phase === 'start') {
      this.held = concat(this.held, bytes);
      const armored = isArmored(this.held, false);
      if (armored === undefined) return;
      bytes = this.held;
      this.held = new Uint8Array(0);
      this.phase = 'header';
      if (armored) this.armor = new ArmorDecoder();
    }
    await this.binary(this.armor === undefined ? bytes : this.armor.push(bytes));
  }

  async end(): Promise<void> {
    if (this.phase === 'start') {
      const armored = isArmored(this.held, true);
      const bytes = this.held;
      this.held = new Uint8Array(0);
      this.phase = 'header';
      if (armored) this.armor = new ArmorDecoder();
      await this.binary(this.armor === undefined ? bytes : this.armor.push(bytes));
    }
    if (this.armor !== undefined) await this.binary(this.armor.end());
    if (this.phase === 'header') {
      if (this.held.length === 0) throw new AgeFormatError('not an age file: the file is empty');
      // What the header has so far may already break a rule: that is the better error.
      parseHeader(this.held);
      throw new AgeFormatError('the file ends inside its header');
    }
    if (this.phase === 'nonce') throw new AgeFormatError(`the file ends before its ${NONCE_BYTES}-byte payload nonce`);
    await this.opener!.end();
  }

  /** The file's bytes, de-armored. */
  private async binary(bytes: Uint8Array): Promise<void> {
    if (this.phase === 'payload') return this.opener!.write(bytes);
    this.held = concat(this.held, bytes);
    if (this.phase === 'header') {
      const header = parseHeader(this.held);
      if (header === undefined) {
        if (this.held.length > MAX_HEADER) throw new AgeFormatError(`a header of more than ${MAX_HEADER} bytes: not an age file`);
        return;
      }
      if (typeof this.from === 'function') {
        this.held = this.held.slice();
        this.receiver = await this.from(header.stanzas);
      }
      // held is ours (concat): nothing the caller changes meanwhile reaches it.
      const fileKey = await openHeader(header, this.receiver!, this.tools.scrypt);
      forget(this.receiver!);
      this.held = this.held.subarray(header.length);
      this.phase = 'nonce';
      this.fileKey = fileKey;
    }
    if (this.held.length < NONCE_BYTES) return;
    const key = payloadKey(this.fileKey!, this.held.subarray(0, NONCE_BYTES));
    zeroize(this.fileKey!);
    this.opener = new PayloadOpener(key, this.tools.runner(), this.emit);
    this.phase = 'payload';
    const rest = this.held.subarray(NONCE_BYTES);
    this.held = new Uint8Array(0);
    await this.opener.write(rest);
  }

  private fileKey: Uint8Array | undefined;

  forget(): void {
    if (this.receiver !== undefined) forget(this.receiver);
    if (this.fileKey !== undefined) zeroize(this.fileKey);
    this.opener?.forget();
  }
}
