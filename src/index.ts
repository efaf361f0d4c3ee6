/**
 * fourfold: symmetric cryptography for every JavaScript engine, with
 * WebAssembly SIMD kernels that process four blocks per instruction and a
 * pure-JavaScript tier with identical outputs.
 */
export { ready, tier, type ReadyOptions, type Tier } from './runtime/kernels.js';
export { AuthenticationError } from './runtime/errors.js';
export * from './chacha/index.js';
export * from './poly1305/index.js';
export * from './blake3/index.js';
export * from './salsa/index.js';
export * as serpent from './serpent/index.js';
export * as secretstream from './secretstream/index.js';
