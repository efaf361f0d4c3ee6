/**
 * native.ts as browser bundles see it (package.json's "browser" field puts
 * this file in its place): no node:crypto, so fourfold/sodium's curves and
 * SHA-2 stay on @noble's JavaScript and a page carries none of this path.
 */
import type * as Native from './native.js';

export type { NativeCurves, NativeHashes } from './native.js';
export const nativeCurves: typeof Native.nativeCurves = () => undefined;
export const nativeHashes: typeof Native.nativeHashes = () => undefined;
