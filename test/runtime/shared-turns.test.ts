/**
 * The calls that work alone on the calling thread, in pieces of
 * milliseconds (argon2idAsync, argon2Verify, scryptAsync), share their
 * turns of the event loop (pool/turns.ts sharedTicker): with several at
 * once, about one piece runs a turn of the event loop, not one piece of
 * each call (their first pieces, as they start, included), and the oldest
 * call goes first. Pieces are counted by the calls'
 * progress reports (one a piece), turns of the event loop by a macrotask that
 * sets itself again: no timing.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { argon2idAsync } from 'fourfold/argon2';
import { scryptAsync } from 'fourfold/scrypt';
import { forEachTier, type TierName } from '../helpers.js';

/** Calls at once: a login burst in small. */
const CALLS = 6;

interface Burst {
  /** Progress reports (one a piece) and turns of the event loop while the calls were pending. */
  pieces: number;
  turns: number;
  /** The calls in the order they ended. */
  ended: number[];
}

/**
 * A macrotask from the source the calls' turns come from (pool/turns.ts):
 * setImmediate, else a message on a channel, else (workerd, whose
 * messages run ahead of its timers) setTimeout. A timer elsewhere would
 * not count turns: browsers clamp it to 4 ms and may run several messages
 * before it.
 */
function turnSource(): { next(f: () => void): void; close(): void } {
  const workerd = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
  if (typeof setImmediate === 'function') return { next: (f) => setImmediate(f), close: () => {} };
  if (typeof MessageChannel !== 'function' || workerd) return { next: (f) => setTimeout(f, 0), close: () => {} };
  const channel = new MessageChannel();
  let waiting: (() => void) | undefined;
  channel.port1.onmessage = () => waiting?.();
  return {
    next: (f) => {
      waiting = f;
      channel.port2.postMessage(null);
    },
    close: () => channel.port1.close(),
  };
}

/** Starts CALLS calls of `call` at once, a turn of the event loop counted meanwhile; counts the calls' reports and the turns. */
async function burst(call: (onProgress: (f: number) => void) => Promise<unknown>): Promise<Burst> {
  let pieces = 0;
  let turns = 0;
  let pending = true;
  const source = turnSource();
  const turn = (): void => {
    if (!pending) return;
    turns++;
    source.next(turn);
  };
  source.next(turn);
  const ended: number[] = [];
  const calls = Array.from({ length: CALLS }, (_, i) =>
    call((f) => {
      if (f < 1) pieces++;
    }).then(() => ended.push(i)),
  );
  await Promise.all(calls);
  pending = false;
  source.close();
  return { pieces, turns, ended };
}

/** Each call several pieces long on its tier (a piece is about 8 ms). */
const ARGON2_M = (tier: TierName) => (tier === 'simd' ? 8192 : 1024);
const SCRYPT_N = (tier: TierName) => (tier === 'simd' ? 2 ** 15 : 2 ** 12);

const CALLERS: [string, (tier: TierName) => (onProgress: (f: number) => void) => Promise<unknown>][] = [
  ['argon2idAsync', (tier) => (onProgress) => argon2idAsync('pw', 'somesalt', { m: ARGON2_M(tier), t: 3, onProgress })],
  ['scryptAsync', (tier) => (onProgress) => scryptAsync('pw', 'salt', { N: SCRYPT_N(tier), onProgress })],
];

forEachTier('calls at once share the turns of the event loop', (tier) => {
  for (const [name, caller] of CALLERS) {
    it(`${name}: ${CALLS} at once run about one piece a turn of the event loop, the first call ending first`, async () => {
      const { pieces, turns, ended } = await burst(caller(tier));
      // One piece a turn, where a ticker each made up to CALLS: the bound is on the average.
      assert.ok(pieces <= 1.5 * turns, `${pieces} pieces ran in ${turns} turns of the event loop (${CALLS} calls at once)`);
      assert.equal(ended[0], 0, `the calls ended in the order ${ended}`);
    });
  }
});
