/**
 * The secretstream state between messages, as libsodium keeps it
 * (crypto_secretstream_xchacha20poly1305_state): a 32-byte key and a
 * 12-byte ChaCha20 nonce made of a 32-bit little-endian message counter
 * and an 8-byte "inonce". It lives in JavaScript memory, so the tier may
 * change between two messages of one stream.
 *
 * libsodium documentation, crypto_secretstream_xchacha20poly1305, algorithm:
 * - init: key = HChaCha20(k, header[0..16]), inonce = header[16..24], counter = 1;
 * - after each message: inonce ^= mac[0..8], counter += 1, and a rekey when
 *   the tag has the REKEY bit (TAG_REKEY, TAG_FINAL) or the counter wrapped to 0;
 * - rekey: key || inonce ^= ChaCha20(key, nonce) keystream from block 0
 *   (40 bytes), counter = 1.
 */
import type { ChachaEngine } from '../chacha/engine.js';
import type { Bytes } from '../runtime/bytes.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

/** Bytes of a secretstream key: 32 (crypto_secretstream_xchacha20poly1305_KEYBYTES). */
export const KEY_BYTES = 32;
/** Bytes of a stream's header, which the receiver needs first: 24 (crypto_secretstream_xchacha20poly1305_HEADERBYTES). */
export const HEADER_BYTES = 24;
/** Bytes a message grows by: the encrypted tag byte and the 16-byte MAC (crypto_secretstream_xchacha20poly1305_ABYTES). */
export const ABYTES = 17;
/** The tag of an ordinary message: 0, push's default. */
export const TAG_MESSAGE = 0;
/** The tag of a message that ends a part of the stream (a record, a file in an archive): 1. The application decides what it means. */
export const TAG_PUSH = 1;
/** The tag of a message after which both sides change the key (forward secrecy for what came before): 2. */
export const TAG_REKEY = 2;
/** TAG_PUSH | TAG_REKEY: the last message, after which the key is changed: 3. A receiver that never sees it knows the stream was cut short. */
export const TAG_FINAL = 3;

/**
 * A new stream's header: 24 random bytes (crypto_secretstream_xchacha20poly1305_init_push),
 * from the engine's crypto.getRandomValues. React Native has none until an app
 * installs the usual polyfill, so its absence is said plainly rather than as
 * "crypto is not defined".
 */
export function randomHeader(): Bytes {
  const random = (globalThis as { crypto?: { getRandomValues?: unknown } }).crypto?.getRandomValues;
  if (typeof random !== 'function') {
    throw new TypeError(
      'secretstream: a stream header needs crypto.getRandomValues, which this engine does not have. ' +
        "In React Native, install react-native-get-random-values and import it first (import 'react-native-get-random-values').",
    );
  }
  return crypto.getRandomValues(new Uint8Array(HEADER_BYTES));
}

export class StreamState {
  readonly key: Uint8Array = new Uint8Array(KEY_BYTES);
  /** counter (little-endian, bytes 0..4) || inonce (bytes 4..12). */
  readonly nonce: Uint8Array = new Uint8Array(12);

  constructor(chacha: ChachaEngine, key: Uint8Array, header: Uint8Array) {
    // The header's two parts read in place: a view of each cost a sixth of libsodium.js's init_pull.
    chacha.hchacha(key, header, this.key);
    for (let i = 0; i < 8; i++) this.nonce[4 + i] = header[16 + i];
    this.resetCounter();
  }

  private resetCounter(): void {
    this.nonce[0] = 1;
    this.nonce[1] = this.nonce[2] = this.nonce[3] = 0;
  }

  /** The message counter, a 32-bit number (public: it only counts messages). */
  get counter(): number {
    // constant-time: public return: bytes 0..3 of the nonce count messages.
    const n = this.nonce;
    return (n[0] | (n[1] << 8) | (n[2] << 16) | (n[3] << 24)) >>> 0;
  }

  set counter(value: number) {
    const n = this.nonce;
    n[0] = value;
    n[1] = value >>> 8;
    n[2] = value >>> 16;
    n[3] = value >>> 24;
  }

  /** The update after a message whose 16-byte MAC is `mac` (sealed or verified) and whose tag is `tag`. */
  advance(chacha: ChachaEngine, mac: Uint8Array, tag: number): void {
    // constant-time: secret tag: a message's tag travels encrypted; the receiver learns it only by decrypting.
    for (let i = 0; i < 8; i++) this.nonce[4 + i] ^= mac[i];
    // The counter wraps after 2^32 - 1 messages; the wrap forces a rekey, so no nonce repeats.
    this.counter = (this.counter + 1) >>> 0;
    // constant-time exception (secret-branch): libsodium rekeys on the tag's REKEY bit as here; a rekey's time shows whatever the code.
    if ((tag & TAG_REKEY) !== 0 || this.counter === 0) this.rekey(chacha);
  }

  rekey(chacha: ChachaEngine): void {
    const next = new Uint8Array(KEY_BYTES + 8);
    next.set(this.key);
    next.set(this.nonce.subarray(4), KEY_BYTES);
    chacha.xor(this.key, this.nonce, 0, 0, DOUBLE_ROUNDS, next, next);
    this.key.set(next.subarray(0, KEY_BYTES));
    this.nonce.set(next.subarray(KEY_BYTES), 4);
    next.fill(0);
    this.resetCounter();
  }

  wipe(): void {
    this.key.fill(0);
    this.nonce.fill(0);
  }
}

/**
 * Test hook: the state behind a push or pull object, so tests can reach the
 * counter wrap (2^32 messages) without pushing four billion messages. Not
 * part of the package's exports.
 */
export const stateOf = (owner: object): StreamState | undefined => (owner as { state?: StreamState }).state;
