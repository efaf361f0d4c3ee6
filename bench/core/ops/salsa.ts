/**
 * The Salsa20 family: salsa20, xsalsa20 and the secretbox
 * xsalsa20poly1305 (tag, then ciphertext); the conventions are table.ts's.
 * libsodium.js wraps neither stream call, so the sodium entries call the
 * compiled module's exports as the wrappers call crypto_stream_chacha20_xor
 * (inputs copied into the heap, the output copied out).
 */
import type { Apis } from '../libraries.js';
import { aead, type Cipher, cipherOps, keyedOp, ours, pooled, sodiumXor, withOutput } from './table.js';
import type { OpDefinition } from './types.js';

/** The compiled libsodium module's exports these ops call. */
interface SodiumModule {
  HEAPU8: Uint8Array;
  _malloc(n: number): number;
  _free(p: number): void;
  _crypto_stream_salsa20_xor: StreamXor;
  _crypto_stream_xsalsa20_xor: StreamXor;
}
type StreamXor = (c: number, m: number, lenLo: number, lenHi: number, n: number, k: number) => number;

/** A libsodium stream function called as its wrappers would: inputs copied in, a fresh output copied out, all freed. */
function sodiumStream(L: SodiumModule, fn: StreamXor): (message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array {
  return (data, nonce, key) => {
    const m = L._malloc(Math.max(data.length, 1));
    const c = L._malloc(Math.max(data.length, 1));
    const n = L._malloc(nonce.length);
    const k = L._malloc(key.length);
    try {
      L.HEAPU8.set(data, m);
      L.HEAPU8.set(nonce, n);
      L.HEAPU8.set(key, k);
      if (fn(c, m, data.length, 0, n, k) !== 0) throw new Error('libsodium: stream failed');
      return L.HEAPU8.slice(c, c + data.length);
    } finally {
      L._free(m);
      L._free(c);
      L._free(n);
      L._free(k);
    }
  };
}

export function salsaOps({ fourfold, noble, sodium }: Apis): OpDefinition<unknown>[] {
  const L = (sodium as unknown as { libsodium?: SodiumModule } | undefined)?.libsodium;
  const { salsa, parallel } = fourfold ?? {};
  const streams = [
    ['salsa20', 8, salsa?.salsa20, parallel?.salsa20, noble.salsa.salsa20, L?._crypto_stream_salsa20_xor],
    ['xsalsa20', 24, salsa?.xsalsa20, parallel?.xsalsa20, noble.salsa.xsalsa20, L?._crypto_stream_xsalsa20_xor],
  ] as const;
  const nobleBox = aead(noble.salsa.xsalsa20poly1305);
  const box: Cipher | undefined = sodium && {
    encrypt: (key, nonce, data) => sodium.crypto_secretbox_easy(data, nonce, key),
    decrypt: (key, nonce, data) => sodium.crypto_secretbox_open_easy(data, nonce, key),
  };
  return [
    ...streams.map(([op, nonceLength, ourCall, poolCall, nobleCall, sodiumCall]) =>
      keyedOp(op, nonceLength, [
        ...ours(ourCall),
        ...pooled(poolCall),
        ...withOutput('noble', nobleCall),
        L !== undefined && sodiumCall !== undefined && ['sodium', sodiumXor(sodiumStream(L, sodiumCall.bind(L)))],
      ]),
    ),
    // libsodium seals the decrypt inputs: it is trusted and quick (@noble/ciphers where libsodium cannot load).
    // @noble/ciphers wants caller outputs of length + 32 (a scratch area), so it has no '(output)' column here.
    ...cipherOps('xsalsa20poly1305', 24, box ?? nobleBox, [
      ...ours(salsa && aead(salsa.xsalsa20poly1305)),
      ...pooled(parallel && aead(parallel.xsalsa20poly1305)),
      ['noble', nobleBox],
      box && ['sodium', box],
    ]),
  ];
}
