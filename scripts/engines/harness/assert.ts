/**
 * A subset of `node:assert/strict` for browsers, where the bundler maps
 * `node:assert` and `node:assert/strict` to this module (Deno and Bun have
 * their own). Strict mode only: equal is Object.is, deepEqual is
 * deepStrictEqual. Covered: ok, equal, notEqual, deepEqual, notDeepEqual,
 * throws, doesNotThrow, rejects, doesNotReject, match, doesNotMatch, fail,
 * AssertionError; `throws`/`rejects` validate with a class, a RegExp, a
 * predicate or an object of expected properties, as Node does.
 */

export class AssertionError extends Error {
  actual: unknown;
  expected: unknown;
  operator: string;
  code = 'ERR_ASSERTION';
  constructor(options: { message?: string | Error; actual?: unknown; expected?: unknown; operator?: string; generated: string }) {
    super(options.message instanceof Error ? options.message.message : (options.message ?? options.generated));
    this.name = 'AssertionError';
    this.actual = options.actual;
    this.expected = options.expected;
    this.operator = options.operator ?? 'fail';
  }
}

type Message = string | Error | undefined;

function raise(message: Message, generated: string, actual?: unknown, expected?: unknown, operator?: string): never {
  if (message instanceof Error) throw message;
  throw new AssertionError({ message, generated, actual, expected, operator });
}

/** A short, deterministic rendering for failure messages (typed arrays as hex, truncated). */
function show(v: unknown, depth = 0): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 200 ? v.slice(0, 200) + '…' : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'function') return `[Function ${v.name || 'anonymous'}]`;
  if (typeof v !== 'object' || v === null) return String(v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const a = v as unknown as ArrayLike<number | bigint>;
    const items = Array.from({ length: Math.min(a.length, 32) }, (_, i) => String(a[i]));
    return `${v.constructor.name}(${a.length}) [${items.join(', ')}${a.length > 32 ? ', …' : ''}]`;
  }
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  if (depth > 2) return Array.isArray(v) ? '[Array]' : '[Object]';
  if (Array.isArray(v))
    return `[${v
      .slice(0, 20)
      .map((x) => show(x, depth + 1))
      .join(', ')}${v.length > 20 ? ', …' : ''}]`;
  const keys = Object.keys(v).slice(0, 20);
  return `{ ${keys.map((k) => `${k}: ${show((v as Record<string, unknown>)[k], depth + 1)}`).join(', ')} }`;
}

function isDeepEqual(a: unknown, b: unknown, seen = new Map<object, object>()): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof RegExp) return String(a) === String(b);
  if (a instanceof Error && (a.message !== (b as Error).message || a.name !== (b as Error).name)) return false;
  if (a instanceof ArrayBuffer) return isDeepEqual(new Uint8Array(a), new Uint8Array(b as ArrayBuffer), seen);
  if (ArrayBuffer.isView(a)) {
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array((b as ArrayBufferView).buffer, (b as ArrayBufferView).byteOffset, (b as ArrayBufferView).byteLength);
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    // Same bytes; never walk the index keys below (a million of them for 1 MiB).
    return true;
  }
  if (a instanceof Map) {
    const m = b as Map<unknown, unknown>;
    if (a.size !== m.size) return false;
    for (const [k, v] of a) if (!m.has(k) || !isDeepEqual(v, m.get(k), seen)) return false;
    return true;
  }
  if (a instanceof Set) {
    const s = b as Set<unknown>;
    if (a.size !== s.size) return false;
    for (const v of a) if (!s.has(v)) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = new Set(Object.keys(b));
  if (ka.length !== kb.size) return false;
  for (const k of ka) {
    if (!kb.has(k)) return false;
    if (!isDeepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], seen)) return false;
  }
  return true;
}

export function ok(value: unknown, message?: Message): void {
  if (!value) raise(message, `The expression evaluated to a falsy value: ${show(value)}`, value, true, '==');
}

export function equal(actual: unknown, expected: unknown, message?: Message): void {
  if (!Object.is(actual, expected))
    raise(message, `Expected values to be strictly equal:\n${show(actual)} !== ${show(expected)}`, actual, expected, 'strictEqual');
}

export function notEqual(actual: unknown, expected: unknown, message?: Message): void {
  if (Object.is(actual, expected)) raise(message, `Expected "actual" to be strictly unequal to: ${show(expected)}`, actual, expected, 'notStrictEqual');
}

export function deepEqual(actual: unknown, expected: unknown, message?: Message): void {
  if (!isDeepEqual(actual, expected))
    raise(message, `Expected values to be strictly deep-equal:\n${show(actual)}\n!==\n${show(expected)}`, actual, expected, 'deepStrictEqual');
}

export function notDeepEqual(actual: unknown, expected: unknown, message?: Message): void {
  if (isDeepEqual(actual, expected))
    raise(message, `Expected "actual" not to be strictly deep-equal to: ${show(expected)}`, actual, expected, 'notDeepStrictEqual');
}

export function fail(message: Message = 'Failed'): never {
  raise(message, 'Failed', undefined, undefined, 'fail');
}

export function match(value: string, re: RegExp, message?: Message): void {
  if (typeof value !== 'string' || !re.test(value))
    raise(message, `The input did not match the regular expression ${re}. Input:\n${show(value)}`, value, re, 'match');
}

export function doesNotMatch(value: string, re: RegExp, message?: Message): void {
  if (typeof value !== 'string' || re.test(value))
    raise(message, `The input was expected to not match the regular expression ${re}. Input:\n${show(value)}`, value, re, 'doesNotMatch');
}

type Expected = RegExp | ((e: unknown) => boolean) | (new (...a: never[]) => unknown) | Record<string, unknown>;

/** Node's rules for the `error` argument of throws/rejects. */
function check(actual: unknown, expected: Expected, message: Message, operator: string): void {
  if (expected instanceof RegExp) {
    if (expected.test(String(actual))) return;
    raise(message, `The error did not match the regular expression ${expected}:\n${show(actual)}`, actual, expected, operator);
  }
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && actual instanceof (expected as new () => unknown)) return;
    if (Object.prototype.isPrototypeOf.call(Error, expected) || expected === Error) {
      raise(message, `The error is expected to be an instance of "${expected.name}". Received ${show(actual)}`, actual, expected, operator);
    }
    if ((expected as (e: unknown) => boolean).call({}, actual) === true) return;
    raise(message, `The validation function is expected to return "true". Received false for ${show(actual)}`, actual, expected, operator);
  }
  for (const [k, v] of Object.entries(expected)) {
    const got = (actual as Record<string, unknown> | null)?.[k];
    if (v instanceof RegExp && typeof got === 'string' ? v.test(got) : isDeepEqual(got, v)) continue;
    raise(message, `The error's "${k}" is ${show(got)}, expected ${show(v)}`, actual, expected, operator);
  }
}

const NO_ERROR = Symbol('no error');

function split(expected: Expected | string | undefined, message: Message): [Expected | undefined, Message] {
  return typeof expected === 'string' ? [undefined, expected] : [expected, message];
}

export function throws(fn: () => unknown, expected?: Expected | string, message?: Message): void {
  const [exp, msg] = split(expected, message);
  let caught: unknown = NO_ERROR;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  if (caught === NO_ERROR) raise(msg, `Missing expected exception${msg ? `: ${msg}` : '.'}`, undefined, exp, 'throws');
  if (exp !== undefined) check(caught, exp, msg, 'throws');
}

export function doesNotThrow(fn: () => unknown, message?: Message): void {
  try {
    fn();
  } catch (e) {
    raise(typeof message === 'string' ? `${message}: ${show(e)}` : message, `Got unwanted exception: ${show(e)}`, e, undefined, 'doesNotThrow');
  }
}

export async function rejects(p: Promise<unknown> | (() => Promise<unknown>), expected?: Expected | string, message?: Message): Promise<void> {
  const [exp, msg] = split(expected, message);
  let caught: unknown = NO_ERROR;
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    caught = e;
  }
  if (caught === NO_ERROR) raise(msg, `Missing expected rejection${msg ? `: ${msg}` : '.'}`, undefined, exp, 'rejects');
  if (exp !== undefined) check(caught, exp, msg, 'rejects');
}

export async function doesNotReject(p: Promise<unknown> | (() => Promise<unknown>), message?: Message): Promise<void> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    raise(message, `Got unwanted rejection: ${show(e)}`, e, undefined, 'doesNotReject');
  }
}

export const strictEqual = equal;
export const notStrictEqual = notEqual;
export const deepStrictEqual = deepEqual;
export const notDeepStrictEqual = notDeepEqual;

/** `assert(value, message)` with every method attached, as `import assert from 'node:assert/strict'` gives. */
const assert = Object.assign((value: unknown, message?: Message) => ok(value, message), {
  AssertionError,
  ok,
  equal,
  notEqual,
  deepEqual,
  notDeepEqual,
  strictEqual,
  notStrictEqual,
  deepStrictEqual,
  notDeepStrictEqual,
  fail,
  match,
  doesNotMatch,
  throws,
  doesNotThrow,
  rejects,
  doesNotReject,
});
(assert as unknown as Record<string, unknown>).strict = assert;
export default assert;
