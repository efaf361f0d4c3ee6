/**
 * Error messages that say what to do, for the mistakes of a first hour: a
 * Promise where bytes belong (a missing await), text where bytes belong
 * (TextEncoder; a key is not text, a password needs a KDF), an ArrayBuffer
 * or another view (new Uint8Array(...)), an option that does not exist
 * (refused, naming the options there are, rather than ignored), and a
 * stream decrypted with another chunkSize than it was encrypted with.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError, blake3, chacha20, ready, secretbox, secretstream, serpent, xchacha20poly1305 } from 'fourfold';
import * as age from 'fourfold/age';
import * as typage from 'fourfold/age/typage';
import { argon2id, argon2Verify } from 'fourfold/argon2';
import * as P from 'fourfold/parallel';
import { scrypt } from 'fourfold/scrypt';
import { concat, NO_STREAMS, rand } from '../helpers.js';
import { NO_FETCH, viewSource } from './openers.js';

const key = rand(32);
const n24 = rand(24);

/**
 * `chunk` written through `transform`: everything that comes out, or the
 * stream's own error. Written and read by hand: browsers' Response reports
 * an errored body as a TypeError of its own, node --jitless has no Response
 * (undici needs WebAssembly), and WPE WebKit 2.38 reports a pipeThrough
 * whose transformer rejects (fourfold/parallel's) as an unhandled rejection
 * too.
 */
async function through(transform: TransformStream<unknown, Uint8Array>, chunk: unknown): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reading = (async () => {
    const reader = transform.readable.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  })();
  // Its error is the writer's, awaited below.
  reading.catch(() => {});
  const writer = transform.writable.getWriter();
  await writer.write(chunk);
  await writer.close();
  await reading;
  return concat(...parts);
}

/** Asserts that `call` throws a TypeError whose message is `expected` exactly. */
function typeError(call: () => unknown, expected: string): void {
  assert.throws(call, (e: unknown) => {
    assert.ok(e instanceof TypeError, `a TypeError, got ${String(e)}`);
    assert.equal(e.message, expected);
    return true;
  });
}

it('a Promise where bytes belong: "got a Promise: missing await?"', async () => {
  const pending = P.xchacha20poly1305(key, n24).encrypt(rand(10));
  typeError(() => xchacha20poly1305(key, n24).decrypt(pending as never), 'ciphertext must be a Uint8Array, got a Promise: missing await?');
  typeError(() => blake3(Promise.resolve(rand(3)) as never), 'data must be a Uint8Array, got a Promise: missing await?');
  typeError(() => chacha20(Promise.resolve(key) as never, rand(12), rand(1)), 'key must be a Uint8Array, got a Promise: missing await?');
  await pending;
});

it('a Promise where any argument belongs, in every family (keys, nonces, options, passwords, recipients, identities, paths): "missing await?"', async () => {
  const hint = 'got a Promise: missing await?';
  const pending = <T>(value: T): never => Promise.resolve(value) as never;
  const file = await age.encrypt(rand(3), { passphrase: 'pw', workFactor: 2 });
  // What a first hour writes: a post-quantum identity's recipient is a Promise.
  const pqRecipient = age.identityToRecipient(age.generateHybridIdentity());
  const decrypter = new typage.Decrypter();
  const cases: [string, () => unknown][] = [
    ['nonce', () => chacha20(key, pending(rand(12)), rand(1))],
    ['header', () => secretstream.initPull(pending(rand(24)), key)],
    ['opts', () => blake3(rand(1), pending({ dkLen: 64 }))],
    ['context', () => blake3(rand(1), { context: pending('app') })],
    ['options', () => serpent.cbc(key, rand(16), pending({}))],
    ['options', () => ready(pending({ tier: 'js' }))],
    ['options', () => P.configure(pending({ workers: 1 }))],
    ['options', () => secretstream.encryptStream(key, pending({ chunkSize: 100 }))],
    ['password', () => scrypt(pending('pw'), rand(16), { N: 16 })],
    ['opts', () => scrypt('pw', rand(16), pending({ N: 16 }))],
    ['salt', () => argon2id('pw', pending(rand(16)), { t: 1, m: 8 })],
    ['opts', () => argon2id('pw', rand(16), pending({ t: 1, m: 8 }))],
    ['the stored hash', () => argon2Verify(pending('$argon2id$...'), 'pw')],
    ['recipients[0]', () => age.encrypt(rand(1), { recipients: [pqRecipient as never] })],
    ['recipients[0]', () => P.age.encrypt(rand(1), { recipients: [pqRecipient as never] })],
    ['recipients', () => age.encrypt(rand(1), { recipients: pending([]) })],
    ['to', () => age.encrypt(rand(1), pending({ passphrase: 'pw' }))],
    ['options', () => age.encrypt(rand(1), { passphrase: 'pw' }, pending({ armor: true }))],
    ['passphrase', () => age.encrypt(rand(1), { passphrase: pending('pw') })],
    ['passphrase', () => age.decrypt(file, { passphrase: pending('pw') })],
    ['from', () => P.age.decrypt(file, pending({ passphrase: 'pw' }))],
    ['identities[0]', () => age.decrypt(file, { identities: [pending(age.generateIdentity())] })],
    ['identities[0].sshKey', () => age.decrypt(file, { identities: [{ sshKey: pending('-----BEGIN'), passphrase: 'pw' }] })],
    ['identity', () => age.identityToRecipient(pending(age.generateIdentity()))],
    // openAsBlob(path) not awaited; Hermes has no Blob, and the Promise is refused whatever it holds.
    ['source', () => age.decryptRange(pending(typeof Blob === 'function' ? new Blob([file as Uint8Array<ArrayBuffer>]) : file), 0, 1, { passphrase: 'pw' })],
    ['source', () => age.openRangeReader(pending(viewSource(file)), { passphrase: 'pw' })],
    // The typage API: a file, a header, an identity or a passphrase still pending.
    ['file', () => decrypter.decrypt(pending(file))],
    ['header', () => decrypter.decryptHeader(pending(file))],
    ['identity', () => decrypter.addIdentity(pending(age.generateIdentity()))],
    ['the passphrase', () => decrypter.addPassphrase(pending('pw'))],
    ['file', () => typage.armor.decode(pending('-----BEGIN AGE ENCRYPTED FILE-----'))],
  ];
  // A Service Worker's rangeResponse given openRangeReader's promise, or the fetch event's request still pending.
  const opening = age.openRangeReader(viewSource(file), { passphrase: 'pw' });
  if (!NO_FETCH) {
    // Where there is no Fetch API (node --jitless: Node's fetch globals then fail as they load), httpRangeSource has nothing to call.
    cases.push(['url', () => age.httpRangeSource(pending('https://fourfold.test/file.age'))]);
    cases.push(['reader', () => age.rangeResponse(new Request('https://fourfold.test/file'), opening as never)]);
    cases.push(['request', () => age.rangeResponse(pending(new Request('https://fourfold.test/file')), opening as never)]);
  }
  for (const [name, call] of cases) {
    await assert.rejects(
      async () => call(),
      (e: unknown) => {
        assert.ok(e instanceof TypeError, `${name}: a TypeError, got ${String(e)}`);
        assert.ok(e.message.startsWith(`${name} must be `) && e.message.endsWith(hint), e.message);
        return true;
      },
    );
  }
  await pqRecipient;
  await (await opening).close();
});

it('text where bytes belong: TextEncoder, or for a key, a KDF; for a nonce, random bytes', () => {
  typeError(
    () => xchacha20poly1305(key, n24).encrypt('hello' as never),
    'plaintext must be a Uint8Array, got string: for text, pass new TextEncoder().encode(text)',
  );
  typeError(() => blake3('hello' as never), 'data must be a Uint8Array, got string: for text, pass new TextEncoder().encode(text)');
  const password = 'correct horse battery staple, 32b';
  const kdf =
    'key must be a Uint8Array, got string: a key is random bytes, not text (for a password, derive a key with a KDF such as Argon2id, scrypt or PBKDF2)';
  typeError(() => xchacha20poly1305(password as never, n24), kdf);
  typeError(() => secretstream.initPush(password as never), kdf);
  typeError(() => serpent.ctr(password as never, rand(16)), kdf);
  typeError(
    () => secretbox(key, 'a nonce of 24 characters' as never),
    'nonce must be a Uint8Array, got string: a nonce is bytes (a random one: crypto.getRandomValues(new Uint8Array(length)))',
  );
});

it('a buffer or another view where a Uint8Array belongs: how to view its bytes', () => {
  const bytes = rand(16);
  typeError(() => blake3(bytes.buffer as never), 'data must be a Uint8Array, got ArrayBuffer: view it as new Uint8Array(buffer)');
  typeError(
    () => blake3(new Uint16Array(4) as never),
    'data must be a Uint8Array, got Uint16Array: view its bytes as new Uint8Array(view.buffer, view.byteOffset, view.byteLength)',
  );
  typeError(
    () => blake3(new DataView(bytes.buffer) as never),
    'data must be a Uint8Array, got DataView: view its bytes as new Uint8Array(view.buffer, view.byteOffset, view.byteLength)',
  );
  typeError(() => blake3([1, 2, 3] as never), 'data must be a Uint8Array, got Array: convert it with Uint8Array.from(array)');
  // Nothing to suggest: the plain kind.
  typeError(() => blake3({} as never), 'data must be a Uint8Array, got object');
  typeError(() => blake3(undefined as never), 'data must be a Uint8Array, got undefined');
  typeError(() => blake3(7 as never), 'data must be a Uint8Array, got number');
});

it('an option that does not exist is refused, naming the options there are (blake3 used to ignore { length: 64 })', async () => {
  const data = rand(100);
  typeError(() => blake3(data, { length: 64 } as never), "opts: unknown option 'length' (the options are dkLen, key and context)");
  typeError(() => blake3.create({ length: 64 } as never), "opts: unknown option 'length' (the options are dkLen, key and context)");
  await assert.rejects(P.blake3(data, { length: 64 } as never), {
    name: 'TypeError',
    message: "opts: unknown option 'length' (the options are dkLen, key, context and workers)",
  });
  // fourfold's blake3 has no workers option; fourfold/parallel's has.
  typeError(() => blake3(data, { workers: 2 } as never), "opts: unknown option 'workers' (the options are dkLen, key and context)");
  assert.equal((await P.blake3(data, { workers: 0, dkLen: 40 })).length, 40);
  typeError(() => serpent.cbc(key, rand(16), { padding: false } as never), "options: unknown option 'padding' (the options are disablePadding)");
  await assert.rejects(ready({ tier: 'js', force: true } as never), { name: 'TypeError', message: "options: unknown option 'force' (the options are tier)" });
  typeError(() => P.configure({ worker: 2 } as never), "options: unknown option 'worker' (the options are workers and workerUrl)");
  await assert.rejects(P.warm({ count: 2 } as never), { name: 'TypeError', message: "options: unknown option 'count' (the options are workers)" });
  // Known options set to undefined are no options at all.
  assert.equal(blake3(data, { dkLen: undefined, key: undefined, context: undefined }).length, 32);
});

it("secretstream streams: an unknown option is refused; a chunkSize other than the encryption's is named as a possible cause", {
  skip: NO_STREAMS,
}, async () => {
  typeError(() => secretstream.encryptStream(key, { chunksize: 100 } as never), "options: unknown option 'chunksize' (the options are chunkSize)");
  typeError(() => secretstream.decryptStream(key, { size: 100 } as never), "options: unknown option 'size' (the options are chunkSize)");
  const plaintext = rand(1000);
  const encrypted = await through(secretstream.encryptStream(key, { chunkSize: 256 }), plaintext);
  for (const [name, decryptStream] of [
    ['fourfold', secretstream.decryptStream],
    ['fourfold/parallel', P.secretstream.decryptStream],
  ] as const) {
    for (const chunkSize of [100, 4096, undefined]) {
      await assert.rejects(through(decryptStream(key, chunkSize === undefined ? undefined : { chunkSize }), encrypted), (e: unknown) => {
        assert.ok(e instanceof AuthenticationError, `${name}, chunkSize ${chunkSize}: an AuthenticationError, got ${String(e)}`);
        assert.match(
          e.message,
          new RegExp(
            `the first message does not verify: .* or it was encrypted with another chunkSize \\(decryptStream must be given encryptStream's; this one's is ${chunkSize ?? 65536}\\)$`,
          ),
        );
        return true;
      });
    }
    // The right chunkSize opens it.
    assert.deepEqual(await through(decryptStream(key, { chunkSize: 256 }), encrypted), plaintext, name);
  }
  P.terminate();
});

it('a stream chunk that is text or a Promise says what to do', { skip: NO_STREAMS }, async () => {
  for (const [chunk, expected] of [
    ['text', 'chunk must be an ArrayBuffer, a SharedArrayBuffer or an ArrayBufferView, got string: for text, pipe it through a TextEncoderStream first'],
    [Promise.resolve(rand(3)), 'chunk must be an ArrayBuffer, a SharedArrayBuffer or an ArrayBufferView, got a Promise: missing await?'],
  ] as const) {
    await assert.rejects(through(secretstream.encryptStream(key), chunk), { name: 'TypeError', message: expected });
  }
});
