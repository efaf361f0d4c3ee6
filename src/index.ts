/**
 * fourfold: symmetric cryptography for every JavaScript engine, with
 * WebAssembly SIMD kernels and a pure-JavaScript fallback giving the same
 * bytes.
 */
export { ready, simdUnavailable, tier, type ReadyOptions, type Tier } from './runtime/kernels.js';
export { useKernels } from './runtime/use-kernels.js';
export { AuthenticationError } from './runtime/errors.js';
export * from './chacha/index.js';
export * from './poly1305/index.js';
export * from './blake3/index.js';
export * from './blake2/index.js';
export * from './salsa/index.js';
export * from './scrypt/index.js';
export * from './argon2/index.js';
/** Serpent in the ECB, CBC and CTR modes (fourfold/serpent). */
export * as serpent from './serpent/index.js';
/** libsodium's secretstream, and web streams that encrypt and decrypt a byte stream of any length (fourfold/secretstream). */
export * as secretstream from './secretstream/index.js';
/** age files and streams (fourfold/age): encrypt, decrypt, encryptStream, decryptStream, decryptRange, keys. */
export * as age from './age/index.js';
