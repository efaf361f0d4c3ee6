/**
 * fourfold/parallel gives exactly the bytes of the synchronous functions
 * (which the other suites check against peers), and of @noble/ciphers
 * directly for a few: at 0 and 1 byte, just below the size from which
 * workers take part, and at inputs of two to four 1 MiB pieces cut one
 * byte short, exactly, one 64-byte block over and with odd tails; with a
 * caller's output, in place, and on unaligned views; with 64-bit counters
 * that carry across 2^32 inside one call, and RFC 8439's 32-bit counter
 * limit. Both tiers, three workers (the calling thread works too).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';
import { chacha20 as nobleChacha20, xchacha20poly1305 as nobleXchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { xsalsa20poly1305 as nobleXsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { assertBytes, forEachTier, guarded, rand } from '../helpers.js';
import { handedOut, warmPool, withWorkers } from './pool-helpers.js';

const MiB = 1 << 20;
/** Around the pieces: PARALLEL_MIN is 2 MiB, a piece 1 MiB. */
const SIZES = [0, 1, 2 * MiB - 1, 2 * MiB, 2 * MiB + 64, 3 * MiB + 17, 4 * MiB - 63];
/** Fewer for the slow ones (Serpent's js tier), and for the round-count variants. */
const FEW = [0, 2 * MiB - 16, 2 * MiB + 16 * 3 + 5, 3 * MiB + 16];

const messages = new Map<number, Uint8Array>();
const msg = (n: number): Uint8Array => {
  if (!messages.has(n)) messages.set(n, rand(n));
  return messages.get(n)!;
};

withWorkers(3);

type SyncStream = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter?: number | bigint) => Uint8Array;
type ParallelStream = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter?: number | bigint) => Promise<Uint8Array>;

const STREAMS: [string, SyncStream, ParallelStream, number, number[], number[]][] = [
  ['chacha20', F.chacha20, P.chacha20, 12, [32], SIZES],
  ['chacha8', F.chacha8, P.chacha8, 12, [32], FEW],
  ['chacha12', F.chacha12, P.chacha12, 12, [32], FEW],
  ['chacha20orig', F.chacha20orig, P.chacha20orig, 8, [32, 16], SIZES],
  ['xchacha20', F.xchacha20, P.xchacha20, 24, [32], SIZES],
  ['salsa20', F.salsa20, P.salsa20, 8, [32, 16], SIZES],
  ['salsa2012', F.salsa2012, P.salsa2012, 8, [32], FEW],
  ['salsa208', F.salsa208, P.salsa208, 8, [32], FEW],
  ['xsalsa20', F.xsalsa20, P.xsalsa20, 24, [32], SIZES],
];

forEachTier('fourfold/parallel: the synchronous bytes', () => {
  it('stream ciphers, new output; and against @noble/ciphers', async () => {
    for (const [name, sync, par, nonceLength, keyLengths, sizes] of STREAMS) {
      for (const keyLength of keyLengths) {
        const key = rand(keyLength);
        const nonce = rand(nonceLength);
        for (const n of sizes) assertBytes(await par(key, nonce, msg(n)), sync(key, nonce, msg(n)), `${name}, ${keyLength}-byte key, ${n} bytes`);
      }
    }
    const key = rand(32);
    const nonce = rand(12);
    assertBytes(await P.chacha20(key, nonce, msg(3 * MiB + 17), undefined, 7), nobleChacha20(key, nonce, msg(3 * MiB + 17), undefined, 7), 'chacha20 vs noble');
  });

  it("stream ciphers into the caller's output (returned as given), in place, and on unaligned views", async () => {
    const key = rand(32);
    const nonce = rand(12);
    const n = 3 * MiB + 17;
    const expected = F.chacha20(key, nonce, msg(n));
    const out = new Uint8Array(n);
    assert.equal(await P.chacha20(key, nonce, msg(n), out), out, 'the output is returned');
    assertBytes(out, expected, 'into output');
    const inPlace = msg(n).slice();
    assert.equal(await P.chacha20(key, nonce, inPlace, inPlace), inPlace);
    assertBytes(inPlace, expected, 'in place');
    for (const offset of [1, 7]) {
      const input = guarded(msg(n), offset);
      const output = guarded(new Uint8Array(n), offset + 2);
      await P.chacha20(key, nonce, input.view, output.view);
      assertBytes(output.view, expected, `offset ${offset}`);
      assert.ok(input.intact() && output.intact(), 'nothing written outside the views');
    }
  });

  it('64-bit counters carry across 2^32 inside one call, at a piece boundary and inside a piece', async () => {
    const n = 4 * MiB - 63;
    const blocks = Math.ceil(n / 64);
    for (const [name, sync, par, nonceLength] of STREAMS.filter(([, , , len]) => len !== 12)) {
      const key = rand(32);
      const nonce = rand(nonceLength);
      // 2^32 falls at the second piece's start (1 MiB = 16384 blocks), inside the third piece, in the last block.
      for (const counter of [2 ** 32 - 16384, 2 ** 32 - 40000, 2 ** 32 - blocks + 1, 2 ** 33 - 5]) {
        assertBytes(await par(key, nonce, msg(n), undefined, counter), sync(key, nonce, msg(n), undefined, counter), `${name} from ${counter}`);
      }
      const last = (1n << 64n) - BigInt(blocks);
      assertBytes(await par(key, nonce, msg(n), undefined, last), sync(key, nonce, msg(n), undefined, last), `${name} up to 2^64 - 1`);
      await assert.rejects(par(key, nonce, msg(n), undefined, last + 1n), RangeError, `${name} past 2^64`);
    }
  });

  it("RFC 8439's 32-bit counter: up to block 2^32 - 1 in one call, and not one block further", async () => {
    const n = 3 * MiB + 17;
    const blocks = Math.ceil(n / 64);
    const key = rand(32);
    const nonce = rand(12);
    const counter = 2 ** 32 - blocks;
    assertBytes(await P.chacha20(key, nonce, msg(n), undefined, counter), F.chacha20(key, nonce, msg(n), undefined, counter), 'to block 2^32 - 1');
    await assert.rejects(P.chacha20(key, nonce, msg(n), undefined, counter + 1), RangeError);
  });

  it('poly1305', async () => {
    const key = rand(32);
    for (const n of SIZES) assertBytes(await P.poly1305(msg(n), key), F.poly1305(msg(n), key), `${n} bytes`);
  });

  it('ChaCha20-Poly1305 and XChaCha20-Poly1305 with aad of 0, 1 and 17 bytes, and against @noble/ciphers', async () => {
    for (const [name, sync, par, nonceLength] of [
      ['chacha20poly1305', F.chacha20poly1305, P.chacha20poly1305, 12],
      ['xchacha20poly1305', F.xchacha20poly1305, P.xchacha20poly1305, 24],
    ] as const) {
      const key = rand(32);
      const nonce = rand(nonceLength);
      for (const aadLength of [0, 1, 17]) {
        const aad = aadLength === 0 ? undefined : rand(aadLength);
        for (const n of SIZES) {
          const sealed = sync(key, nonce, aad).encrypt(msg(n));
          assertBytes(await par(key, nonce, aad).encrypt(msg(n)), sealed, `${name} encrypt, aad ${aadLength}, ${n} bytes`);
          assertBytes(await par(key, nonce, aad).decrypt(sealed), msg(n), `${name} decrypt, aad ${aadLength}, ${n} bytes`);
        }
      }
    }
    const key = rand(32);
    const nonce = rand(24);
    const aad = rand(5);
    const sealed = nobleXchacha20poly1305(key, nonce, aad).encrypt(msg(3 * MiB + 17));
    assertBytes(await P.xchacha20poly1305(key, nonce, aad).encrypt(msg(3 * MiB + 17)), sealed, 'vs noble');
    assertBytes(await P.xchacha20poly1305(key, nonce, aad).decrypt(sealed), msg(3 * MiB + 17), 'noble decrypted');
  });

  it('AEADs into outputs and in place', async () => {
    const key = rand(32);
    const nonce = rand(12);
    const n = 2 * MiB + 64;
    const sealed = F.chacha20poly1305(key, nonce).encrypt(msg(n));
    const buf = new Uint8Array(n + 16);
    buf.set(msg(n));
    assert.equal(await P.chacha20poly1305(key, nonce).encrypt(buf.subarray(0, n), buf), buf);
    assertBytes(buf, sealed, 'encrypt in place');
    const opened = await P.chacha20poly1305(key, nonce).decrypt(buf, buf.subarray(0, n));
    assertBytes(opened, msg(n), 'decrypt in place');
    const out = new Uint8Array(n);
    assert.equal(await P.chacha20poly1305(key, nonce).decrypt(sealed, out), out);
    assertBytes(out, msg(n), 'decrypt into output');
  });

  it('secretbox (xsalsa20poly1305, secretbox), in place and shifted as libsodium allows, and against @noble/ciphers', async () => {
    const key = rand(32);
    const nonce = rand(24);
    for (const n of SIZES) {
      const sealed = F.xsalsa20poly1305(key, nonce).encrypt(msg(n));
      assertBytes(await P.xsalsa20poly1305(key, nonce).encrypt(msg(n)), sealed, `encrypt ${n} bytes`);
      assertBytes(await P.xsalsa20poly1305(key, nonce).decrypt(sealed), msg(n), `decrypt ${n} bytes`);
      assertBytes(await P.secretbox(key, nonce).seal(msg(n)), sealed, `seal ${n} bytes`);
      assertBytes(await P.secretbox(key, nonce).open(sealed), msg(n), `open ${n} bytes`);
    }
    const n = 3 * MiB + 17;
    assertBytes(await P.xsalsa20poly1305(key, nonce).encrypt(msg(n)), nobleXsalsa20poly1305(key, nonce).encrypt(msg(n)), 'vs noble');
    const sealed = F.xsalsa20poly1305(key, nonce).encrypt(msg(n));
    // libsodium's in place: the output starts where the input does, 16 bytes longer (or shorter).
    const buf = new Uint8Array(n + 16);
    buf.set(msg(n));
    await P.xsalsa20poly1305(key, nonce).encrypt(buf.subarray(0, n), buf);
    assertBytes(buf, sealed, 'encrypt in place');
    await P.xsalsa20poly1305(key, nonce).decrypt(buf, buf.subarray(0, n));
    assertBytes(buf.subarray(0, n), msg(n), 'decrypt in place');
    // The ciphertext written ahead of the plaintext's start, and behind it.
    for (const shift of [-32, 48]) {
      const space = new Uint8Array(n + 16 + 128);
      const at = 64;
      space.set(msg(n), at);
      await P.xsalsa20poly1305(key, nonce).encrypt(space.subarray(at, at + n), space.subarray(at + shift, at + shift + n + 16));
      assertBytes(space.subarray(at + shift, at + shift + n + 16), sealed, `encrypt shifted by ${shift}`);
    }
  });

  it('Serpent CTR, ECB and CBC, with and without padding, in place', async () => {
    const iv = rand(16);
    iv.fill(0xff, 8); // the counter's low half about to carry
    // Every size with a 256-bit key; the shorter keys, whose schedule is all that differs, at the largest.
    for (const keyLength of [16, 24, 32]) {
      const key = rand(keyLength);
      for (const n of keyLength === 32 ? FEW : FEW.slice(-1)) {
        const m = msg(n);
        const whole = m.subarray(0, n - (n % 16));
        assertBytes(await P.serpent.ctr(key, iv).encrypt(m), F.serpent.ctr(key, iv).encrypt(m), `ctr ${n}`);
        for (const [mode, make, makeSync] of [
          ['ecb', (o?: { disablePadding: boolean }) => P.serpent.ecb(key, o), (o?: { disablePadding: boolean }) => F.serpent.ecb(key, o)],
          ['cbc', (o?: { disablePadding: boolean }) => P.serpent.cbc(key, iv, o), (o?: { disablePadding: boolean }) => F.serpent.cbc(key, iv, o)],
        ] as const) {
          const sealed = makeSync().encrypt(m);
          assertBytes(await make().encrypt(m), sealed, `${mode} ${keyLength} ${n}`);
          assertBytes(await make().decrypt(sealed), m, `${mode} decrypt ${keyLength} ${n}`);
          const raw = makeSync({ disablePadding: true }).encrypt(whole);
          assertBytes(await make({ disablePadding: true }).encrypt(whole), raw, `${mode} unpadded ${n}`);
          const inPlace = raw.slice();
          await make({ disablePadding: true }).decrypt(inPlace, inPlace);
          assertBytes(inPlace, whole, `${mode} decrypt in place ${n}`);
        }
      }
    }
  });

  it('blake3', async () => {
    for (const n of SIZES) assertBytes(await P.blake3(msg(n)), F.blake3(msg(n)), `${n} bytes`);
    const key = rand(32);
    assertBytes(await P.blake3(msg(3 * MiB + 17), { key, dkLen: 77 }), F.blake3(msg(3 * MiB + 17), { key, dkLen: 77 }), 'keyed, 77 bytes');
  });

  it('the workers were given part of the work', async () => {
    const [key, nonce, data] = [rand(32), rand(12), msg(4 * MiB - 63)];
    // Warmed just before the call: in Deno a worker idle for a quarter of a second ends, and a
    // loaded machine can stretch the time between two awaits that far (three tries).
    // A job the calling thread took back unstarted (rule 4 of docs/parallel.md) still counts as given.
    for (let i = 0; i < 3; i++) {
      await warmPool(3);
      const given = await handedOut(async () => assertBytes(await P.chacha20(key, nonce, data), F.chacha20(key, nonce, data)));
      if (given.jobs > 0) return;
    }
    assert.fail(`no job given in three warmed calls: ${JSON.stringify(P.status())}`);
  });
});
