/**
 * fourfold/sodium's crypto_secretstream_xchacha20poly1305 against
 * libsodium-wrappers-sumo: each side pulls what the other pushed, every
 * tag, associated data as bytes, strings and null, explicit rekeys on both
 * sides, message lengths 0 to 1 MiB, every output format; a changed,
 * dropped or reordered message returns false on both, leaving the state so
 * the right message still pulls; wrong arguments throw as there.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { forEachTier, NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, LENGTHS, loadSumo, mine, outcome, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
const P = 'crypto_secretstream_xchacha20poly1305';
type Call = (...a: unknown[]) => unknown;
const call = (lib: Record<string, unknown>, name: string, ...args: unknown[]) => (lib[`${P}_${name}`] as Call)(...args);
const TAGS = [0, 1, 2, 3];

interface Message {
  m: Uint8Array | string;
  ad: Uint8Array | string | null;
  tag: number;
  rekey: boolean;
}

const messages = (): Message[] =>
  LENGTHS.map((n, i) => ({
    m: i === 3 ? 'a string message é' : rand(n),
    ad: i % 3 === 0 ? null : i % 3 === 1 ? rand(i) : 'ad text',
    tag: TAGS[i % 4]!,
    rekey: i % 5 === 4,
  }));

/** Pushes `msgs` on `pusher`'s side and pulls them on `puller`'s, comparing every message and tag. */
function across(pusher: Record<string, unknown>, puller: Record<string, unknown>): void {
  const key = rand(32);
  const { state, header } = call(pusher, 'init_push', key) as { state: unknown; header: Uint8Array };
  const pull = call(puller, 'init_pull', header, key);
  for (const [i, { m, ad, tag, rekey }] of messages().entries()) {
    const c = call(pusher, 'push', state, m, ad, tag) as Uint8Array;
    const expected = typeof m === 'string' ? new TextEncoder().encode(m) : m;
    assert.equal(c.length, expected.length + 17);
    // A changed message fails and leaves the state: the real one pulls next.
    assert.equal(
      call(
        puller,
        'pull',
        pull,
        Uint8Array.from(c, (b, j) => (j === c.length - 1 ? b ^ 1 : b)),
        ad,
      ),
      false,
      `changed ${i}`,
    );
    const pulled = call(puller, 'pull', pull, c, ad) as { message: Uint8Array; tag: number };
    assert.deepEqual(pulled, { message: expected, tag }, `message ${i}`);
    if (rekey) {
      assert.equal(call(pusher, 'rekey', state), true);
      assert.equal(call(puller, 'rekey', pull), true);
    }
  }
}

forEachTier('crypto_secretstream_xchacha20poly1305 against libsodium-wrappers-sumo', () => {
  it('fourfold pushes, libsodium pulls; libsodium pushes, fourfold pulls; both with themselves', opts, () => {
    across(mine, peer());
    across(peer(), mine);
    across(mine, mine);
  });

  it('dropped, reordered, wrong aad or key: false on both; the state kept', opts, () => {
    const key = rand(32);
    const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
    const c1 = sodium.crypto_secretstream_xchacha20poly1305_push(state, 'one', 'ad', 0);
    const c2 = sodium.crypto_secretstream_xchacha20poly1305_push(state, 'two', null, 3);
    for (const lib of [mine, peer()]) {
      const pull = call(lib, 'init_pull', header, key);
      assert.equal(call(lib, 'pull', pull, c2, null), false, 'reordered');
      assert.equal(call(lib, 'pull', pull, c1, 'other ad'), false, 'wrong aad');
      assert.equal(call(lib, 'pull', pull, c1, null), false, 'no aad');
      assert.deepEqual(call(lib, 'pull', pull, c1, 'ad', 'text'), { message: 'one', tag: 0 });
      assert.deepEqual(call(lib, 'pull', pull, c2, undefined, 'hex'), { message: Buffer.from('two').toString('hex'), tag: 3 });
      assert.equal(call(lib, 'pull', call(lib, 'init_pull', header, rand(32)), c1, 'ad'), false, 'wrong key');
    }
  });

  it('output formats, and wrong arguments throw as there', opts, () => {
    const key = rand(32);
    for (const f of FORMATS) {
      const a = outcome(() => call(mine, 'init_push', key, f));
      const b = outcome(() => call(peer(), 'init_push', key, f));
      assert.deepEqual(Object.keys(a), Object.keys(b));
      if ('value' in a && 'value' in b) assert.equal(typeof (a.value as { header: unknown }).header, typeof (b.value as { header: unknown }).header);
      else assert.deepEqual(a, b);
    }
    const ours = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
    const theirs = call(peer(), 'init_push', key) as { state: unknown };
    for (const f of FORMATS) {
      const c = sodium.crypto_secretstream_xchacha20poly1305_push(ours.state, 'm', null, 0, f === 'text' ? 'hex' : f);
      assert.ok(c !== undefined);
    }
    for (const [args, label] of [
      [['m', null, 'x'], 'tag a string'],
      [['m', null, undefined], 'no tag'],
      [['m', null, -1], 'tag -1'],
      [[5, null, 0], 'message a number'],
      [['m', 5, 0], 'ad a number'],
      [['m', null, 0, 'nope'], 'format'],
    ] as const) {
      assert.deepEqual(
        outcome(() => call(mine, 'push', ours.state, ...args)),
        outcome(() => call(peer(), 'push', theirs.state, ...args)),
        label,
      );
    }
    same(`${P}_init_push`, [rand(31)]);
    same(`${P}_init_pull`, [rand(23), key]);
    same(`${P}_init_pull`, [rand(24), rand(33)]);
    const pull = sodium.crypto_secretstream_xchacha20poly1305_init_pull(rand(24), key);
    const theirPull = call(peer(), 'init_pull', rand(24), key);
    for (const short of [0, 1, 16]) {
      assert.deepEqual(
        outcome(() => call(mine, 'pull', pull, rand(short), null)),
        outcome(() => call(peer(), 'pull', theirPull, rand(short), null)),
      );
    }
    assert.throws(() => sodium.crypto_secretstream_xchacha20poly1305_push({} as never, 'm', null, 0), TypeError, 'a state it did not make');
    assert.equal(sodium.crypto_secretstream_xchacha20poly1305_keygen().length, 32);
    assert.equal(sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL, 3);
  });
});
