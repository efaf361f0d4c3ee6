/**
 * Brand checks: the platform's intrinsic getters, captured before any user
 * code runs and called on an object to read its internal slots. A getter
 * of another class's slots throws, so each is also a test of what the
 * object is, whatever its prototype or realm (assert.ts's argument checks
 * and bytes.ts's view of shared memory build on these).
 */

export const U8: Uint8Array = Uint8Array.prototype;
export const isView = ArrayBuffer.isView;
const TYPED_ARRAY = Object.getPrototypeOf(U8) as object;
const call = Function.prototype.call;

/** The intrinsic getter `property` of `proto` as a function of the object (`getter.call(self)`), captured before any user code runs. */
export function intrinsic<T>(proto: object, property: PropertyKey): (self: unknown) => T {
  return call.bind(Object.getOwnPropertyDescriptor(proto, property)!.get!) as (self: unknown) => T;
}

/** The typed array's kind ('Uint8Array', 'Float64Array', ...) from its internal slot, or undefined for anything else (never throws). */
export const typedArrayName = intrinsic<string | undefined>(TYPED_ARRAY, Symbol.toStringTag);
export const bufferOf = intrinsic<ArrayBufferLike>(TYPED_ARRAY, 'buffer');
export const byteOffsetOf = intrinsic<number>(TYPED_ARRAY, 'byteOffset');
export const byteLengthOf = intrinsic<number>(TYPED_ARRAY, 'byteLength');
export const lengthOf = intrinsic<number>(TYPED_ARRAY, 'length');
/** DataView's and the buffers' getters throw a TypeError for any other object: a brand check. */
export const dataViewBuffer = intrinsic<ArrayBufferLike>(DataView.prototype, 'buffer');
export const dataViewByteOffset = intrinsic<number>(DataView.prototype, 'byteOffset');
export const dataViewByteLength = intrinsic<number>(DataView.prototype, 'byteLength');
export const arrayBufferByteLength = intrinsic<number>(ArrayBuffer.prototype, 'byteLength');
export const sharedByteLength = typeof SharedArrayBuffer === 'function' ? intrinsic<number>(SharedArrayBuffer.prototype, 'byteLength') : undefined;

/** Whether `brand(value)` succeeds: the object has the internal slots of that getter's class. */
export function has(brand: ((self: unknown) => unknown) | undefined, value: unknown): boolean {
  if (brand === undefined) return false;
  try {
    brand(value);
    return true;
  } catch {
    return false;
  }
}

/** Whether `buffer` is a SharedArrayBuffer of any realm (this realm's ArrayBuffers answer without a brand check, which throws for them). */
export function isSharedBuffer(buffer: ArrayBufferLike): boolean {
  return !(buffer instanceof ArrayBuffer) && has(sharedByteLength, buffer);
}
