/**
 * The calls that work alone on the calling thread, in pieces of
 * milliseconds (argon2idAsync, argon2Verify, scryptAsync), share their
 * turns of the event loop (pool/turns.ts sharedTicker), each call's in
 * turn:
 *
 * - with several at once, about one piece runs a turn of the event loop,
 *   not one piece of each call (their first pieces, as they start,
 *   included). Pieces are counted by the calls' progress reports (one a
 *   piece), turns of the event loop by a macrotask that sets itself
 *   again: no timing.
 * - a short call made while a long one runs waits for a few of its
 *   pieces, not for all of it: at most 5 times its time alone and 100 ms
 *   (CPU time where the engine reports it; a call over it is timed again
 *   once while the long one runs), for a short call of each kind (Argon2, scrypt, bcrypt) amid a
 *   long one of each kind. With the oldest call first, each waited out
 *   the whole of the long one.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { argon2idAsync, argon2idHash, argon2Verify } from 'fourfold/argon2';
import { scryptAsync } from 'fourfold/scrypt';
import { forEachTier, type TierName } from '../helpers.js';

/** Calls at once: a login burst in small. */
const CALLS = 6;

interface Burst {
  /** Progress reports (one a piece) and turns of the event loop while the calls were pending. */
  pieces: number;
  turns: number;
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
  const calls = Array.from({ length: CALLS }, () =>
    call((f) => {
      if (f < 1) pieces++;
    }),
  );
  await Promise.all(calls);
  pending = false;
  source.close();
  return { pieces, turns };
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
    it(`${name}: ${CALLS} at once run about one piece a turn of the event loop`, async () => {
      const { pieces, turns } = await burst(caller(tier));
      // One piece a turn, where a ticker each made up to CALLS: the bound is on the average.
      assert.ok(pieces <= 1.5 * turns, `${pieces} pieces ran in ${turns} turns of the event loop (${CALLS} calls at once)`);
    });
  }
});

/** Resolves after `n` turns of the event loop (the calls' own source): a call started before has had a piece in each. */
async function turnsPass(n: number): Promise<void> {
  const source = turnSource();
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => source.next(resolve));
  source.close();
}

/** Milliseconds `call` takes. */
/**
 * The process's CPU time in ms where the engine reports it (Node, Deno,
 * Bun), else the wall clock. What a short call waits for amid a long one
 * is the long one's pieces, run on this thread: CPU time counts them, and
 * not the time other processes of a loaded machine take (a CI running two
 * engines at once on two cores stretched wall times past the bound).
 */
const clock: () => number = (() => {
  const p = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
  const cpu = p?.cpuUsage;
  if (typeof cpu !== 'function') return () => performance.now();
  return () => {
    const { user, system } = cpu.call(p);
    return (user + system) / 1000;
  };
})();

async function timed(call: () => Promise<unknown>): Promise<number> {
  const t0 = clock();
  await call();
  return clock() - t0;
}

/** A bcrypt string of `cost` (Openwall's salt and hash: at another cost than 5 the password does not match, which costs the same). */
const bcryptOf = (cost: number): string => `$2a$${String(cost).padStart(2, '0')}$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW`;

/** An argon2id string of 1 MiB and 2 passes, a few milliseconds to verify. */
let shortPhc = '';
before(async () => {
  shortPhc = await argon2idHash('pw', { m: 1024, t: 2 });
});

/** Short calls, one of each kind: milliseconds alone. */
const SHORT: [string, () => Promise<unknown>][] = [
  ['argon2Verify of argon2id (1 MiB, t = 2)', () => argon2Verify(shortPhc, 'pw')],
  ['scryptAsync (N = 2^10)', () => scryptAsync('pw', 'salt', { N: 2 ** 10 })],
  ['argon2Verify of bcrypt (cost 5)', () => argon2Verify(bcryptOf(5), 'U*U')],
];

/** Long calls, one of each kind: a third of a second or more alone on either tier (the js tier's Argon2 is slower). */
const LONG: [string, (tier: TierName) => () => Promise<unknown>][] = [
  [
    'argon2idAsync (64 MiB, t = 8; js: 32 MiB, t = 3)',
    (tier) => () => argon2idAsync('pw', 'somesalt', tier === 'simd' ? { m: 65536, t: 8 } : { m: 32768, t: 3 }),
  ],
  ['scryptAsync (N = 2^17)', () => () => scryptAsync('pw', 'salt', { N: 2 ** 17 })],
  ['argon2Verify of bcrypt (cost 12)', () => () => argon2Verify(bcryptOf(12), 'U*U')],
];

/** How long a short call may take amid a long one: its time alone, 5 times, and 100 ms. */
const bound = (alone: number): number => 5 * alone + 100;

forEachTier('a short call amid a long one waits for a few of its pieces, not for all of it', (tier) => {
  for (const [longName, long] of LONG) {
    it(`a short call of each kind amid ${longName}: at most 5 times its time alone and 100 ms`, async () => {
      // Alone: warmed (the kernel instance and its memory), then the median of three.
      const alone: number[] = [];
      for (const [, call] of SHORT) {
        await call();
        const times = [await timed(call), await timed(call), await timed(call)].sort((a, b) => a - b);
        alone.push(times[1]!);
      }
      let longEnded = false;
      const longCall = long(tier)().finally(() => (longEnded = true));
      // The long call is under way: it has had a piece in each of these turns.
      await turnsPass(3);
      try {
        for (const [i, [name, call]] of SHORT.entries()) {
          // Timed again once where it was over while the long call still runs: a stall of the whole process (Bun's collector, at load 5 in CI) is not the turns'.
          const amid = [await timed(call)];
          if (amid[0]! > bound(alone[i]!) && !longEnded) amid.push(await timed(call));
          const fmt = amid.map((t) => t.toFixed(1)).join(' then ');
          assert.ok(!longEnded, `${longName} ended before ${name} did (${fmt} ms): the case shows nothing, or the short call waited for all of it`);
          assert.ok(amid.at(-1)! <= bound(alone[i]!), `${name}: ${fmt} ms amid it, ${alone[i]!.toFixed(1)} ms alone`);
        }
      } finally {
        await longCall;
      }
    });
  }
});

/** Pending immediates, where the engine lists them (Node's process.getActiveResourcesInfo()); undefined where it does not. */
const pendingImmediates: (() => number) | undefined = (() => {
  const p = (globalThis as { process?: { getActiveResourcesInfo?: () => string[] } }).process;
  const info = p?.getActiveResourcesInfo;
  if (typeof info !== 'function' || typeof setImmediate !== 'function') return undefined;
  const count = (): number => info.call(p).filter((kind) => kind === 'Immediate').length;
  const already = count();
  const probe = setImmediate(() => {});
  const listed = count() > already;
  clearImmediate(probe);
  return listed ? count : undefined;
})();

forEachTier('once the calls that share turns resolve, no turn of theirs is left pending', () => {
  const skip = pendingImmediates === undefined && 'this engine does not list pending immediates';
  for (const [name, call] of SHORT) {
    it(`${name}, alone and 3 at once`, { skip }, async () => {
      for (const calls of [1, 3]) {
        // Those pending already (a call of an earlier case that did leave one) run first.
        await new Promise((resolve) => setImmediate(resolve));
        const pending = pendingImmediates!();
        await Promise.all(Array.from({ length: calls }, call));
        // Checked as the calls resolve: the turn kept in case a call goes on would still be pending here.
        assert.equal(pendingImmediates!(), pending, `${calls} at once: an immediate outlived the calls`);
      }
    });
  }
});
