/**
 * libsodium's Salsa20 family as references. libsodium-wrappers-sumo's JS
 * layer has no wrappers for crypto_stream_salsa20*, crypto_stream_xsalsa20*
 * or crypto_core_salsa20*, but its compiled module exports the C functions
 * (`sodium.libsodium._crypto_...`), so these call them directly: arguments
 * copied into the module's heap, 64-bit arguments passed as (low, high)
 * 32-bit halves, as the wrappers themselves do for crypto_stream_chacha20_xor_ic.
 */
import assert from 'node:assert/strict';
import { sumo } from '../helpers.js';

interface SodiumModule {
  HEAPU8: Uint8Array;
  _malloc(n: number): number;
  _free(p: number): void;
  _crypto_stream_salsa20_xor_ic(c: number, m: number, lenLo: number, lenHi: number, n: number, icLo: number, icHi: number, k: number): number;
  _crypto_stream_xsalsa20_xor_ic(c: number, m: number, lenLo: number, lenHi: number, n: number, icLo: number, icHi: number, k: number): number;
  _crypto_stream_salsa2012_xor(c: number, m: number, lenLo: number, lenHi: number, n: number, k: number): number;
  _crypto_stream_salsa208_xor(c: number, m: number, lenLo: number, lenHi: number, n: number, k: number): number;
  _crypto_core_salsa20(out: number, input: number, k: number, c: number): number;
  _crypto_core_salsa2012(out: number, input: number, k: number, c: number): number;
  _crypto_core_salsa208(out: number, input: number, k: number, c: number): number;
}

const raw = (): SodiumModule => (sumo() as unknown as { libsodium: SodiumModule }).libsodium;

/** Copies `inputs` into the heap, runs `f` on their addresses, returns `outLength` bytes at the first address. */
function onHeap(inputs: Uint8Array[], f: (...ptrs: number[]) => number): Uint8Array {
  const L = raw();
  const ptrs = inputs.map((b) => L._malloc(Math.max(b.length, 1)));
  try {
    inputs.forEach((b, i) => {
      L.HEAPU8.set(b, ptrs[i]);
    });
    assert.equal(f(...ptrs), 0, 'libsodium returned an error');
    return L.HEAPU8.slice(ptrs[0], ptrs[0] + inputs[0].length);
  } finally {
    for (const p of ptrs) L._free(p);
  }
}

const halves = (v: bigint): [number, number] => [Number(v & 0xffffffffn), Number(v >> 32n)];

/** crypto_stream_salsa20_xor_ic: any 64-bit initial block counter. */
export function sodiumSalsa20(key: Uint8Array, nonce8: Uint8Array, data: Uint8Array, counter = 0n): Uint8Array {
  const [lo, hi] = halves(counter);
  return onHeap([data, nonce8, key], (m, n, k) => raw()._crypto_stream_salsa20_xor_ic(m, m, data.length, 0, n, lo, hi, k));
}

/** crypto_stream_xsalsa20_xor_ic. */
export function sodiumXsalsa20(key: Uint8Array, nonce24: Uint8Array, data: Uint8Array, counter = 0n): Uint8Array {
  const [lo, hi] = halves(counter);
  return onHeap([data, nonce24, key], (m, n, k) => raw()._crypto_stream_xsalsa20_xor_ic(m, m, data.length, 0, n, lo, hi, k));
}

/** crypto_stream_salsa2012_xor / salsa208_xor (counter 0; libsodium has no _ic for them). */
export function sodiumReduced(rounds: 12 | 8, key: Uint8Array, nonce8: Uint8Array, data: Uint8Array): Uint8Array {
  const L = raw();
  const fn = rounds === 12 ? L._crypto_stream_salsa2012_xor : L._crypto_stream_salsa208_xor;
  return onHeap([data, nonce8, key], (m, n, k) => fn(m, m, data.length, 0, n, k));
}

const SIGMA = new TextEncoder().encode('expand 32-byte k');

/**
 * Salsa20/r as a stream built from libsodium's crypto_core_salsa20/2012/208
 * (the hash of §8 on key, nonce and an explicit 64-bit block number), for
 * counters and round counts the stream functions cannot take: a 64-bit
 * carry, the last block 2^64 - 1, Salsa20/12 and /8 at any counter.
 */
export function coreStream(rounds: 20 | 12 | 8, key: Uint8Array, nonce8: Uint8Array, data: Uint8Array, counter: bigint): Uint8Array {
  const L = raw();
  const core = rounds === 20 ? L._crypto_core_salsa20 : rounds === 12 ? L._crypto_core_salsa2012 : L._crypto_core_salsa208;
  const out = new Uint8Array(data.length);
  const input = new Uint8Array(16);
  input.set(nonce8);
  for (let pos = 0, c = counter; pos < data.length; pos += 64, c++) {
    assert.ok(c < 1n << 64n, 'reference: 64-bit counter overflow');
    new DataView(input.buffer).setBigUint64(8, c, true);
    const block = onHeap([new Uint8Array(64), input, key, SIGMA], (o, i, k, s) => core(o, i, k, s));
    for (let j = 0; j < 64 && pos + j < data.length; j++) out[pos + j] = data[pos + j] ^ block[j];
  }
  return out;
}
