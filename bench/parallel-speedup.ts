/**
 * fourfold/parallel against the synchronous functions in one process, the
 * calls interleaved (the bench's parallel profile times each library's
 * cases one after another, so a shared machine's slow minute lands on one
 * side only). Node only:
 *
 *   node --import tsx bench/parallel-speedup.ts [--mib=64] [--reps=11] [--ops=chacha20,poly1305,...]
 *
 * For each op: one call of each checks that the bytes are identical, then
 * --reps rounds of (synchronous call, parallel call); reported are the
 * median times, the speedup (synchronous over parallel) and each side's
 * range. Plain Uint8Arrays, except `chacha20-shared`, whose input and
 * output are SharedArrayBuffer views that the workers read and write
 * directly. The default pool: the logical cores less one worker.
 */
import { randomFillSync } from 'node:crypto';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const n = Number(args.mib ?? 64) * (1 << 20);
const reps = Number(args.reps ?? 11);
const only = args.ops?.split(',');

await F.ready();
const data = randomFillSync(new Uint8Array(n));
const key = randomFillSync(new Uint8Array(32));
const n8 = new Uint8Array(8);
const n12 = new Uint8Array(12);
const n16 = new Uint8Array(16);
const n24 = new Uint8Array(24);
const sealed = F.xchacha20poly1305(key, n24).encrypt(data);
const sharedIn = new Uint8Array(new SharedArrayBuffer(n));
sharedIn.set(data);
const sharedOut = new Uint8Array(new SharedArrayBuffer(n));

type Call = () => Uint8Array | Promise<Uint8Array>;
const ops: Record<string, [Call, Call]> = {
  'xchacha20poly1305-encrypt': [() => F.xchacha20poly1305(key, n24).encrypt(data), () => P.xchacha20poly1305(key, n24).encrypt(data)],
  'chacha20poly1305-encrypt': [() => F.chacha20poly1305(key, n12).encrypt(data), () => P.chacha20poly1305(key, n12).encrypt(data)],
  'xsalsa20poly1305-encrypt': [() => F.xsalsa20poly1305(key, n24).encrypt(data), () => P.xsalsa20poly1305(key, n24).encrypt(data)],
  'xchacha20poly1305-decrypt': [() => F.xchacha20poly1305(key, n24).decrypt(sealed), () => P.xchacha20poly1305(key, n24).decrypt(sealed)],
  chacha20: [() => F.chacha20(key, n12, data), () => P.chacha20(key, n12, data)],
  salsa20: [() => F.salsa20(key, n8, data), () => P.salsa20(key, n8, data)],
  poly1305: [() => F.poly1305(data, key), () => P.poly1305(data, key)],
  blake3: [() => F.blake3(data), () => P.blake3(data)],
  'serpent-ctr': [() => F.serpent.ctr(key, n16).encrypt(data), () => P.serpent.ctr(key, n16).encrypt(data)],
  'chacha20-shared': [() => F.chacha20(key, n12, sharedIn, sharedOut), () => P.chacha20(key, n12, sharedIn, sharedOut)],
};

const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(a, b) === 0;
const ms = (x: number): string => x.toFixed(1).padStart(7);

console.log(`${n / (1 << 20)} MiB, ${reps} interleaved rounds, node ${process.version}; pool: ${JSON.stringify(P.status())}`);
for (const [name, [sync, parallel]] of Object.entries(ops)) {
  if (only !== undefined && !only.includes(name)) continue;
  // Copies: the shared case writes the same output on both sides.
  const expected = (await sync()).slice();
  if (!same(expected, (await parallel()).slice())) throw new Error(`${name}: fourfold/parallel's bytes differ from the synchronous function's`);
  const s: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < reps; i++) {
    let t = performance.now();
    await sync();
    s.push(performance.now() - t);
    t = performance.now();
    await parallel();
    p.push(performance.now() - t);
  }
  const range = (a: number[]) => `${Math.min(...a).toFixed(1)}-${Math.max(...a).toFixed(1)}`;
  console.log(`${name.padEnd(26)} sync ${ms(median(s))} ms  parallel ${ms(median(p))} ms  ${(median(s) / median(p)).toFixed(2)}x  (sync ${range(s)}, parallel ${range(p)})`);
}
P.terminate();
