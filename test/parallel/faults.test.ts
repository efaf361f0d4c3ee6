/**
 * fourfold/parallel under faults: whatever the workers, terminate(),
 * configure(), the caller or another thread do while a call is pending,
 * the call resolves with exactly the synchronous function's bytes or
 * rejects, a decryption resolves only with the plaintext of bytes it
 * authenticated, and every pending job settles.
 *
 * - In place on a SharedArrayBuffer with terminate() or configure()
 *   landing at any moment (a piece a lost worker half wrote in place must
 *   not be redone from input it already overwrote).
 * - A ciphertext changed by the caller's own code (plain arrays) or by
 *   another thread (shared memory) while a decryption is pending.
 * - Streams with terminate() landing between messages.
 * - The age family's decryptions (fourfold/parallel's age, the typage
 *   API's bytes, streams and passphrases, reads by range and over HTTP)
 *   with terminate() landing while pieces or scrypt are on the workers.
 * - Resource bounds: workers, and the pool a small stream grows.
 * - Outputs partly overlapping their input through two views of one
 *   WebAssembly.Memory taken before and after grow().
 * - serpent.cbc under workers: 0; inputs detached while a call is pending.
 */
import { it, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as age from 'fourfold/age';
import * as typage from 'fourfold/age/typage';
import * as P from 'fourfold/parallel';
import { assertBytes, concat, detach, NO_DETACH, NO_STREAMS, rand, readAll } from '../helpers.js';
import { chunksOf, NO_FETCH, rangeFetch, viewSource } from '../runtime/openers.js';
import { handedOut, warmPool, workersAsUsual } from './pool-helpers.js';

const MiB = 1 << 20;
const HAS_SAB = typeof SharedArrayBuffer === 'function';
const NO_SAB = HAS_SAB ? false : 'not applicable: this engine (or page) has no SharedArrayBuffer';
const IN_BROWSER = typeof (globalThis as { window?: unknown }).window === 'object';
const HAS_BUILTINS = typeof process === 'object' && typeof process.getBuiltinModule === 'function';
const NODE_THREADS = IN_BROWSER || !HAS_BUILTINS ? 'not applicable: needs node:worker_threads for a second writer thread' : false;

after(() => {
  P.configure({ workers: undefined });
  P.terminate();
  workersAsUsual();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A view of `length` bytes at `offset` in a new SharedArrayBuffer, holding `bytes` when given. */
function shared(length: number, offset = 8, bytes?: Uint8Array): Uint8Array {
  const view = new Uint8Array(new SharedArrayBuffer(offset + length + 64), offset, length);
  if (bytes !== undefined) view.set(bytes);
  return view;
}

const key = rand(32);
const n8 = rand(8);
const n12 = rand(12);
const n16 = rand(16);
const n24 = rand(24);
const aad = rand(11);

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

describe('a ciphertext changed while its decryption is pending', () => {
  const N = 5 * MiB + 77;
  const AEADS = [
    ['xchacha20poly1305', () => P.xchacha20poly1305(key, n24, aad), () => F.xchacha20poly1305(key, n24, aad)],
    ['chacha20poly1305', () => P.chacha20poly1305(key, n12, aad), () => F.chacha20poly1305(key, n12, aad)],
    ['xsalsa20poly1305', () => P.xsalsa20poly1305(key, n24), () => F.xsalsa20poly1305(key, n24)],
  ] as const;

  /** Resolves with exactly `plain`, or rejects with AuthenticationError: never with other bytes. */
  async function authenticOrRejected(label: string, call: Promise<Uint8Array>, plain: Uint8Array): Promise<'resolved' | 'rejected'> {
    try {
      assertBytes(await call, plain, `${label}: resolved with bytes that were not authenticated`);
      return 'resolved';
    } catch (e) {
      if ((e as Error).name !== 'AuthenticationError') throw e;
      return 'rejected';
    }
  }

  it("by the caller's own code (plain arrays), with and without an output", { timeout: 600_000 }, async () => {
    P.configure({ workers: 2 });
    try {
      await warmPool(2);
      for (const [name, par, sync] of AEADS) {
        const plain = rand(N);
        const sealed = sync().encrypt(plain);
        for (const withOutput of [false, true]) {
          // Changed at one moment and put back at a later one: a pass that reads the bytes twice sees two ciphertexts.
          for (const [spot, changeAt, restoreAt] of [
            [100, 0, 2],
            [MiB + 5, 1, 4],
            [3 * MiB + 9, 0, 6],
            [N - 3, 2, 9],
            [2 * MiB + 1, 3, 30],
          ] as const) {
            const ciphertext = sealed.slice();
            const out = withOutput ? new Uint8Array(N) : undefined;
            const call = par().decrypt(ciphertext, out);
            let settled = false;
            void call.then(
              () => (settled = true),
              () => (settled = true),
            );
            for (let turn = 0; turn <= restoreAt && !settled; turn++) {
              if (turn === changeAt) ciphertext[spot]! ^= 0x20;
              if (turn === restoreAt) ciphertext[spot]! ^= 0x20;
              await new Promise((r) => setTimeout(r, 0));
            }
            const label = `${name}${withOutput ? ', caller output' : ''}, byte ${spot} changed at turn ${changeAt}`;
            const outcome = await authenticOrRejected(label, call, plain);
            if (out !== undefined && outcome === 'rejected')
              assert.ok(
                out.every((b) => b === 0),
                `${label}: output not zeroed`,
              );
          }
        }
      }
    } finally {
      P.configure({ workers: undefined });
    }
  });

  it('by another thread (a shared ciphertext written while it is read)', { skip: NO_SAB || NODE_THREADS, timeout: 600_000 }, async () => {
    const { Worker } = process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads');
    P.configure({ workers: 2 });
    try {
      await warmPool(2);
      for (const [name, par, sync] of AEADS) {
        const plain = rand(N);
        const sealed = sync().encrypt(plain);
        let resolved = 0;
        // Until some calls resolved (a call verifies only when it read the sealed byte), at least one per case.
        for (let call = 0; call < 6 || (resolved < 2 && call < 60); call++) {
          const withOutput = call % 2 === 1;
          const spot = [77, MiB + 1, 4 * MiB][call % 3]!;
          {
            const ciphertext = shared(sealed.length, 8, sealed);
            // stop[0]: 0 until the writer runs, 1 while it runs, 2 to stop it.
            const stop = new Int32Array(new SharedArrayBuffer(4));
            const writer = new Worker(
              `const { workerData: { bytes, stop, spot } } = require('node:worker_threads');
               Atomics.store(stop, 0, 1);
               while (Atomics.load(stop, 0) === 1) { bytes[spot] ^= 0x20; for (let i = 0; i < 200; i++); }`,
              { eval: true, workerData: { bytes: ciphertext, stop, spot } },
            );
            for (let t = 0; Atomics.load(stop, 0) === 0; t++) {
              assert.ok(t < 1000, 'the writer thread did not start');
              await sleep(5);
            }
            try {
              const out = withOutput ? new Uint8Array(N) : undefined;
              const outcome = await authenticOrRejected(
                `${name}${withOutput ? ', caller output' : ''}, byte ${spot} written by another thread`,
                par().decrypt(ciphertext, out),
                plain,
              );
              if (outcome === 'resolved') resolved++;
            } finally {
              Atomics.store(stop, 0, 2);
              await writer.terminate();
            }
          }
        }
        // Half the time the writer's byte is the sealed one when the tag is computed: some calls verify.
        assert.ok(resolved > 0, `${name}: no call resolved, so none showed which bytes it decrypted`);
      }
    } finally {
      P.configure({ workers: undefined });
    }
  });
});

/** Settles within `ms`, or fails the test: a call or stream that never settles is a hang. */
async function settles<T>(label: string, p: Promise<T>, ms = 20_000): Promise<PromiseSettledResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${label}: did not settle in ${ms} ms`)), ms)));
  try {
    return (await Promise.race([Promise.allSettled([p]).then((r) => r[0]!), timeout])) as PromiseSettledResult<T>;
  } finally {
    clearTimeout(timer);
  }
}

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

describe('resources have bounds', () => {
  it('configure({ workers }) beyond the logical cores starts no more workers than cores, and a smaller size ends the extra ones', {
    timeout: 120_000,
  }, async () => {
    P.terminate();
    const cores =
      (globalThis.navigator?.hardwareConcurrency as number | undefined) ??
      (process.getBuiltinModule('node:os') as typeof import('node:os')).availableParallelism();
    P.configure({ workers: 1e6 });
    try {
      assertBytes(await P.chacha20(key, n12, new Uint8Array(64 * MiB)), F.chacha20(key, n12, new Uint8Array(64 * MiB)));
      assert.ok(P.status().workers <= cores, `${P.status().workers} workers started on ${cores} logical cores`);
      P.configure({ workers: 1 });
      await P.chacha20(key, n12, new Uint8Array(8 * MiB));
      // The workers beyond the size end once idle for a second.
      for (let t = 0; P.status().workers > 1 && t < 100; t++) await sleep(50);
      assert.ok(P.status().workers <= 1, `configure({ workers: 1 }) kept ${P.status().workers} workers`);
    } finally {
      P.configure({ workers: undefined });
    }
  });

  it('one small stream starts one worker, not the whole configured pool', { skip: NO_STREAMS }, async () => {
    P.terminate();
    P.configure({ workers: 8 });
    try {
      const ts = P.secretstream.encryptStream(rand(32));
      const w = ts.writable.getWriter();
      void w.write(rand(1000));
      void w.close();
      await readAll(ts.readable);
      assert.ok(P.status().workers <= 1, `a 1000-byte stream started ${P.status().workers} workers`);
    } finally {
      P.configure({ workers: undefined });
    }
  });
});

describe('an output partly over its input through views of one WebAssembly.Memory taken before and after grow()', {
  skip: NO_SAB || typeof WebAssembly !== 'object' ? 'not applicable: needs shared WebAssembly memory' : false,
}, () => {
  const N = 3 * MiB;
  function views(shift: number): { input: Uint8Array; output: Uint8Array } {
    const memory = new WebAssembly.Memory({ initial: 64, maximum: 256, shared: true });
    const before = new Uint8Array(memory.buffer);
    before.set(rand(N));
    memory.grow(64);
    const afterGrow = new Uint8Array(memory.buffer);
    return { input: before.subarray(0, N), output: afterGrow.subarray(shift, shift + N) };
  }
  for (const shift of [1, 64, 16]) {
    it(`output at input + ${shift}: a RangeError, synchronous and parallel`, async () => {
      for (const [name, sync, par] of [
        ['chacha20', () => F.chacha20, () => P.chacha20],
        ['xsalsa20', () => F.xsalsa20, () => P.xsalsa20],
      ] as const) {
        const nonce = name === 'chacha20' ? n12 : n24;
        const a = views(shift);
        assert.throws(() => sync()(key, nonce, a.input, a.output), RangeError, `${name}, synchronous`);
        const b = views(shift);
        await assert.rejects(async () => par()(key, nonce, b.input, b.output), RangeError, `${name}, parallel`);
      }
      const c = views(shift);
      assert.throws(() => F.serpent.ctr(key, n16).encrypt(c.input, c.output), RangeError, 'serpent.ctr, synchronous');
      const d = views(shift);
      await assert.rejects(async () => P.serpent.ctr(key, n16).encrypt(d.input, d.output), RangeError, 'serpent.ctr, parallel');
      const e = views(shift);
      assert.throws(() => F.xchacha20poly1305(key, n24).encrypt(e.input.subarray(0, N - 16), e.output), RangeError, 'xchacha20poly1305, synchronous');
    });
  }
});

it('serpent.cbc encryption under configure({ workers: 0 }) starts no worker', async () => {
  P.terminate();
  P.configure({ workers: 0 });
  try {
    const jobs = P.status().jobs;
    const m = rand(4 * MiB);
    assertBytes(await P.serpent.cbc(key, n16).encrypt(m), F.serpent.cbc(key, n16).encrypt(m));
    assert.equal(P.status().workers, 0, 'a worker was started');
    assert.equal(P.status().jobs, jobs, 'a job went to a worker');
  } finally {
    P.configure({ workers: undefined });
  }
});

/**
 * Lets a pending call take its first steps, then checks it is still
 * pending: a worker's answer comes as a task, so none has come after one
 * microtask turn. (A timer here raced the call: in a loaded browser the
 * scheduler's turns can run a 16 MiB call to its end before a 0 ms timer fires.)
 */
async function begun(pending: Promise<unknown>, name: string): Promise<void> {
  let settled = false;
  pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  await Promise.resolve();
  assert.equal(settled, false, `${name}: the call settled before its input could be changed`);
}

it('an input detached while the call is pending: the same TypeError from every function', { skip: NO_DETACH }, async () => {
  P.configure({ workers: 1 });
  try {
    await warmPool(1);
    const calls: [string, (data: Uint8Array) => Promise<unknown>][] = [
      ['blake3', (d) => P.blake3(d)],
      ['chacha20', (d) => P.chacha20(key, n12, d)],
      ['poly1305', (d) => P.poly1305(d, key)],
      ['xchacha20poly1305', (d) => P.xchacha20poly1305(key, n24).encrypt(d)],
      ['serpent.ctr', (d) => P.serpent.ctr(key, n16).encrypt(d)],
    ];
    const messages = new Set<string>();
    for (const [name, call] of calls) {
      const data = rand(16 * MiB);
      const pending = call(data);
      await begun(pending, name);
      detach(data);
      await assert.rejects(pending, (e: Error) => e instanceof TypeError && /detached/.test(e.message), name);
      messages.add(
        await pending.then(
          () => '',
          (e: Error) => e.message,
        ),
      );
    }
    assert.equal(messages.size, 1, `different messages: ${[...messages].join(' | ')}`);
  } finally {
    P.configure({ workers: undefined });
  }
});

const NO_RESIZABLE =
  typeof (ArrayBuffer.prototype as { resize?: unknown }).resize === 'function' ? false : 'not applicable: this engine has no resizable ArrayBuffer';

it('an input or output resized while the call is pending (a length-tracking view): a TypeError that says so, not "detached"', {
  skip: NO_RESIZABLE,
}, async () => {
  P.configure({ workers: 1 });
  try {
    await warmPool(1);
    for (const [change, side] of [
      [+MiB, 'input'],
      [-MiB, 'input'],
      [+MiB, 'output'],
      [-MiB, 'output'],
    ] as const) {
      const Resizable = ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer & { resize(n: number): void };
      const buffer = new Resizable(16 * MiB, { maxByteLength: 32 * MiB });
      // No length given: the view tracks the buffer's length.
      const tracking = new Uint8Array(buffer);
      const [input, output] = side === 'input' ? [tracking, undefined] : [rand(16 * MiB), tracking];
      const pending = P.chacha20(key, n12, input, output);
      await begun(pending, `${side} ${change > 0 ? 'grown' : 'shrunk'}`);
      buffer.resize(16 * MiB + change);
      await assert.rejects(
        pending,
        (e: Error) =>
          e instanceof TypeError && e.message === `the ${side} was resized (a resizable ArrayBuffer under a view that tracks its length) while the call ran`,
        `${side} ${change > 0 ? 'grown' : 'shrunk'}`,
      );
    }
  } finally {
    P.configure({ workers: undefined });
  }
});
