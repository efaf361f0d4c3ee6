/**
 * encryptStream through a whole stream, against push on the same data
 * (the harness in core/ times synchronous calls only, and a
 * TransformStream is asynchronous). Node only:
 *
 *   node --import tsx bench/secretstream-stream.ts [--mib=256] [--chunk=65536] [--piece=65536] [--rounds=5] [--tier=simd|js]
 *
 * Each round, interleaved: `push` pushes the data as messages of --chunk
 * bytes in a loop; `encryptStream` pipes a ReadableStream of --piece-byte
 * pieces (the same bytes) through encryptStream({ chunkSize: --chunk }) into
 * a WritableStream that drops them. Reported: median MB/s of each, their
 * ratio, and the peak RSS, V8 heap and ArrayBuffer memory seen during the
 * streams (sampled every 64 pieces), to show memory does not grow with the
 * stream's length.
 */
import { ready } from 'fourfold';
import { encryptStream, initPush, TAG_FINAL, TAG_MESSAGE } from 'fourfold/secretstream';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const MiB = 1 << 20;
const total = Number(args.mib ?? 256) * MiB;
const chunk = Number(args.chunk ?? 65536);
const piece = Number(args.piece ?? chunk);
const rounds = Number(args.rounds ?? 5);
const tier = await ready(args.tier === 'js' ? { tier: 'js' } : {});
const key = crypto.getRandomValues(new Uint8Array(32));
const data = new Uint8Array(Math.max(chunk, piece));
for (let i = 0; i < data.length; i += 65536) crypto.getRandomValues(data.subarray(i, Math.min(i + 65536, data.length)));

const peak = { rss: 0, heapUsed: 0, arrayBuffers: 0 };
function sampleMemory(): void {
  const m = process.memoryUsage();
  peak.rss = Math.max(peak.rss, m.rss);
  peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
}

/** The encrypted stream's length: header, a message per whole chunk, a FINAL message with the rest. */
const encryptedLength = 24 + total + 17 * (Math.floor(total / chunk) + 1);

/** Seconds to push `total` bytes as encryptStream does: messages of `chunk` bytes, then FINAL with the rest. */
function timePush(): number {
  const start = performance.now();
  const stream = initPush(key);
  let out = stream.header.length;
  let pos = 0;
  for (; total - pos >= chunk; pos += chunk) out += stream.push(data.subarray(0, chunk), TAG_MESSAGE).length;
  out += stream.push(data.subarray(0, total - pos), TAG_FINAL).length;
  if (out !== encryptedLength) throw new Error('push: wrong output length');
  return (performance.now() - start) / 1000;
}

/** Seconds to pipe `total` bytes in pieces of `piece` bytes through encryptStream. */
async function timeStream(): Promise<number> {
  let sent = 0;
  let pieces = 0;
  let out = 0;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      const n = Math.min(piece, total - sent);
      controller.enqueue(data.subarray(0, n));
      sent += n;
      if (sent >= total) controller.close();
    },
  });
  const sink = new WritableStream<Uint8Array>({
    write(c) {
      out += c.length;
      if (++pieces % 64 === 0) sampleMemory();
    },
  });
  const start = performance.now();
  await source.pipeThrough(encryptStream(key, { chunkSize: chunk })).pipeTo(sink);
  const seconds = (performance.now() - start) / 1000;
  if (out !== encryptedLength) throw new Error(`encryptStream: wrong output length ${out}`);
  return seconds;
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const mbs = (s: number) => total / s / 1e6;
const pushTimes: number[] = [];
const streamTimes: number[] = [];
sampleMemory();
const before = { ...peak };
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    pushTimes.push(timePush());
    streamTimes.push(await timeStream());
  } else {
    streamTimes.push(await timeStream());
    pushTimes.push(timePush());
  }
}
const fmt = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
console.log(`node ${process.versions.node}, tier ${tier}, ${total / MiB} MiB, chunkSize ${chunk}, input pieces of ${piece} bytes, ${rounds} rounds`);
console.log(`push:          ${mbs(median(pushTimes)).toFixed(0)} MB/s (median; all: ${pushTimes.map((t) => mbs(t).toFixed(0)).join(', ')})`);
console.log(`encryptStream: ${mbs(median(streamTimes)).toFixed(0)} MB/s (median; all: ${streamTimes.map((t) => mbs(t).toFixed(0)).join(', ')})`);
console.log(`ratio encryptStream / push: ${(median(pushTimes) / median(streamTimes)).toFixed(2)}`);
console.log(`memory before: rss ${fmt(before.rss)}, heap ${fmt(before.heapUsed)}, arrayBuffers ${fmt(before.arrayBuffers)}`);
console.log(`peak during streams: rss ${fmt(peak.rss)}, heap ${fmt(peak.heapUsed)}, arrayBuffers ${fmt(peak.arrayBuffers)}`);
