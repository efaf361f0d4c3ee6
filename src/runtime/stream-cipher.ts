/**
 * The public shape of the stream ciphers (ChaCha's and Salsa20's families):
 * argument checks, the block counter's range, and the split of the counter
 * into the two 32-bit words an engine's input block takes.
 */
import * as check from './assert.js';
import { high32, low32, type Bytes } from './bytes.js';

/**
 * A stream cipher engine's keystream XOR: XORs the keystream into `data`,
 * writing `out` (which may be `data` itself) or a new array, and returns
 * it. counterLow and counterHigh are the block counter's 32-bit words; the
 * engine's interface (chacha/engine.ts, salsa/engine.ts) says how its
 * input block takes them.
 */
/** Double rounds of the 20-round ciphers (ChaCha20 and Salsa20, RFC 8439 §2.3 and Salsa20's specification): 10. */
export const DOUBLE_ROUNDS = 10;

export type KeystreamXor = (
  key: Uint8Array,
  nonce: Uint8Array,
  counterLow: number,
  counterHigh: number,
  doubleRounds: number,
  data: Uint8Array,
  out?: Uint8Array,
) => Uint8Array;

/**
 * A stream cipher in @noble/ciphers' shape: XORs the keystream of (`key`,
 * `nonce`), from block `counter` on (64-byte blocks), into `data`, so the
 * same call encrypts and decrypts. Never use one (key, nonce) pair for two
 * messages. Unauthenticated: an AEAD is what most uses want.
 */
export interface XorStream {
  /** Returns a new array of `data.length` bytes. */
  (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: undefined, counter?: number | bigint): Bytes;
  /** Writes `output` (exactly `data.length` bytes; it may be `data` itself) and returns it. */
  <T extends Uint8Array>(key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output: T, counter?: number | bigint): T;
  /** Writes `output` when one is given, else a new array, and returns it. */
  (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter?: number | bigint): Uint8Array;
}

/** A stream cipher's parameters (chacha/args.ts, salsa/args.ts). */
export interface StreamVariant {
  nonceLength: number;
  doubleRounds: number;
  /** 32: RFC 8439's block counter, which must not pass 2^32 - 1; 64: a 64-bit counter, carrying into the next word. */
  counterBits: 32 | 64;
  keyLengths: readonly number[];
}

/**
 * Throws unless the blocks `counter`, `counter + 1`, ... that a message of
 * `length` bytes uses all fit the counter: RFC 8439's 32-bit counter must
 * not pass 2^32 - 1 (§2.4), a 64-bit one must not wrap.
 */
function checkCounterSpace(length: number, counter: number | bigint, bits: 32 | 64): void {
  if (length === 0) return;
  const blocks = Math.ceil(length / 64);
  if (typeof counter === 'number') {
    // A number counter is below 2^53 and so is a length: no 64-bit overflow possible.
    if (bits === 32 && counter + blocks - 1 > 0xffffffff) {
      throw new RangeError(`counter: the message needs blocks up to ${counter + blocks - 1}, past RFC 8439's 32-bit block counter`);
    }
  } else if (counter + BigInt(blocks) - 1n > 0xffffffffffffffffn) {
    throw new RangeError('counter: the message runs past the 64-bit block counter');
  }
}

/** A stream cipher call's checked arguments, the block counter as its two 32-bit words. */
export interface StreamArgs {
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  readonly input: Uint8Array;
  readonly output: Uint8Array | undefined;
  readonly low: number;
  readonly high: number;
}

/** Checks a stream cipher call's arguments (the XorStream shape) for `variant`. */
export function streamArgs(variant: StreamVariant, key: unknown, nonce: unknown, data: unknown, output: unknown, counter: unknown): StreamArgs {
  const { nonceLength, counterBits, keyLengths } = variant;
  const k = check.key(key, keyLengths);
  const n = check.bytes(nonce, 'nonce', nonceLength);
  const input = check.bytes(data, 'data');
  const out = output === undefined ? undefined : check.output(output, input.length);
  if (out !== undefined) check.noPartialOverlap(input, out);
  // The default counter is valid, and no message under 2^38 bytes (2^32 blocks) exhausts it.
  if (counter === 0 && input.length < 2 ** 38) return { key: k, nonce: n, input, output: out, low: 0, high: 0 };
  const start = check.counter(counter, counterBits);
  checkCounterSpace(input.length, start, counterBits);
  return { key: k, nonce: n, input, output: out, low: low32(start), high: high32(start) };
}

/** The checked public function of a stream cipher over the active engine's keystream XOR. */
export function streamCipher(variant: StreamVariant, xor: () => KeystreamXor): XorStream {
  const cipher = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter: number | bigint = 0): Uint8Array => {
    const a = streamArgs(variant, key, nonce, data, output, counter);
    const result = xor()(a.key, a.nonce, a.low, a.high, variant.doubleRounds, a.input, a.output);
    // The caller's own output object (written through a plain view of it).
    return output ?? result;
  };
  // A new array over an ArrayBuffer, or the caller's own output: what XorStream's overloads say.
  return cipher as XorStream;
}
