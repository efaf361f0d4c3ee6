/**
 * fourfold/age's encryptStream and decryptStream, both tiers: the bytes of
 * the one-shot calls whatever the pieces they are written in (1 byte to
 * a whole file, across chunk and run boundaries), armored output and
 * armored input, passphrases; plaintext released only as far as it
 * verified when a chunk in the middle was changed; a chunk the caller
 * reuses once written changes nothing; arguments checked when the
 * stream is made; a stream made and never used, or cancelled, lets go.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import { ageOffsets, assertBytes, forEachTier, NO_STREAMS, rand, writesNear } from '../helpers.js';

const CHUNK = 65536;
const SEALED = CHUNK + 16;

/**
 * Everything `stream` gives for `input` written in pieces of `piece` bytes
 * (or of these sizes), or the error with what came before it. `slowly`: the reader lets a timer
 * run before each read, so that output waits in the stream's queue.
 */
async function through(
  stream: TransformStream<Uint8Array, Uint8Array>,
  input: Uint8Array,
  piece: number | number[],
  slowly = false,
): Promise<{ out: Uint8Array; error?: unknown }> {
  const parts: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  const next = async () => {
    if (slowly) await new Promise((resolve) => setTimeout(resolve, 1));
    return reader.read();
  };
  const reading = (async () => {
    for (let r = await next(); !r.done; r = await next()) parts.push(r.value);
  })();
  const writer = stream.writable.getWriter();
  let error: unknown;
  try {
    const sizes = typeof piece === 'number' ? Array.from({ length: Math.ceil(input.length / piece) }, () => piece) : piece;
    let at = 0;
    for (const n of sizes) await writer.write(input.slice(at, (at += n)));
    await writer.close();
    await reading;
  } catch (e) {
    error = e;
    await reading.catch(() => {});
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return { out, error };
}

forEachTier('age streams', () => {
  const id = age.generateIdentity();
  const to = { recipients: [age.identityToRecipient(id)] };
  const from = { identities: [id] };

  it('round trips in pieces of 1 byte to the whole file, across chunk and run boundaries, binary and armored', { skip: NO_STREAMS }, async () => {
    for (const size of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 16 * CHUNK, 16 * CHUNK + 1, 40 * CHUNK + 3]) {
      const data = rand(size);
      for (const piece of [1, 1000, CHUNK - 1, CHUNK, CHUNK + 1, SEALED, 1 << 20, Math.max(1, size)]) {
        // Bytes one at a time up to a chunk and one byte (the header, the nonce, the first chunk boundary): larger
        // files cross no new boundary that way, and take minutes in the engines without a JIT. And one at a time
        // within a KiB of those places and of the start and the end, 4096 bytes at a time between them.
        if (piece < 1000 && size > CHUNK + 1) continue;
        for (const armor of [false, true]) {
          const label = `size ${size}, pieces of ${piece}${armor ? ', armored' : ''}`;
          const sealed = await through(age.encryptStream(to, { armor }), data, piece === 1 ? writesNear(size, [CHUNK]) : piece);
          assert.equal(sealed.error, undefined, label);
          assertBytes(await age.decrypt(sealed.out, from), data, `${label}: decrypt`);
          const opened = await through(age.decryptStream(from), sealed.out, piece === 1 ? writesNear(sealed.out.length, ageOffsets(sealed.out)) : piece);
          assert.equal(opened.error, undefined, label);
          assertBytes(opened.out, data, `${label}: decryptStream`);
        }
      }
    }
  });

  it('decryptStream takes what encrypt made, and a passphrase', { skip: NO_STREAMS }, async () => {
    const data = rand(5 * CHUNK + 3);
    const file = await age.encrypt(data, { passphrase: 'hunter2 hunter2', workFactor: 10 }, { armor: true });
    assertBytes((await through(age.decryptStream({ passphrase: 'hunter2 hunter2' }), file, 4096)).out, data);
    const wrong = await through(age.decryptStream({ passphrase: 'hunter3' }), file, 4096);
    assert.ok(wrong.error instanceof age.NoIdentityMatchError);
    assert.equal(wrong.out.length, 0);
  });

  it('a chunk changed mid-file: the chunks before it are released, nothing after, and the error names it', { skip: NO_STREAMS }, async () => {
    const data = rand(40 * CHUNK);
    const file = await age.encrypt(data, to);
    const payload = file.length - 40 * SEALED;
    for (const bad of [0, 5, 15, 16, 17, 39]) {
      const changed = file.slice();
      changed[payload + bad * SEALED + 100]! ^= 1;
      // The whole file in one write to a slow reader: what verified is still queued when the error comes.
      for (const [piece, slowly] of [
        [SEALED, false],
        [1 << 20, false],
        [changed.length, true],
      ] as const) {
        const r = await through(age.decryptStream(from), changed, piece, slowly);
        assert.ok(r.error instanceof AuthenticationError && r.error.message.includes(`chunk ${bad} `), `chunk ${bad}: ${String(r.error)}`);
        assertBytes(r.out, data.subarray(0, bad * CHUNK), `chunk ${bad}, writes of ${piece}${slowly ? ', a slow reader' : ''}: what was released`);
      }
    }
  });

  it("a chunk the caller reuses once its write resolved changes nothing: the stream keeps none of the caller's arrays", { skip: NO_STREAMS }, async () => {
    const data = rand(3 * CHUNK + 10);
    const stream = age.encryptStream(to);
    const reading = new Response(stream.readable).arrayBuffer();
    const writer = stream.writable.getWriter();
    for (let at = 0; at < data.length; at += 50_000) {
      const piece = data.slice(at, at + 50_000);
      await writer.write(piece);
      piece.fill(0xee);
    }
    await writer.close();
    assertBytes(await age.decrypt(new Uint8Array(await reading), from), data);
  });

  it('checks its arguments when made: to, from, options', { skip: NO_STREAMS }, () => {
    assert.throws(() => age.encryptStream({} as never), TypeError);
    assert.throws(() => age.encryptStream({ recipients: ['age1nope'] }), RangeError);
    assert.throws(() => age.encryptStream(to, { armour: true } as never), TypeError);
    assert.throws(() => age.decryptStream({ identities: [] }), RangeError);
    assert.throws(() => age.decryptStream({ passphrase: 'x', identities: [id] } as never), TypeError);
  });

  it('a stream made and never used, or cancelled half-way, ends without error or hang', { skip: NO_STREAMS }, async () => {
    age.encryptStream({ passphrase: 'never used', workFactor: 8 });
    age.decryptStream(from);
    const stream = age.encryptStream(to);
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const first = writer.write(rand(3 * CHUNK));
    await reader.read();
    await reader.cancel(new Error('enough'));
    await assert.rejects(first.then(() => writer.write(rand(10))));
  });
});
