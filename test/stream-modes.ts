/**
 * The calling modes of a stream cipher's synchronous call (ChaCha20's and
 * Salsa20's families): new output, in place, caller output, unaligned
 * views with guard bytes, Buffer input, each against a peer's bytes; and
 * counters to call them with.
 */
import assert from 'node:assert/strict';
import { assertBytes, blocksOf, guarded, rand, TWO64 } from './helpers.js';

/** A stream cipher's synchronous call: key, nonce, data, optional output and counter. */
export type StreamFn = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter?: number | bigint) => Uint8Array;

/** Calls `fn` with `counter` only when one is given (so the function's own default is tested too). */
export function callStream(
  fn: StreamFn,
  key: Uint8Array,
  nonce: Uint8Array,
  data: Uint8Array,
  output: Uint8Array | undefined,
  counter: number | bigint | undefined,
) {
  return counter === undefined ? fn(key, nonce, data, output) : fn(key, nonce, data, output, counter);
}

/** A random 64-bit counter (bigint) that leaves room for `len` bytes. */
export function randomCounter64(len: number): bigint {
  const r = Buffer.from(rand(8)).readBigUInt64LE(0);
  return r % (TWO64 - BigInt(Math.max(blocksOf(len), 1)) + 1n);
}

/**
 * Checks `fn` in every calling mode against `expected` (from a peer): new
 * output, in place, and with `all` also caller output, unaligned
 * key/nonce/input/output views with guard bytes (at `offsets`, chosen by
 * the length), unaligned in place, Buffer input.
 */
export function checkStreamModes(
  fn: StreamFn,
  label: string,
  key: Uint8Array,
  nonce: Uint8Array,
  data: Uint8Array,
  counter: number | bigint | undefined,
  expected: Uint8Array,
  all = true,
  offsets: readonly [number, number, number] = [1, 3, 7],
): void {
  const len = data.length;
  const input = data.slice();
  const r1 = callStream(fn, key, nonce, input, undefined, counter);
  assertBytes(r1, expected, `${label}: new output`);
  assert.notEqual(r1, input, `${label}: without an output the input must not be overwritten`);
  assertBytes(input, data, `${label}: input modified`);

  const buf = data.slice();
  const r3 = callStream(fn, key, nonce, buf, buf, counter);
  assert.equal(r3, buf, `${label}: in place must return the output`);
  assertBytes(buf, expected, `${label}: in place`);
  if (!all) return;

  const out = new Uint8Array(len).fill(0x5a);
  const r2 = callStream(fn, key, nonce, data, out, counter);
  assert.equal(r2, out, `${label}: caller output must be returned`);
  assertBytes(out, expected, `${label}: caller output`);

  const o = offsets[len % 3]!;
  const gi = guarded(data, o);
  const go = guarded(new Uint8Array(len), offsets[(len + 1) % 3]!);
  const gk = guarded(key, offsets[(len + 2) % 3]!);
  const gn = guarded(nonce, o);
  const r4 = callStream(fn, gk.view, gn.view, gi.view, go.view, counter);
  assert.equal(r4, go.view, `${label}: unaligned output must be returned`);
  assertBytes(go.view, expected, `${label}: unaligned input/output/key/nonce`);
  assertBytes(gi.view, data, `${label}: unaligned input modified`);
  assert.ok(gi.intact() && go.intact() && gk.intact() && gn.intact(), `${label}: wrote outside the views`);

  const gp = guarded(data, offsets[(len + 1) % 3]!);
  const r5 = callStream(fn, key, nonce, gp.view, gp.view, counter);
  assert.equal(r5, gp.view);
  assertBytes(gp.view, expected, `${label}: unaligned in place`);
  assert.ok(gp.intact(), `${label}: unaligned in place wrote outside the view`);

  const b = Buffer.from(data);
  assertBytes(callStream(fn, key, nonce, b, undefined, counter), expected, `${label}: Buffer input`);
}
