/**
 * The libsodium-wrappers loader: the reference whose builds (the sumo one
 * too) the ChaCha, Poly1305, Salsa20, secretstream and sodium tests
 * compare with, loaded only where the engine compiles WebAssembly from
 * bytes. test/helpers.ts re-exports it.
 */
import assert from 'node:assert/strict';
import type Sodium from 'libsodium-wrappers';
import { ENGINE_COMPILES_WASM } from './engine-features.js';

/**
 * The sumo build of libsodium-wrappers adds the raw stream ciphers and
 * crypto_onetimeauth (Poly1305). It has no type declarations, hence this
 * interface. Its JS wrappers take the initial block counter (`ic`) as a
 * non-negative int32 and pass 0 as the high word of libsodium's 64-bit ic,
 * so it cannot express counters at or past 2^31 (see `SUMO_MAX_COUNTER`).
 */
export interface SodiumSumo {
  ready: Promise<void>;
  crypto_stream_chacha20_ietf_xor_ic(message: Uint8Array, nonce12: Uint8Array, ic: number, key: Uint8Array): Uint8Array;
  crypto_stream_chacha20_xor_ic(message: Uint8Array, nonce8: Uint8Array, ic: number, key32: Uint8Array): Uint8Array;
  crypto_stream_xchacha20_xor_ic(message: Uint8Array, nonce24: Uint8Array, ic: number, key: Uint8Array): Uint8Array;
  crypto_onetimeauth(message: Uint8Array, key: Uint8Array): Uint8Array;
  crypto_onetimeauth_init(key: Uint8Array): unknown;
  crypto_onetimeauth_update(state: unknown, chunk: Uint8Array): void;
  crypto_onetimeauth_final(state: unknown): Uint8Array;
}
export const SUMO_MAX_COUNTER = 2 ** 31 - 1;
let sumoLib: SodiumSumo | undefined;

/**
 * The `skip` option for tests that compare with libsodium-wrappers: it is
 * WebAssembly only (importing it where there is none rejects a promise
 * nobody awaits), so it is loaded by `loadSodium()` where it can run.
 */
export const NO_SODIUM: false | string = ENGINE_COMPILES_WASM
  ? false
  : 'not applicable: libsodium-wrappers (the reference) compiles WebAssembly from bytes, which this engine lacks or refuses';

/** libsodium-wrappers, once `loadSodium()` has resolved (a live binding; undefined before, and where NO_SODIUM). */
export let sodium: typeof Sodium = undefined as unknown as typeof Sodium;

let sodiumReady: Promise<void> | undefined;
/**
 * Loads libsodium-wrappers and its sumo build; call (and await) in a
 * `before` hook. Without WebAssembly it loads nothing: the tests that use
 * it declare `{ skip: NO_SODIUM }`, and any other use fails on `sodium`.
 */
export function loadSodium(): Promise<void> {
  if (NO_SODIUM) return Promise.resolve();
  return (sodiumReady ??= Promise.all([
    import('libsodium-wrappers').then(async (m) => {
      await m.default.ready;
      sodium = m.default;
    }),
    // `as string`: the package has no type declarations; the literal still lets bundlers find it.
    import('libsodium-wrappers-sumo' as string).then(async (m: { default?: SodiumSumo }) => {
      const lib = (m.default ?? m) as SodiumSumo;
      await lib.ready;
      sumoLib = lib;
    }),
  ]).then(() => undefined));
}

/** The loaded sumo build (after `loadSodium()`). */
export function sumo(): SodiumSumo {
  assert.ok(sumoLib, 'call loadSodium() first');
  return sumoLib;
}
