/**
 * fourfold/parallel under faults, inputs changed while a call is
 * pending: a decryption resolves only with the plaintext of bytes it
 * authenticated when its ciphertext is changed by the caller's own code
 * (plain arrays) or by another thread (shared memory); an input detached
 * or resized mid-call gives a TypeError that says so; outputs partly over
 * their input through two views of one WebAssembly.Memory taken before
 * and after grow() give the synchronous function's bytes.
 */
import { it, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';
import { assertBytes, detach, NO_DETACH, rand } from '../helpers.js';
import { aad, key, MiB, n12, n16, n24, NO_SAB, NODE_THREADS, poolAsUsual, shared, sleep } from './faults-common.js';
import { warmPool } from './pool-helpers.js';

after(poolAsUsual);

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
