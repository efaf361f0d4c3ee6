/**
 * libsodium's original ChaCha20-Poly1305 (crypto_aead_chacha20poly1305: an
 * 8-byte nonce, a 64-bit block counter): the Poly1305 key from keystream
 * block 0, the message from block 1, and the tag over aad ||
 * le64(aad.length) || ciphertext || le64(ciphertext.length), with no
 * padding between them (RFC 8439 §2.8 pads each to 16 bytes).
 *
 * Beside the ChaCha engine, for fourfold/sodium alone (a page of
 * fourfold/chacha carries none of it). On the 'simd' tier a short call is
 * laid out in the kernel's memory as the tag reads it, one keystream call
 * and one Poly1305 call; otherwise the engine's keystream (node:crypto's
 * past its crossover) and the tier's Poly1305.
 */
import { engine } from './tiers.js';
import { initBlocks, wipe, writeInput } from './simd.js';
import { BUFFER, POLY } from '../chachapoly/layout.js';
import { chachaKernel, type ChachaKernel } from '../chachapoly/wasm.js';
import { HIBIT, TAG } from '../poly1305/layout.js';
import { engine as poly1305 } from '../poly1305/tiers.js';
import { equalBytes, isShared, le64, writeLE64, zeroize } from '../runtime/bytes.js';
import { tierChoice } from '../runtime/kernels.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

const ABYTES = 16;

/**
 * Up to this many bytes of aad and message on the simd tier, the kernel's
 * one-call way: below every crossover from which node:crypto's keystream
 * is faster (crossovers.ts), and within a slice with the lengths and a
 * padded last block.
 */
const ONE_CALL = 2048;
const onKernel = /*#__PURE__*/ tierChoice(chachaKernel, false, true);
const fitsOneCall = (aadLength: number, length: number): boolean => aadLength + length <= ONE_CALL && onKernel();

/**
 * The one-call layout from BUFFER: aad, its length, the data (at the
 * offset returned), its length. aead_init makes the Poly1305 key of block
 * 0 and the data's first keystream blocks (as the RFC 8439 AEAD's, which
 * aead_crypt then uses), and leaves the counter at 1; then the tag's input
 * is in place but for the data's keystream (seal: before the tag; open:
 * after).
 */
function layOut(k: ChachaKernel, mem: Uint8Array, aad: Uint8Array, data: Uint8Array): number {
  const at = BUFFER + aad.length + 8;
  k.aead_init(initBlocks(data.length));
  mem.set(aad, BUFFER);
  writeLE64(mem, at - 8, aad.length);
  mem.set(data, at);
  writeLE64(mem, at + data.length, data.length);
  return at;
}

/** Poly1305 over mem[BUFFER, BUFFER + n), its last partial block padded (RFC 8439 §2.5.1); the tag then at POLY + TAG. */
function macLaidOut(k: ChachaKernel, mem: Uint8Array, n: number): void {
  const whole = n & ~15;
  k.poly_blocks(BUFFER, whole, HIBIT);
  if (n > whole) {
    mem[BUFFER + n] = 1;
    mem.fill(0, BUFFER + n + 1, BUFFER + whole + 16);
    k.poly_blocks(BUFFER + whole, 16, 0);
  }
  k.poly_finish();
}

/**
 * Runs `f` on the one-call layout of `aad` and `data` in the kernel's
 * memory (at: where the data is), the input block written first and
 * everything the call wrote wiped after.
 */
function inKernel<T>(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, data: Uint8Array, f: (k: ChachaKernel, mem: Uint8Array, at: number) => T): T {
  const { k, mem: memory } = chachaKernel();
  try {
    writeInput(k, memory, key, nonce, 0, 0);
    return f(k, memory.bytes, layOut(k, memory.bytes, aad, data));
  } finally {
    wipe(k, aad.length + data.length + ABYTES);
  }
}

/** The one-call seal: ciphertext || tag, in `out` when given. */
const sealInKernel = (key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, data: Uint8Array, out?: Uint8Array): Uint8Array =>
  inKernel(key, nonce, aad, data, (k, mem, at) => {
    const n = data.length;
    k.aead_crypt(at, n);
    // aead_crypt may write to the next 16 bytes past the data: its length again.
    writeLE64(mem, at + n, n);
    macLaidOut(k, mem, at + n + 8 - BUFFER);
    // The tag after the ciphertext, over its length, for one copy out.
    mem.copyWithin(at + n, POLY + TAG, POLY + TAG + ABYTES);
    if (out === undefined) return mem.slice(at, at + n + ABYTES);
    out.set(mem.subarray(at, at + n + ABYTES));
    return out;
  });

/** The one-call open: the tag checked before the plaintext leaves linear memory. */
const openInKernel = (key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): Uint8Array | undefined =>
  inKernel(key, nonce, aad, ciphertext, (k, mem, at) => {
    const n = ciphertext.length;
    macLaidOut(k, mem, at + n + 8 - BUFFER);
    // constant-time: public: a tag that fails is the verdict the caller gets.
    if (!equalBytes(mem, POLY + TAG, tag, 0, ABYTES)) return undefined;
    k.aead_crypt(at, n);
    return mem.slice(at, at + n);
  });

/**
 * A Poly1305 of the tier under block 0 of the keystream. Made before the
 * message's keystream, so that tier() tells the keystream's tier (native
 * past the crossover).
 */
function tagState(key: Uint8Array, nonce: Uint8Array) {
  const polyKey = engine().xor(key, nonce, 0, 0, DOUBLE_ROUNDS, new Uint8Array(32));
  const mac = poly1305().create(polyKey);
  zeroize(polyKey);
  return mac;
}

/** ciphertext || 16-byte tag of `data`, in `out` when given (`data.length + 16` bytes, which may start at `data`). */
export function sealOriginal(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, data: Uint8Array, out?: Uint8Array): Uint8Array {
  if (fitsOneCall(aad.length, data.length)) return sealInKernel(key, nonce, aad, data, out);
  const n = data.length;
  const target = out ?? new Uint8Array(n + ABYTES);
  const mac = tagState(key, nonce);
  const ciphertext = engine().xor(key, nonce, 1, 0, DOUBLE_ROUNDS, data, target.subarray(0, n));
  for (const part of [aad, le64(aad.length), ciphertext, le64(n)]) mac.update(part);
  mac.digestInto(target.subarray(n));
  return target;
}

/**
 * The plaintext of `ciphertext`, or undefined when `tag` does not verify.
 * The tag first, then the keystream, over one read of a shared ciphertext
 * (a private copy): no plaintext is made before the tag verified.
 */
export function openOriginal(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): Uint8Array | undefined {
  if (fitsOneCall(aad.length, ciphertext.length)) return openInKernel(key, nonce, aad, ciphertext, tag);
  const body = isShared(ciphertext) ? ciphertext.slice() : ciphertext;
  const mac = tagState(key, nonce);
  for (const part of [aad, le64(aad.length), body, le64(body.length)]) mac.update(part);
  const expected = new Uint8Array(ABYTES);
  mac.digestInto(expected);
  // constant-time: public: a tag that fails is the verdict the caller gets.
  if (!equalBytes(expected, 0, tag, 0, ABYTES)) return undefined;
  return engine().xor(key, nonce, 1, 0, DOUBLE_ROUNDS, body);
}
