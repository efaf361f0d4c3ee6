/**
 * What libsodium-wrappers says of the library itself, and the constants
 * it gives of families it has no calls for: the version of libsodium
 * whose API fourfold/sodium follows (libsodium-wrappers 0.8.4's, libsodium
 * 1.0.22), randombytes_stir and _close (nothing to do: randomness is the
 * platform's crypto.getRandomValues, which keeps no state to stir or
 * close), crypto_verify_*, the Salsa20 cores' and the reduced-round Salsa
 * streams' sizes, and crypto_secretbox_xchacha20poly1305's.
 */
import { formatOf, type OutputFormat } from './codecs.js';

/** The libsodium version whose API fourfold/sodium follows: libsodium-wrappers 0.8.4's. */
export const SODIUM_VERSION_STRING: string = '1.0.22';
/** libsodium's library version, major (of the API followed: 1.0.22's). */
export const SODIUM_LIBRARY_VERSION_MAJOR: number = 26;
/** libsodium's library version, minor (of the API followed: 1.0.22's). */
export const SODIUM_LIBRARY_VERSION_MINOR: number = 4;

/** SODIUM_VERSION_STRING, as libsodium's sodium_version_string() returns it. */
export const sodium_version_string = (): string => SODIUM_VERSION_STRING;

/** Nothing to stir: crypto.getRandomValues keeps no state a caller can reseed. */
export function randombytes_stir(outputFormat?: OutputFormat | null): void {
  formatOf(outputFormat);
}

/** Nothing to close: crypto.getRandomValues holds no descriptor. */
export function randombytes_close(outputFormat?: OutputFormat | null): void {
  formatOf(outputFormat);
}

/** crypto_verify_16's length. */
export const crypto_verify_16_BYTES: number = 16;
/** crypto_verify_32's length. */
export const crypto_verify_32_BYTES: number = 32;
/** crypto_verify_64's length. */
export const crypto_verify_64_BYTES: number = 64;

/** crypto_core_salsa20: its output block. */
export const crypto_core_salsa20_OUTPUTBYTES: number = 64;
/** crypto_core_salsa20: its input (nonce and counter). */
export const crypto_core_salsa20_INPUTBYTES: number = 16;
/** crypto_core_salsa20: its key. */
export const crypto_core_salsa20_KEYBYTES: number = 32;
/** crypto_core_salsa20: its constant. */
export const crypto_core_salsa20_CONSTBYTES: number = 16;
/** crypto_core_salsa2012: its output block. */
export const crypto_core_salsa2012_OUTPUTBYTES: number = 64;
/** crypto_core_salsa2012: its input (nonce and counter). */
export const crypto_core_salsa2012_INPUTBYTES: number = 16;
/** crypto_core_salsa2012: its key. */
export const crypto_core_salsa2012_KEYBYTES: number = 32;
/** crypto_core_salsa2012: its constant. */
export const crypto_core_salsa2012_CONSTBYTES: number = 16;
/** crypto_core_salsa208: its output block. */
export const crypto_core_salsa208_OUTPUTBYTES: number = 64;
/** crypto_core_salsa208: its input (nonce and counter). */
export const crypto_core_salsa208_INPUTBYTES: number = 16;
/** crypto_core_salsa208: its key. */
export const crypto_core_salsa208_KEYBYTES: number = 32;
/** crypto_core_salsa208: its constant. */
export const crypto_core_salsa208_CONSTBYTES: number = 16;

/** crypto_stream_salsa2012: its key. */
export const crypto_stream_salsa2012_KEYBYTES: number = 32;
/** crypto_stream_salsa2012: its nonce. */
export const crypto_stream_salsa2012_NONCEBYTES: number = 8;
/** crypto_stream_salsa2012: the longest message, as libsodium-wrappers reads it from 32-bit memory. */
export const crypto_stream_salsa2012_MESSAGEBYTES_MAX: number = -1;
/** crypto_stream_salsa208: its key. */
export const crypto_stream_salsa208_KEYBYTES: number = 32;
/** crypto_stream_salsa208: its nonce. */
export const crypto_stream_salsa208_NONCEBYTES: number = 8;
/** crypto_stream_salsa208: the longest message, as libsodium-wrappers reads it from 32-bit memory. */
export const crypto_stream_salsa208_MESSAGEBYTES_MAX: number = -1;

/** crypto_secretbox_xchacha20poly1305: its key. */
export const crypto_secretbox_xchacha20poly1305_KEYBYTES: number = 32;
/** crypto_secretbox_xchacha20poly1305: its nonce. */
export const crypto_secretbox_xchacha20poly1305_NONCEBYTES: number = 24;
/** crypto_secretbox_xchacha20poly1305: its tag. */
export const crypto_secretbox_xchacha20poly1305_MACBYTES: number = 16;
/** crypto_secretbox_xchacha20poly1305: the longest message, as libsodium-wrappers reads it from 32-bit memory. */
export const crypto_secretbox_xchacha20poly1305_MESSAGEBYTES_MAX: number = -17;
