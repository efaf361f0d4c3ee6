/**
 * The Salsa20 family: the stream ciphers salsa20 (8-byte nonce) and
 * xsalsa20 (24-byte nonce), and the secretbox, xsalsa20poly1305, sealing
 * and opening. The conventions are chacha.ts's: one call is one whole
 * message (a box is built for its key and nonce on every call), outputs
 * allocated by the library except in the '(output)' styles, throughput in
 * message bytes (not the tag), call i uses key i mod n.
 *
 * libsodium-wrappers(-sumo) has no JavaScript wrapper for
 * crypto_stream_salsa20_xor or crypto_stream_xsalsa20_xor, but its
 * compiled module exports them; the sodium entries call them the way the
 * wrappers call crypto_stream_chacha20_xor: message, nonce and key copied
 * into the heap, a separate output allocated there and copied out.
 */
import type { Apis } from '../libraries.js';
import {
  type AeadFactory,
  type NonceInputs as Inputs,
  type SealedInputs,
  type StreamCipher,
  addAeadEntries,
  addParallelAeadEntries,
  nonceInputs,
  perKey,
  sealedInputs,
  streamEntries,
} from './shared.js';
import { defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

/** The compiled libsodium module's exports these ops call. */
interface SodiumModule {
  HEAPU8: Uint8Array;
  _malloc(n: number): number;
  _free(p: number): void;
  _crypto_stream_salsa20_xor(c: number, m: number, lenLo: number, lenHi: number, n: number, k: number): number;
  _crypto_stream_xsalsa20_xor(c: number, m: number, lenLo: number, lenHi: number, n: number, k: number): number;
}

/** A libsodium stream function called as its wrappers would: inputs copied in, a fresh output copied out, all freed. */
function sodiumStream(
  L: SodiumModule,
  fn: SodiumModule['_crypto_stream_salsa20_xor'],
): (message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array {
  return (data, nonce, key) => {
    const m = L._malloc(Math.max(data.length, 1)),
      c = L._malloc(Math.max(data.length, 1));
    const n = L._malloc(nonce.length),
      k = L._malloc(key.length);
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

function streamOps(apis: Apis): OpDefinition<unknown>[] {
  const { fourfold, noble, sodium } = apis;
  const L = (sodium as unknown as { libsodium?: SodiumModule } | undefined)?.libsodium;
  const streams = [
    {
      op: 'salsa20',
      nonceLength: 8,
      fourfold: fourfold?.salsa?.salsa20,
      parallel: fourfold?.parallel?.salsa20,
      noble: noble.salsa.salsa20,
      sodium: L?._crypto_stream_salsa20_xor,
    },
    {
      op: 'xsalsa20',
      nonceLength: 24,
      fourfold: fourfold?.salsa?.xsalsa20,
      parallel: fourfold?.parallel?.xsalsa20,
      noble: noble.salsa.xsalsa20,
      sodium: L?._crypto_stream_xsalsa20_xor,
    },
  ];
  return streams.map(({ op, nonceLength, ...library }) => {
    const sodiumCall = L !== undefined && library.sodium !== undefined ? sodiumStream(L, library.sodium.bind(L)) : undefined;
    const entries = streamEntries(library.fourfold, library.noble as StreamCipher, sodiumCall, library.parallel);
    return defineOp<Inputs>({ op, inputs: (shape) => nonceInputs(op, shape, nonceLength), entries });
  });
}

/** The secretbox (crypto_secretbox_easy's layout: tag, then ciphertext), sealing and opening. */
function boxOps(apis: Apis): OpDefinition<unknown>[] {
  const { fourfold, sodium } = apis;
  const name = 'xsalsa20poly1305';
  const plain = (shape: Shape) => nonceInputs(name, shape, 24);
  // libsodium seals the decrypt inputs: it is trusted and quick (@noble/ciphers where libsodium cannot load).
  const noble = apis.noble.salsa.xsalsa20poly1305 as AeadFactory;
  const sealer = (message: Uint8Array, nonce: Uint8Array, key: Uint8Array) =>
    sodium !== undefined ? sodium.crypto_secretbox_easy(message, nonce, key) : (noble(key, nonce).encrypt(message) as Uint8Array);
  const sealedOf = (shape: Shape) => sealedInputs(plain(shape), sealer);
  const seal: OpEntry<Inputs>[] = [];
  const open: OpEntry<SealedInputs>[] = [];
  const ours = fourfold?.salsa?.xsalsa20poly1305 as AeadFactory | undefined;
  if (ours !== undefined) {
    addAeadEntries(seal, open, 'fourfold', ours, true);
    addAeadEntries(seal, open, 'fourfold-js', ours, false);
  }
  const parallel = fourfold?.parallel?.xsalsa20poly1305 as AeadFactory | undefined;
  if (parallel !== undefined) addParallelAeadEntries(seal, open, parallel);
  // @noble/ciphers wants caller outputs of length + 32 (a scratch area), so it has no '(output)' column here.
  addAeadEntries(seal, open, 'noble', noble, false);
  if (sodium !== undefined) {
    seal.push({
      library: 'sodium',
      bind: perKey(
        ({ keys, nonce, message }) =>
          (k) =>
            sodium.crypto_secretbox_easy(message, nonce, keys[k]!),
      ),
    });
    open.push({
      library: 'sodium',
      bind: perKey(
        ({ keys, nonce, sealed }) =>
          (k) =>
            sodium.crypto_secretbox_open_easy(sealed[k]!, nonce, keys[k]!),
      ),
    });
  }
  return [
    defineOp<Inputs>({ op: `${name}-encrypt`, inputs: plain, entries: seal }),
    defineOp<SealedInputs>({ op: `${name}-decrypt`, inputs: sealedOf, entries: open }),
  ];
}

export function salsaOps(apis: Apis): OpDefinition<unknown>[] {
  return [...streamOps(apis), ...boxOps(apis)];
}
