/**
 * encryptFile and decryptFile, file to file, on this thread (fourfold/age)
 * and on every core (fourfold/parallel): the same files as the one-shot
 * calls at every size around a chunk and a piece (15 chunks; a
 * worker's, 60), armored
 * and passphrase files, and every failure leaving the destination as it
 * was and no temporary file beside it: a wrong key, a chunk changed, the
 * file cut at and around each boundary or extended, an abort, the input
 * changing size during the call, the pool ended mid-call. A file that
 * another writer changes during the call (the class test of shared input,
 * for files, through paths and handles: each chunk is read once,
 * verified, and only then written)
 * gives its plaintext as read or AuthenticationError; a hostile header is
 * refused within age's bounds. Where the engine has no file system
 * (browsers, Hermes) the calls refuse, typed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';
import { assertBytes, rand } from '../helpers.js';
import { armoredLength } from '../internal.js';
import { APIS, CHUNK, COUNTS_LOST_WORKERS, from, fs, inDirectory, NO_FILES, read, SEALED, to } from './file-fixture.js';

const PIECE = 15 * CHUNK;

describe('encryptFile and decryptFile', { skip: NO_FILES }, () => {
  // Around a chunk, a piece of this thread's (15 chunks) and of a worker's (60); files of the pool's size ending in a short chunk.
  const WORKER_PIECE = 4 * PIECE;
  const sizes = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, PIECE - 1, PIECE, PIECE + 1, 2 * PIECE + CHUNK, 3 * 1024 * 1024 + 5];
  sizes.push(WORKER_PIECE - 1, WORKER_PIECE, WORKER_PIECE + 1, 2 * WORKER_PIECE + 1000);
  for (const [name, api] of APIS) {
    it(`${name}: the same files as encrypt and decrypt, at every size around a chunk and a piece`, async () => {
      await inDirectory(async (path, names) => {
        // No worker may be lost on the way (one stuck on a piece is ended after 2 s and its piece redone here: right bytes, late).
        fs!.writeFileSync(path('plain'), rand(3 << 20));
        await api.encryptFile(path('plain'), path('file.age'), to);
        const workers = P.status().workers;
        for (const size of sizes) {
          const data = rand(size);
          fs!.writeFileSync(path('plain'), data);
          await api.encryptFile(path('plain'), path('file.age'), to);
          const file = read(path('file.age'));
          assert.equal(file.length, fileLength(file, size), `${size} bytes: the layout`);
          assertBytes(await age.decrypt(file, from), data, `${size} bytes: decrypt reads encryptFile's file`);
          await api.decryptFile(path('file.age'), path('back'), from);
          assertBytes(read(path('back')), data, `${size} bytes: decryptFile`);
          fs!.writeFileSync(path('one-shot.age'), await age.encrypt(data, to));
          await api.decryptFile(path('one-shot.age'), path('back'), from);
          assertBytes(read(path('back')), data, `${size} bytes: decryptFile reads encrypt's file`);
          // Armored, each piece writing its own lines: age's strict armor reader takes it, and it is the binary file's armor.
          await api.encryptFile(path('plain'), path('armored.age'), to, { armor: true });
          const armored = read(path('armored.age'));
          assertBytes(await age.decrypt(armored, from), data, `${size} bytes: armored`);
          assert.equal(armored.length, armoredLength(fileLength(file, size)), `${size} bytes: the armored layout`);
          if (api === P.age && workers > 0 && COUNTS_LOST_WORKERS) assert.equal(P.status().workers, workers, `${size} bytes: a worker was lost`);
        }
        assert.deepEqual(names(), ['armored.age', 'back', 'file.age', 'one-shot.age', 'plain'], 'no temporary file is left');
      });
    });

    it(`${name}: armored files, passphrases, URLs, a new output's mode, and an existing output replaced with its mode kept`, async () => {
      await inDirectory(async (path, names) => {
        const data = rand(PIECE + 77);
        fs!.writeFileSync(path('plain'), data);
        await api.encryptFile(path('plain'), path('armored.age'), to, { armor: true });
        assert.match(fs!.readFileSync(path('armored.age'), 'latin1'), /^-----BEGIN AGE ENCRYPTED FILE-----\n/);
        // A new file's mode is what the file system gives one (0666 less the umask), and no probe for it is left behind.
        const umask = (globalThis.process as { umask?: () => number }).umask?.();
        if (umask !== undefined) assert.equal(fs!.statSync(path('armored.age')).mode & 0o777, 0o666 & ~umask, 'a new file: 0666 less the umask');
        assertBytes(await age.decrypt(read(path('armored.age')), from), data, 'armored');
        await api.decryptFile(path('armored.age'), path('back'), from);
        assertBytes(read(path('back')), data, 'armored, back');
        await api.encryptFile(path('plain'), path('pass.age'), { passphrase: 'a passphrase', workFactor: 2 });
        fs!.writeFileSync(path('old'), 'what was there');
        fs!.chmodSync(path('old'), 0o640);
        fs!.renameSync(path('pass.age'), path('pass 100%.age'));
        await api.decryptFile(new URL(`file://${path('pass 100%25.age')}`), path('old'), { passphrase: 'a passphrase', maxWorkFactor: 2 });
        assertBytes(read(path('old')), data, 'passphrase');
        assert.equal(fs!.statSync(path('old')).mode & 0o777, 0o640, 'the mode of the file it replaced');
        assert.deepEqual(names(), ['armored.age', 'back', 'old', 'pass 100%.age', 'plain'], 'no temporary file or probe is left');
      });
    });

    it(`${name}: a wrong key, a changed chunk, a file cut or extended: the error names the file, the destination is as it was, no temporary file`, async () => {
      await inDirectory(async (path, names) => {
        // 121 chunks: a worker's piece is 60 (four slots of 15, each done in turn), this thread's 15.
        const chunks = 121;
        const data = rand((chunks - 1) * CHUNK + 1000);
        const file = await age.encrypt(data, to);
        const payloadAt = file.length - data.length - chunks * 16;
        const cases: [string, Uint8Array, RegExp][] = [];
        for (const k of [0, 1, 14, 15, 16, 30, 44, 45, 59, 60, 61, 119, 120]) {
          const changed = file.slice();
          changed[payloadAt + k * SEALED + 100]! ^= 1;
          cases.push([`chunk ${k} of ${chunks} changed`, changed, new RegExp(`chunk ${k} `)]);
        }
        for (const k of [1, 15, 30, 45, 60, 61, 120]) {
          cases.push([`cut after chunk ${k - 1}`, file.subarray(0, payloadAt + k * SEALED), /cut short/]);
          cases.push([`cut a byte into chunk ${k}`, file.subarray(0, payloadAt + k * SEALED + 1), /cut short|does not verify|short/]);
          cases.push([`cut a byte before chunk ${k}`, file.subarray(0, payloadAt + k * SEALED - 1), /./]);
        }
        cases.push(['cut to its nonce', file.subarray(0, payloadAt), /cut short|ends/]);
        cases.push(['cut inside its nonce', file.subarray(0, payloadAt - 3), /nonce/]);
        cases.push(['extended by a byte', Uint8Array.from([...file, 0]), /goes on|does not verify/]);
        for (const [what, bytes, message] of cases) {
          fs!.writeFileSync(path('bad.age'), bytes);
          fs!.writeFileSync(path('out'), 'what was there');
          await assert.rejects(
            api.decryptFile(path('bad.age'), path('out'), from),
            (e: Error) =>
              (e instanceof AuthenticationError || e instanceof age.AgeFormatError) && e.message.includes(path('bad.age')) && message.test(e.message),
            what,
          );
          assert.equal(fs!.readFileSync(path('out'), 'utf8'), 'what was there', `${what}: the destination as it was`);
          assert.deepEqual(names(), ['bad.age', 'out'], `${what}: no temporary file`);
        }
        fs!.writeFileSync(path('good.age'), file);
        await assert.rejects(api.decryptFile(path('good.age'), path('out'), { identities: [age.generateIdentity()] }), age.NoIdentityMatchError);
        assert.equal(fs!.readFileSync(path('out'), 'utf8'), 'what was there', 'a wrong key');
        await assert.rejects(api.decryptFile(path('good.age'), path('new'), { identities: [age.generateIdentity()] }), age.NoIdentityMatchError);
        assert.equal(fs!.existsSync(path('new')), false, 'no file where there was none');
        assert.deepEqual(names(), ['bad.age', 'good.age', 'out']);
      });
    });

    it(`${name}: an abort mid-call, and an input that changes size, leave the destination as it was`, async () => {
      await inDirectory(async (path, names) => {
        const data = rand(4 * PIECE);
        fs!.writeFileSync(path('plain'), data);
        fs!.writeFileSync(path('file.age'), await age.encrypt(data, to));
        // Encrypting binary and armored (whose pieces write their own lines), then decrypting.
        for (const [decrypting, armor] of [
          [false, false],
          [false, true],
          [true, false],
        ]) {
          const call = (options: object) =>
            decrypting ? api.decryptFile(path('file.age'), path('out'), from, options) : api.encryptFile(path('plain'), path('out'), to, { ...options, armor });
          const controller = new AbortController();
          const reason = new Error('stopped');
          let calls = 0;
          await assert.rejects(
            call({
              signal: controller.signal,
              onProgress: (done: number, total: number) => {
                assert.ok(done <= total);
                if (++calls === 1) controller.abort(reason);
              },
            }),
            (e) => e === reason,
          );
          assert.equal(fs!.existsSync(path('out')), false, `${decrypting ? 'decrypt' : 'encrypt'}: aborted`);
          const before = read(decrypting ? path('file.age') : path('plain'));
          await assert.rejects(
            call({ onProgress: () => fs!.truncateSync(decrypting ? path('file.age') : path('plain'), 2 * PIECE) }),
            /changed size|cut short|does not verify/,
          );
          fs!.writeFileSync(decrypting ? path('file.age') : path('plain'), before);
          assert.equal(fs!.existsSync(path('out')), false, `${decrypting ? 'decrypt' : 'encrypt'}: an input changed`);
          assert.deepEqual(names(), ['file.age', 'plain']);
        }
      });
    });

    it(`${name}: a file another writer changes during the call, through paths and handles: the right plaintext or AuthenticationError, never a changed byte`, async () => {
      await inDirectory(async (path, names) => {
        const data = rand(6 * PIECE + 9);
        const file = await age.encrypt(data, to);
        const payloadAt = file.length - data.length - 16 * Math.ceil(data.length / CHUNK);
        for (const handles of [false, true]) {
          let refused = 0;
          for (const k of [1, 20, 45, 60, 89]) {
            const what = `${handles ? 'handles' : 'paths'}, chunk ${k}`;
            fs!.writeFileSync(path('file.age'), file);
            fs!.writeFileSync(path('out'), 'what was there');
            let calls = 0;
            const onProgress = () => {
              if (++calls !== 1) return;
              const fd = fs!.openSync(path('file.age'), 'r+');
              fs!.writeSync(fd, Uint8Array.of(file[payloadAt + k * SEALED + 7]! ^ 1), 0, 1, payloadAt + k * SEALED + 7);
              fs!.closeSync(fd);
            };
            const input = handles ? await fs!.promises.open(path('file.age'), 'r') : path('file.age');
            const output = handles ? await fs!.promises.open(path('out'), 'r+') : path('out');
            try {
              await api.decryptFile(input, output, from, { onProgress });
              assertBytes(read(path('out')), data, `${what} changed after it was read: the file as it was read`);
            } catch (e) {
              assert.ok(e instanceof AuthenticationError, `${what}: ${e}`);
              // A path is left as it was; a handle, which cannot be, is emptied.
              assert.equal(fs!.readFileSync(path('out'), 'utf8'), handles ? '' : 'what was there', `${what}: no plaintext in the destination`);
              refused++;
            } finally {
              if (typeof input !== 'string') await input.close();
              if (typeof output !== 'string') await output.close();
            }
            assert.deepEqual(names(), ['file.age', 'out'], `${what}: no temporary file`);
          }
          assert.ok(refused > 0, `${handles ? 'handles' : 'paths'}: a chunk changed before it was read is refused`);
        }
      });
    });

    it(`${name}: a header of 2,000 stanzas is refused before any work, as age refuses more than 1,024`, async () => {
      await inDirectory(async (path, names) => {
        const stanza = `-> X25519 ${'A'.repeat(43)}\n${'A'.repeat(43)}\n`;
        fs!.writeFileSync(path('many.age'), `age-encryption.org/v1\n${stanza.repeat(2000)}--- ${'A'.repeat(43)}\n`);
        await assert.rejects(
          api.decryptFile(path('many.age'), path('out'), from),
          (e) => e instanceof age.AgeFormatError && e.message.includes(path('many.age')) && /more than 1024 recipient stanzas/.test(e.message),
        );
        assert.deepEqual(names(), ['many.age']);
      });
    });

    it(`${name}: checks its arguments before any work`, async () => {
      await assert.rejects(api.encryptFile(42 as never, 'out', to), TypeError);
      await assert.rejects(api.encryptFile('', 'out', to), TypeError);
      await assert.rejects(api.encryptFile(new URL('https://example.com/plain'), 'out', to), TypeError);
      await assert.rejects(api.decryptFile('in', 'out', from, { armor: true } as never), /unknown option 'armor'/);
      await assert.rejects(api.encryptFile('in', 'out', to, { onProgress: 1 } as never), TypeError);
      await assert.rejects((api.decryptFile as (...a: unknown[]) => Promise<void>)('in', 'out', from, {}, 'text'), TypeError);
      await assert.rejects(api.decryptFile('/nonexistent/in.age', '/nonexistent/out', from), /ENOENT/);
    });
  }

  it('fourfold/parallel: terminate() mid-call: the file is still right (the lost pieces are done on this thread)', async () => {
    await inDirectory(async (path) => {
      const data = rand(8 * PIECE + 3);
      fs!.writeFileSync(path('plain'), data);
      for (const decrypting of [false, true]) {
        let calls = 0;
        const onProgress = () => {
          if (++calls === 2) P.terminate();
        };
        if (decrypting) await P.age.decryptFile(path('file.age'), path('back'), from, { onProgress });
        else await P.age.encryptFile(path('plain'), path('file.age'), to, { onProgress });
      }
      assertBytes(read(path('back')), data);
    });
  });
});

it('without a file system, the file calls refuse, typed, saying what to use', {
  skip: fs === undefined ? false : 'not applicable: this engine has node:fs',
}, async () => {
  for (const [, api] of APIS) {
    await assert.rejects(api.encryptFile('a', 'b', to), (e) => e instanceof TypeError && /a Blob or File/.test(e.message));
    await assert.rejects(api.decryptFile('a', 'b', from), (e) => e instanceof TypeError && /a Blob or File/.test(e.message));
  }
});

/** The length of a binary age file of `size` plaintext bytes with the header `file` starts with. */
function fileLength(file: Uint8Array, size: number): number {
  const header = new TextDecoder('latin1').decode(file.subarray(0, Math.min(file.length, 4096)));
  const end = header.indexOf('\n---') + 1;
  const headerLength = header.indexOf('\n', end) + 1;
  return headerLength + 16 + size + 16 * Math.max(1, Math.ceil(size / CHUNK));
}
