/**
 * Argon2's argument checks, for argon2d, argon2i and argon2id and their
 * Async forms: RFC 9106 section 3.1's ranges (t from 1, m from 8p, p from
 * 1 to 2^24 - 1, a tag of 4 bytes or more, a salt of 8 bytes or more,
 * versions 0x10 and 0x13) as RangeErrors, wrong types, missing t or m and
 * options that do not exist as TypeErrors, and the memory bound: a call
 * whose m' * 1024 bytes exceed maxmem is refused before any memory is
 * taken (m = 2^32 - 1 under the default bound fails at once). The Async
 * forms reject, never throw, with the same errors, and check their own
 * options (signal, onProgress, asyncTick). A signal aborted before the
 * call rejects with its reason before any progress; one aborted during it
 * rejects at the next turn; a timer set after the call starts fires
 * before it ends (the event loop runs between its turns:
 * bench/harness/blocking.ts measures how long they are); onProgress sees
 * increasing fractions that end with exactly one 1. Messages are matched
 * by a keyword only (the option's name): their wording is the
 * implementation's.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { argon2d, argon2dAsync, argon2i, argon2iAsync, argon2id, argon2idAsync, type Argon2AsyncOpts, type Argon2Opts } from 'fourfold/argon2';
import { argon2id as nobleId } from '@noble/hashes/argon2.js';
import { assertBytes, forEachTier, NO_ABORT, type TierName } from '../helpers.js';

type Sync = (password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2Opts) => Uint8Array;
type Async = (password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2AsyncOpts) => Promise<Uint8Array>;

const SYNC: [string, Sync][] = [
  ['argon2d', argon2d],
  ['argon2i', argon2i],
  ['argon2id', argon2id],
];
const ASYNC: [string, Async][] = [
  ['argon2dAsync', argon2dAsync],
  ['argon2iAsync', argon2iAsync],
  ['argon2idAsync', argon2idAsync],
];

/**
 * Whether `message` names `word` as a word of its own, quoted or not (not
 * inside another: "t" in "at" or "can't" does not count). No lookbehind:
 * WPE WebKit 2.38 (the engines' js-only browser) has none.
 */
const names = (message: string, word: string) => new RegExp(`(?:^|[^\\w']|(?:^|\\W)')${word}(?!\\w)`).test(message);
const typeErr = (word: string) => (e: unknown) => e instanceof TypeError && names(e.message, word);
const rangeErr = (word: string) => (e: unknown) => e instanceof RangeError && names(e.message, word);

const SALT = 'somesalt';
/** The least valid options. */
const OK = { t: 1, m: 8 } as const;

/** Each bad option (merged into OK), the word its error must name and its class. */
const BAD: { opts: Record<string, unknown>; word: string; error: 'type' | 'range' }[] = [
  // t: passes, 1 .. 2^32 - 1, required.
  ...[0, -1, 1.5, 2 ** 32, Number.NaN, Number.POSITIVE_INFINITY].map((t) => ({ opts: { t }, word: 't', error: 'range' as const })),
  ...['3', 3n, null, {}].map((t) => ({ opts: { t }, word: 't', error: 'type' as const })),
  // m: KiB, 8p .. 2^32 - 1, required.
  ...[0, 7, -8, 8.5, 2 ** 32, Number.NaN].map((m) => ({ opts: { m }, word: 'm', error: 'range' as const })),
  { opts: { m: 15, p: 2 }, word: 'm', error: 'range' },
  { opts: { m: 31, p: 4 }, word: 'm', error: 'range' },
  ...['8', 8n, null].map((m) => ({ opts: { m }, word: 'm', error: 'type' as const })),
  // p: lanes, 1 .. 2^24 - 1.
  ...[0, -1, 2 ** 24, 1.5, Number.NaN].map((p) => ({ opts: { m: 2 ** 28, p }, word: 'p', error: 'range' as const })),
  ...['1', null].map((p) => ({ opts: { p }, word: 'p', error: 'type' as const })),
  // dkLen: 4 .. 2^32 - 1.
  ...[3, 0, -1, 2 ** 32, 32.5].map((dkLen) => ({ opts: { dkLen }, word: 'dkLen', error: 'range' as const })),
  { opts: { dkLen: '32' }, word: 'dkLen', error: 'type' },
  // version: 0x10 or 0x13.
  ...[0x12, 0x11, 0x14, 0, 19.5].map((version) => ({ opts: { version }, word: 'version', error: 'range' as const })),
  { opts: { version: '0x13' }, word: 'version', error: 'type' },
  // key and personalization: strings or Uint8Arrays.
  ...[42, null, [1, 2], new Uint16Array(4), new ArrayBuffer(8), {}].flatMap((v) => [
    { opts: { key: v }, word: 'key', error: 'type' as const },
    { opts: { personalization: v }, word: 'personalization', error: 'type' as const },
  ]),
  // maxmem: bytes, a non-negative number.
  { opts: { maxmem: -1 }, word: 'maxmem', error: 'range' },
  { opts: { maxmem: Number.NaN }, word: 'maxmem', error: 'range' },
  { opts: { maxmem: '1024' }, word: 'maxmem', error: 'type' },
  // Options that do not exist, the Async ones among them for the sync calls.
  ...['length', 'iterations', 'memory', 'parallelism', 'secret', 'ad', 'type'].map((name) => ({ opts: { [name]: 1 }, word: name, error: 'type' as const })),
];

/**
 * A call long enough for many turns of asyncTick 1 ms on each tier (tens
 * of milliseconds), and short enough for an interpreter (the js tier's
 * 2 MiB-passes take seconds without a JIT).
 */
const LONG = (tier: TierName) => (tier === 'simd' ? { t: 2, m: 8192, p: 2 } : { t: 2, m: 1024, p: 2 });

/** A signal that is not aborted; where the engine has no AbortController (Hermes), none: undefined, which every call takes. */
const aSignal = (): AbortSignal | undefined => (NO_ABORT ? undefined : new AbortController().signal);

const check = (error: 'type' | 'range', word: string) => (error === 'type' ? typeErr(word) : rangeErr(word));
const show = (o: Record<string, unknown>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} = ${typeof v === 'bigint' ? `${v}n` : Object.prototype.toString.call(v) === '[object Object]' ? JSON.stringify(v) : String(v)}`)
    .join(', ');

forEachTier('argon2 errors', (tier) => {
  it('t and m are required: missing, a TypeError naming them; opts must be an object', () => {
    for (const [name, f] of SYNC) {
      assert.throws(() => f('pw', SALT, { m: 8 } as never), typeErr('t'), `${name}: no t`);
      assert.throws(() => f('pw', SALT, { t: 1 } as never), typeErr('m'), `${name}: no m`);
      assert.throws(() => f('pw', SALT, { t: undefined, m: 8 } as never), typeErr('t'), `${name}: t undefined`);
      assert.throws(() => f('pw', SALT, {} as never), TypeError, `${name}: {}`);
      for (const opts of [undefined, null, 3, 'opts']) assert.throws(() => f('pw', SALT, opts as never), typeErr('opts'), `${name}: opts ${String(opts)}`);
    }
  });

  it('each option out of range is a RangeError, of the wrong type a TypeError, each naming the option', () => {
    for (const { opts, word, error } of BAD) {
      for (const [name, f] of SYNC) assert.throws(() => f('pw', SALT, { ...OK, ...opts } as never), check(error, word), `${name}: ${show(opts)}`);
    }
  });

  it('the sync calls take no onProgress, signal or asyncTick: options that do not exist there', () => {
    for (const [name, f] of SYNC) {
      assert.throws(() => f('pw', SALT, { ...OK, onProgress: () => {} } as never), typeErr('onProgress'), name);
      // Any value: the option does not exist (an object where the engine has no AbortController).
      assert.throws(() => f('pw', SALT, { ...OK, signal: aSignal() ?? {} } as never), typeErr('signal'), name);
      assert.throws(() => f('pw', SALT, { ...OK, asyncTick: 8 } as never), typeErr('asyncTick'), name);
    }
  });

  it('the ends of each range are accepted: t = 1, m = 8p, p = 1 and 3, dkLen = 4, an 8-byte salt, versions 0x10 and 0x13', () => {
    for (const [name, f] of SYNC) {
      assert.equal(f('pw', SALT, { t: 1, m: 8, dkLen: 4 }).length, 4, name);
      assert.equal(f('pw', SALT, { t: 1, m: 24, p: 3, version: 0x10 }).length, 32, name);
      assert.equal(f('', '12345678', { t: 1, m: 8, version: 0x13 }).length, 32, name);
      // An option given as undefined is the default.
      assert.equal(f('pw', SALT, { t: 1, m: 8, p: undefined, dkLen: undefined, key: undefined, version: undefined }).length, 32, name);
    }
    // m just under 8p for p = 3, and at it.
    assert.throws(() => argon2id('pw', SALT, { t: 1, m: 23, p: 3 }), rangeErr('m'));
    assertBytes(argon2id('pw', SALT, { t: 1, m: 24, p: 3 }), nobleId('pw', SALT, { t: 1, m: 24, p: 3 }));
  });

  it('the salt: 8 bytes or more, counted in UTF-8 bytes; password and salt strings or Uint8Arrays', () => {
    for (const [name, f] of SYNC) {
      assert.throws(() => f('pw', new Uint8Array(7), OK), rangeErr('salt'), `${name}: 7 bytes`);
      assert.throws(() => f('pw', 'salt', OK), rangeErr('salt'), `${name}: 'salt'`);
      assert.throws(() => f('pw', '', OK), rangeErr('salt'), `${name}: ''`);
      // Four characters, eight UTF-8 bytes: accepted; seven ASCII characters: refused.
      assert.equal(f('pw', 'éééé', OK).length, 32, `${name}: 'éééé'`);
      assert.throws(() => f('pw', 'abcdefg', OK), rangeErr('salt'), `${name}: 'abcdefg'`);
      for (const bad of [42, null, undefined, [1, 2], new Uint16Array(8), new ArrayBuffer(8), {}]) {
        assert.throws(() => f(bad as never, SALT, OK), typeErr('password'), `${name}: password ${String(bad)}`);
        assert.throws(() => f('pw', bad as never, OK), typeErr('salt'), `${name}: salt ${String(bad)}`);
      }
    }
  });

  it('maxmem: m * 1024 bytes (m rounded down to 4p blocks) above it is a RangeError naming maxmem; at it, the call runs', () => {
    for (const [name, f] of SYNC) {
      assert.equal(f('pw', SALT, { t: 1, m: 8, maxmem: 8 * 1024 }).length, 32, name);
      assert.throws(() => f('pw', SALT, { t: 1, m: 8, maxmem: 8 * 1024 - 1 }), rangeErr('maxmem'), name);
      // m = 11, p = 1 uses 8 blocks: 8 KiB is enough.
      assert.equal(f('pw', SALT, { t: 1, m: 11, maxmem: 8 * 1024 }).length, 32, name);
      // m = 12 uses 12.
      assert.throws(() => f('pw', SALT, { t: 1, m: 12, maxmem: 8 * 1024 }), rangeErr('maxmem'), name);
      // 1 GiB and 64 KiB by default: 2^20 KiB + 64 blocks is the most it allows.
      assert.throws(() => f('pw', SALT, { t: 1, m: 2 ** 20 + 68 }), rangeErr('maxmem'), `${name}: default maxmem`);
    }
  });

  it('maxmem is checked before any memory is taken: m = 2^32 - 1 (4 TiB) fails at once with a RangeError naming maxmem', () => {
    for (const [name, f] of SYNC) {
      const start = Date.now();
      // An allocation of 4 TiB would fail too, with a RangeError of the engine's: the keyword tells them apart.
      assert.throws(() => f('pw', SALT, { t: 1, m: 2 ** 32 - 1 }), rangeErr('maxmem'), name);
      assert.throws(() => f('pw', SALT, { t: 3, m: 2 ** 32 - 1, p: 2 ** 24 - 1 }), rangeErr('maxmem'), name);
      const ms = Date.now() - start;
      assert.ok(ms < 500, `${name}: ${ms} ms to refuse`);
    }
  });

  it('the Async forms reject, never throw, with the same errors', async () => {
    for (const [name, f] of ASYNC) {
      const cases: [string | Uint8Array, string | Uint8Array, unknown, (e: unknown) => boolean][] = [
        ['pw', SALT, { m: 8 }, typeErr('t')],
        ['pw', SALT, { t: 1 }, typeErr('m')],
        ['pw', SALT, null, typeErr('opts')],
        ['pw', 'short', OK, rangeErr('salt')],
        [42 as never, SALT, OK, typeErr('password')],
        ['pw', SALT, { t: 1, m: 2 ** 32 - 1 }, rangeErr('maxmem')],
        ...BAD.map(({ opts, word, error }) => ['pw', SALT, { ...OK, ...opts }, check(error, word)] as [string, string, unknown, (e: unknown) => boolean]),
      ];
      for (const [password, salt, opts, expected] of cases) {
        const what = typeof opts === 'object' && opts !== null ? show(opts as Record<string, unknown>) : String(opts);
        let call: Promise<Uint8Array> | undefined;
        assert.doesNotThrow(() => {
          call = f(password, salt, opts as never);
        }, `${name}: threw instead of rejecting (${what})`);
        await assert.rejects(call!, expected, `${name}: ${what}`);
      }
    }
  });

  it('the Async forms check their own options: signal an AbortSignal, onProgress a function, asyncTick a number from 0', async () => {
    for (const [name, f] of ASYNC) {
      await assert.rejects(f('pw', SALT, { ...OK, signal: {} as AbortSignal }), typeErr('signal'), name);
      await assert.rejects(f('pw', SALT, { ...OK, signal: { aborted: false } as AbortSignal }), typeErr('signal'), name);
      await assert.rejects(f('pw', SALT, { ...OK, onProgress: 'yes' as never }), typeErr('onProgress'), name);
      await assert.rejects(f('pw', SALT, { ...OK, asyncTick: '8' as never }), typeErr('asyncTick'), name);
      await assert.rejects(f('pw', SALT, { ...OK, asyncTick: -1 }), rangeErr('asyncTick'), name);
      await assert.rejects(f('pw', SALT, { ...OK, asyncTick: Number.NaN }), rangeErr('asyncTick'), name);
      await assert.rejects(f('pw', SALT, { ...OK, workers: 2 } as never), typeErr('workers'), name);
      // And the valid ones are taken.
      assert.equal((await f('pw', SALT, { ...OK, signal: aSignal(), onProgress: () => {}, asyncTick: 1 })).length, 32, name);
    }
  });

  it('a signal aborted before the call rejects with its reason, and reports no progress', { skip: NO_ABORT }, async () => {
    for (const [name, f] of ASYNC) {
      const controller = new AbortController();
      const reason = new Error('stop');
      controller.abort(reason);
      let reports = 0;
      await assert.rejects(f('pw', SALT, { ...OK, signal: controller.signal, onProgress: () => reports++ }), (e) => e === reason, name);
      assert.equal(reports, 0, name);
      // Its reason, whatever it is: the default AbortError too.
      const plain = new AbortController();
      plain.abort();
      await assert.rejects(f('pw', SALT, { ...OK, signal: plain.signal }), (e) => e === plain.signal.reason, name);
    }
  });

  it('a signal aborted during the call rejects with its reason at the next turn, and reports nothing after', { skip: NO_ABORT }, async () => {
    for (const [name, f] of ASYNC) {
      const controller = new AbortController();
      const reason = new Error('cancelled by the user');
      let reports = 0;
      await assert.rejects(
        f('pw', SALT, {
          ...LONG(tier),
          asyncTick: 1,
          signal: controller.signal,
          onProgress: () => {
            reports++;
            controller.abort(reason);
          },
        }),
        (e) => e === reason,
        name,
      );
      assert.equal(reports, 1, `${name}: progress after the abort`);
    }
  });

  it('lets the event loop run during the call: a timer set after it starts fires before it ends', async () => {
    // The first turn ends after 16 blocks whatever the machine's speed (argon2.ts FIRST_STEP), so no timing is assumed.
    for (const [name, f] of ASYNC) {
      let fired = false;
      const call = f('pw', SALT, LONG(tier));
      setTimeout(() => (fired = true), 0);
      await call;
      assert.ok(fired, `${name}: the timer did not fire during the call`);
    }
  });

  it('onProgress: increasing fractions in (0, 1), then exactly one 1, at the end', async () => {
    for (const [name, f] of ASYNC) {
      const seen: number[] = [];
      let done = false;
      const tag = await f('pw', SALT, {
        ...LONG(tier),
        asyncTick: 1,
        onProgress: (x) => {
          assert.ok(!done, `${name}: progress after the call ended`);
          seen.push(x);
        },
      });
      done = true;
      assert.ok(seen.length >= 2, `${name}: ${seen.length} reports`);
      assert.equal(seen[seen.length - 1], 1, name);
      assert.equal(seen.filter((x) => x === 1).length, 1, name);
      for (const [i, x] of seen.entries()) {
        assert.ok(typeof x === 'number' && x > 0 && x <= 1, `${name}: report ${i} is ${x}`);
        if (i > 0) assert.ok(x > seen[i - 1]!, `${name}: report ${i}: ${x} after ${seen[i - 1]}`);
      }
      assert.equal(tag.length, 32);
    }
  });

  it('an exception thrown by onProgress ends the call with it', async () => {
    for (const [name, f] of ASYNC) {
      const oops = new Error('from onProgress');
      await assert.rejects(
        f('pw', SALT, {
          ...LONG(tier),
          asyncTick: 1,
          onProgress: () => {
            throw oops;
          },
        }),
        (e) => e === oops,
        name,
      );
    }
  });
});
