/**
 * Decryption reads each ciphertext byte once, and no output another thread
 * can read holds a byte of unverified plaintext (README, Security).
 *
 * Another thread is the adversary here: one that keeps changing a byte of
 * a shared ciphertext while it is decrypted (a decryption that reads the
 * ciphertext twice, once for the tag and once for the plaintext, can then
 * verify one ciphertext and decrypt another: OpenSSL does, so the native
 * tier must read a copy), and one that watches a shared output while a
 * forged ciphertext is decrypted into it (a decryption that writes
 * plaintext before it checks the tag shows it there, however briefly).
 * Every tier, the default among them (node:crypto past the crossovers),
 * and every decrypting entry: the AEADs, secretbox, secretstream, age's
 * one-shot, range and streams (given views of shared memory), the typage
 * API's decrypt (bytes, armored text, a stream of shared views) and
 * decryptHeader, openRangeReader, rangeResponse and httpRangeSource (a
 * fetch whose bodies are shared views: openers.ts), and
 * fourfold/parallel's, below the size at which it uses workers (it then
 * runs the synchronous code) and, for age and the typage API, above it
 * (the calling thread opens pieces too; test/parallel/faults.test.ts has
 * the workers'). fourfold/sodium's openers have their own race
 * (test/sodium/shared-input.test.ts). The shared output race takes the
 * entries with an output: the others return arrays of their own, which
 * no other thread holds before they resolve.
 */
// First: fourfold's first request for node:crypto must get the spied module.
import { decipherUpdates } from './openssl-spy.js';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ready, AuthenticationError, chacha20poly1305, secretbox, secretstream, xchacha20poly1305 } from 'fourfold';
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';
import { assertBytes, DEFAULT_IS_OWN, forEveryTier, NO_SECOND_THREAD, NO_STREAMS, rand, spinThread } from '../helpers.js';
import { ageApiOpeners, type Opener, streamed } from './openers.js';

const key = rand(32);
const n12 = rand(12);
const n24 = rand(24);
const aad = rand(7);
const identity = age.generateIdentity();
const to = { recipients: [age.identityToRecipient(identity)] };
const from = { identities: [identity] };

const header = secretstream.initPush(key).header;

/** One slice of the simd tier's kernels and more than three. */
const SIZES = [3000, 100_000];
/** Enough of an age payload for a stream to open whole chunks of a write in place (half a piece of 16 chunks, and more). */
const STREAM_SIZES = [1 << 20];

const OPENERS: Opener[] = [
  {
    name: 'chacha20poly1305',
    seal: (m) => chacha20poly1305(key, n12, aad).encrypt(m),
    open: (c, o) => chacha20poly1305(key, n12, aad).decrypt(c, o),
    output: true,
  },
  {
    name: 'xchacha20poly1305',
    seal: (m) => xchacha20poly1305(key, n24, aad).encrypt(m),
    open: (c, o) => xchacha20poly1305(key, n24, aad).decrypt(c, o),
    output: true,
  },
  { name: 'secretbox', seal: (m) => secretbox(key, n24).seal(m), open: (c, o) => secretbox(key, n24).open(c, o), output: true, ownOnly: true },
  {
    name: 'secretstream pull',
    seal: (m) => {
      const push = secretstream.initPush(key);
      const sealed = push.push(m, secretstream.TAG_MESSAGE, aad);
      // The header of this test's pull: the same key and stream, so every pull below starts where this push did.
      header.set(push.header);
      return sealed;
    },
    open: (c) => secretstream.initPull(header, key).pull(c, aad).message,
    output: false,
    ownOnly: true,
  },
  { name: 'age decrypt', seal: (m) => age.encrypt(m, to), open: (c) => age.decrypt(c, from), output: false },
  {
    name: 'age decryptRange',
    seal: (m) => age.encrypt(m, to),
    // A source whose reads are views of the shared file, as one over shared memory may give.
    open: (c) => age.decryptRange({ size: c.length, read: async (at: number, n: number) => c.subarray(at, at + n) }, 0, c.length, from),
    output: false,
  },
  {
    name: 'age decryptStream',
    seal: (m) => age.encrypt(m, to),
    open: (c) => streamed(age.decryptStream(from), c),
    output: false,
    sizes: STREAM_SIZES,
    skip: NO_STREAMS,
  },
  {
    name: 'fourfold/parallel xchacha20poly1305',
    seal: (m) => xchacha20poly1305(key, n24, aad).encrypt(m),
    open: (c, o) => P.xchacha20poly1305(key, n24, aad).decrypt(c, o),
    output: true,
  },
  {
    name: 'fourfold/parallel secretbox',
    seal: (m) => secretbox(key, n24).seal(m),
    open: (c, o) => P.secretbox(key, n24).open(c, o),
    output: true,
    ownOnly: true,
  },
  {
    name: 'fourfold/parallel age decrypt',
    seal: (m) => age.encrypt(m, to),
    open: (c) => P.age.decrypt(c, from),
    output: false,
    // Below the pool's threshold and well above it: then this thread opens some pieces and the workers the rest.
    sizes: [100_000, 4 << 20],
  },
  {
    name: 'fourfold/parallel age decryptStream',
    seal: (m) => age.encrypt(m, to),
    open: (c) => streamed(P.age.decryptStream(from), c),
    output: false,
    sizes: STREAM_SIZES,
    skip: NO_STREAMS,
    workers: true,
    ownShared: true,
  },
  // The typage API's and the reads by range (openers.ts): typage's decrypt past PARALLEL_MIN too, where the pool opens chunks.
  ...ageApiOpeners(identity, SIZES, 4 << 20, STREAM_SIZES),
];

/** A view of `length` bytes in a new SharedArrayBuffer (at an odd offset), holding `bytes` when given. */
function shared(length: number, bytes?: Uint8Array): Uint8Array {
  const view = new Uint8Array(new SharedArrayBuffer(length + 16), 3, length);
  if (bytes !== undefined) view.set(bytes);
  return view;
}

/**
 * How many calls a race makes at least: `small` for messages under a MiB;
 * for larger ones enough to decrypt 8 MiB in all, and at least 6. A call
 * of a MiB or more spans thousands of the other thread's loops, where
 * one of 3000 bytes spans a few.
 */
const leastCalls = (size: number, small: number): number => (size < 1 << 20 ? small : Math.max(6, Math.ceil((8 << 20) / size)));

/**
 * The deterministic half of the first race below, where the default tier
 * reaches node:crypto: whatever another thread does, OpenSSL must only
 * ever be handed a private copy of a caller's shared ciphertext
 * (openssl-spy.ts counts what it is handed). Each entry at the smallest of
 * its sizes past every crossover (100,000 bytes; age's streams take whole
 * chunks of a write in place from half a piece on). fourfold/parallel's
 * age decryptStream gathers the caller's bytes into shared buffers of its
 * own, which no thread writes while a result read from them may be used:
 * those OpenSSL reads in place, without a copy of each chunk.
 */
describe('the native tier is handed a private copy of a shared ciphertext', { skip: DEFAULT_IS_OWN }, () => {
  before(async () => {
    await ready();
  });
  for (const opener of OPENERS.filter((o) => !o.ownOnly)) {
    const size = Math.min(...(opener.sizes ?? SIZES).filter((n) => n >= 100_000));
    it(`${opener.name} (${size} bytes)`, { skip: opener.skip }, async () => {
      const plain = rand(size);
      const sealed = await opener.seal(plain);
      const ciphertext = shared(sealed.length, sealed);
      const expected = opener.expect === undefined ? plain : await opener.expect(sealed);
      const seen = { ...decipherUpdates };
      assertBytes(await opener.open(ciphertext, opener.output ? shared(size) : undefined), expected, opener.name);
      assert.ok(
        !decipherUpdates.sharedBuffers.has(ciphertext.buffer),
        `${opener.name}: OpenSSL was handed a view of the caller's shared ciphertext to decrypt`,
      );
      if (!opener.ownShared) assert.equal(decipherUpdates.shared - seen.shared, 0, `${opener.name}: OpenSSL was handed a view of shared memory to decrypt`);
      if (!opener.workers) assert.ok(decipherUpdates.all > seen.all, `${opener.name}: no decryption reached node:crypto, so this checked nothing`);
    });
  }

  it("fourfold/parallel's age decryptStream hands OpenSSL its own shared buffers in place, never a copy per chunk", { skip: NO_STREAMS }, async () => {
    // No workers: every piece is opened here, from the stream's own buffers (shared, for the workers to read in place).
    P.configure({ workers: 0 });
    try {
      const size = 4 << 20;
      const plain = rand(size);
      const sealed = await age.encrypt(plain, to);
      const ciphertext = shared(sealed.length, sealed);
      const seen = { ...decipherUpdates };
      assertBytes(await streamed(P.age.decryptStream(from), ciphertext), plain);
      assert.ok(!decipherUpdates.sharedBuffers.has(ciphertext.buffer), "OpenSSL was handed a view of the caller's shared ciphertext");
      assert.ok(decipherUpdates.shared - seen.shared > 0, "the stream's own buffers were copied before OpenSSL read them (a copy per chunk)");
    } finally {
      P.configure({ workers: undefined });
    }
  });
});

type Outputs = 'new' | 'caller' | 'shared';

forEveryTier('a shared ciphertext changed by another thread while it is decrypted', () => {
  const sizes = [...new Set(OPENERS.flatMap((o) => o.sizes ?? SIZES))].sort((a, b) => a - b);
  for (const size of sizes) {
    it(`every call resolves to the plaintext it authenticated, or throws AuthenticationError (${size} bytes)`, {
      skip: NO_SECOND_THREAD,
      timeout: 300_000,
    }, async (t) => {
      const writer = await spinThread();
      try {
        for (const opener of OPENERS.filter((o) => (o.sizes ?? SIZES).includes(size))) {
          if (opener.skip) {
            t.diagnostic(`${opener.name}: ${opener.skip}`);
            continue;
          }
          const plain = rand(size);
          const sealed = await opener.seal(plain);
          const ciphertext = shared(sealed.length, sealed);
          const expected = opener.expect === undefined ? plain : await opener.expect(sealed);
          // A byte inside the message (the tag covers it, and the plaintext has a byte for it), or one the opener names (a header's MAC).
          const spot = opener.spot?.(sealed) ?? sealed.length >> 1;
          await writer.spin('d.bytes[d.spot] ^= 0x20; for (let i = 0; i < 50; i++);', { bytes: ciphertext, spot });
          const seen = { resolved: 0, rejected: 0 };
          const least = leastCalls(size, 30);
          for (let call = 0; call < 600 && (call < least || seen.resolved < 3 || seen.rejected < 3); call++) {
            // The writer has run since the last call (on a loaded machine it may not get a core for a while).
            await writer.turn();
            const outputs: Outputs = opener.output ? (['new', 'caller', 'shared'] as const)[call % 3]! : 'new';
            const out = outputs === 'new' ? undefined : outputs === 'caller' ? new Uint8Array(size) : shared(size);
            const label = `${opener.name}, ${outputs} output, call ${call}`;
            let result: Uint8Array;
            try {
              result = await opener.open(ciphertext, out);
            } catch (e) {
              assert.ok(e instanceof AuthenticationError, `${label}: ${e}`);
              if (out !== undefined)
                assert.ok(
                  out.every((b) => b === 0),
                  `${label}: the output is not zeroed`,
                );
              seen.rejected++;
              continue;
            }
            // Compared whole, not through assertBytes' first difference: the difference is the point.
            assert.ok(
              result.length === expected.length && result.every((b, i) => b === expected[i]),
              `${label}: resolved to plaintext of bytes it did not authenticate`,
            );
            seen.resolved++;
          }
          await writer.pause();
          // The writer's byte is the sealed one about half the time: calls that resolved show what was decrypted.
          assert.ok(
            seen.resolved > 0 && seen.rejected > 0,
            `${opener.name}: ${seen.resolved} calls resolved and ${seen.rejected} rejected; the race was not run`,
          );
        }
      } finally {
        await writer.stop();
      }
    });
  }
});

forEveryTier('a shared output watched by another thread while a forged ciphertext is decrypted into it', () => {
  for (const size of [100_000, 1 << 20]) {
    it(`shows no byte of plaintext at any moment, apart or in place (${size} bytes)`, { skip: NO_SECOND_THREAD, timeout: 300_000 }, async () => {
      const watcher = await spinThread();
      try {
        for (const opener of OPENERS.filter((o) => o.output)) {
          for (const inPlace of [false, true]) {
            const plain = rand(size);
            const forged = await opener.seal(plain);
            // The tag's last byte (secretbox's tag comes first): every plaintext byte is the true one, and none may show.
            forged[opener.name.includes('secretbox') ? 15 : forged.length - 1]! ^= 1;
            const box = shared(forged.length);
            const bodyAt = opener.name.includes('secretbox') ? 16 : 0;
            const out = inPlace ? box.subarray(bodyAt, bodyAt + size) : shared(size);
            // Windows of the plaintext the watcher compares the output with, 16 bytes each.
            const spots = [0, 40_000, size >> 1, size - 16];
            const flag = new Int32Array(new SharedArrayBuffer(4));
            await watcher.spin(
              'for (const at of d.spots) { let same = true; for (let i = 0; i < 16; i++) if (d.out[at + i] !== d.plain[at + i]) { same = false; break; } if (same) Atomics.store(d.flag, 0, 1); }',
              { out, plain, spots, flag },
            );
            const label = `${opener.name}${inPlace ? ', in place' : ''}`;
            for (let call = 0; call < leastCalls(size, 40); call++) {
              box.set(forged);
              await watcher.turn();
              await assert.rejects(async () => opener.open(box, out), AuthenticationError, label);
              assert.ok(
                out.every((b) => b === 0),
                `${label}: the output is not zeroed`,
              );
              assert.equal(Atomics.load(flag, 0), 0, `${label}: another thread read plaintext in the output during call ${call}`);
            }
            await watcher.pause();
          }
        }
      } finally {
        await watcher.stop();
      }
    });
  }
});
