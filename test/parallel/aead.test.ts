/**
 * fourfold/parallel's AEADs release nothing unverified: a ciphertext, aad
 * or tag changed in any piece makes decrypt reject with AuthenticationError,
 * and the caller's output (which another task can read while the promise
 * is pending) never holds a byte of plaintext: it holds what it held, or
 * the ciphertext (the first pass copies it there), until the rejection,
 * and is zeroed then; in place, the ciphertext is left as it is. Also the inputs and outputs on
 * SharedArrayBuffers, which workers read and write directly.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';
import { assertBytes, forEachTier, isAllZero, rand } from '../helpers.js';
import { handedOut, withWorkers } from './pool-helpers.js';

const MiB = 1 << 20;
const N = 3 * MiB + 17;
const SENTINEL = 0xa5;
const HAS_SAB = typeof SharedArrayBuffer === 'function';
const NO_SAB = HAS_SAB ? false : 'not applicable: this engine (or page) has no SharedArrayBuffer';

withWorkers(2);

/**
 * Runs `decrypt` (into `out`, filled with SENTINEL) and, at every turn of
 * the event loop until it settles, checks that `out` holds no plaintext:
 * each byte is SENTINEL or the byte of the ciphertext `body` decrypted
 * (the first of the two passes copies it there; a plaintext byte equals
 * its ciphertext byte 1 time in 256, so sampled bytes tell); then that it
 * rejected with AuthenticationError and `out` is zero.
 */
async function rejectsWithoutRelease(label: string, out: Uint8Array, body: Uint8Array, decrypt: (out: Uint8Array) => Promise<Uint8Array>): Promise<void> {
  out.fill(SENTINEL);
  body = body.slice();
  let settled = false;
  const call = decrypt(out).finally(() => (settled = true));
  call.catch(() => {}); // awaited below, once it settled
  let turns = 0;
  while (!settled) {
    for (let i = 0; i < out.length; i += 4099)
      assert.ok(out[i] === SENTINEL || out[i] === body[i], `${label}: plaintext at byte ${i} while the call was pending`);
    await new Promise((r) => setTimeout(r, 0));
    turns++;
  }
  await assert.rejects(call, (e: Error) => e.name === 'AuthenticationError', label);
  assert.ok(isAllZero(out), `${label}: the output is not zeroed`);
  assert.ok(turns > 0);
}

/** Where to change one byte: in each piece of the body, and in the tag. */
const SPOTS = [5, MiB + 3, 2 * MiB + 64, N - 1];

forEachTier('fourfold/parallel AEADs', () => {
  it('ChaCha20-Poly1305 and XChaCha20-Poly1305: a changed byte in any piece, in the tag, or in the aad', async () => {
    for (const [name, sync, par, nonceLength] of [
      ['chacha20poly1305', F.chacha20poly1305, P.chacha20poly1305, 12],
      ['xchacha20poly1305', F.xchacha20poly1305, P.xchacha20poly1305, 24],
    ] as const) {
      const key = rand(32);
      const nonce = rand(nonceLength);
      const aad = rand(20);
      const sealed = sync(key, nonce, aad).encrypt(rand(N));
      for (const spot of [...SPOTS, N + 15]) {
        const bad = sealed.slice();
        bad[spot]! ^= 0x40;
        await rejectsWithoutRelease(`${name}, byte ${spot}`, new Uint8Array(N), bad, (o) => par(key, nonce, aad).decrypt(bad, o));
      }
      const otherAad = aad.slice();
      otherAad[19]! ^= 1;
      await rejectsWithoutRelease(`${name}, aad`, new Uint8Array(N), sealed, (o) => par(key, nonce, otherAad).decrypt(sealed, o));
      await assert.rejects(par(key, nonce, aad).decrypt(sealed.subarray(0, N)), (e: Error) => e.name === 'AuthenticationError', `${name}, truncated`);
    }
  });

  it('in place (the output over the ciphertext): a changed byte in any piece leaves the ciphertext as it was until the rejection, then zeros', async () => {
    const key = rand(32);
    const nonce = rand(24);
    const sealed = F.xchacha20poly1305(key, nonce).encrypt(rand(N));
    for (const spot of [...SPOTS, N + 15]) {
      const bad = sealed.slice();
      bad[spot]! ^= 0x40;
      const buf = bad.slice();
      let settled = false;
      const call = P.xchacha20poly1305(key, nonce)
        .decrypt(buf, buf.subarray(0, N))
        .finally(() => (settled = true));
      call.catch(() => {});
      while (!settled) {
        for (let i = 0; i < N; i += 4099) assert.equal(buf[i], bad[i], `byte ${spot}: byte ${i} written while the call was pending`);
        await new Promise((r) => setTimeout(r, 0));
      }
      await assert.rejects(call, (e: Error) => e.name === 'AuthenticationError', `byte ${spot}`);
      assert.ok(isAllZero(buf.subarray(0, N)), `byte ${spot}: the output is not zeroed`);
    }
  });

  it('secretbox: a changed byte in any piece or in the tag', async () => {
    const key = rand(32);
    const nonce = rand(24);
    const sealed = F.xsalsa20poly1305(key, nonce).encrypt(rand(N));
    for (const spot of [0, 15, 16, 47, 48, ...SPOTS.map((s) => s + 16)]) {
      const bad = sealed.slice();
      bad[spot]! ^= 1;
      await rejectsWithoutRelease(`secretbox, byte ${spot}`, new Uint8Array(N), bad.subarray(16), (o) => P.xsalsa20poly1305(key, nonce).decrypt(bad, o));
    }
  });

  it('xsalsa20poly1305 and secretbox refuse associated data, as the synchronous ones do: nothing would authenticate it', () => {
    const refused = (e: unknown) => e instanceof TypeError && /associated data/.test((e as Error).message);
    assert.throws(() => (P.xsalsa20poly1305 as (...a: unknown[]) => unknown)(rand(32), rand(24), rand(4)), refused);
    assert.throws(() => (P.secretbox as (...a: unknown[]) => unknown)(rand(32), rand(24), rand(4)), refused);
  });

  it('a ciphertext shorter than its tag rejects with AuthenticationError, as the synchronous ones throw', async () => {
    const aeads = [P.chacha20poly1305(rand(32), rand(12)), P.xchacha20poly1305(rand(32), rand(24)), P.xsalsa20poly1305(rand(32), rand(24))];
    for (const [i, aead] of aeads.entries()) {
      for (let n = 0; n < 16; n++) {
        await assert.rejects(aead.decrypt(rand(n)), F.AuthenticationError, `AEAD ${i}, ${n} bytes`);
        await assert.rejects(aead.decrypt(rand(n), new Uint8Array(0)), F.AuthenticationError, `AEAD ${i}, ${n} bytes, with an output`);
      }
    }
  });

  it('a tampered ciphertext without an output also rejects, and a good one still opens afterwards', async () => {
    const key = rand(32);
    const nonce = rand(12);
    const m = rand(N);
    const sealed = F.chacha20poly1305(key, nonce).encrypt(m);
    const bad = sealed.slice();
    bad[MiB + 3]! ^= 1;
    await assert.rejects(P.chacha20poly1305(key, nonce).decrypt(bad), (e: Error) => e.name === 'AuthenticationError');
    assertBytes(await P.chacha20poly1305(key, nonce).decrypt(sealed), m);
  });

  it('inputs and outputs on SharedArrayBuffers: read and written by the workers directly, the same bytes', { skip: NO_SAB }, async () => {
    const key = rand(32);
    const nonce = rand(24);
    const m = rand(N);
    const shared = (b: Uint8Array) => {
      const s = new Uint8Array(new SharedArrayBuffer(b.length + 8), 3, b.length);
      s.set(b);
      return s;
    };
    const expected = F.xchacha20(key, nonce, m);
    for (const [label, input, output] of [
      ['shared in and out', shared(m), shared(new Uint8Array(N))],
      ['shared in', shared(m), new Uint8Array(N)],
      ['shared out', m, shared(new Uint8Array(N))],
    ] as const) {
      assert.equal(await P.xchacha20(key, nonce, input, output), output);
      assertBytes(output, expected, label);
    }
    const inPlace = shared(m);
    await P.xchacha20(key, nonce, inPlace, inPlace);
    assertBytes(inPlace, expected, 'shared, in place');
    const sealed = F.xchacha20poly1305(key, nonce).encrypt(m);
    const sealedOut = shared(new Uint8Array(N + 16));
    const opened = shared(new Uint8Array(N));
    // Directly: with shared input and output no piece of an encryption takes a slot of any worker.
    const given = await handedOut(() => P.xchacha20poly1305(key, nonce).encrypt(shared(m), sealedOut));
    assertBytes(sealedOut, sealed, 'AEAD encrypt, shared');
    assert.ok(given.jobs > 0, 'the workers were given jobs');
    assert.equal(given.slots, 0, 'slots taken by a shared AEAD encryption');
    // A decryption's second pass decrypts the output in place, through slots (transform.ts: in place on shared memory).
    await P.xchacha20poly1305(key, nonce).decrypt(shared(sealed), opened);
    assertBytes(opened, m, 'AEAD decrypt, shared');
    const bad = shared(sealed);
    bad[2 * MiB]! ^= 1;
    await rejectsWithoutRelease('AEAD decrypt, shared, tampered', shared(new Uint8Array(N)), bad, (o) => P.xchacha20poly1305(key, nonce).decrypt(bad, o));
  });
});
