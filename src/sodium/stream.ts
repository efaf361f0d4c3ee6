/**
 * crypto_stream_* (ChaCha20 with libsodium's 8-byte nonce, its _ietf
 * variant, XChaCha20, Salsa20, XSalsa20; _xor and _xor_ic),
 * crypto_core_hchacha20 / _hsalsa20 and crypto_onetimeauth (Poly1305) in
 * libsodium-wrappers' shape, on fourfold's ChaCha, Salsa20 and Poly1305.
 */
import { chacha20, chacha20orig, hchacha20, xchacha20 } from '../chacha/index.js';
import { Poly1305, poly1305 } from '../poly1305/index.js';
import { equalBytes, readLE32 } from '../runtime/bytes.js';
import { hchacha as hchachaWith } from '../chacha/js.js';
import { hsalsa as hsalsaWith } from '../salsa/js.js';
import type { XorStream } from '../runtime/stream-cipher.js';
import { hsalsa20, salsa20, xsalsa20 } from '../salsa/index.js';
import { format, formatOf, type Input, input, once, type Out, sized, sizedOnce, unsigned, unsigned64, type OutputFormat } from './codecs.js';
import { endState, openState, type State, liveState } from './states.js';
import { randombytes_buf } from './random.js';

/**
 * A 64-bit block counter as unsigned64 checks it, a number left a number:
 * as a bigint, even 0, it took the stream cipher's checks of a bigint
 * counter (BigInt arithmetic), which made crypto_stream_chacha20_xor of
 * 64 bytes cost 1.3 times crypto_stream_chacha20_ietf_xor.
 */
function counter64Of(value: unknown): number | bigint {
  // constant-time: public: a block counter is not a secret.
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0x7fffffff) return value;
  return unsigned64(value, 'nonce_increment');
}

/**
 * The _xor and _xor_ic calls of one stream cipher. `counter64`: its block
 * counter is 64 bits (ChaCha20 with the 8-byte nonce, XChaCha20), and
 * _xor_ic takes a bigint up to 2^64 - 1 as libsodium.js does since its
 * u64 arguments; the IETF variant's is 32 bits, a number.
 */
function xorCalls(cipher: XorStream, nonceBytes: number, counter64: boolean) {
  const xorIc = <F extends OutputFormat | null = 'uint8array'>(
    input_message: Input,
    nonce: Uint8Array,
    nonce_increment: number | bigint,
    key: Uint8Array,
    outputFormat?: F,
  ): Out<F> => {
    formatOf(outputFormat);
    // The keystream's XOR reads each input once.
    const m = once(input_message, 'input_message');
    const n = sizedOnce(nonce, 'nonce', nonceBytes);
    const ic = counter64 ? counter64Of(nonce_increment) : unsigned(nonce_increment, 'nonce_increment');
    const k = sizedOnce(key, 'key', 32);
    return format(cipher(k, n, m, undefined, ic), outputFormat);
  };
  const xor = <F extends OutputFormat | null = 'uint8array'>(input_message: Input, nonce: Uint8Array, key: Uint8Array, outputFormat?: F): Out<F> =>
    xorIc(input_message, nonce, 0, key, outputFormat);
  return { xor, xorIc };
}

const chachaCalls = /*#__PURE__*/ xorCalls(chacha20orig, 8, true);
const ietfCalls = /*#__PURE__*/ xorCalls(chacha20, 12, false);
const xchachaCalls = /*#__PURE__*/ xorCalls(xchacha20, 24, true);
const salsaCalls = /*#__PURE__*/ xorCalls(salsa20, 8, false);
const xsalsaCalls = /*#__PURE__*/ xorCalls(xsalsa20, 24, false);

/** `outLength` bytes of ChaCha20's keystream (8-byte nonce, 64-bit counter: libsodium's crypto_stream_chacha20). */
export function crypto_stream_chacha20<F extends OutputFormat | null = 'uint8array'>(
  outLength: number,
  key: Uint8Array,
  nonce: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const length = unsigned(outLength, 'outLength');
  const k = sizedOnce(key, 'key', 32);
  const n = sizedOnce(nonce, 'nonce', 8);
  return format(chacha20orig(k, n, new Uint8Array(length)), outputFormat);
}

/** ChaCha20 (8-byte nonce) XORed into the message. */
export const crypto_stream_chacha20_xor = chachaCalls.xor;
/** ChaCha20 (8-byte nonce) XORed into the message from block `nonce_increment`. */
export const crypto_stream_chacha20_xor_ic = chachaCalls.xorIc;
/** ChaCha20 of RFC 8439 (12-byte nonce) XORed into the message. */
export const crypto_stream_chacha20_ietf_xor = ietfCalls.xor;
/** ChaCha20 of RFC 8439 XORed into the message from block `nonce_increment`. */
export const crypto_stream_chacha20_ietf_xor_ic = ietfCalls.xorIc;
/** XChaCha20 (24-byte nonce) XORed into the message. */
export const crypto_stream_xchacha20_xor = xchachaCalls.xor;
/** XChaCha20 XORed into the message from block `nonce_increment`. */
export const crypto_stream_xchacha20_xor_ic = xchachaCalls.xorIc;
/** Salsa20 (8-byte nonce) XORed into the message (libsodium's C call; libsodium-wrappers has none). */
export const crypto_stream_salsa20_xor = salsaCalls.xor;
/** Salsa20 XORed into the message from block `nonce_increment`. */
export const crypto_stream_salsa20_xor_ic = salsaCalls.xorIc;
/** XSalsa20 (24-byte nonce) XORed into the message (libsodium's C call; libsodium-wrappers has none). */
export const crypto_stream_xsalsa20_xor = xsalsaCalls.xor;
/** XSalsa20 XORed into the message from block `nonce_increment`. */
export const crypto_stream_xsalsa20_xor_ic = xsalsaCalls.xorIc;

/** A random 32-byte key for crypto_stream (XSalsa20). */
export const crypto_stream_keygen = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(32, outputFormat);
/** A random 32-byte key for crypto_stream_chacha20. */
export const crypto_stream_chacha20_keygen = crypto_stream_keygen;
/** A random 32-byte key for crypto_stream_xchacha20. */
export const crypto_stream_xchacha20_keygen = crypto_stream_keygen;

/**
 * HChaCha20 or HSalsa20 with the caller's own 16-byte constant (libsodium's
 * `c`) in place of "expand 32-byte k": the js tiers' functions, which take
 * the constant words (the kernels know only the standard one).
 */
function hcore(salsa: boolean, input16: Uint8Array, key: Uint8Array, constant: Uint8Array): Uint8Array {
  const words = [0, 1, 2, 3].map((i) => readLE32(constant, 4 * i));
  const out = new Uint8Array(32);
  (salsa ? hsalsaWith : hchachaWith)(key, input16, out, words);
  return out;
}

function core(salsa: boolean) {
  return <F extends OutputFormat | null = 'uint8array'>(input16: Uint8Array, privateKey: Uint8Array, constant?: Input | null, outputFormat?: F): Out<F> => {
    formatOf(outputFormat);
    const n = sized(input16, 'input', 16);
    const k = sized(privateKey, 'privateKey', 32);
    if (constant !== null && constant !== undefined) return format(hcore(salsa, n, k, sized(constant, 'constant', 16)), outputFormat);
    return format(salsa ? hsalsa20(k, n) : hchacha20(k, n), outputFormat);
  };
}

/** HChaCha20: the 32-byte subkey of a 32-byte key and a 16-byte input (with `constant`, 16 bytes, in place of "expand 32-byte k"). */
export const crypto_core_hchacha20 = /*#__PURE__*/ core(false);
/** HSalsa20: the 32-byte subkey of a 32-byte key and a 16-byte input (with `constant`, 16 bytes, in place of "expand 32-byte k"). */
export const crypto_core_hsalsa20 = /*#__PURE__*/ core(true);

/** Poly1305's 16-byte tag of `message` under a one-time 32-byte key. */
export function crypto_onetimeauth<F extends OutputFormat | null = 'uint8array'>(message: Input, key: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  // Computing a tag reads each input once.
  const m = once(message, 'message');
  return format(poly1305(m, sizedOnce(key, 'key', 32)), outputFormat);
}

/** Whether `hash` is Poly1305's tag of `message` under `key` (compared in constant time). */
export function crypto_onetimeauth_verify(hash: Uint8Array, message: Input, key: Uint8Array): boolean {
  const tag = sized(hash, 'hash', 16);
  const m = input(message, 'message');
  const mine = poly1305(m, sized(key, 'key', 32));
  return equalBytes(mine, 0, tag, 0, 16);
}

/** An incremental Poly1305's state, as crypto_onetimeauth_init gives it: pass it to _update and _final. Any state's type (StateAddress), as in libsodium-wrappers. */
export type OnetimeauthState = State;

const liveOnetime = (state: OnetimeauthState): Poly1305 => liveState<Poly1305>(state, 'crypto_onetimeauth');

/** Starts an incremental Poly1305 under the one-time 32-byte `key`. */
export function crypto_onetimeauth_init(key: Input, outputFormat?: OutputFormat | null): OnetimeauthState {
  formatOf(outputFormat);
  return openState<OnetimeauthState>('crypto_onetimeauth', new Poly1305(sized(key, 'key', 32)));
}

/** Adds `message_chunk` to the message. */
export function crypto_onetimeauth_update(state_address: OnetimeauthState, message_chunk: Input, outputFormat?: OutputFormat | null): void {
  formatOf(outputFormat);
  liveOnetime(state_address).update(once(message_chunk, 'message_chunk'));
}

/** The 16-byte tag; the state is wiped and cannot be used again. */
export function crypto_onetimeauth_final<F extends OutputFormat | null = 'uint8array'>(state_address: OnetimeauthState, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const tag = liveOnetime(state_address).digest();
  endState(state_address);
  return format(tag, outputFormat);
}

/** A random 32-byte one-time key. */
export const crypto_onetimeauth_keygen = crypto_stream_keygen;
