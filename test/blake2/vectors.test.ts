/**
 * BLAKE2b's published vectors, in both tiers, one-shot and incremental:
 * RFC 7693 Appendix A, the empty message, and the BLAKE2 reference's
 * keyed KAT (blake2b-kat.txt: key 00..3f, messages 00..(n-1) for n =
 * 0..255), whose first lines are written here and all of whose lines
 * libsodium and @noble/hashes compute.
 */
import { before, it } from 'node:test';
import { blake2b } from 'fourfold/blake2';
import { assertBytes, forEachTier, hex, loadSodium, NO_SODIUM } from '../helpers.js';
import { nobleBlake2b, sodiumBlake2b } from './reference.js';

const bytesUpTo = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => i);
const KAT_KEY = bytesUpTo(64);

before(async () => {
  await loadSodium();
});

function both(msg: Uint8Array, opts: Parameters<typeof blake2b>[1], expected: Uint8Array, label: string): void {
  assertBytes(blake2b(msg, opts), expected, `${label}, one-shot`);
  const h = blake2b.create(opts);
  for (let i = 0; i < msg.length; i++) h.update(msg.subarray(i, i + 1));
  assertBytes(h.digest(), expected, `${label}, a byte at a time`);
}

forEachTier('blake2b vectors', () => {
  it('RFC 7693 Appendix A: BLAKE2b-512("abc")', () => {
    const expected = hex('ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923');
    both(new TextEncoder().encode('abc'), undefined, expected, 'abc');
  });

  it('the empty message, unkeyed', () => {
    const expected = hex('786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce');
    both(new Uint8Array(0), undefined, expected, 'empty');
  });

  it("blake2b-kat.txt's first lines: key 00..3f, messages of 0 and 1 bytes", () => {
    both(
      new Uint8Array(0),
      { key: KAT_KEY },
      hex('10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786b5e996e8f0f4eb981fc214b005f42d2ff4233499391653df7aefcbc13fc51568'),
      'KAT 0',
    );
    both(
      bytesUpTo(1),
      { key: KAT_KEY },
      hex('961f6dd1e4dd30f63901690c512e78e4b45e4742ed197c3c5e45c549fd25f2e4187b0bc9fe30492b16b0d0bc4ef9b0f34c7003fac09a5ef1532e69430234cebd'),
      'KAT 1',
    );
  });

  it('blake2b-kat.txt, all 256 lines, as @noble/hashes computes them', () => {
    for (let n = 0; n < 256; n++) both(bytesUpTo(n), { key: KAT_KEY }, nobleBlake2b(bytesUpTo(n), { key: KAT_KEY }), `KAT ${n}`);
  });

  it('blake2b-kat.txt, all 256 lines, as libsodium computes them', { skip: NO_SODIUM }, () => {
    for (let n = 0; n < 256; n++) both(bytesUpTo(n), { key: KAT_KEY }, sodiumBlake2b(bytesUpTo(n), { key: KAT_KEY }), `KAT ${n}`);
  });
});
