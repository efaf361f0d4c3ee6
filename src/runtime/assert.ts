/**
 * Argument checks shared by every primitive. Each names the argument it
 * checks, so a user sees which one is wrong. Wrong types throw TypeError;
 * wrong lengths and values out of range throw RangeError.
 *
 * No user code runs inside a call. A Uint8Array is recognised by its brand
 * (the internal slots that the intrinsic %TypedArray%.prototype getters
 * read), never by properties its object or prototype may override, so one
 * from another realm (an iframe, node:vm, a test runner's environment) is
 * accepted as @noble's functions accept it. Anything but a plain Uint8Array
 * of this realm (a subclass such as Buffer, a foreign array) is replaced by
 * a plain view of the same bytes: a later subarray(), slice() or set() then
 * cannot reach a Symbol.species constructor, an overridden method or a
 * getter. (Own properties defined on a plain Uint8Array instance itself are
 * not looked for: like a patched Uint8Array.prototype, that changes the
 * platform's objects, which no library can defend against.)
 */

import {
  arrayBufferByteLength,
  bufferOf,
  byteLengthOf,
  byteOffsetOf,
  dataViewBuffer,
  dataViewByteLength,
  dataViewByteOffset,
  has,
  intrinsic,
  isSharedBuffer,
  isView,
  lengthOf,
  sharedByteLength,
  typedArrayName,
  U8,
} from './brands.js';
import type { Bytes } from './bytes.js';

/**
 * What a message calls a Promise given where a value belongs: most often a
 * call's result used without `await` (a post-quantum identityToRecipient,
 * an async KDF, a parallel call).
 */
const PROMISE = 'a Promise: missing await?';

/**
 * A short name of what `value` is, for error messages ("got ..."), found
 * without reading any of its properties (which could run user code); a
 * Promise's says what was likely meant (PROMISE), so that every argument
 * of every family that names what it got gives the hint. The one
 * exception: telling a Promise from another object asks for its prototype,
 * which a Proxy's trap answers; the call is throwing by then, and does
 * nothing after.
 */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  const name = typedArrayName(value);
  if (name !== undefined) return name;
  try {
    if (Array.isArray(value)) return 'Array';
  } catch {
    // A revoked Proxy.
  }
  if (has(arrayBufferByteLength, value)) return 'ArrayBuffer';
  if (has(sharedByteLength, value)) return 'SharedArrayBuffer';
  if (has(dataViewBuffer, value)) return 'DataView';
  return isPromise(value) ? PROMISE : 'object';
}

/** Whether `value` is a Promise of this realm (asked of its prototype: see describe), which no argument is. */
export function isPromise(value: unknown): boolean {
  try {
    return value instanceof Promise;
  } catch {
    // A Proxy whose trap threw.
    return false;
  }
}

/** Arguments that hold random bytes: text is never what they want. */
const RANDOM = ['nonce', 'iv', 'header'];

/**
 * What `value` is, and where that is a usual mistake, what to write
 * instead: the end of a TypeError's message for an argument `name` that
 * must be bytes.
 */
function gotInsteadOfBytes(value: unknown, name: string): string {
  const kind = describe(value);
  switch (kind) {
    case 'string':
      if (name === 'key') return 'string: a key is random bytes, not text (for a password, derive a key with a KDF such as Argon2id, scrypt or PBKDF2)';
      if (RANDOM.includes(name)) return `string: a ${name} is bytes (a random one: crypto.getRandomValues(new Uint8Array(length)))`;
      return 'string: for text, pass new TextEncoder().encode(text)';
    case 'ArrayBuffer':
    case 'SharedArrayBuffer':
      return `${kind}: view it as new Uint8Array(buffer)`;
    case 'Array':
      return 'Array: convert it with Uint8Array.from(array)';
    case PROMISE:
    case 'object':
    case 'null':
    case 'undefined':
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'symbol':
    case 'function':
      return kind;
    default:
      // Another typed array, or a DataView.
      return `${kind}: view its bytes as new Uint8Array(view.buffer, view.byteOffset, view.byteLength)`;
  }
}

const abortSignalAborted = typeof AbortSignal === 'function' ? intrinsic<boolean>(AbortSignal.prototype, 'aborted') : undefined;
const abortSignalReason =
  typeof AbortSignal === 'function' && Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'reason') !== undefined
    ? intrinsic<unknown>(AbortSignal.prototype, 'reason')
    : undefined;

/** An AbortSignal, recognised by its brand (the platform's `aborted` getter), so that reading it later runs no user code. */
export function abortSignal(value: unknown, name: string): AbortSignal {
  if (!has(abortSignalAborted, value)) throw new TypeError(`${name} must be an AbortSignal, got ${describe(value)}`);
  return value as AbortSignal;
}

/**
 * Throws what an aborted `signal` says (its reason, or an AbortError where
 * the engine keeps none), through the platform's getters only.
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal === undefined || !abortSignalAborted!(signal)) return;
  const reason = abortSignalReason?.(signal);
  throw reason !== undefined ? reason : new DOMException('The operation was aborted', 'AbortError');
}

/**
 * Whether `buffer` is detached, asked only of empty views (every view on a
 * detached buffer has length 0): a view on a detached buffer cannot be
 * constructed, and constructing one reads no property (nor allocates memory).
 */
function isDetached(buffer: ArrayBufferLike): boolean {
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * A Uint8Array of any realm, or a subclass such as Buffer, whose buffer is
 * not detached: returned as a plain Uint8Array of this realm (the value
 * itself when it is one, else a view of its bytes).
 */
export function bytes(value: unknown, name: string, length?: number): Uint8Array {
  // The common case first, cheaply (it runs on every call of every primitive): a plain
  // Uint8Array of nonzero length (which cannot be on a detached buffer). isView (ArrayBuffer's)
  // reads internal slots, so a Proxy (which has none, and whose traps are user code) goes
  // to the checks below before instanceof or an element read could reach a trap. Reading
  // an element runs no user code on a typed array and gives the JIT the object's shape,
  // after which the prototype check is a constant (without it, V8 calls getPrototypeOf:
  // 10-15 ns).
  if (isView(value) && value instanceof Uint8Array && value[0] >= 0 && Object.getPrototypeOf(value) === U8 && (length === undefined || value.length === length))
    return value;
  return checkBytes(value, name, length);
}

function checkBytes(value: unknown, name: string, length?: number): Uint8Array {
  if (typedArrayName(value) !== 'Uint8Array') {
    throw new TypeError(`${name} must be a Uint8Array, got ${gotInsteadOfBytes(value, name)}`);
  }
  const n = lengthOf(value);
  if (n === 0 && isDetached(bufferOf(value))) {
    throw new TypeError(`${name} is backed by a detached ArrayBuffer`);
  }
  if (length !== undefined && n !== length) {
    throw new RangeError(`${name} must be ${length} bytes, got ${n}`);
  }
  if (Object.getPrototypeOf(value) === U8) return value as Uint8Array;
  return new Uint8Array(bufferOf(value), byteOffsetOf(value), n);
}

/**
 * What a byte stream may carry (any ArrayBufferView, an ArrayBuffer or a
 * SharedArrayBuffer, of any realm), as a plain Uint8Array of its bytes.
 */
export function byteSource(value: unknown, name: string): Uint8Array {
  const kind = typedArrayName(value);
  if (kind === 'Uint8Array') return bytes(value, name);
  let view: [ArrayBufferLike, number, number] | undefined;
  if (kind !== undefined) {
    view = [bufferOf(value), byteOffsetOf(value), byteLengthOf(value)];
  } else if (has(dataViewBuffer, value)) {
    const buffer = dataViewBuffer(value);
    // DataView's offset and length getters throw on a detached buffer.
    view = isDetached(buffer) ? [buffer, 0, 0] : [buffer, dataViewByteOffset(value), dataViewByteLength(value)];
  } else if (has(arrayBufferByteLength, value)) {
    // 0 when detached.
    view = [value as ArrayBuffer, 0, arrayBufferByteLength(value)];
  } else if (has(sharedByteLength, value)) {
    view = [value as SharedArrayBuffer, 0, sharedByteLength!(value)];
  }
  if (view === undefined) {
    const got = describe(value);
    const what = got === 'string' ? 'string: for text, pipe it through a TextEncoderStream first' : got;
    throw new TypeError(`${name} must be an ArrayBuffer, a SharedArrayBuffer or an ArrayBufferView, got ${what}`);
  }
  const [buffer, offset, length] = view;
  if (length === 0 && isDetached(buffer)) throw new TypeError(`${name} is backed by a detached ArrayBuffer`);
  return new Uint8Array(buffer, offset, length);
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

/**
 * An optional output buffer of exactly `length` bytes (as a plain view to
 * write through: the public function still returns the caller's object),
 * or a new one.
 */
export function output(value: unknown, length: number, name = 'output'): Uint8Array {
  if (value === undefined) return new Uint8Array(length);
  return bytes(value, name, length);
}

/**
 * Whether views `input` and `out` lie in one memory, so their byteOffsets
 * compare. Usually their buffers tell; but two SharedArrayBuffer objects can
 * be one memory (structuredClone of one, one posted twice to a worker, or
 * a shared WebAssembly.Memory's buffer before and after grow(), which
 * differ in length), and only a write shows it: the output's first byte,
 * which the call overwrites anyway, is changed, read back through the
 * input's buffer at the same offset, and restored before the input is read.
 * An output that starts past the end of the input's buffer cannot overlap
 * the input, whatever the memory.
 */
export function sameMemory(input: Uint8Array, out: Uint8Array): boolean {
  const x = input.buffer;
  const y = out.buffer;
  if (x === y) return true;
  if (out.length === 0 || !isSharedBuffer(x) || !isSharedBuffer(y) || out.byteOffset >= sharedByteLength!(x)) return false;
  const there = new Uint8Array(x, out.byteOffset, 1);
  const saved = out[0]!;
  const probe = there[0]! ^ 0xff;
  out[0] = probe;
  const same = there[0] === probe;
  out[0] = saved;
  return same;
}

/** Whether `input` and `out` share any byte (sameMemory, and their ranges meet). */
export function overlapping(input: Uint8Array, out: Uint8Array): boolean {
  if (input.length === 0 || out.length === 0 || !sameMemory(input, out)) return false;
  const a = input.byteOffset;
  const b = out.byteOffset;
  return a < b + out.length && b < a + input.length;
}

/**
 * Slices are copied through linear memory front to back, so an output that
 * overlaps its input at a different offset would read bytes it already wrote.
 * The same bytes (in-place) are fine. Two SharedArrayBuffer objects over one
 * memory are one buffer here (sameMemory).
 */
export function noPartialOverlap(input: Uint8Array, out: Uint8Array, name = 'output'): void {
  if (input.byteOffset !== out.byteOffset && overlapping(input, out)) {
    throw new RangeError(`${name} must be the input itself or not overlap it`);
  }
}

/**
 * Throws unless `input` still has its `length` bytes and `out` (when
 * given) its `outLength`: an asynchronous call checks before each piece,
 * since a caller may detach (transfer) an array while the call is pending,
 * or resize the resizable ArrayBuffer under a length-tracking view.
 */
export function attached(length: number, input: Uint8Array, out?: Uint8Array, outLength = length): void {
  const inputChanged = input.length !== length;
  if (!inputChanged && (out === undefined || out.length === outLength)) return;
  const [name, view] = inputChanged ? ['input', input] : ['output', out!];
  const what = isDetached(view.buffer) ? 'detached' : 'resized (a resizable ArrayBuffer under a view that tracks its length)';
  throw new TypeError(`the ${name} was ${what} while the call ran`);
}

/** A count (bytes, workers): a non-negative safe integer. */
export function count(value: unknown, name: string): number {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  return value;
}

/**
 * A block counter: a non-negative integer below 2^bits, as a number or a
 * bigint (nothing else: an object's valueOf is never called). Returns it as
 * a number when it is below 2^53 (every number counter, so the common case
 * needs no BigInt arithmetic), else as a bigint.
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

/**
 * A new array of `length` bytes, a length the caller asked for: one the
 * engine cannot allocate (V8 stops at 2^32 or 2^53 - 1 elements, other
 * engines elsewhere, memory sooner) is a RangeError naming `name`.
 */
export function allocate(length: number, name: string): Bytes {
  try {
    return new Uint8Array(length);
  } catch (cause) {
    throw new RangeError(`${name}: ${length} bytes cannot be allocated here`, { cause });
  }
}

/** 1st, 2nd, 3rd, 4th...: a position in a short argument list. */
const ordinal = (n: number): string => ['1st', '2nd', '3rd'][n - 1] ?? `${n}th`;

/**
 * Refuses arguments past a call's own: `extra` are those after the
 * `parameters` of the call `name` (undefined ones aside, which a wrapper
 * passing its own on may add). A caller who passes one expects it to do something (another
 * library's call of that name takes it), and the call would ignore it;
 * `hint` says what they may have meant.
 */
export function noMoreArguments(name: string, parameters: readonly string[], extra: readonly unknown[], hint = ''): void {
  const at = extra.findIndex((a) => a !== undefined);
  if (at === -1) return;
  const n = parameters.length;
  throw new TypeError(
    `${name}(${parameters.join(', ')}) takes ${n} argument${n === 1 ? '' : 's'}, got a ${ordinal(n + at + 1)} (${describe(extra[at])})${hint}`,
  );
}

/** `words` as a sentence's list: "a", "a and b", "a, b and c". */
const list = (words: readonly string[]): string => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`);

/**
 * An options object (or undefined: none), whose fields the caller then
 * reads once each. A property that is none of the `known` options is
 * refused: a misspelt option (`length` for `dkLen`) would otherwise be
 * ignored, and the call would quietly do something else than was asked.
 */
export function options(value: unknown, name: string, known: readonly string[]): object | undefined {
  if (value === undefined) return undefined;
  // A Promise has no own properties: it would pass as options that ask for nothing.
  if (typeof value !== 'object' || value === null || isPromise(value)) throw new TypeError(`${name} must be an object, got ${describe(value)}`);
  for (const option of Object.keys(value)) {
    if (!known.includes(option)) throw new TypeError(`${name}: unknown option '${option}' (the options are ${list(known)})`);
  }
  return value;
}
