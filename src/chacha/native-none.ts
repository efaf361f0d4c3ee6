/**
 * native.ts as browser bundles see it (package.json's "browser" field
 * puts this file in its place): no node:crypto to reach, so every call
 * stays on fourfold's own tier and a page carries none of the native
 * tier's code. Node, Deno and Bun load native.ts itself; a bundler that
 * ignores the field ships native.ts, which finds no node:crypto in a
 * browser and changes nothing either.
 */
import type * as Native from './native.js';

const absent = (): never => {
  throw new Error('node:crypto is not part of a browser build');
};

export const PIECEWISE_FROM: typeof Native.PIECEWISE_FROM = 4 << 20;
export const NATIVE_PIECE: typeof Native.NATIVE_PIECE = 128 << 10;
export const COPIED_PIECEWISE_FROM: typeof Native.COPIED_PIECEWISE_FROM = 1 << 20;
export const NATIVE_KEY: typeof Native.NATIVE_KEY = new Uint8Array(32);
export const nativeSeal: typeof Native.nativeSeal = absent;
export const nativeOpen: typeof Native.nativeOpen = absent;
export const nativeXor: typeof Native.nativeXor = absent;
export const nativeOver: typeof Native.nativeOver = (base) => () => base;
export const nativeFirst: typeof Native.nativeFirst = (select) => select;
