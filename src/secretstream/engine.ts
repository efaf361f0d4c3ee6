/**
 * What a tier ('simd' or 'js') provides for secretstream: sealing and
 * opening one message under the stream's current key and nonce. The state
 * update between messages (state.ts) is the same for both tiers. Engines
 * trust their arguments (index.ts checks them).
 */
import type { ChachaEngine } from '../chacha/engine.js';
import type { Bytes } from '../runtime/bytes.js';

/** A pulled message: its plaintext and its tag. */
export interface Pulled {
  /** The message's plaintext, verified. */
  message: Bytes;
  /** Its tag: one of the TAG_* constants, or any byte the pusher chose. */
  tag: number;
}

/** A message as an engine opens it: also the MAC it verified with, which the state's next nonce takes (state.ts advance). */
export interface Opened extends Pulled {
  /** A copy of the message's 16-byte MAC. */
  mac: Uint8Array;
}

export interface SecretstreamEngine {
  /** The same tier's ChaCha engine: HChaCha20 for the header, ChaCha20 for rekeying. */
  readonly chacha: ChachaEngine;

  /**
   * One message (libsodium crypto_secretstream_xchacha20poly1305_push):
   * returns a new array tag byte || ciphertext || 16-byte MAC, so
   * message.length + 17 bytes. `key` is the 32-byte stream key, `nonce` the
   * 12 bytes counter || inonce.
   */
  push(key: Uint8Array, nonce: Uint8Array, tag: number, aad: Uint8Array, message: Uint8Array): Bytes;

  /**
   * The inverse of push for `sealed` (at least 17 bytes): the plaintext and
   * tag, and the MAC the message verified with, or undefined when it does
   * not verify, in which case no plaintext has left the engine (what it
   * wrote is wiped). Each byte of `sealed` is read once, so all three are
   * of the same bytes whoever writes `sealed` meanwhile.
   */
  pull(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Opened | undefined;
}
