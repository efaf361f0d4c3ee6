/**
 * bench/edge-calls.ts's calls, the same module in workerd (bundled with
 * the workerd condition, the kernels as modules) and in Node: each call's
 * median time over ROUNDS samples, after two warm-up samples, by the host's own
 * clock (local workerd's runs while code runs; Cloudflare's, in
 * production, only between I/O, which is why this runs locally).
 */
import { ready, tier } from 'fourfold';
import * as age from 'fourfold/age';
import { argon2idHash, argon2Verify } from 'fourfold/argon2';
import { blake3 } from 'fourfold/blake3';
import { xchacha20poly1305 } from 'fourfold/chacha';
import { secretbox } from 'fourfold/salsa';
import { scrypt } from 'fourfold/scrypt';
import { ctr } from 'fourfold/serpent';

const MIB = 1 << 20;
const data = new Uint8Array(MIB).map((_, i) => i & 255);
const key = new Uint8Array(32).fill(7);
const nonce = new Uint8Array(24).fill(9);

/**
 * Each call, by the name the report gives it, and how many calls make one
 * timed sample: workerd's clock ticks in whole milliseconds, so a sample of
 * the 1 MiB calls is 20 of them.
 */
const CALLS: Record<string, [call: () => unknown, batch: number]> = {
  'argon2idHash (19 MiB, t = 2)': [() => argon2idHash('correct horse battery staple'), 1],
  'argon2Verify (19 MiB, t = 2)': [async () => argon2Verify(await stored, 'correct horse battery staple'), 1],
  'scrypt (N = 2^14, r = 8: 16 MiB)': [() => scrypt('correct horse battery staple', nonce, { N: 1 << 14, r: 8, p: 1 }), 1],
  'xchacha20poly1305, 1 MiB': [() => xchacha20poly1305(key, nonce).encrypt(data), 20],
  'secretbox, 1 MiB': [() => secretbox(key, nonce).seal(data), 20],
  'blake3, 1 MiB': [() => blake3(data), 20],
  'Serpent-CTR, 1 MiB': [() => ctr(key, nonce.subarray(0, 16)).encrypt(data), 20],
  'age encrypt to a key, 1 MiB': [async () => age.encrypt(data, { recipients: [await recipient] }), 20],
  'age passphrase, work factor 16 (64 MiB)': [() => age.encrypt(new Uint8Array(16), { passphrase: 'correct horse', workFactor: 16 }), 1],
};
// Made by the first call, in a handler: a Worker may not draw random values at its top level.
let stored: Promise<string>;
let recipient: Promise<string>;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Samples timed per call, after two warm-up samples. */
const ROUNDS = 9;

/** Every call's median ms over ROUNDS (and the tier the last call ran on: 'simd' where the kernels run). */
export default async function run(): Promise<{ tier: string | undefined; ms: Record<string, number> }> {
  // The kernels alone, as workerd has no node:crypto: Node's ChaCha would otherwise go to OpenSSL.
  await ready({ tier: 'simd' });
  stored = argon2idHash('correct horse battery staple');
  recipient = Promise.resolve(age.identityToRecipient(age.generateIdentity()));
  const ms: Record<string, number> = {};
  for (const [name, [call, batch]] of Object.entries(CALLS)) {
    const times: number[] = [];
    for (let r = -2; r < ROUNDS; r++) {
      const start = performance.now();
      for (let i = 0; i < batch; i++) await call();
      if (r >= 0) times.push((performance.now() - start) / batch);
    }
    ms[name] = median(times);
  }
  return { tier: tier(), ms };
}
