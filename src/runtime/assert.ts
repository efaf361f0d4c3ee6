/**
 * Argument checks shared by every primitive. Each names the argument it
 * checks, so a user sees which one is wrong. Wrong types throw TypeError;
 * wrong lengths and values out of range throw RangeError.
 */

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'Array';
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'object';
  return typeof value;
}

/** A Uint8Array (or subclass such as Buffer) whose buffer is not detached. */
export function bytes(value: unknown, name: string, length?: number): Uint8Array {
  // The common case first, cheaply (it runs on every call of every
  // primitive): a view of nonzero length cannot be on a detached buffer.
  if (value instanceof Uint8Array && value.length !== 0 && (length === undefined || value.length === length)) return value;
  return checkBytes(value, name, length);
}

function checkBytes(value: unknown, name: string, length?: number): Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new TypeError(`${name} must be a Uint8Array, got ${describe(value)}`);
  }
  // Every view on a detached buffer has length 0, so only empty views need the check.
  if (value.byteLength === 0 && isDetached(value.buffer)) {
    throw new TypeError(`${name} is backed by a detached ArrayBuffer`);
  }
  if (length !== undefined && value.length !== length) {
    throw new RangeError(`${name} must be ${length} bytes, got ${value.length}`);
  }
  return value;
}

function isDetached(buffer: ArrayBufferLike): boolean {
  if (buffer.byteLength !== 0) return false;
  const flag = (buffer as { detached?: boolean }).detached;
  if (flag !== undefined) return flag;
  // Engines without ArrayBuffer.prototype.detached: a view on a detached
  // buffer cannot be constructed (and a view allocates no memory, unlike slice).
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** A key of one of `lengths` bytes (the first is the one to check first: the common one). */
export function key(value: unknown, lengths: readonly number[]): Uint8Array {
  const k = bytes(value, 'key');
  if (k.length !== lengths[0] && !lengths.includes(k.length)) {
    const list = lengths.length === 1 ? `${lengths[0]}` : `${lengths.slice(0, -1).join(', ')} or ${lengths[lengths.length - 1]}`;
    throw new RangeError(`key must be ${list} bytes, got ${k.length}`);
  }
  return k;
}

/** An optional output buffer of exactly `length` bytes, or a new one. */
export function output(value: unknown, length: number, name = 'output'): Uint8Array {
  if (value === undefined) return new Uint8Array(length);
  return bytes(value, name, length);
}

/**
 * Slices are copied through linear memory front to back, so an output that
 * overlaps its input at a different offset would read bytes it already wrote.
 * The same bytes (in-place) are fine.
 */
export function noPartialOverlap(input: Uint8Array, out: Uint8Array, name = 'output'): void {
  if (input.buffer !== out.buffer) return;
  const a = input.byteOffset;
  const b = out.byteOffset;
  if (a === b) return;
  if (a < b + out.length && b < a + input.length) {
    throw new RangeError(`${name} must be the input itself or not overlap it`);
  }
}

/**
 * A block counter: a non-negative integer below 2^bits, as a number or a
 * bigint. Returns it as a number when it is below 2^53 (every number
 * counter, so the common case needs no BigInt arithmetic), else as a bigint.
 */
export function counter(value: unknown, bits: 32 | 64, name = 'counter'): number | bigint {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
    }
    if (bits === 32 && value > 0xffffffff) throw new RangeError(`${name} must be at most 2^32 - 1, got ${value}`);
    return value;
  }
  if (typeof value === 'bigint') {
    if (value < 0n || value >= 1n << BigInt(bits)) {
      throw new RangeError(`${name} must be between 0 and 2^${bits} - 1, got ${value}`);
    }
    return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }
  throw new TypeError(`${name} must be a number or a bigint, got ${describe(value)}`);
}
