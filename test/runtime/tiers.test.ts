/**
 * ready() and tier(): the options, the order of concurrent calls, what
 * tier() reports, and incremental objects (Poly1305, BLAKE3, secretstream)
 * that live through a change of tier. Runs in every engine; the browser
 * pages of test/pages cover a fresh page's first calls, code splitting and
 * a Content-Security-Policy, test/runtime.test.ts fresh processes.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { ready, tier, type ReadyOptions } from 'fourfold';
import { chacha20 } from 'fourfold/chacha';
import { poly1305 } from 'fourfold/poly1305';
import { blake3 } from 'fourfold/blake3';
import { initPull, initPush, TAG_FINAL, TAG_REKEY } from 'fourfold/secretstream';
import { assertBytes, ENGINE_HAS_SIMD, loadSodium, NO_SIMD, NO_SODIUM, rand } from '../helpers.js';
import { noblePoly1305 } from '../chacha/peers.js';
import { nobleBlake3 } from '../blake3/reference.js';
import { sodiumStream } from '../secretstream/peer.js';

const BEST = ENGINE_HAS_SIMD ? 'simd' : 'js';

/** The tier a primitive call now runs on, as tier() reports it after one. */
function tierOfACall(): string | undefined {
  chacha20(new Uint8Array(32), new Uint8Array(12), new Uint8Array(64));
  return tier();
}

it('tier() is undefined before any call or ready()', () => {
  assert.equal(tier(), undefined);
});

// ENGINE_HAS_SIMD is found independently of fourfold (WebAssembly.validate of a SIMD module).
it('ready() selects the best tier this engine supports, switches on request, and tier() reports it', async () => {
  assert.equal(await ready({ tier: 'js' }), 'js');
  assert.equal(tier(), 'js');
  if (ENGINE_HAS_SIMD) {
    assert.equal(await ready({ tier: 'simd' }), 'simd');
    assert.equal(tier(), 'simd');
    assert.equal(await ready({ tier: 'js' }), 'js');
    assert.equal(tier(), 'js');
    assert.equal(await ready(), 'simd');
    assert.equal(tier(), 'simd');
    assert.equal(await ready({}), 'simd');
  } else {
    // Without WebAssembly SIMD the js tier is the default and the simd tier is refused.
    assert.equal(await ready(), 'js');
    assert.equal(tier(), 'js');
    await assert.rejects(ready({ tier: 'simd' }), /simd tier is not available/);
    assert.equal(tier(), 'js');
  }
});

it('ready() refuses bad options with a TypeError or RangeError naming the option, and keeps the tier', async () => {
  await ready({ tier: 'js' });
  const cases: [unknown, new (...a: never[]) => Error, RegExp][] = [
    ['js', TypeError, /^options must be an object, got string$/],
    [null, TypeError, /^options must be an object, got null$/],
    [5, TypeError, /^options must be an object, got number$/],
    [() => ({ tier: 'js' }), TypeError, /^options must be an object, got function$/],
    [{ tier: 'x' }, RangeError, /^options\.tier must be 'simd' or 'js', got 'x'$/],
    [{ tier: 'SIMD' }, RangeError, /^options\.tier must be 'simd' or 'js', got 'SIMD'$/],
    [{ tier: '' }, RangeError, /^options\.tier must be 'simd' or 'js', got ''$/],
    [{ tier: 1 }, TypeError, /^options\.tier must be 'simd' or 'js', got number$/],
    [{ tier: null }, TypeError, /^options\.tier must be 'simd' or 'js', got null$/],
  ];
  for (const [options, type, message] of cases) {
    await assert.rejects(ready(options as ReadyOptions), (e: Error) => e instanceof type && e.constructor === type && message.test(e.message), String(options));
    assert.equal(tier(), 'js', `after ready(${JSON.stringify(options)})`);
    assert.equal(tierOfACall(), 'js', `a call after ready(${JSON.stringify(options)})`);
  }
});

it('ready() reads the tier option once', async () => {
  let reads = 0;
  const options = {
    get tier() {
      reads++;
      return reads === 1 ? 'js' : 'simd';
    },
  };
  assert.equal(await ready(options as ReadyOptions), 'js');
  assert.equal(reads, 1);
  assert.equal(tierOfACall(), 'js');
});

it('concurrent ready() calls: the last call wins, and every pending call resolves as it does', async () => {
  assert.deepEqual(await Promise.all([ready(), ready({ tier: 'js' })]), ['js', 'js']);
  assert.equal(tier(), 'js');
  assert.equal(tierOfACall(), 'js');

  assert.deepEqual(await Promise.all([ready({ tier: 'js' }), ready()]), [BEST, BEST]);
  assert.equal(tier(), BEST);
  assert.equal(tierOfACall(), BEST);

  // A superseded { tier: 'simd' } answers as the last call, whether or not the engine has SIMD.
  assert.deepEqual(await Promise.all([ready({ tier: 'simd' }), ready(), ready({ tier: 'js' })]), ['js', 'js', 'js']);
  assert.equal(tierOfACall(), 'js');
  // And a call that fails on its own (bad options) changes nothing for the others.
  // (Each settled by hand: Hermes 0.12 has no Promise.allSettled.)
  const settle = (p: Promise<unknown>) =>
    p.then(
      (value) => ({ status: 'fulfilled', value }),
      () => ({ status: 'rejected' }),
    );
  const all = await Promise.all([ready(), ready({ tier: 'bogus' } as unknown as ReadyOptions)].map(settle));
  assert.deepEqual(all[0], { status: 'fulfilled', value: BEST });
  assert.equal(all[1]!.status, 'rejected');
  assert.equal(tierOfACall(), BEST);
});

it('tier() reports the tier of the most recent call', { skip: NO_SIMD }, async () => {
  await ready();
  assert.equal(tierOfACall(), 'simd');
  await ready({ tier: 'js' });
  blake3(new Uint8Array(10));
  assert.equal(tier(), 'js');
});

/** The two orders of a change of tier in the middle of an incremental object's life. */
const CHANGES = [
  ['js', 'simd'],
  ['simd', 'js'],
] as const;

for (const [from, to] of CHANGES) {
  it(`an incremental Poly1305 begun on the ${from} tier finishes on the ${to} tier with the right tag`, { skip: NO_SIMD }, async () => {
    const key = rand(32);
    const message = rand(3000);
    await ready({ tier: from });
    const mac = poly1305.create(key);
    mac.update(message.subarray(0, 1001));
    await ready({ tier: to });
    mac.update(message.subarray(1001, 2000));
    assert.equal(tierOfACall(), to);
    mac.update(message.subarray(2000));
    assertBytes(mac.digest(), noblePoly1305(message, key), `poly1305 ${from} -> ${to}`);
  });

  it(`an incremental BLAKE3 begun on the ${from} tier finishes on the ${to} tier (digest, clone and XOF)`, { skip: NO_SIMD }, async () => {
    // Past the 16 KiB the hasher buffers, so both tiers absorb chunks into the tree.
    const data = rand(70_000);
    await ready({ tier: from });
    const hasher = blake3.create().update(data.subarray(0, 40_000));
    const xof = blake3.create({ dkLen: 500 }).update(data);
    const head = xof.xof(130);
    await ready({ tier: to });
    const copy = hasher.clone();
    hasher.update(data.subarray(40_000));
    assertBytes(hasher.digest(), nobleBlake3(data), `digest ${from} -> ${to}`);
    assertBytes(copy.digest(), nobleBlake3(data.subarray(0, 40_000)), `clone ${from} -> ${to}`);
    const tail = xof.xof(370);
    assertBytes(Uint8Array.from([...head, ...tail]), nobleBlake3(data, { dkLen: 500 }), `xof ${from} -> ${to}`);
  });

  it(`a secretstream begun on the ${from} tier goes on on the ${to} tier, as libsodium reads and writes it`, { skip: NO_SIMD || NO_SODIUM }, async () => {
    await loadSodium();
    const key = rand(32);
    const messages = [rand(100), rand(1000), rand(64), rand(5000)];
    const tags = [0, TAG_REKEY, 0, TAG_FINAL];

    // fourfold pushes, libsodium pulls.
    await ready({ tier: from });
    const push = initPush(key);
    const sealed = [push.push(messages[0]!, tags[0]), push.push(messages[1]!, tags[1])];
    await ready({ tier: to });
    sealed.push(push.push(messages[2]!, tags[2]), push.push(messages[3]!, tags[3]));
    const theirPull = sodiumStream.initPull(push.header, key);
    sealed.forEach((c, i) => {
      const pulled = sodiumStream.pull(theirPull, c);
      assert.ok(pulled, `libsodium pulls message ${i}`);
      assertBytes(pulled.message, messages[i]!, `message ${i}`);
      assert.equal(pulled.tag, tags[i]);
    });

    // libsodium pushes, fourfold pulls.
    const theirs = sodiumStream.initPush(key);
    const theirSealed = messages.map((m, i) => sodiumStream.push(theirs.state, m, tags[i]));
    await ready({ tier: from });
    const pull = initPull(theirs.header, key);
    const first = [pull.pull(theirSealed[0]!), pull.pull(theirSealed[1]!)];
    await ready({ tier: to });
    const rest = [pull.pull(theirSealed[2]!), pull.pull(theirSealed[3]!)];
    [...first, ...rest].forEach((p, i) => {
      assertBytes(p.message, messages[i]!, `pulled message ${i}`);
      assert.equal(p.tag, tags[i]);
    });
  });
}
