/**
 * fourfold/parallel under faults, the pool ended mid-call: whatever
 * terminate() or configure() do while a call is pending, the call
 * resolves with exactly the synchronous function's bytes or rejects, and
 * every pending job settles.
 *
 * - In place on a SharedArrayBuffer with terminate() or configure()
 *   landing at any moment (a piece a lost worker half wrote in place must
 *   not be redone from input it already overwrote).
 * - Streams with terminate() landing between messages.
 * - The age family's decryptions (fourfold/parallel's age, the typage
 *   API's bytes, streams and passphrases, reads by range and over HTTP)
 *   with terminate() landing while pieces or scrypt are on the workers.
 */
import { it, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as age from 'fourfold/age';
import * as typage from 'fourfold/age/typage';
import * as P from 'fourfold/parallel';
import { assertBytes, concat, NO_STREAMS, rand, readAll } from '../helpers.js';
import { chunksOf, NO_FETCH, rangeFetch, viewSource } from '../runtime/openers.js';
import { aad, key, MiB, n8, n12, n16, n24, NO_SAB, poolAsUsual, settles, shared, sleep } from './faults-common.js';
import { handedOut, warmPool } from './pool-helpers.js';

after(poolAsUsual);

/** An operation with an in-place form: the input's bytes, the expected output, and the parallel call on a buffer holding both. */
interface InPlace {
  name: string;
  /** Input bytes and the expected output bytes (the synchronous function's). */
  make(n: number): { input: Uint8Array; expected: Uint8Array };
  /** The parallel call in place: `region` holds the input in its first bytes, and receives the output. */
  run(region: Uint8Array, inputLength: number): Promise<Uint8Array>;
}

function inPlaceOps(): InPlace[] {
  const list: InPlace[] = [];
  const streams = [
    ['chacha20', F.chacha20, P.chacha20, n12],
    ['xchacha20', F.xchacha20, P.xchacha20, n24],
    ['salsa20', F.salsa20, P.salsa20, n8],
  ] as const;
  for (const [name, sync, par, nonce] of streams) {
    list.push({
      name,
      make: (n) => {
        const input = rand(n);
        return { input, expected: sync(key, nonce, input) };
      },
      run: (region, n) => par(key, nonce, region.subarray(0, n), region.subarray(0, n)),
    });
  }
  list.push({
    name: 'xchacha20poly1305 encrypt',
    make: (n) => {
      const input = rand(n);
      return { input, expected: F.xchacha20poly1305(key, n24, aad).encrypt(input) };
    },
    run: (region, n) => P.xchacha20poly1305(key, n24, aad).encrypt(region.subarray(0, n), region.subarray(0, n + 16)),
  });
  list.push({
    name: 'xchacha20poly1305 decrypt',
    make: (n) => {
      const plain = rand(n - 16);
      return { input: F.xchacha20poly1305(key, n24, aad).encrypt(plain), expected: plain };
    },
    run: (region, n) => P.xchacha20poly1305(key, n24, aad).decrypt(region.subarray(0, n), region.subarray(0, n - 16)),
  });
  list.push({
    name: 'secretbox open',
    make: (n) => {
      const plain = rand(n - 16);
      return { input: F.xsalsa20poly1305(key, n24).encrypt(plain), expected: plain };
    },
    // secretbox's plaintext sits after the tag in place (libsodium's layout): output = input + 16.
    run: (region, n) => P.xsalsa20poly1305(key, n24).decrypt(region.subarray(0, n), region.subarray(16, n)),
  });
  const modes = [
    ['serpent.ctr', () => F.serpent.ctr(key, n16), () => P.serpent.ctr(key, n16)],
    ['serpent.ecb', () => F.serpent.ecb(key, { disablePadding: true }), () => P.serpent.ecb(key, { disablePadding: true })],
    ['serpent.cbc', () => F.serpent.cbc(key, n16, { disablePadding: true }), () => P.serpent.cbc(key, n16, { disablePadding: true })],
  ] as const;
  for (const [name, sync, par] of modes) {
    list.push({
      name: `${name} encrypt`,
      make: (n) => {
        const input = rand(n);
        return { input, expected: sync().encrypt(input) };
      },
      run: (region, n) => par().encrypt(region.subarray(0, n), region.subarray(0, n)),
    });
    list.push({
      name: `${name} decrypt`,
      make: (n) => {
        const input = rand(n);
        return { input, expected: sync().decrypt(input) };
      },
      run: (region, n) => par().decrypt(region.subarray(0, n), region.subarray(0, n)),
    });
  }
  return list;
}

describe('in place on shared memory while the pool is ended', { skip: NO_SAB }, () => {
  // Whole 16-byte blocks (Serpent without padding), four pieces.
  const N = 4 * MiB + 48;
  // Each delay lands at another point of the call: before any job started, and during pieces.
  const DELAYS = [0, 1, 3, 8];
  // configure({ workerUrl }) ends the pool as terminate() does (then sets the URL): each operation once, the delays in turn.
  for (const [how, end, delaysOf] of [
    ['terminate()', () => P.terminate(), () => DELAYS],
    ['configure({ workerUrl })', () => P.configure({ workerUrl: undefined }), (i: number) => [DELAYS[i % DELAYS.length]!]],
  ] as const) {
    it(`${how} at any moment: the right bytes every time`, { timeout: 600_000 }, async () => {
      P.configure({ workers: 2 });
      try {
        for (const [i, op] of inPlaceOps().entries()) {
          const { input, expected } = op.make(N);
          for (const delay of delaysOf(i)) {
            await warmPool(2);
            const region = shared(Math.max(input.length, expected.length) + 16);
            region.set(input);
            const call = op.run(region, input.length);
            if (delay > 0) await sleep(delay);
            end();
            const result = await call;
            assertBytes(result, expected, `${op.name}, ${how} after ${delay} ms`);
          }
        }
      } finally {
        P.configure({ workers: undefined });
      }
    });
  }
});

describe('streams while the pool is ended', { skip: NO_STREAMS }, () => {
  for (const side of ['encryptStream', 'decryptStream'] as const) {
    it(`${side}: terminate() between messages ends the stream with WorkerLostError, which fourfold/parallel exports`, async () => {
      const k = rand(32);
      const plain = rand(300_000);
      const sealed = await (async () => {
        const ts = F.secretstream.encryptStream(k, { chunkSize: 1000 });
        const w = ts.writable.getWriter();
        void w.write(plain);
        void w.close();
        const parts = await readAll(ts.readable);
        const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of parts) {
          all.set(p, at);
          at += p.length;
        }
        return all;
      })();
      const ts = side === 'encryptStream' ? P.secretstream.encryptStream(k, { chunkSize: 1000 }) : P.secretstream.decryptStream(k, { chunkSize: 1000 });
      const input = side === 'encryptStream' ? plain : sealed;
      const writer = ts.writable.getWriter();
      const reader = ts.readable.getReader();
      const reading = (async () => {
        for (;;) if ((await reader.read()).done) return;
      })();
      reading.catch(() => {});
      const jobs = P.status().jobs;
      await writer.write(input.subarray(0, 50_000));
      // Every job of that write answered (opening the stream, then encryption's 50 messages of 1000 bytes or
      // decryption's 49 whole messages of 1017 bytes after the header), so nothing is in flight when the pool ends.
      const answers = 1 + (side === 'encryptStream' ? 50 : Math.floor((50_000 - 24) / 1017));
      for (const deadline = Date.now() + 20_000; P.status().jobs - jobs < answers; await sleep(1)) {
        assert.ok(Date.now() < deadline, `${side}: ${P.status().jobs - jobs} of ${answers} jobs answered`);
      }
      P.terminate();
      const rest = (async () => {
        await writer.write(input.subarray(50_000));
        await writer.close();
        await reading;
      })();
      const outcome = await settles(side, rest);
      assert.equal(outcome.status, 'rejected', `${side} went on without the worker that held its state`);
      const e = (outcome as PromiseRejectedResult).reason as Error;
      assert.ok(e instanceof P.WorkerLostError, `${side}: ${e?.name}: ${e?.message}`);
    });
  }
});

/**
 * The age family's decryptions with pieces (or scrypt) on the workers:
 * fourfold/parallel's age and the typage API, which opens a file past
 * PARALLEL_MIN and runs every scrypt on the same pool. terminate() at
 * any moment: each call settles, with the plaintext (the pool redoes a
 * lost worker's pieces) or WorkerLostError, never anything else, never
 * a hang.
 */
describe('the age family on the workers while the pool is ended', { skip: NO_STREAMS }, () => {
  const N = 5 * MiB + 3;
  const identity = age.generateIdentity();
  const to = { recipients: [age.identityToRecipient(identity)] };
  const from = { identities: [identity] };
  const decrypter = (passphrase?: string) => {
    const d = new typage.Decrypter();
    if (passphrase === undefined) d.addIdentity(identity);
    else d.addPassphrase(passphrase);
    return d;
  };
  const CALLS: [string, () => Promise<{ plain: Uint8Array; file: Uint8Array }>, (file: Uint8Array) => Promise<Uint8Array>][] = [
    ['fourfold/parallel age decrypt', sealed(N), (f) => P.age.decrypt(f, from)],
    ['fourfold/parallel age decryptRange', sealed(N), (f) => P.age.decryptRange(viewSource(f), 0, N, from)],
    [
      'fourfold/parallel age decryptRange over httpRangeSource',
      sealed(N),
      async (f) => P.age.decryptRange(await age.httpRangeSource('https://fourfold.test/file.age', { fetch: rangeFetch(f) }), 0, N, from),
    ],
    ['typage Decrypter.decrypt', sealed(N), (f) => decrypter().decrypt(f)],
    ['typage Decrypter.decrypt, a ReadableStream', sealed(N), async (f) => concat(...(await readAll(await decrypter().decrypt(chunksOf(f)))))],
    // scrypt (work factor 14, tens of milliseconds) on a worker, then the payload on this thread.
    ['typage Decrypter.decrypt with a passphrase', sealed(1000, 'pw'), (f) => decrypter('pw').decrypt(f)],
  ];

  function sealed(n: number, passphrase?: string) {
    return async () => {
      const plain = rand(n);
      return { plain, file: await age.encrypt(plain, passphrase === undefined ? to : { passphrase, workFactor: 14 }) };
    };
  }

  for (const [name, make, open] of CALLS) {
    it(`${name}: terminate() at any moment settles it with the plaintext or WorkerLostError`, {
      skip: name.includes('http') && NO_FETCH,
      timeout: 300_000,
    }, async (t) => {
      const { plain, file } = await make();
      P.configure({ workers: 2 });
      const seen = { resolved: 0, lost: 0, handed: 0 };
      try {
        for (const delay of [0, 1, 3, 8, 20]) {
          await warmPool(2);
          let outcome: PromiseSettledResult<Uint8Array> | undefined;
          const answered = P.status().jobs;
          // The pieces this call handed the workers (done there, or taken back unstarted), and the jobs they answered
          // (scrypt's steps, which are calls, not pieces): its work was on them as the pool ended.
          const given = await handedOut(async () => {
            const call = open(file);
            if (delay > 0) await sleep(delay);
            P.terminate();
            outcome = await settles(`${name}, terminate() after ${delay} ms`, call);
          });
          seen.handed += given.jobs + P.status().jobs - answered;
          if (outcome!.status === 'fulfilled') {
            assertBytes(outcome!.value, plain, `${name}, terminate() after ${delay} ms`);
            seen.resolved++;
          } else {
            const { reason } = outcome as PromiseRejectedResult;
            assert.ok(reason instanceof P.WorkerLostError, `${name}, terminate() after ${delay} ms: ${reason}`);
            seen.lost++;
          }
        }
        t.diagnostic(`${name}: ${seen.resolved} resolved, ${seen.lost} WorkerLostError, ${seen.handed} jobs handed to or answered by the workers`);
        assert.ok(seen.handed > 0, `${name}: no job reached the workers, so no terminate() met one`);
      } finally {
        P.configure({ workers: undefined });
      }
    });
  }
});
