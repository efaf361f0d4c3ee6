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

/**
 * A state handle. What it holds is in private fields, which no code but
 * this class's reads or changes: `kind` is the caller's to read (a
 * label; changing it changes nothing). Not frozen and not in a WeakMap:
 * at 64 bytes, Object.freeze took a tenth of crypto_generichash's
 * init/update/final in Node 20 and the weak tables' entries half of
 * secretstream's init_pull and pull (the garbage collector's work). After
 * the state ends, #live is false: a handle made here, but unknown.
 */
class Handle implements State {
  readonly kind: string;
  readonly #kind: string;
  #inner: unknown;
  #live = true;
  constructor(kind: string, inner: unknown) {
    this.kind = kind;
    this.#kind = kind;
    this.#inner = inner;
  }
  /** The live `handle`'s held object if it is of `kind`; `undefined` for an ended state; `null` for anything not made here. */
  static innerOf(handle: object, kind: string): unknown {
    if (!(#live in handle)) return null;
    if (!handle.#live) return undefined;
    if (handle.#kind !== kind) throw new Error('invalid usage');
    return handle.#inner;
  }
  /** Ends a live handle: what it held, for its destroy(); `undefined` for an ended state; `null` for anything not made here. */
  static end(handle: object): unknown {
    if (!(#live in handle)) return null;
    if (!handle.#live) return undefined;
    handle.#live = false;
    const inner = handle.#inner;
    handle.#inner = undefined;
    return inner;
  }
}

/** A new state of `kind` holding `inner` (a hasher, a MAC, a stream's keys). */
export const openState = <S extends State>(kind: S['kind'], inner: unknown): S => new Handle(kind, inner) as unknown as S;

/** A number libsodium.js would take as an address: what it says of one it does not hold. */
const addressLike = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 0xffffffff;

/**
 * What the live state `handle` of `kind` holds, or libsodium.js's errors:
 * a TypeError for null, undefined and what is no state ("state_address
 * is not a valid address"), an Error for an ended one ("state_address is
 * unknown"), "invalid usage" for another family's state.
 */
export function liveState<T>(handle: unknown, kind: string): T {
  if (handle === null || handle === undefined) throw new TypeError('state_address cannot be null or undefined');
  const inner = typeof handle === 'object' ? Handle.innerOf(handle, kind) : null;
  if (inner !== undefined && inner !== null) return inner as T;
  if (inner === undefined || addressLike(handle)) throw new Error('state_address is unknown');
  throw new TypeError('state_address is not a valid address');
}

/** Ends a state: later calls with it throw "state_address is unknown"; a hasher held is destroyed (its keys wiped). */
export function endState(handle: unknown): void {
  if (typeof handle !== 'object' || handle === null) return;
  (Handle.end(handle) as { destroy?: () => void } | null | undefined)?.destroy?.();
}

/** libsodium.js's free: ends a state its _final will not end (one abandoned, a stream done with), with liveState's errors for anything else. */
export function free(state_address: unknown): void {
  if (state_address === null || state_address === undefined) throw new TypeError('state_address cannot be null or undefined');
  const inner = typeof state_address === 'object' ? Handle.end(state_address) : null;
  if (inner !== undefined && inner !== null) {
    (inner as { destroy?: () => void }).destroy?.();
    return;
  }
  if (inner === undefined || addressLike(state_address)) throw new Error('state_address is unknown');
  throw new TypeError('state_address is not a valid address');
}
