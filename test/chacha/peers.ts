/**
 * ChaCha and Poly1305 references for the ChaCha20, XChaCha20, AEAD and
 * Poly1305 tests, from independent peers: @noble/ciphers (its block core
 * takes any counter and nonce words), node:crypto (OpenSSL) and
 * libsodium-wrappers, and Poly1305 straight from RFC 8439 in BigInt.
 *
 * node:crypto is not imported statically: it comes from
 * `process.getBuiltinModule` where the runtime is Node-compatible, and
 * where its ChaCha ciphers are missing (`NODE_CHACHA`: Bun, browsers) the
 * node* references compute the same functions on noble's core.
 */
import assert from 'node:assert/strict';
import * as noble from '@noble/ciphers/chacha.js';
import { poly1305 as noblePoly1305 } from '@noble/ciphers/_poly1305.js';
import { blocksOf, concat, NODE_CHACHA, sodium, TWO32, TWO64 } from '../helpers.js';

export { NODE_CHACHA };

// ---------------------------------------------------------------- ChaCha on noble's block core

const SIGMA32 = Uint32Array.of(0x61707865, 0x3320646e, 0x79622d32, 0x6b206574); // "expand 32-byte k"
const SIGMA16 = Uint32Array.of(0x61707865, 0x3120646e, 0x79622d36, 0x6b206574); // "expand 16-byte k"

function words(b: Uint8Array): Uint32Array {
  const out = new Uint32Array(b.length / 4);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = dv.getUint32(4 * i, true);
  return out;
}

function wordsToBytes(w: Uint32Array): Uint8Array {
  const out = new Uint8Array(w.length * 4);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < w.length; i++) dv.setUint32(4 * i, w[i]!, true);
  return out;
}

/**
 * ChaCha with the original 64-bit counter in words 12..13, built one block at
 * a time on @noble/ciphers' block core (which takes any counter/nonce words).
 * Handles 16- and 32-byte keys, any round count and counters up to 2^64 - 1.
 * Used where no peer API accepts the inputs (counters at or past 2^32 - 1,
 * 16-byte keys there, ChaCha8/12 near the 32-bit limit).
 */
export function coreStream64(key: Uint8Array, nonce8: Uint8Array, data: Uint8Array, counter: bigint, rounds = 20): Uint8Array {
  assert.ok(nonce8.length === 8);
  const sigma = key.length === 16 ? SIGMA16 : SIGMA32;
  const k = words(key.length === 16 ? concat(key, key) : key);
  const n = words(nonce8);
  const out = new Uint8Array(data.length);
  const block = new Uint32Array(16);
  for (let pos = 0, c = counter; pos < data.length; pos += 64, c++) {
    assert.ok(c < TWO64, 'reference: 64-bit counter overflow');
    const lo = Number(c & 0xffffffffn);
    const hi = Number(c >> 32n);
    noble.__TESTS.chachaCore(sigma, k, Uint32Array.of(hi, n[0]!, n[1]!), block, lo, rounds);
    const ks = wordsToBytes(block);
    for (let j = 0; j < 64 && pos + j < data.length; j++) out[pos + j] = data[pos + j]! ^ ks[j]!;
  }
  return out;
}

/** IETF (32-bit counter, 12-byte nonce) ChaCha on noble's core, for any counter the RFC allows. */
export function coreStreamIetf(key: Uint8Array, nonce12: Uint8Array, data: Uint8Array, counter: number, rounds = 20): Uint8Array {
  assert.ok(counter + blocksOf(data.length) - 1 <= 0xffffffff || data.length === 0, 'reference: past the 32-bit counter');
  // Word 13 (first nonce word) plays the high counter word, which never carries here.
  const hi = BigInt(words(nonce12.subarray(0, 4))[0]!);
  return coreStream64(key, nonce12.subarray(4), data, (hi << 32n) | BigInt(counter), rounds);
}

// ---------------------------------------------------------------- node:crypto

/**
 * node:crypto, where the engine has it with OpenSSL's ChaCha20 and
 * ChaCha20-Poly1305: Node and Deno. Bun's node:crypto (BoringSSL) has
 * neither cipher, and browsers have no node:crypto. Where NODE_CHACHA is
 * false, the node* references below compute the same functions on
 * @noble/ciphers' block core (coreStreamIetf, coreStream64) and AEAD, so the
 * tests keep an independent reference; the checks that compare node:crypto
 * with noble itself are then skipped.
 */
const nodeCrypto = (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.('node:crypto') as
  | typeof import('node:crypto')
  | undefined;
/** The `skip` option for checks of node:crypto itself. */
export const NO_NODE_CHACHA: false | string = NODE_CHACHA ? false : "not applicable: this engine's node:crypto has no ChaCha20";

/** RFC 8439 ChaCha20 through OpenSSL (node:crypto): iv = LE32(counter) || nonce. */
export function nodeChacha20(key: Uint8Array, nonce12: Uint8Array, data: Uint8Array, counter = 0): Uint8Array {
  // OpenSSL carries the block counter into the nonce; the RFC cipher does not, so never ask it to.
  assert.ok(counter + blocksOf(data.length) - 1 <= 0xffffffff || data.length === 0, 'reference: past the 32-bit counter');
  if (!NODE_CHACHA) return coreStreamIetf(key, nonce12, data, counter);
  const iv = Buffer.alloc(16);
  iv.writeUInt32LE(counter, 0);
  iv.set(nonce12, 4);
  const c = nodeCrypto!.createCipheriv('chacha20', key, iv);
  return new Uint8Array(Buffer.concat([c.update(data), c.final()]));
}

/**
 * Original ChaCha20 (8-byte nonce, 64-bit counter) through OpenSSL: the 64-bit
 * counter is split into segments on which its high word is constant, each
 * computed with iv = LE32(low) || LE32(high) || nonce8. The carry across 2^32
 * is therefore done here, not by OpenSSL.
 */
export function nodeChacha20orig(key32: Uint8Array, nonce8: Uint8Array, data: Uint8Array, counter: bigint = 0n): Uint8Array {
  assert.equal(key32.length, 32);
  if (!NODE_CHACHA) return coreStream64(key32, nonce8, data, counter);
  const out = new Uint8Array(data.length);
  let pos = 0;
  let c = counter;
  while (pos < data.length) {
    assert.ok(c < TWO64, 'reference: 64-bit counter overflow');
    const lo = Number(c & 0xffffffffn);
    const hi = Number(c >> 32n);
    const take = Math.min(data.length - pos, (TWO32 - lo) * 64);
    const iv = Buffer.alloc(16);
    iv.writeUInt32LE(lo, 0);
    iv.writeUInt32LE(hi, 4);
    iv.set(nonce8, 8);
    const seg = nodeCrypto!.createCipheriv('chacha20', key32, iv).update(data.subarray(pos, pos + take));
    out.set(seg, pos);
    pos += take;
    c += BigInt(Math.ceil(take / 64));
  }
  return out;
}

/** HChaCha20 through @noble/ciphers' exported word-level function. */
export function nobleHchacha(key: Uint8Array, nonce16: Uint8Array): Uint8Array {
  const out = new Uint32Array(8);
  noble.hchacha(SIGMA32, words(key), words(nonce16), out);
  return wordsToBytes(out);
}

/** XChaCha20 (libsodium's crypto_stream_xchacha20: 64-bit counter) = original ChaCha20 under the HChaCha20 subkey. */
export function nodeXchacha20(key: Uint8Array, nonce24: Uint8Array, data: Uint8Array, counter: bigint = 0n): Uint8Array {
  return nodeChacha20orig(nobleHchacha(key, nonce24.subarray(0, 16)), nonce24.subarray(16), data, counter);
}

export { noble, noblePoly1305 };

/** noble refuses to compute the block with counter 2^32 - 1 (or anything past it). */
export const nobleCanDo = (counter: number | bigint, len: number): boolean => Number(counter) + Math.max(blocksOf(len), 1) - 1 <= 0xfffffffe;

// ---------------------------------------------------------------- libsodium

/**
 * libsodium's default build has no raw crypto_stream_* functions, but its
 * AEADs encrypt the payload with the stream cipher from block counter 1, so
 * the ciphertext part of an AEAD seal is that cipher's output at counter 1.
 */
export const sodiumStreamAt1 = {
  chacha20: (key: Uint8Array, nonce12: Uint8Array, data: Uint8Array): Uint8Array =>
    sodium.crypto_aead_chacha20poly1305_ietf_encrypt(data, null, null, nonce12, key).subarray(0, data.length),
  chacha20orig: (key32: Uint8Array, nonce8: Uint8Array, data: Uint8Array): Uint8Array =>
    sodium.crypto_aead_chacha20poly1305_encrypt(data, null, null, nonce8, key32).subarray(0, data.length),
  xchacha20: (key: Uint8Array, nonce24: Uint8Array, data: Uint8Array): Uint8Array =>
    sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(data, null, null, nonce24, key).subarray(0, data.length),
};

export function sodiumAead(x: boolean) {
  return {
    encrypt: (key: Uint8Array, nonce: Uint8Array, aad: Uint8Array | undefined, pt: Uint8Array): Uint8Array =>
      x
        ? sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(pt, aad ?? null, null, nonce, key)
        : sodium.crypto_aead_chacha20poly1305_ietf_encrypt(pt, aad ?? null, null, nonce, key),
    decrypt: (key: Uint8Array, nonce: Uint8Array, aad: Uint8Array | undefined, sealed: Uint8Array): Uint8Array =>
      x
        ? sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(null, sealed, aad ?? null, nonce, key)
        : sodium.crypto_aead_chacha20poly1305_ietf_decrypt(null, sealed, aad ?? null, nonce, key),
  };
}

// ---------------------------------------------------------------- AEAD through node:crypto

export function nodeAeadEncrypt(key: Uint8Array, nonce12: Uint8Array, aad: Uint8Array | undefined, pt: Uint8Array): Uint8Array {
  if (!NODE_CHACHA) return noble.chacha20poly1305(key, nonce12, aad).encrypt(pt);
  const c = nodeCrypto!.createCipheriv('chacha20-poly1305', key, nonce12, { authTagLength: 16 });
  if (aad !== undefined) c.setAAD(aad, { plaintextLength: pt.length });
  const body = Buffer.concat([c.update(pt), c.final()]);
  return new Uint8Array(Buffer.concat([body, c.getAuthTag()]));
}

export function nodeAeadDecrypt(key: Uint8Array, nonce12: Uint8Array, aad: Uint8Array | undefined, sealed: Uint8Array): Uint8Array {
  if (!NODE_CHACHA) return noble.chacha20poly1305(key, nonce12, aad).decrypt(sealed);
  const d = nodeCrypto!.createDecipheriv('chacha20-poly1305', key, nonce12, { authTagLength: 16 });
  if (aad !== undefined) d.setAAD(aad, { plaintextLength: sealed.length - 16 });
  d.setAuthTag(sealed.subarray(sealed.length - 16));
  return new Uint8Array(Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]));
}

// ---------------------------------------------------------------- Poly1305

const P1305 = (1n << 130n) - 5n;

function leToBigint(b: Uint8Array): bigint {
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]!);
  return n;
}

/** Poly1305 straight from RFC 8439 §2.5.1, in BigInt arithmetic. */
export function bigintPoly1305(msg: Uint8Array, key: Uint8Array): Uint8Array {
  const r = leToBigint(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = leToBigint(key.subarray(16, 32));
  let acc = 0n;
  for (let i = 0; i < msg.length; i += 16) {
    const chunk = msg.subarray(i, Math.min(i + 16, msg.length));
    acc = ((acc + leToBigint(chunk) + (1n << BigInt(8 * chunk.length))) * r) % P1305;
  }
  let t = (acc + s) & ((1n << 128n) - 1n);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++, t >>= 8n) out[i] = Number(t & 0xffn);
  return out;
}

/** pad16(x) || LE64(a) || LE64(b): the tail RFC 8439 §2.8 appends before Poly1305. */
export function aeadMacData(aad: Uint8Array, ct: Uint8Array): Uint8Array {
  const pad = (n: number) => new Uint8Array((16 - (n % 16)) % 16);
  const lens = new Uint8Array(16);
  const dv = new DataView(lens.buffer);
  dv.setBigUint64(0, BigInt(aad.length), true);
  dv.setBigUint64(8, BigInt(ct.length), true);
  return concat(aad, pad(aad.length), ct, pad(ct.length), lens);
}
