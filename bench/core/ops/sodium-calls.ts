/**
 * fourfold/sodium against libsodium-wrappers-sumo, call for call: both
 * have libsodium.js's API, so each op is one call written once against a
 * `sodium` object and bound to each library's (fourfold/sodium for the
 * fourfold columns, libsodium for 'sodium', the reference). What is timed
 * is the call as a libsodium.js program makes it: its argument checks,
 * its output's allocation, its result object.
 *
 * The ops are opt-in ('--profile=sodium', or --ops naming them): the
 * default run times the primitives through their own modules. They are
 * timed in the 'sizes' part only; an op without a message (a key
 * exchange, a scalar multiplication, a subkey) has the size of its output
 * (`takesSize` that one only), and the password hashes the memory of one call
 * (`sizeIsMemory`), as the other ops of those kinds do. Without libsodium
 * (an engine without WebAssembly) there is no reference and no peer, and
 * these ops are left out.
 */
import type * as FourfoldSodium from 'fourfold/sodium';
import type { Apis } from '../libraries.js';
import { defineOp, type Call, type OpDefinition, type OpEntry, type Shape } from './types.js';

/** libsodium.js's API, as fourfold/sodium types it: libsodium-wrappers-sumo is used through the same names and shapes. */
export type Sodium = typeof FourfoldSodium;

/** One op: its inputs, made with libsodium where a peer must seal or sign them, and the call bound to either library. */
export interface SodiumCall<I> {
  /** The op's name: 'sodium-' and the call's family. */
  readonly op: string;
  inputs(shape: Shape, peer: Sodium): I;
  /** The call to time, for `s` (either library), on the inputs bound once. */
  bind(s: Sodium, inputs: I): Call;
  /**
   * For a call whose output is random (a sealed box's ephemeral key, a
   * stream's header): what is checked instead, the same for every correct
   * library (its output opened by libsodium). Default: the output itself.
   */
  checked?(s: Sodium, peer: Sodium, inputs: I): Uint8Array;
  /** The sizes the call is defined at (default: every size): a call with no message its output's, a password hash the memory it takes. */
  takesSize?(size: number): boolean;
  /** A password hash: the size is the memory one call works in. */
  readonly sizeIsMemory?: boolean;
}

/** Erases a call's input type for the table, as defineOp does for ops. */
export const sodiumCall = <I>(call: SodiumCall<I>): SodiumCall<unknown> => call as unknown as SodiumCall<unknown>;

/** The one size of a call with no message: its output's. */
export const only =
  (fixed: number) =>
  (size: number): boolean =>
    size === fixed;

/** A call made afresh each time: `call(s, inputs)`. */
export const each =
  <I>(call: (s: Sodium, inputs: I) => Uint8Array) =>
  (s: Sodium, inputs: I): Call =>
  () =>
    call(s, inputs);

/** Two byte fields one after the other (a detached result, a session key pair), so one comparison checks both. */
export function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** A verdict as bytes: 1 for true, 0 for false. */
export const verdict = (ok: boolean): Uint8Array => Uint8Array.of(ok ? 1 : 0);

/** The fourfold columns of these ops: both tiers, as fourfold/sodium's calls follow the global tier. */
const FOURFOLD_COLUMNS = ['fourfold', 'fourfold-js'];

/** The op definitions of `calls`, for the libraries loaded; none without libsodium. */
export function sodiumOps(apis: Apis, calls: readonly SodiumCall<unknown>[]): OpDefinition<unknown>[] {
  const peer = apis.sodium as unknown as Sodium | undefined;
  if (peer === undefined) return [];
  const ours = apis.fourfold?.sodium;
  return calls.map((call) => {
    const entry = (library: string, s: Sodium): OpEntry<unknown> => ({
      library,
      bind: (inputs) => call.bind(s, inputs),
      ...(call.checked === undefined ? {} : { checkedOutput: (inputs: unknown) => call.checked!(s, peer, inputs) }),
    });
    return defineOp<unknown>({
      op: call.op,
      inputs: (shape) => call.inputs(shape, peer),
      ...(call.takesSize === undefined ? {} : { takesSize: call.takesSize }),
      ...(call.sizeIsMemory === true ? { sizeIsMemory: true } : {}),
      sizesOnly: true,
      optIn: true,
      reference: 'sodium',
      entries: [...(ours === undefined ? [] : FOURFOLD_COLUMNS.map((library) => entry(library, ours))), entry('sodium', peer)],
    });
  });
}
