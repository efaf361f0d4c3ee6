/**
 * The ChaCha family on node:crypto (runtime/native.ts): ChaCha20 and
 * XChaCha20 with counters, ChaCha20-Poly1305 and XChaCha20-Poly1305, for
 * calls at least as long as the crossover measured for the runtime, the
 * operation and the tier fourfold would otherwise use (crossovers.ts);
 * shorter calls, ChaCha8/12 and 16-byte keys stay on that tier.
 *
 * OpenSSL's `chacha20` takes the input block's words 12..15 as its IV: the
 * block counter's low word, then the nonce (RFC 8439: 12 bytes), or the
 * counter's high word and an 8-byte nonce (the original ChaCha). A call
 * whose 64-bit counter would carry from word 12 into 13 stays on
 * fourfold's tier: OpenSSL carries, Deno's node:crypto does not. XChaCha20 (draft-irtf-cfrg-
 * xchacha-03 §2.3) is HChaCha20, fourfold's, then ChaCha20 with the
 * subkey; its AEAD takes the 12-byte nonce 0^4 || the last 8 nonce bytes.
 * The public API has checked every argument and the counter's range
 * before a call gets here, so OpenSSL never sees a counter that would wrap.
 */
import { type Crossover, crossoverFor } from './crossovers.js';
import type { ChachaEngine } from './engine.js';
import { isShared, zeroize } from '../runtime/bytes.js';
import { usedNative } from '../runtime/kernels.js';
import { CAN_GROW, grown, type NodeCipher, type NodeCrypto, nodeCrypto, toBeWritten } from '../runtime/native.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

const TAG = 16;
const POLY = { authTagLength: TAG };

/**
 * What node:crypto is handed each call, copied into arrays made once on
 * ArrayBuffers of their own. V8 keeps a small Uint8Array's bytes on its
 * heap (a key or nonce the API copied with slice(), a tag), and node:crypto
 * moves them off it at every call: about 2 µs a call for a key, nonce and
 * tag against 0.3 µs for these copies. The key's is zeroed after each call.
 */
export const NATIVE_KEY: Uint8Array = new Uint8Array(new ArrayBuffer(32));
const NONCE = new Uint8Array(new ArrayBuffer(12));
const TAG_IN = new Uint8Array(new ArrayBuffer(TAG));
const IV = new Uint8Array(new ArrayBuffer(16));
const IV_WORDS = new DataView(IV.buffer);

/** NATIVE_KEY and NONCE as OpenSSL's AEAD takes them: the key and 12-byte nonce, or XChaCha's subkey and 0^4 || the last 8 nonce bytes. */
function aeadKey(base: ChachaEngine, key: Uint8Array, nonce: Uint8Array): void {
  if (nonce.length === 12) {
    NATIVE_KEY.set(key);
    NONCE.set(nonce);
    return;
  }
  base.hchacha(key, nonce, NATIVE_KEY);
  NONCE.fill(0, 0, 4);
  NONCE.set(nonce.subarray(16), 4);
}

/** Zeroes a buffer node:crypto made, as a plain Uint8Array: a Buffer's own fill is node:buffer's (in Deno, a slow polyfill). */
const wipe = (b: Uint8Array): void => zeroize(new Uint8Array(b.buffer, b.byteOffset, b.length));

/** A copy of `bytes` into `out` (or a new array), the source wiped: node:crypto's Buffers are its own, not the caller's. */
function handOver(bytes: Uint8Array, out: Uint8Array | undefined): Uint8Array {
  // node:crypto allocates each result whole (no pooled slab): a plain view of it is a result of its own.
  if (out === undefined && bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return new Uint8Array(bytes.buffer as ArrayBuffer);
  const result = out ?? new Uint8Array(bytes.length);
  result.set(bytes);
  wipe(bytes);
  return result;
}

/** From this length on, a result is written in NATIVE_PIECE-byte updates (updateInto). */
export const PIECEWISE_FROM = 4 << 20;
export const NATIVE_PIECE = 128 << 10;
/**
 * The same for a new sealed array where node:crypto's result cannot be
 * grown (CAN_GROW: Node 20), which would otherwise be copied whole: from
 * 1 MiB the pieces beat one update and its copy (Node 20: 0.85x of
 * node:crypto's bare call against 0.77x at 1 MiB, 1.01x against 0.80x at 2 MiB).
 */
export const COPIED_PIECEWISE_FROM = 1 << 20;
/** Where a new sealed array starts being written in pieces, on this engine. */
const NEW_SEALED_PIECEWISE_FROM = CAN_GROW ? PIECEWISE_FROM : COPIED_PIECEWISE_FROM;

/**
 * `cipher.update(data)` written into `result` (from its start), each
 * buffer node:crypto made wiped after the copy when `wipePieces` (it may hold
 * plaintext). node:crypto allocates every update's output: one update of
 * a large input fills a new buffer as large, which the copy then reads
 * back from memory; in 128 KiB pieces, each piece is still in cache when
 * copied and the allocator hands the same buffer back (docs/performance.md:
 * from 16 MiB this beats node:crypto's own single update).
 */
function updateInto(cipher: NodeCipher, data: Uint8Array, result: Uint8Array, wipePieces: boolean, from = PIECEWISE_FROM): void {
  const step = data.length < from ? data.length : NATIVE_PIECE;
  for (let at = 0; at < data.length; at += step) {
    const piece = cipher.update(data.subarray(at, at + step));
    result.set(piece, at);
    if (wipePieces) wipe(piece);
  }
}

/**
 * `data` encrypted by `cipher` into a new array with TAG bytes of room
 * after it: node:crypto's own result grown in place where the engine can
 * (grown), else a copy; from PIECEWISE_FROM (or COPIED_PIECEWISE_FROM)
 * on, written piece by piece.
 */
function ciphertextWithRoom(cipher: NodeCipher, data: Uint8Array): Uint8Array {
  const length = data.length + TAG;
  if (data.length >= NEW_SEALED_PIECEWISE_FROM) {
    const result = toBeWritten(length);
    updateInto(cipher, data, result, false, NEW_SEALED_PIECEWISE_FROM);
    return result;
  }
  const ciphertext = cipher.update(data);
  const result = grown(ciphertext, length);
  if (result !== undefined) return result;
  const copy = toBeWritten(length);
  copy.set(ciphertext);
  return copy;
}

/** The AEAD's seal on OpenSSL: ciphertext || tag, in `out` when given. */
export function nativeSeal(
  c: NodeCrypto,
  base: ChachaEngine,
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array,
  data: Uint8Array,
  out?: Uint8Array,
): Uint8Array {
  try {
    aeadKey(base, key, nonce);
    const cipher = c.createCipheriv('chacha20-poly1305', NATIVE_KEY, NONCE, POLY);
    if (aad.length > 0) cipher.setAAD(aad);
    let result = out;
    if (result === undefined) result = ciphertextWithRoom(cipher, data);
    else updateInto(cipher, data, result, false);
    cipher.final();
    result.set(cipher.getAuthTag(), data.length);
    return result;
  } finally {
    zeroize(NATIVE_KEY);
  }
}

/**
 * What OpenSSL may read of `ciphertext`: the caller's bytes where no other
 * thread can change them, else a private copy. OpenSSL's open reads its
 * input twice (Poly1305 over it, then ChaCha20), so bytes another thread
 * changes between the two would verify one ciphertext and decrypt another.
 */
const readOnce = (ciphertext: Uint8Array): Uint8Array => (isShared(ciphertext) ? ciphertext.slice() : ciphertext);

/**
 * The AEAD's open on OpenSSL: the plaintext once the tag verified (in
 * `out` when given), else undefined with nothing released. `own`: the
 * ciphertext is fourfold's own memory (ChachaEngine.open), read in place.
 */
export function nativeOpen(
  c: NodeCrypto,
  base: ChachaEngine,
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
  out?: Uint8Array,
  own = false,
): Uint8Array | undefined {
  try {
    aeadKey(base, key, nonce);
    const decipher = c.createDecipheriv('chacha20-poly1305', NATIVE_KEY, NONCE, POLY);
    TAG_IN.set(tag);
    decipher.setAuthTag(TAG_IN);
    if (aad.length > 0) decipher.setAAD(aad);
    // OpenSSL decrypts before it verifies: the plaintext stays in node:crypto's buffer until final() accepts the tag.
    const plain = decipher.update(own ? ciphertext : readOnce(ciphertext));
    try {
      decipher.final();
    } catch {
      wipe(plain);
      return undefined;
    }
    return handOver(plain, out);
  } finally {
    zeroize(NATIVE_KEY);
  }
}

/** The keystream XOR on OpenSSL's `chacha20` (20 rounds, a 32-byte key), from block (counterHigh, counterLow). */
export function nativeXor(
  c: NodeCrypto,
  base: ChachaEngine,
  key: Uint8Array,
  nonce: Uint8Array,
  counterLow: number,
  counterHigh: number,
  data: Uint8Array,
  out?: Uint8Array,
): Uint8Array {
  IV_WORDS.setUint32(0, counterLow, true);
  if (nonce.length === 12) IV.set(nonce, 4);
  else {
    IV_WORDS.setUint32(4, counterHigh, true);
    IV.set(nonce.subarray(nonce.length - 8), 8);
  }
  try {
    if (nonce.length === 24) base.hchacha(key, nonce, NATIVE_KEY);
    else NATIVE_KEY.set(key);
    const cipher = c.createCipheriv('chacha20', NATIVE_KEY, IV);
    // Without an output, node:crypto's own buffer is the result: no copy to make.
    if (out === undefined) return handOver(cipher.update(data), out);
    updateInto(cipher, data, out, true);
    return out;
  } finally {
    zeroize(NATIVE_KEY);
  }
}

/** `base` with the calls past `from`'s crossovers on node:crypto. */
function withNative(c: NodeCrypto, base: ChachaEngine, from: Crossover): ChachaEngine {
  return {
    hchacha: base.hchacha,
    xor(key, nonce, low, high, doubleRounds, data, out) {
      const at = nonce.length === 24 ? from.xchacha20 : from.chacha20;
      const carries = nonce.length !== 12 && low + Math.ceil(data.length / 64) > 2 ** 32;
      if (doubleRounds !== DOUBLE_ROUNDS || key.length !== 32 || data.length < at || carries) return base.xor(key, nonce, low, high, doubleRounds, data, out);
      usedNative();
      return nativeXor(c, base, key, nonce, low, high, data, out);
    },
    seal(key, nonce, aad, data, out) {
      if (data.length < (nonce.length === 24 ? from.xseal : from.seal)) return base.seal(key, nonce, aad, data, out);
      usedNative();
      return nativeSeal(c, base, key, nonce, aad, data, out);
    },
    open(key, nonce, aad, ciphertext, tag, out, own) {
      if (ciphertext.length < (nonce.length === 24 ? from.xopen : from.open)) return base.open(key, nonce, aad, ciphertext, tag, out);
      usedNative();
      return nativeOpen(c, base, key, nonce, aad, ciphertext, tag, out, own);
    },
  };
}

/**
 * Whether node:crypto's ciphers give fourfold's bytes here (asked once): a
 * runtime may lack them (Bun's node:crypto) or differ. A sealed message
 * and XChaCha20 from a counter with both words set, against `base`.
 */
function agrees(c: NodeCrypto, base: ChachaEngine): boolean {
  try {
    const key = Uint8Array.from({ length: 32 }, (_, i) => i);
    const nonce = Uint8Array.from({ length: 24 }, (_, i) => 100 + i);
    const data = Uint8Array.from({ length: 150 }, (_, i) => i * 7);
    const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
    const n12 = nonce.subarray(0, 12);
    return (
      same(nativeSeal(c, base, key, n12, n12, data), base.seal(key, n12, n12, data)) &&
      same(nativeXor(c, base, key, nonce, 0xfffffff0, 7, data), base.xor(key, nonce, 0xfffffff0, 7, DOUBLE_ROUNDS, data))
    );
  } catch {
    return false;
  }
}

/**
 * `base` (the engine of `tier`) with node:crypto taking the calls past
 * the tier's crossovers, while node:crypto is welcome (no ready() named a
 * tier; in a worker, as the job's calling thread says: runtime/kernels.ts
 * followCaller), and once it gave `base`'s bytes (asked at first use).
 */
export function nativeOver(base: ChachaEngine, tier: 'simd' | 'js'): () => ChachaEngine {
  let engine: ChachaEngine | null | undefined;
  return () => {
    const c = nodeCrypto();
    if (c === undefined) return base;
    if (engine === undefined) {
      const from = crossoverFor(tier);
      engine = from !== undefined && agrees(c, base) ? withNative(c, base, from) : null;
    }
    return engine ?? base;
  };
}

/**
 * The engine calls on this thread use: `select()`'s (the js or simd tier),
 * with node:crypto taking the calls past the crossovers where the runtime
 * has it and ready() named no tier (nativeOver, one per tier's engine).
 */
export function nativeFirst(select: () => ChachaEngine, js: ChachaEngine): () => ChachaEngine {
  const over = new Map<ChachaEngine, () => ChachaEngine>();
  return () => {
    const base = select();
    let engine = over.get(base);
    if (engine === undefined) over.set(base, (engine = nativeOver(base, base === js ? 'js' : 'simd')));
    return engine();
  };
}
