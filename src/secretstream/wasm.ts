/**
 * The ChaCha/Poly1305 kernel module, whose secretstream functions
 * (secretstream/kernel.ts) are linked into it: the same module instance as
 * the ChaCha family's, so a program using both compiles it once.
 */
export { chachaKernel as secretstreamKernel, type ChachaKernel as SecretstreamKernel } from '../chacha/wasm.js';
