/**
 * The states of fourfold/sodium's incremental calls (the _init calls,
 * secretstream's `state`): objects where libsodium.js hands out heap
 * addresses, checked as libsodium.js's current source checks an address
 * (its _require_state_address), and `free`, which ends one. A state is
 * known from its _init until its _final (or `free`); after that it is
 * "unknown", as an address libsodium.js has freed.
 */

/** A state handle: which family made it; only that family's calls take it. */
export interface State {
  /** The family that made it (the name of its calls, e.g. 'crypto_generichash'). */
  readonly kind: string;
}

interface Entry {
  kind: string;
  inner: unknown;
}

/**
 * Gives an object of the caller's a private field: a constructor that
 * returns another object makes the subclass's fields that object's.
 */
class Stamped {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of the class: the fields go onto `target`.
    return target;
  }
}

/**
 * The entry of a handle, in a private field of the handle itself rather
 * than in a WeakMap: at 64 bytes, init_pull and pull took 3.3 us here,
 * half of it the garbage collector's work on the weak tables' entries
 * (WeakMap and WeakSet), against 0.9 us for libsodium.js. The field
 * stays after the state ends (`undefined` then): a handle that has one
 * was made here.
 */
class Handle extends Stamped {
  #entry: Entry | undefined;
  constructor(target: object, held: Entry) {
    super(target);
    this.#entry = held;
  }
  /** The live entry of `handle`; `undefined` for an ended state; `null` for anything not made here. */
  static entryOf(handle: object): Entry | undefined | null {
    return #entry in handle ? (handle as Handle).#entry : null;
  }
  static end(handle: object): void {
    if (#entry in handle) (handle as Handle).#entry = undefined;
  }
}

/** A new state of `kind` holding `inner` (a hasher, a MAC, a stream's keys). */
export function openState<S extends State>(kind: S['kind'], inner: unknown): S {
  const handle = { kind };
  new Handle(handle, { kind, inner });
  return Object.freeze(handle) as S;
}

/** A number libsodium.js would take as an address: what it says of one it does not hold. */
const addressLike = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 0xffffffff;

/**
 * The live state `handle` is, or libsodium.js's errors: a TypeError for
 * null, undefined and what is no state ("state_address is not a valid
 * address"), an Error for an ended one ("state_address is unknown").
 */
function entry(handle: unknown): Entry {
  if (handle === null || handle === undefined) throw new TypeError('state_address cannot be null or undefined');
  const e = typeof handle === 'object' ? Handle.entryOf(handle) : null;
  if (e !== undefined && e !== null) return e;
  if (e === undefined || addressLike(handle)) throw new Error('state_address is unknown');
  throw new TypeError('state_address is not a valid address');
}

/** What the live state of `kind` holds; another family's state is "invalid usage". */
export function liveState<T>(handle: unknown, kind: string): T {
  const e = entry(handle);
  if (e.kind !== kind) throw new Error('invalid usage');
  return e.inner as T;
}

/** Ends a state: later calls with it throw "state_address is unknown"; a hasher held is destroyed (its keys wiped). */
export function endState(handle: unknown): void {
  const e = typeof handle === 'object' && handle !== null ? Handle.entryOf(handle) : null;
  if (e === undefined || e === null) return;
  Handle.end(handle as object);
  (e.inner as { destroy?: () => void }).destroy?.();
}

/** libsodium.js's free: ends a state its _final will not end (one abandoned, a stream done with). */
export function free(state_address: unknown): void {
  entry(state_address);
  endState(state_address);
}
