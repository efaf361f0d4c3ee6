/**
 * Outputs on shared memory. Two SharedArrayBuffer objects can be one
 * memory (structuredClone of one, or one posted twice to a worker) with
 * nothing in their objects to tell so: fourfold recognises them
 * (check.sameMemory) and treats them as one buffer, where a partial overlap
 * is refused (secretbox: works from a copy, as libsodium allows), while two
 * distinct memories of one size are apart at any offsets, with no copy.
 * Every function with an input and an output, on 200 bytes (one slice; the
 * js tier writes as it reads) and past one 32 KiB slice (both tiers). The
 * decrypting paths that take no output (age, the typage API, the reads by
 * range, fourfold/sodium) have no overlap to refuse: their results are
 * arrays of their own (results.test.ts). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { chacha20, chacha20orig, chacha20poly1305, salsa20, serpent, xchacha20, xchacha20poly1305, xsalsa20, xsalsa20poly1305 } from 'fourfold';
import { assertBytes, forEveryTier, rand } from '../helpers.js';

const NO_SAB: false | string =
  typeof SharedArrayBuffer === 'function' ? false : 'not applicable: no SharedArrayBuffer here (a page that is not cross-origin isolated)';

interface Op {
  name: string;
  /** The input bytes for a message of n bytes (a ciphertext for decryption). */
  input(n: number): Uint8Array;
  /** The output's length for an input of `length` bytes. */
  outLength(length: number): number;
  /** The call; returns its result (the output when one is given). */
  run(input: Uint8Array, out?: Uint8Array): Uint8Array;
  /** Secretbox takes an output anywhere in the input's buffer, as libsodium does (overlapping ones work from a copy). */
  anyOverlap?: boolean;
}

const key = rand(32);
const n8 = rand(8);
const n12 = rand(12);
const n16 = rand(16);
const n24 = rand(24);
const aad = rand(19);

function ops(): Op[] {
  const list: Op[] = [];
  const streams = [
    ['chacha20', chacha20, n12],
    ['chacha20orig', chacha20orig, n8],
    ['xchacha20', xchacha20, n24],
    ['salsa20', salsa20, n8],
    ['xsalsa20', xsalsa20, n24],
  ] as const;
  for (const [name, f, nonce] of streams) {
    list.push({ name, input: rand, outLength: (n) => n, run: (input, out) => f(key, nonce, input, out) });
  }
  const aeads = [
    ['chacha20poly1305', () => chacha20poly1305(key, n12, aad)],
    ['xchacha20poly1305', () => xchacha20poly1305(key, n24, aad)],
    ['xsalsa20poly1305 (secretbox)', () => xsalsa20poly1305(key, n24)],
  ] as const;
  for (const [name, make] of aeads) {
    const anyOverlap = name.includes('secretbox');
    list.push({ name: `${name} encrypt`, input: rand, outLength: (n) => n + 16, run: (input, out) => make().encrypt(input, out), anyOverlap });
    list.push({
      name: `${name} decrypt`,
      input: (n) => make().encrypt(rand(n)),
      outLength: (n) => n - 16,
      run: (input, out) => make().decrypt(input, out),
      anyOverlap,
    });
  }
  const modes = [
    ['serpent.ecb', () => serpent.ecb(key)],
    ['serpent.cbc', () => serpent.cbc(key, n16)],
    ['serpent.ctr', () => serpent.ctr(key, n16)],
  ] as const;
  for (const [name, make] of modes) {
    const padded = name !== 'serpent.ctr';
    list.push({ name: `${name} encrypt`, input: rand, outLength: (n) => (padded ? n - (n % 16) + 16 : n), run: (input, out) => make().encrypt(input, out) });
    list.push({ name: `${name} decrypt`, input: (n) => make().encrypt(rand(n)), outLength: (n) => n, run: (input, out) => make().decrypt(input, out) });
  }
  return list;
}

/** Views of `length` bytes at `offset` of `buffer`, holding `bytes` when given. */
function place(buffer: SharedArrayBuffer, offset: number, length: number, bytes?: Uint8Array): Uint8Array {
  const view = new Uint8Array(buffer, offset, length);
  if (bytes !== undefined) view.set(bytes);
  return view;
}

/** Output offsets relative to the input's: ahead of it (the writes would overtake the reads) and behind it, by a byte, a block, a slice. */
const SHIFTS = [1, 16, 64, 100, -1, -16, -100, 32768 + 5];

forEveryTier('outputs on SharedArrayBuffers', () => {
  for (const size of [200, 40000]) {
    for (const twins of [false, true]) {
      const where = twins ? 'two SharedArrayBuffer objects over one memory' : 'one SharedArrayBuffer object';
      it(`${where}: a partial overlap is a RangeError that writes nothing (secretbox: right bytes), in place and apart are right (${size} bytes)`, {
        skip: NO_SAB,
      }, () => {
        for (const op of ops()) {
          const input = op.input(size);
          const expected = op.run(input.slice());
          const outLength = op.outLength(input.length);
          const base = input.length + 200;
          const sab = new SharedArrayBuffer(2 * base + 32768 + 256);
          const other = twins ? structuredClone(sab) : sab;
          if (twins) assert.notEqual(other, sab);
          for (const shift of SHIFTS) {
            // Output partially over the input (where it is not wholly before or after it).
            if (shift + outLength <= 0 || shift >= input.length) continue;
            const src = place(sab, base, input.length, input);
            const out = place(other, base + shift, outLength);
            if (op.anyOverlap) {
              const result = op.run(src, out);
              assert.equal(result.buffer, other, `${op.name}, output shifted by ${shift}: a view of the caller's output`);
              assertBytes(result, expected, `${op.name}, output shifted by ${shift}`);
              continue;
            }
            const before = new Uint8Array(sab).slice();
            assert.throws(() => op.run(src, out), RangeError, `${op.name}, output shifted by ${shift}`);
            assertBytes(new Uint8Array(sab), before, `${op.name}, shifted by ${shift}: nothing written`);
          }
          const apart = place(other, 0, outLength);
          assertBytes(op.run(place(sab, base, input.length, input), apart), expected, `${op.name}: apart`);
          if (outLength === input.length) {
            const inPlace = place(sab, base, input.length, input);
            assertBytes(op.run(inPlace, new Uint8Array(other, base, outLength)), expected, `${op.name}: in place, through a second view`);
          }
        }
      });
    }

    it(`two SharedArrayBuffers of one size, two memories: apart at any offsets, no RangeError (${size} bytes)`, { skip: NO_SAB }, () => {
      for (const op of ops()) {
        const input = op.input(size);
        const expected = op.run(input.slice());
        const outLength = op.outLength(input.length);
        const base = input.length + 200;
        const length = 2 * base + 32768 + 256;
        for (const shift of [0, ...SHIFTS]) {
          const sab = new SharedArrayBuffer(length);
          const separate = new SharedArrayBuffer(length);
          const src = place(sab, base, input.length, input);
          // The output's first byte equals the input's byte at that offset: the probe must not take a coincidence for one memory.
          const out = place(separate, base + shift, outLength);
          out[0] = new Uint8Array(sab)[base + shift]!;
          const result = op.run(src, out);
          assert.equal(result.buffer, separate, `${op.name}, output at ${shift}: a view of the caller's output`);
          assertBytes(result, expected, `${op.name}, output at ${shift}`);
          assertBytes(src, input, `${op.name}, output at ${shift}: the input is untouched`);
        }
      }
    });
  }
});
