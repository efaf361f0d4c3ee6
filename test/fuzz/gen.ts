/**
 * What the fuzzing's properties draw from (test/fuzz/properties.ts):
 * lengths biased to the edges of each primitive's blocks, bytes derived
 * from a drawn seed (so a counterexample prints, and shrinks, as a length
 * and a number rather than kilobytes), where a buffer lies (an offset into
 * a larger one, on a SharedArrayBuffer or not) with guard bytes around it,
 * splits of an input into the pieces a stream or update() is given,
 * counters near their limits, and which tiers a call can take.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ready } from 'fourfold';
import { type CallTier, CALL_TIERS, concat, DEFAULT_IS_OWN, NO_SIMD, readAll, TIERS } from '../helpers.js';

/** The tiers of a family's calls: 'default' too where it reaches node:crypto's ChaCha (the native tier). */
export function tiersOf(native: boolean): CallTier[] {
  return (native ? [...CALL_TIERS] : [...TIERS]).filter((t) => !(t === 'simd' && NO_SIMD) && !(t === 'default' && DEFAULT_IS_OWN));
}

/** Makes `tier` the active one: ready() naming none for 'default', else that tier. */
export async function selectTier(tier: CallTier): Promise<void> {
  if (tier === 'default') await ready();
  else assert.equal(await ready({ tier }), tier, `ready({ tier: '${tier}' })`);
}

/**
 * A length in [0, max]: one time in two an edge (each of `edges` and its
 * neighbours ±1, and ±2 around its multiples up to max), else uniform.
 */
export function lengthArb(max: number, edges: readonly number[]): fc.Arbitrary<number> {
  const near = new Set<number>([0, 1, 2]);
  for (const e of edges) for (let m = e; m <= max + 2 && m > 0; m += m < 4 * e ? e : 16 * e) for (const d of [-2, -1, 0, 1, 2]) near.add(m + d);
  const list = [...near].filter((n) => n >= 0 && n <= max).sort((a, b) => a - b);
  return fc.oneof(fc.constantFrom(...list), fc.integer({ min: 0, max }));
}

/** `n` bytes from a seed: xorshift32, not cryptographic, only varied (and quick to make megabytes of). */
export function bytesOf(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  const words = new Uint32Array(out.buffer, 0, n >>> 2);
  let x = (seed ^ 0x9e3779b9) >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  for (let i = words.length * 4; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Bytes of a drawn length: the length and the seed they come from. */
export const dataArb = (max: number, edges: readonly number[]): fc.Arbitrary<{ length: number; seed: number }> =>
  fc.record({ length: lengthArb(max, edges), seed: fc.nat() });

export const keyArb = (n: number): fc.Arbitrary<Uint8Array> => fc.uint8Array({ minLength: n, maxLength: n });

const HAS_SAB = typeof SharedArrayBuffer === 'function';

/** Where a buffer lies: at `offset` into a larger one, on a SharedArrayBuffer where `shared` (and the engine has them). */
export interface Layout {
  offset: number;
  shared: boolean;
}
export const layoutArb: fc.Arbitrary<Layout> = fc.record({ offset: fc.integer({ min: 0, max: 19 }), shared: fc.boolean() });

const GUARD = 0xa5;

/** A view of `data`'s bytes (or of `length` zero bytes) placed as `layout` says, with guard bytes on both sides. */
export function place(data: Uint8Array | number, layout: Layout): { view: Uint8Array; intact(): boolean } {
  const length = typeof data === 'number' ? data : data.length;
  const size = layout.offset + length + 13;
  const buf = new Uint8Array(layout.shared && HAS_SAB ? new SharedArrayBuffer(size) : new ArrayBuffer(size)).fill(GUARD);
  const view = buf.subarray(layout.offset, layout.offset + length);
  if (typeof data === 'number') view.fill(0);
  else view.set(data);
  return {
    view,
    intact: () => buf.subarray(0, layout.offset).every((b) => b === GUARD) && buf.subarray(layout.offset + length).every((b) => b === GUARD),
  };
}

/** Split points: fractions in [0, 1) that cut an input into the pieces a stream or update() gets. */
export const splitArb: fc.Arbitrary<number[]> = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 8 });

/** `data` cut at `cuts` (fractions of its length): pieces, empty ones included, that join to it again. */
export function cut(data: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = cuts.map((f) => Math.floor(f * (data.length + 1))).sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const to of [...at, data.length]) {
    pieces.push(data.subarray(from, Math.max(from, to)));
    from = Math.max(from, to);
  }
  return pieces;
}

/**
 * A block counter that leaves room for `blocks` blocks below `limit`
 * (2^32 or 2^64): one time in three at the top, where the last block is
 * the last one, else anywhere; as a bigint or, where `asNumber` and it is
 * safe, a number; undefined (the call's own default, 0) one time in eight.
 */
export interface CounterDraw {
  kind: 'none' | 'top' | 'any';
  value: bigint;
  asNumber: boolean;
}
export const counterArb: fc.Arbitrary<CounterDraw> = fc.record({
  kind: fc.oneof({ weight: 1, arbitrary: fc.constant('none' as const) }, { weight: 3, arbitrary: fc.constantFrom('top' as const, 'any' as const) }),
  value: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  asNumber: fc.boolean(),
});

export function counterFor(draw: CounterDraw, limit: bigint, blocks: number): number | bigint | undefined {
  if (draw.kind === 'none') return undefined;
  const max = limit - BigInt(Math.max(blocks, 1));
  const back = draw.value % 3n;
  const c = draw.kind === 'top' ? (back > max ? 0n : max - back) : draw.value % (max + 1n);
  return draw.asNumber && c <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(c) : c;
}

/** Flips bit `bit` (taken modulo its length in bits) of a copy of `b`. */
export function flipped(b: Uint8Array, bit: number): Uint8Array {
  const out = b.slice();
  const at = bit % (out.length * 8);
  out[at >> 3]! ^= 1 << (at & 7);
  return out;
}

export const isZero = (b: Uint8Array): boolean => b.every((x) => x === 0);

export function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `parts` joined into one array. */
export const join = (parts: readonly Uint8Array[]): Uint8Array => concat(...parts);

/** All of a readable stream's bytes, joined. */
export const drain = async (readable: ReadableStream<Uint8Array>): Promise<Uint8Array> => join(await readAll(readable));

/** A readable stream of `pieces`, in order. */
export function streamOf(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < pieces.length) controller.enqueue(pieces[i++]!.slice());
      else controller.close();
    },
  });
}
