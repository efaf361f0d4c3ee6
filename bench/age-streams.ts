/**
 * age's streams against the chunk cost and against each other (the
 * harness in core/ times synchronous calls only, and a TransformStream is
 * asynchronous). Node only:
 *
 *   node --import tsx bench/age-streams.ts [--mib=256] [--rounds=5] [--tier=simd|js]
 *   node --import tsx bench/age-streams.ts --memory [--gib=4] [--one] [--tier=simd|js]
 *   node --import tsx bench/age-streams.ts --memory --reference=thread|worker [--gib=4]
 *
 * Each round, interleaved, over --mib of random data in 64 KiB writes:
 * `chunk` seals it with ChaCha20-Poly1305 a 64 KiB message at a time (an
 * age chunk's work without the stream); fourfold/age's encryptStream and
 * decryptStream (`one thread`); fourfold/parallel's (`all cores`).
 * Reported: median MB/s, the streams against the chunk cost and the
 * parallel streams against the one-thread ones, and the cores the process
 * kept busy (its CPU time over the wall time: V8's collector and the
 * libraries' threads count too).
 *
 * --memory: --gib through one encryptStream (fourfold/parallel's, or
 * fourfold/age's with --one) from one reused 64 KiB write; the peak RSS
 * above the process at rest, sampled every 5 ms and at every output, after
 * a 4 MiB stream has started the pool (its workers are part of "at rest").
 * --reference: the same measurement of a stream that does no cryptography
 * but hands on a new array per 64 KiB write, as encryptStream does: made on
 * this thread (`thread`), or by a worker it sends a copy to, with up to 8
 * writes out (`worker`). What the collectors let pile up before they run
 * is the floor of any stream built this way.
 */
import { chacha20poly1305 } from 'fourfold/chacha';
import { ready, tier as tierNow } from 'fourfold';
import * as one from 'fourfold/age';
import { age as all } from 'fourfold/parallel';

const args = Object.fromEntries(process.argv.slice(2).map((a) => [...a.replace(/^--/, '').split('='), 'true'].slice(0, 2) as [string, string]));
const MiB = 1 << 20;
const WRITE = 64 * 1024;
const tier = await ready(args.tier === 'js' || args.tier === 'simd' ? { tier: args.tier } : {});
const identity = one.generateIdentity();
const to = { recipients: [one.identityToRecipient(identity)] };
const from = { identities: [identity] };

/** Runs `bytes` through `stream` in 64 KiB writes, dropping the output; resolves to the ms it took and the CPU-ms the process used. */
async function through(stream: TransformStream<Uint8Array, Uint8Array>, bytes: Uint8Array, onOutput?: () => void): Promise<{ ms: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const reading = (async () => {
    for (;;) {
      const { done } = await reader.read();
      if (done) return;
      onOutput?.();
    }
  })();
  for (let at = 0; at < bytes.length; at += WRITE) await writer.write(bytes.subarray(at, at + WRITE));
  await writer.close();
  await reading;
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpu: (cpu.user + cpu.system) / 1000 };
}

/** The tiers the calls ran on: the kernels' (or js), and node:crypto where it took the calls past its crossovers. */
const tiers = (): string => (tierNow() === 'native' ? `${tier} tier and node:crypto` : `${tier} tier`);

const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[xs.length >> 1]!;

async function speeds(): Promise<void> {
  const total = Number(args.mib ?? 256) * MiB;
  const rounds = Number(args.rounds ?? 5);
  const data = new Uint8Array(total);
  for (let at = 0; at < total; at += 65536) crypto.getRandomValues(data.subarray(at, at + 65536));
  const file = await one.encrypt(data, to);
  const key = crypto.getRandomValues(new Uint8Array(32));
  const cases: Record<string, () => Promise<{ ms: number; cpu: number }>> = {
    chunk: async () => {
      const aead = chacha20poly1305(key, new Uint8Array(12));
      const t0 = performance.now();
      for (let at = 0; at < total; at += WRITE) aead.encrypt(data.subarray(at, at + WRITE));
      return { ms: performance.now() - t0, cpu: Number.NaN };
    },
    'encrypt, one thread': () => through(one.encryptStream(to), data),
    'encrypt, all cores': () => through(all.encryptStream(to), data),
    'decrypt, one thread': () => through(one.decryptStream(from), file),
    'decrypt, all cores': () => through(all.decryptStream(from), file),
  };
  const times: Record<string, { ms: number[]; cores: number[] }> = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, run] of Object.entries(cases)) {
      const { ms, cpu } = await run();
      (times[name] ??= { ms: [], cores: [] }).ms.push(ms);
      times[name].cores.push(cpu / ms);
    }
  }
  const ms = (name: string) => median(times[name]!.ms);
  console.log(`Node ${process.versions.node}, ${tiers()}, ${total / MiB} MiB in 64 KiB writes, ${rounds} interleaved rounds, medians:`);
  for (const name of Object.keys(cases)) {
    const cores = median(times[name]!.cores);
    console.log(
      `  ${name.padEnd(20)} ${((total / 1e6 / ms(name)) * 1000).toFixed(0).padStart(6)} MB/s${Number.isNaN(cores) ? '' : `, ${cores.toFixed(2)} cores busy`}`,
    );
  }
  for (const way of ['encrypt', 'decrypt']) {
    console.log(
      `  ${way}: one thread ${(ms('chunk') / ms(`${way}, one thread`)).toFixed(2)}x the chunk cost; all cores ${(ms(`${way}, one thread`) / ms(`${way}, all cores`)).toFixed(2)}x one thread`,
    );
  }
}

/** A stream of no cryptography that outputs a new array (a write and 16 bytes) per write, made here. */
function copyingStream(): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    transform(chunk, out) {
      const made = new Uint8Array(chunk.length + 16);
      made.set(chunk);
      out.enqueue(made);
    },
  });
}

/** Streams like it whose arrays a worker makes, from a copy of each write it is sent, up to 8 writes out, in order. */
async function workerStreams(): Promise<{ make: () => TransformStream<Uint8Array, Uint8Array>; end: () => Promise<number> }> {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(
    "const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => { const made = new Uint8Array(m.length + 16); made.set(m); parentPort.postMessage(made, [made.buffer]); });",
    { eval: true },
  );
  const waiting: ((made: Uint8Array) => void)[] = [];
  worker.on('message', (made: Uint8Array) => waiting.shift()!(made));
  const send = (chunk: Uint8Array) =>
    new Promise<Uint8Array>((resolve) => {
      waiting.push(resolve);
      const copy = chunk.slice();
      worker.postMessage(copy, [copy.buffer]);
    });
  const make = () => {
    const out: Promise<Uint8Array>[] = [];
    return new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, c) {
        out.push(send(chunk));
        if (out.length >= 8) c.enqueue(await out.shift()!);
      },
      async flush(c) {
        while (out.length > 0) c.enqueue(await out.shift()!);
      },
    });
  };
  return { make, end: () => worker.terminate() };
}

async function memory(): Promise<void> {
  const total = Number(args.gib ?? 4) * 1024 * MiB;
  if (args.reference === 'thread' || args.reference === 'worker') return reference(total, args.reference);
  const calls = args.one === 'true' ? one : all;
  // The warm-up stream starts the pool: a worker is memory the process holds whatever it streams.
  const measured = await peakAbove(() => calls.encryptStream(to), total);
  printMemory(`${tiers()}, ${calls === one ? "fourfold/age's" : "fourfold/parallel's"} encryptStream`, total, measured);
}

/** One line of the memory measurement of `what`. */
function printMemory(what: string, total: number, { rest, peak, s }: { rest: number; peak: number; s: number }): void {
  const mib = (b: number) => (b / MiB).toFixed(1);
  console.log(
    `Node ${process.versions.node}, ${what}, ${total / 1024 / MiB} GiB in ${s.toFixed(1)} s: RSS at rest ${mib(rest)} MiB, peak ${mib(peak)} MiB, ${mib(peak - rest)} MiB above rest`,
  );
}

/** Peak RSS above rest while `total` bytes go through `stream` in 64 KiB writes, sampled every 5 ms and at every output. */
async function peakAbove(make: () => TransformStream<Uint8Array, Uint8Array>, total: number): Promise<{ rest: number; peak: number; s: number }> {
  const write = crypto.getRandomValues(new Uint8Array(WRITE));
  await through(make(), new Uint8Array(4 * MiB));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rest = process.memoryUsage().rss;
  let peak = rest;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 5);
  const t0 = performance.now();
  const stream = make();
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const reading = (async () => {
    while (!(await reader.read()).done) sample();
  })();
  for (let at = 0; at < total; at += WRITE) await writer.write(write);
  await writer.close();
  await reading;
  clearInterval(timer);
  return { rest, peak, s: (performance.now() - t0) / 1000 };
}

async function reference(total: number, where: 'thread' | 'worker'): Promise<void> {
  const worker = where === 'worker' ? await workerStreams() : undefined;
  const measured = await peakAbove(worker?.make ?? copyingStream, total);
  await worker?.end();
  printMemory(`a stream of new arrays made on ${worker === undefined ? 'this thread' : 'a worker'}, no cryptography`, total, measured);
}

await (args.memory === 'true' ? memory() : speeds());
// The pool's idle workers do not hold the process; its streams are done.
process.exit(0);
