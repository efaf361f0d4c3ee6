/**
 * libsodium-wrappers' crypto_secretstream_xchacha20poly1305 as the peer of
 * the secretstream tests, and a window on its state: libsodium keeps the
 * state in its WebAssembly heap (k[32], nonce[12] = counter || inonce,
 * pad[8]) at the address init_push / init_pull return, which the tests read
 * to compare states and write to reach the 2^32-message counter wrap.
 */
import assert from 'node:assert/strict';
import { sodium } from '../helpers.js';

export type SodiumState = number;

export interface SodiumPulled {
  message: Uint8Array;
  tag: number;
}

const s = () =>
  sodium as unknown as {
    crypto_secretstream_xchacha20poly1305_init_push(key: Uint8Array): { state: SodiumState; header: Uint8Array };
    crypto_secretstream_xchacha20poly1305_push(state: SodiumState, m: Uint8Array, ad: Uint8Array | null, tag: number): Uint8Array;
    crypto_secretstream_xchacha20poly1305_init_pull(header: Uint8Array, key: Uint8Array): SodiumState;
    crypto_secretstream_xchacha20poly1305_pull(state: SodiumState, c: Uint8Array, ad: Uint8Array | null): SodiumPulled | false;
    crypto_secretstream_xchacha20poly1305_rekey(state: SodiumState): void;
    libsodium: { HEAPU8: Uint8Array };
  };

export const sodiumStream = {
  initPush: (key: Uint8Array) => s().crypto_secretstream_xchacha20poly1305_init_push(key),
  push: (state: SodiumState, m: Uint8Array, tag = 0, aad?: Uint8Array) => s().crypto_secretstream_xchacha20poly1305_push(state, m, aad ?? null, tag),
  initPull: (header: Uint8Array, key: Uint8Array) => s().crypto_secretstream_xchacha20poly1305_init_pull(header, key),
  pull: (state: SodiumState, c: Uint8Array, aad?: Uint8Array) => s().crypto_secretstream_xchacha20poly1305_pull(state, c, aad ?? null),
  rekey: (state: SodiumState) => s().crypto_secretstream_xchacha20poly1305_rekey(state),

  /** A copy of libsodium's key (32 bytes) and nonce (12 bytes) for `state`. */
  read(state: SodiumState): { key: Uint8Array; nonce: Uint8Array } {
    const heap = s().libsodium.HEAPU8;
    assert.ok(heap instanceof Uint8Array, 'libsodium-wrappers exposes its heap as sodium.libsodium.HEAPU8');
    return { key: heap.slice(state, state + 32), nonce: heap.slice(state + 32, state + 44) };
  },

  /** Sets libsodium's 32-bit message counter (nonce bytes 0..4, little-endian). */
  setCounter(state: SodiumState, counter: number): void {
    const heap = s().libsodium.HEAPU8;
    for (let i = 0; i < 4; i++) heap[state + 32 + i] = counter >>> (8 * i);
  },
};
