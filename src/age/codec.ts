/**
 * Encrypting and decrypting an age file as its bytes come, whatever
 * carries them (a one-shot call's array, a TransformStream's chunks): the
 * header, the payload nonce and the payload (pipeline.ts), armored or not.
 * Where chunks are sealed and opened and how passphrases are stretched come
 * from outside (AgeRunners): this thread for fourfold/age, the worker pool for
 * fourfold/parallel's age.
 */
import type { ArmorDecoder, ArmorEncoder } from './armor.js';
import { isArmored } from './armor-begin.js';
import { AgeFormatError } from './errors.js';
import { forgetKeys, openHeader, type Receiver, type Sealed, type Sender, sealHeader } from './file-key.js';
import { HeaderReader, type Stanza } from './header.js';
import { NONCE_BYTES, payloadKey } from './payload.js';
import type { Emit } from '../runtime/releasing-stream.js';
import { PayloadOpener, PayloadSealer, type Runner } from './pipeline.js';
import type { Scrypt } from './recipients.js';
import { joined, zeroize } from '../runtime/bytes.js';
import { randomBytes } from '../runtime/native.js';

/** The armor's encoder and decoder (armor.ts), imported the first time a file is armored or armor is asked for (armor-begin.ts). */
// biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
const armorCode = () => import(('./armor.js'));

/** Where a call's heavy work runs: the payload's chunks, and scrypt for passphrases. */
export interface AgeRunners {
  runner(): Runner;
  readonly scrypt: Scrypt;
}

/** Encrypts to a sender: call write() for the plaintext as it comes, then end(). */
export class Encryptor {
  private sealer: PayloadSealer | undefined;
  /** The armor's encoder, once its code is imported (with the header): nothing is emitted before. */
  private armor: ArmorEncoder | undefined;
  /** The header, while it is made (X25519 for recipients, scrypt for a passphrase). */
  private starting: Promise<void> | undefined;
  /** The header and nonce, until they are emitted with the first output. */
  private head: Uint8Array | undefined;

  constructor(
    private readonly sender: Sender,
    armored: boolean,
    private readonly runners: AgeRunners,
    private readonly emit: Emit,
  ) {
    const armor = armored ? armorCode() : undefined;
    this.starting = sealHeader(sender, runners.scrypt).then(async (s) => {
      try {
        if (armor !== undefined) this.armor = new (await armor).ArmorEncoder();
      } catch (e) {
        zeroize(s.fileKey);
        throw e;
      }
      this.start(s);
    });
    // Reported by the first write or end; a stream made and never used must not leave it unhandled.
    this.starting.catch(() => {});
  }

  private out(bytes: Uint8Array): void {
    this.emit(this.armor === undefined ? bytes : this.armor.write(bytes));
  }

  /** The nonce and the payload key, from the sealed header. */
  private start({ header, fileKey }: Sealed): void {
    forgetKeys(this.sender);
    try {
      const nonce = randomBytes(NONCE_BYTES);
      this.sealer = new PayloadSealer(payloadKey(fileKey, nonce), this.runners.runner(), (b) => this.out(b));
      this.head = joined([header, nonce]);
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
    forgetKeys(this.sender);
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
  /** The file's first bytes, until they tell whether it is armored. */
  private start: Uint8Array = new Uint8Array(0);
  private readonly header = new HeaderReader();
  /** The payload's nonce, as its bytes come. */
  private readonly nonce = new Uint8Array(NONCE_BYTES);
  private nonceHeld = 0;
  private fileKey: Uint8Array | undefined;
  private opener: PayloadOpener | undefined;
  /** Where the payload starts in the (de-armored) file, once the header is read: the header's bytes and the nonce's. */
  payloadStart: number | undefined;

  private receiver: Receiver | undefined;

  constructor(
    private readonly from: ReceiverOrAsk,
    private readonly runners: AgeRunners,
    private readonly emit: Emit,
  ) {
    if (typeof from !== 'function') this.receiver = from;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.phase === 'start') {
      // The caller's bytes where they tell at once (a first write of a few bytes or more), else a copy held until they do.
      const start = this.start.length === 0 ? bytes : joined([this.start, bytes]);
      const armored = isArmored(start, false);
      if (armored === undefined) {
        this.start = start === bytes ? bytes.slice() : start;
        return;
      }
      return this.binary(await this.takeStart(start, armored));
    }
    await this.binary(this.armor === undefined ? bytes : this.armor.push(bytes));
  }

  async end(): Promise<void> {
    if (this.phase === 'start') await this.binary(await this.takeStart(this.start, isArmored(this.start, true) === true));
    if (this.armor !== undefined) await this.binary(this.armor.end());
    if (this.phase === 'header') throw this.header.ended();
    if (this.phase === 'nonce') throw new AgeFormatError(`the file ends before its ${NONCE_BYTES}-byte payload nonce`);
    await this.opener!.end();
  }

  /** The file's first bytes, once they tell whether it is armored, as the binary reader takes them (the armor's code imported first). */
  private async takeStart(bytes: Uint8Array, armored: boolean): Promise<Uint8Array> {
    this.start = new Uint8Array(0);
    this.phase = 'header';
    if (!armored) return bytes;
    const armor = new (await armorCode()).ArmorDecoder();
    this.armor = armor;
    return armor.push(bytes);
  }

  /** The file's bytes, de-armored. */
  private async binary(bytes: Uint8Array): Promise<void> {
    if (this.phase === 'payload') return this.opener!.write(bytes);
    if (this.phase === 'header') {
      const read = this.header.push(bytes);
      if (read === undefined) return;
      bytes = bytes.subarray(read.used);
      if (typeof this.from === 'function') {
        // The rest of this write waits for a person (a passphrase): it is read now.
        bytes = bytes.slice();
        this.receiver = await this.from(read.header.stanzas);
      }
      // The header is the reader's own copy: nothing the caller changes meanwhile reaches it.
      this.fileKey = await openHeader(read.header, this.receiver!, this.runners.scrypt);
      forgetKeys(this.receiver!);
      this.payloadStart = read.header.length + NONCE_BYTES;
      this.phase = 'nonce';
    }
    const n = Math.min(NONCE_BYTES - this.nonceHeld, bytes.length);
    this.nonce.set(bytes.subarray(0, n), this.nonceHeld);
    this.nonceHeld += n;
    if (this.nonceHeld < NONCE_BYTES) return;
    const key = payloadKey(this.fileKey!, this.nonce);
    zeroize(this.fileKey!);
    this.opener = new PayloadOpener(key, this.runners.runner(), this.emit);
    this.phase = 'payload';
    await this.opener.write(bytes.subarray(n));
  }

  forget(): void {
    if (this.receiver !== undefined) forgetKeys(this.receiver);
    if (this.fileKey !== undefined) zeroize(this.fileKey);
    this.opener?.forget();
  }
}
