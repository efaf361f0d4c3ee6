/**
 * What ChaCha's error tests share (errors.test.ts, aead-errors.test.ts):
 * the predicates of a TypeError or RangeError naming an argument, and the
 * values that are not bytes.
 */

export const typeErr = (arg: string) => (e: unknown) => e instanceof TypeError && e.message.includes(arg);
export const rangeErr = (arg: string) => (e: unknown) => e instanceof RangeError && e.message.includes(arg);
export const typeOrRange = (e: unknown) => e instanceof TypeError || e instanceof RangeError;

/** Values that are not Uint8Arrays, for any argument. */
export const NOT_BYTES: unknown[] = [
  'abcdefghijklmnopqrstuvwxyz012345',
  [1, 2, 3],
  new Uint16Array(16),
  new Int8Array(32),
  new Uint8ClampedArray(32),
  new ArrayBuffer(32),
  new DataView(new ArrayBuffer(32)),
  {},
  42,
  true,
];
/** Required arguments also reject the absent values. */
export const NOT_BYTES_REQUIRED: unknown[] = [undefined, null, ...NOT_BYTES];
