/**
 * The streams against their chunk cost and against each other (the
 * runner's cases time synchronous calls; a TransformStream is asynchronous):
 *
 *   node --import tsx bench/harness/streams.ts [--mib=256] [--rounds=5] [--tier=simd|js]
 *   node --import tsx bench/harness/streams.ts --memory [--gib=4] [--stream=age-parallel|age|secretstream|typage-api|typage] [--tier=simd|js]
 *
 * Each round, interleaved, in 64 KiB writes: ChaCha20-Poly1305 64 KiB at a
 * time (an age chunk's work), fourfold/age's streams on one thread and
 * fourfold/parallel's, secretstream's push and encryptStream; median MB/s,
 * the cores kept busy (CPU over wall time) and the ratios. --memory: the
 * peak RSS above the process at rest (a 4 MiB stream started first) while
 * --gib goes through one stream, sampled every 5 ms and at every output.
 */
import * as typage from 'age-encryption';
import { ready, tier as tierNow } from 'fourfold';
import * as one from 'fourfold/age';
import * as typageApi from 'fourfold/age/typage';
import { chacha20poly1305 } from 'fourfold/chacha';
import { age as all } from 'fourfold/parallel';
import * as secretstream from 'fourfold/secretstream';
import { BENCH_IDENTITY as identity, BENCH_RECIPIENT } from '../core/age-cli.js';
import { type TypageApi, typageKeys } from '../core/ops/age.js';
import { median } from '../core/stats.js';
import { options } from './options.js';

const args = options({ mib: '256', rounds: '5', gib: '4', stream: 'age-parallel' });
const MiB = 1 << 20;
const WRITE = 64 * 1024;
const tier = await ready(args.tier === 'js' || args.tier === 'simd' ? { tier: args.tier } : {});
const to = { recipients: [BENCH_RECIPIENT] };
const from = { identities: [identity] };
const key = crypto.getRandomValues(new Uint8Array(32));

/** A TransformStream, or the typage API's pair of streams, whose output is there once its promise resolves. */
type Stream = { readonly writable: WritableStream<Uint8Array>; readonly readable: ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>> };
interface Timed {
  readonly ms: number;
  /** CPU-ms of the whole process meanwhile. */
  readonly cpu: number;
}

/** Times `work`, wall and the process's CPU. */
async function timed(work: () => unknown): Promise<Timed> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpu: (cpu.user + cpu.system) / 1000 };
}

/** Writes `total` bytes (of `bytes`, `bytes` again if shorter) through `stream` in 64 KiB writes, reading and dropping its output. */
async function through(stream: Stream, bytes: Uint8Array, total = bytes.length, onOutput?: () => void): Promise<void> {
  const writer = stream.writable.getWriter();
  const reading = (async () => {
    const reader = (await stream.readable).getReader();
    while (!(await reader.read()).done) onOutput?.();
  })();
  for (let at = 0; at < total; at += WRITE) await writer.write(bytes.length >= total ? bytes.subarray(at, at + WRITE) : bytes);
  await writer.close();
  await reading;
}

/** The secretstream sender's loop that encryptStream runs: messages of 64 KiB, then FINAL with the rest. */
function pushAll(data: Uint8Array): void {
  const stream = secretstream.initPush(key);
  let at = 0;
  for (; data.length - at >= WRITE; at += WRITE) stream.push(data.subarray(at, at + WRITE), secretstream.TAG_MESSAGE);
  stream.push(data.subarray(at), secretstream.TAG_FINAL);
}

async function speeds(): Promise<void> {
  const total = Number(args.mib) * MiB;
  const data = new Uint8Array(total);
  for (let at = 0; at < total; at += 65536) crypto.getRandomValues(data.subarray(at, at + 65536));
  const file = await one.encrypt(data, to);
  const cases: Record<string, () => unknown> = {
    'age chunks': () => {
      const aead = chacha20poly1305(key, new Uint8Array(12));
      for (let at = 0; at < total; at += WRITE) aead.encrypt(data.subarray(at, at + WRITE));
    },
    'age encrypt, one thread': () => through(one.encryptStream(to), data),
    'age encrypt, all cores': () => through(all.encryptStream(to), data),
    'age decrypt, one thread': () => through(one.decryptStream(from), file),
    'age decrypt, all cores': () => through(all.decryptStream(from), file),
    'secretstream push': () => pushAll(data),
    'secretstream encryptStream': () => through(secretstream.encryptStream(key, { chunkSize: WRITE }), data),
  };
  const times: Record<string, Timed[]> = {};
  for (let r = 0; r < Number(args.rounds); r++) for (const [name, run] of Object.entries(cases)) (times[name] ??= []).push(await timed(run));
  const ms = (name: string) => median(times[name]!.map((t) => t.ms));
  const tiers = tierNow() === 'native' ? `${tier} tier and node:crypto` : `${tier} tier`;
  console.log(`Node ${process.versions.node}, ${tiers}, ${total / MiB} MiB in 64 KiB writes, ${args.rounds} interleaved rounds, medians:`);
  for (const name of Object.keys(cases)) {
    const cores = median(times[name]!.map((t) => t.cpu / t.ms));
    console.log(`  ${name.padEnd(28)} ${((total / 1e6 / ms(name)) * 1000).toFixed(0).padStart(6)} MB/s, ${cores.toFixed(2)} cores busy`);
  }
  for (const way of ['encrypt', 'decrypt']) {
    const oneThread = ms(`age ${way}, one thread`);
    console.log(
      `  age ${way}: one thread ${(ms('age chunks') / oneThread).toFixed(2)}x the chunk cost; all cores ${(oneThread / ms(`age ${way}, all cores`)).toFixed(2)}x one thread`,
    );
  }
  console.log(`  secretstream: encryptStream ${(ms('secretstream push') / ms('secretstream encryptStream')).toFixed(2)}x push`);
}

/** typage's API (typage itself or fourfold's) as one stream: its encryption of what is written, decrypted as it comes. */
function typageRoundTrip(api: TypageApi): Stream {
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const { encrypter, decrypter } = typageKeys(api);
  const file = encrypter().encrypt(input.readable);
  return { writable: input.writable, readable: file.then((f) => decrypter().decrypt(f)) };
}

/** Peak RSS above rest while --gib goes through one encryptStream of --stream. */
async function memory(): Promise<void> {
  const total = Number(args.gib) * 1024 * MiB;
  const streams: Record<string, () => Stream> = {
    'age-parallel': () => all.encryptStream(to),
    age: () => one.encryptStream(to),
    secretstream: () => secretstream.encryptStream(key, { chunkSize: WRITE }),
    'typage-api': () => typageRoundTrip(typageApi),
    typage: () => typageRoundTrip(typage),
  };
  const make = streams[args.stream!];
  if (make === undefined) throw new Error(`--stream: one of ${Object.keys(streams).join(', ')}`);
  const write = crypto.getRandomValues(new Uint8Array(WRITE));
  // The warm-up stream starts the pool: a worker is memory the process holds whatever it streams.
  await through(make(), new Uint8Array(4 * MiB));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rest = process.memoryUsage().rss;
  let peak = rest;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 5);
  const { ms } = await timed(() => through(make(), write, total, sample));
  clearInterval(timer);
  const mib = (b: number) => (b / MiB).toFixed(1);
  console.log(
    `Node ${process.versions.node}, ${tier} tier, ${args.stream}'s ${args.stream!.startsWith('typage') ? 'encrypt read by its decrypt' : 'encryptStream'}, ${args.gib} GiB in ${(ms / 1000).toFixed(1)} s: RSS at rest ${mib(rest)} MiB, peak ${mib(peak)} MiB, ${mib(peak - rest)} MiB above rest`,
  );
}

await (args.memory === 'true' ? memory() : speeds());
// The pool's idle workers do not hold the process; its streams are done.
process.exit(0);
