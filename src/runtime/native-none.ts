/**
 * native.ts as browser bundles see it (package.json's "browser" field
 * puts this file in its place): no runtime with node:crypto, and results
 * are plain zeroed arrays.
 */
import type * as Native from './native.js';

export type { NativeScrypt, NativeX25519, NodeCipher, NodeCrypto, ScryptParams, Sha256Kdf } from './native.js';
export const RUNTIME: typeof Native.RUNTIME = undefined;
export const cpuVendor: typeof Native.cpuVendor = () => undefined;
export const nodeCrypto: typeof Native.nodeCrypto = () => undefined;
export const nativeScrypt: typeof Native.nativeScrypt = () => undefined;
export const nativeSha256: typeof Native.nativeSha256 = () => undefined;
export const nativeX25519: typeof Native.nativeX25519 = () => undefined;
export const randomBytes: typeof Native.randomBytes = (length) => crypto.getRandomValues(new Uint8Array(length));
export const toBeWritten: typeof Native.toBeWritten = (length) => new Uint8Array(length);
export const CAN_GROW: typeof Native.CAN_GROW = false;
export const grown: typeof Native.grown = () => undefined;
