/**
 * The calls that work alone on the calling thread, in pieces of
 * milliseconds (argon2idAsync, argon2Verify, scryptAsync), share their
 * turns of the event loop (pool/turns.ts sharedTicker): with several at
 * once, about one piece runs a turn of the event loop, not one piece of
 * each call (their first pieces, as they start, included), and the oldest
 * call goes first. Pieces are counted by the calls'
 * progress reports (one a piece), turns of the event loop by a timer that
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
  /** Progress reports (one a piece) and turns of the timer while the calls were pending. */
  pieces: number;
  turns: number;
  /** The calls in the order they ended. */
  ended: number[];
}

/** Starts CALLS calls of `call` at once, a timer turning meanwhile; counts the calls' reports and the timer's turns. */
async function burst(call: (onProgress: (f: number) => void) => Promise<unknown>): Promise<Burst> {
  let pieces = 0;
  let turns = 0;
  let pending = true;
  const turn = (): void => {
    if (!pending) return;
    turns++;
    setTimeout(turn, 0);
  };
  setTimeout(turn, 0);
  const ended: number[] = [];
  const calls = Array.from({ length: CALLS }, (_, i) =>
    call((f) => {
      if (f < 1) pieces++;
    }).then(() => ended.push(i)),
  );
  await Promise.all(calls);
  pending = false;
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
    it(`${name}: ${CALLS} at once run about one piece a turn of a timer, the first call ending first`, async () => {
      const { pieces, turns, ended } = await burst(caller(tier));
      // One piece a turn (about 1.0 here), where a ticker each made up to CALLS (2.3 to 4.6 pieces a turn here). A
      // timer set 0 ms ahead fires after at least 1 ms, so pieces shorter than that (a stage's last) may pass two or
      // three to a turn: the bound is on the average.
      assert.ok(pieces <= 1.5 * turns, `${pieces} pieces ran in ${turns} turns of the timer (${CALLS} calls at once)`);
      assert.equal(ended[0], 0, `the calls ended in the order ${ended}`);
    });
  }
});
