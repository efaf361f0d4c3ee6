/**
 * src/age/text-encodings.ts against @scure/base, which age's code used
 * before: the same text for the same bytes, and for any text the same
 * answer (the same prefix, words and bytes, or a refusal), over random
 * keys, their one-character changes, and random strings of the
 * characters that matter (both alphabets, both cases, the separator,
 * '=', and characters outside ASCII whose case change gives ASCII).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { base64nopad as theirBase64, bech32 as theirBech32 } from '@scure/base';
import fc from 'fast-check';
import { base64nopad, bech32 } from '../../src/age/text-encodings.js';

/** What `f` gives, or that it threw. */
const outcome = <T>(f: () => T): T | 'refused' => {
  try {
    return f();
  } catch {
    return 'refused';
  }
};

const decodeBoth = (text: string) => [
  outcome(() => {
    const { prefix, words } = bech32.decode(text, false);
    return { prefix, words, bytes: outcome(() => bech32.fromWords(words)) };
  }),
  outcome(() => {
    const { prefix, words } = theirBech32.decode(text as `${string}1${string}`, false);
    return { prefix, words, bytes: outcome(() => theirBech32.fromWords(words)) };
  }),
];

const PREFIXES = ['age', 'age-secret-key-', 'age1pq', 'AGE-PLUGIN-YUBIKEY-', 'a', 'x!~'];
/** Characters that matter to Bech32 and base64: their alphabets, cases, separators, padding, and some that change case into ASCII. */
const CHARS = [...'qpzry9x8gf2tvdw0s3jn54khce6mua7lQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L1bioBIO=+/ -', '\u212a', '\u0130', 'é', '\u0131'];

it('Bech32: the same text for the same prefix and bytes, and it decodes back', () => {
  fc.assert(
    fc.property(fc.constantFrom(...PREFIXES), fc.uint8Array({ maxLength: 80 }), (prefix, bytes) => {
      const text = bech32.encode(prefix, bech32.toWords(bytes), false);
      assert.equal(text, theirBech32.encode(prefix, theirBech32.toWords(bytes), false));
      assert.deepEqual(bech32.fromWords(bech32.decode(text, false).words), bytes);
      assert.deepEqual(decodeBoth(text.toUpperCase())[0], decodeBoth(text.toUpperCase())[1]);
    }),
    { numRuns: 300 },
  );
});

it('Bech32: a key changed in one character (another, a case, one left out) gets the same answer', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...PREFIXES),
      fc.uint8Array({ minLength: 1, maxLength: 40 }),
      fc.nat(),
      fc.constantFrom(...CHARS, ''),
      fc.boolean(),
      (prefix, bytes, at, char, upper) => {
        const lower = bech32.encode(prefix, bech32.toWords(bytes), false);
        const text = upper ? lower.toUpperCase() : lower;
        const i = at % text.length;
        const changed = text.slice(0, i) + char + text.slice(i + 1);
        const [ours, theirs] = decodeBoth(changed);
        assert.deepEqual(ours, theirs, changed);
      },
    ),
    { numRuns: 2000 },
  );
});

it('Bech32: random strings of the characters that matter get the same answer', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...CHARS), { maxLength: 24 }), (chars) => {
      const text = chars.join('');
      const [ours, theirs] = decodeBoth(text);
      assert.deepEqual(ours, theirs, text);
    }),
    { numRuns: 3000 },
  );
});

it('Bech32: words with padding of a whole word or of bits not zeros are refused, as they are there', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 31 }), { maxLength: 20 }), (words) => {
      assert.deepEqual(
        outcome(() => bech32.fromWords(words)),
        outcome(() => theirBech32.fromWords(words)),
      );
    }),
    { numRuns: 2000 },
  );
});

it('base64 without padding: the same text for the same bytes, and any text the same answer', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
      const text = base64nopad.encode(bytes);
      assert.equal(text, theirBase64.encode(bytes));
      assert.deepEqual(base64nopad.decode(text), bytes);
    }),
    { numRuns: 500 },
  );
  const chars = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n', '\u212a', 'é'];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 14 }), (picked) => {
      const text = picked.join('');
      assert.deepEqual(
        outcome(() => base64nopad.decode(text)),
        outcome(() => theirBase64.decode(text)),
        text,
      );
    }),
    { numRuns: 5000 },
  );
});
