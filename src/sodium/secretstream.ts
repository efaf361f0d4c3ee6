/**
 * crypto_secretstream_xchacha20poly1305 (init_push, push, init_pull, pull,
 * rekey, the tags) in libsodium-wrappers' shape, on fourfold/secretstream's
 * state and engines. As in libsodium, a message that fails to pull
 * returns false and leaves the state as it was, so the right message can
 * still follow.
 */
import { ABYTES, HEADER_BYTES, KEY_BYTES, randomHeader, StreamState } from '../secretstream/state.js';
import { engine } from '../secretstream/tiers.js';
import { EMPTY } from '../runtime/bytes.js';
import {
  format,
  formatObject,
  formatOf,
  type Input,
  input,
  once,
  optionalOnce,
  type Out,
  type OutObject,
  sizedOnce,
  unsigned,
  type OutputFormat,
} from './codecs.js';
import { openState, type State, liveState } from './states.js';
import { randombytes_buf } from './random.js';

/** A stream's state, as init_push and init_pull give it: pass it to push, pull and rekey. Any state's type (StateAddress), as in libsodium-wrappers. */
export type SecretstreamState = State;

/** A new stream (init_push): its state and its header. */
export interface SecretstreamStart {
  /** The sending state, for push and rekey. */
  state: SecretstreamState;
  /** The 24 bytes the receiver needs first (init_pull). */
  header: Uint8Array;
}

/** A pulled message. */
export interface SecretstreamMessage {
  /** Its plaintext, verified. */
  message: Uint8Array;
  /** Its tag: one of the _TAG_ constants, or the byte the pusher gave. */
  tag: number;
}
const KIND = 'crypto_secretstream_xchacha20poly1305';
/** The live stream: its keys wiped when `free` ends it. */
const streamOf = (state: SecretstreamState): SodiumStream => liveState<SodiumStream>(state, KIND);

/** A stream's keys as a state holds them: endState's destroy() wipes them. */
class SodiumStream extends StreamState {
  destroy(): void {
    this.wipe();
  }
}

function start(key: Uint8Array, header: Uint8Array): SecretstreamState {
  // HChaCha20 reads the key once, into the state's subkey.
  const k = sizedOnce(key, 'key', KEY_BYTES);
  // StreamState reads each header byte once, in place (no view of its parts).
  return openState<SecretstreamState>(KIND, new SodiumStream(engine().chacha, k, header));
}

/** Starts a stream under a 32-byte key: its state, and the 24-byte header the receiver needs first. */
export function crypto_secretstream_xchacha20poly1305_init_push<F extends OutputFormat | null = 'uint8array'>(
  key: Uint8Array,
  outputFormat?: F,
): OutObject<SecretstreamStart, F> {
  formatOf(outputFormat);
  const header = randomHeader();
  return formatObject({ state: start(key, header), header }, outputFormat);
}

/** One message with its tag and optional associated data: `message_chunk.length + 17` bytes. */
export function crypto_secretstream_xchacha20poly1305_push<F extends OutputFormat | null = 'uint8array'>(
  state_address: SecretstreamState,
  message_chunk: Input,
  ad: Input | null,
  tag: number,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const state = streamOf(state_address);
  // A seal reads each input once.
  const m = once(message_chunk, 'message_chunk');
  const a = optionalOnce(ad, 'ad') ?? EMPTY;
  // libsodium takes the tag as an unsigned char.
  const t = unsigned(tag, 'tag') & 0xff;
  const e = engine();
  const sealed = e.push(state.key, state.nonce, t, a, m);
  state.advance(e.chacha, sealed.subarray(m.length + 1), t);
  return format(sealed, outputFormat);
}

/** Receives the stream that began with the 24-byte `header`, under the sender's 32-byte key. */
export function crypto_secretstream_xchacha20poly1305_init_pull(header: Uint8Array, key: Uint8Array, outputFormat?: OutputFormat | null): SecretstreamState {
  formatOf(outputFormat);
  const h = sizedOnce(header, 'header', HEADER_BYTES);
  return start(key, h);
}

/** The next message and its tag, or false (the state unchanged) when it does not verify. */
export function crypto_secretstream_xchacha20poly1305_pull<F extends OutputFormat | null = 'uint8array'>(
  state_address: SecretstreamState,
  cipher: Input,
  ad?: Input | null,
  outputFormat?: F,
): OutObject<SecretstreamMessage, F> | false {
  formatOf(outputFormat);
  const state = streamOf(state_address);
  const c = input(cipher, 'cipher');
  if (c.length < ABYTES) throw new TypeError('cipher is too short');
  // The engine reads the associated data once, into the tag it checks.
  const a = optionalOnce(ad, 'ad') ?? EMPTY;
  const e = engine();
  const pulled = e.pull(state.key, state.nonce, a, c);
  // constant-time: public: a message that fails is the verdict the caller gets.
  if (pulled === undefined) return false;
  state.advance(e.chacha, pulled.mac, pulled.tag);
  pulled.mac.fill(0);
  return formatObject({ message: pulled.message, tag: pulled.tag }, outputFormat);
}

/** Changes the key now; the other side must rekey at the same point. Returns true, as libsodium-wrappers does. */
export function crypto_secretstream_xchacha20poly1305_rekey(state_address: SecretstreamState, outputFormat?: OutputFormat | null): true {
  formatOf(outputFormat);
  streamOf(state_address).rekey(engine().chacha);
  return true;
}

/** A random 32-byte key. */
export const crypto_secretstream_xchacha20poly1305_keygen = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> =>
  randombytes_buf(32, outputFormat);
