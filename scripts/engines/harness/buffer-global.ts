/**
 * Injected into browser test bundles: makes the global `Buffer` (used by the
 * tests as Node's Uint8Array subclass) the npm `buffer` package's.
 */
export { Buffer } from 'buffer';
