/**
 * secretstream's messages (crypto_secretstream_xchacha20poly1305_push and
 * _pull): the sending and receiving states, each message authenticated
 * and tagged, in an order that cannot be changed without detection.
 */
import type { Pulled } from './engine.js';
import { ABYTES, HEADER_BYTES, KEY_BYTES, randomHeader, StreamState } from './state.js';
import { engine } from './tiers.js';
import * as check from '../runtime/assert.js';
import { type Bytes, EMPTY } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';

/** The longest message push takes, about 256 GiB: libsodium's limit (a message's ChaCha20 blocks are 2 .. 2^32 - 1). */
export const MESSAGE_BYTES_MAX = 64 * (2 ** 32 - 2);
const aadOf = (aad: unknown): Uint8Array => (aad === undefined ? EMPTY : check.bytes(aad, 'aad'));

function tagOf(tag: unknown): number {
  if (typeof tag !== 'number') throw new TypeError(`tag must be a number (one of the TAG_* constants), got ${check.describe(tag)}`);
  if (!Number.isInteger(tag) || tag < 0 || tag > 255) {
    throw new RangeError(`tag must be one of the TAG_* constants (a byte), got ${tag}`);
  }
  return tag;
}

/** The sending side of a stream (initPush): send `header` first, then each push's output, in order. */
export interface SecretstreamPush {
  /** 24 random bytes the receiver needs first: the stream's nonce, not secret. Store or send it with the messages. */
  readonly header: Bytes;
  /**
   * Encrypts one message with a tag (default TAG_MESSAGE; TAG_FINAL for
   * the last) and optional associated data (authenticated, not encrypted),
   * returning `message.length + ABYTES` bytes in a new array.
   */
  push(message: Uint8Array, tag?: number, aad?: Uint8Array): Bytes;
  /** Changes the key now; the receiver must call its rekey() at the same point. */
  rekey(): void;
  /** Wipes the state; the object is unusable afterwards. */
  destroy(): void;
}

/** The receiving side of a stream (initPull): pull each pushed message, in order. */
export interface SecretstreamPull {
  /**
   * Verifies and decrypts the next message: its plaintext and tag. Throws
   * AuthenticationError if it was modified, reordered, dropped or pushed
   * under another key or aad; the state is then unusable (start again
   * with initPull).
   */
  pull(ciphertext: Uint8Array, aad?: Uint8Array): Pulled;
  /** Changes the key now, at the point where the sender called its rekey(). */
  rekey(): void;
  /** Wipes the state; the object is unusable afterwards. */
  destroy(): void;
}

/** What each method checks first: the state was not destroyed or poisoned by a failed pull. */
abstract class Stream {
  /** (state.ts stateOf reads it for the tests.) */
  protected state: StreamState | undefined;

  constructor(key: unknown, header: Uint8Array) {
    const k = check.bytes(key, 'key', KEY_BYTES);
    this.state = new StreamState(engine().chacha, k, header);
  }

  protected live(): StreamState {
    if (this.state === undefined) throw new Error('secretstream: this state was destroyed or failed authentication; start a new stream');
    return this.state;
  }

  rekey(): void {
    this.live().rekey(engine().chacha);
  }

  destroy(): void {
    this.state?.wipe();
    this.state = undefined;
  }
}

class Push extends Stream implements SecretstreamPush {
  constructor(
    key: unknown,
    readonly header: Bytes,
  ) {
    super(key, header);
  }

  push(message: Uint8Array, tag: number = 0, aad?: Uint8Array): Bytes {
    const state = this.live();
    const m = check.bytes(message, 'message');
    if (m.length > MESSAGE_BYTES_MAX) throw new RangeError(`message is longer than secretstream allows (${MESSAGE_BYTES_MAX} bytes)`);
    const t = tagOf(tag);
    const e = engine();
    const sealed = e.push(state.key, state.nonce, t, aadOf(aad), m);
    state.advance(e.chacha, sealed.subarray(m.length + 1), t);
    return sealed;
  }
}

class Pull extends Stream implements SecretstreamPull {
  pull(ciphertext: Uint8Array, aad?: Uint8Array): Pulled {
    const state = this.live();
    const c = check.bytes(ciphertext, 'ciphertext');
    if (c.length < ABYTES) {
      // Too short to be a message: a forgery or a cut stream, failing as any message that does not verify.
      this.destroy();
      throw new AuthenticationError(
        `secretstream: a message of ${c.length} bytes is shorter than its tag byte and MAC (${ABYTES} bytes): it cannot be authentic`,
      );
    }
    if (c.length - ABYTES > MESSAGE_BYTES_MAX) throw new RangeError('ciphertext is longer than secretstream allows');
    const a = aadOf(aad);
    const e = engine();
    const pulled = e.pull(state.key, state.nonce, a, c);
    if (pulled === undefined) {
      this.destroy();
      throw new AuthenticationError('secretstream: the message was modified, reordered, dropped, or pushed under another key or aad');
    }
    state.advance(e.chacha, pulled.mac, pulled.tag);
    return { message: pulled.message, tag: pulled.tag };
  }
}

/**
 * Starts a stream of messages under a 32-byte key, with a fresh random
 * header (libsodium's crypto_secretstream_xchacha20poly1305_init_push).
 * Send or store the header first, then each push's output in order.
 *
 * @example
 * ```ts
 * import { initPush, initPull, TAG_FINAL } from 'fourfold/secretstream';
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const sender = initPush(key);
 * const first = sender.push(new TextEncoder().encode('part 1'));
 * const last = sender.push(new TextEncoder().encode('part 2'), TAG_FINAL);
 * const receiver = initPull(sender.header, key);
 * receiver.pull(first); // { message, tag: TAG_MESSAGE }
 * receiver.pull(last).tag === TAG_FINAL; // AuthenticationError if changed, reordered or dropped
 * ```
 */
export function initPush(key: Uint8Array): SecretstreamPush {
  const header = randomHeader();
  return new Push(key, header);
}

/** Receives the stream that began with the 24-byte `header`, under the sender's 32-byte key (crypto_secretstream_xchacha20poly1305_init_pull). */
export function initPull(header: Uint8Array, key: Uint8Array): SecretstreamPull {
  return new Pull(key, check.bytes(header, 'header', HEADER_BYTES).slice());
}
