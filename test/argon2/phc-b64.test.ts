/**
 * The B64 codec of Argon2's PHC strings (src/argon2/phc-base64.ts)
 * against Buffer's base64 without padding and @scure/base's strict
 * decoder.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { base64nopad } from '@scure/base';
import { fromB64, toB64 } from '../internal.js';
import { rand } from '../helpers.js';
import { ALPHABET, b64, unb64 } from './phc-common.js';

describe('the B64 codec (phc-base64.ts)', () => {
  it("encodes as Buffer's base64 without padding, and decodes back, at every length to 64", () => {
    for (let n = 0; n <= 64; n++) {
      const bytes = rand(n);
      assert.equal(toB64(bytes), b64(bytes), `${n} bytes`);
      assert.deepEqual(fromB64(b64(bytes), 'x'), bytes);
    }
    // Every character, in order: the 48 bytes whose 6-bit groups count from 0 to 63.
    assert.equal(toB64(unb64(ALPHABET)), ALPHABET);
    assert.deepEqual(fromB64(ALPHABET, 'x'), unb64(ALPHABET));
  });

  it("accepts exactly what @scure/base's base64nopad accepts, with the same bytes", () => {
    // Mostly the alphabet, with a character from elsewhere about once in 16.
    const junk = '=-_ \n.$\u00e9\u0000\u0141@[`{:';
    let accepted = 0;
    for (let i = 0; i < 4000; i++) {
      const text = [...rand(i % 9)].map((b) => (b < 16 ? junk[b] : ALPHABET[b & 63])).join('');
      let scure: Uint8Array | undefined;
      try {
        scure = base64nopad.decode(text);
      } catch {
        scure = undefined;
      }
      let ours: Uint8Array | undefined;
      try {
        ours = fromB64(text, 'x');
      } catch (e) {
        assert.ok(e instanceof TypeError);
        ours = undefined;
      }
      assert.deepEqual(ours, scure, JSON.stringify(text));
      if (ours !== undefined) accepted++;
    }
    assert.ok(accepted > 500 && accepted < 3500, `${accepted} of 4000 accepted`);
  });
});
