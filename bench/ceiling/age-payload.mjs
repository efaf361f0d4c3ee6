/**
 * The least a Node program does to write an age payload (C2SP age v1,
 * "Payload": 64 KiB chunks, each ChaCha20-Poly1305 under a nonce of an
 * 11-byte big-endian counter and a last-chunk flag byte) from a file to a
 * file: no header, no library, no streams. Pieces of 15 chunks are read
 * straight into shared buffers, sealed by node:crypto on this thread or on
 * one worker, and written in order from shared output buffers that are
 * used again once written: no copy but the kernel's, no array made per
 * piece. What `fourfold age` does on top (the header, its streams, the
 * pool's rules) costs at least this; what this costs against the Go `age`
 * is Node's own floor on the machine.
 *
 *   node bench/ceiling/age-payload.mjs INPUT OUTPUT [--here]
 *
 * --here seals every piece on this thread. It then opens the output's
 * first and last chunk again to check them, and prints the milliseconds
 * from the first read to the last write.
 */
import { closeSync, fstatSync, openSync, read, readSync, write } from 'node:fs';
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';

const CHUNK = 65536;
const SEALED = CHUNK + 16;
const PIECE_CHUNKS = 15;
/** Pieces in flight at most (read, sealing, waiting to be written). */
const BUFFERS = 6;

/** Chunk `n`'s nonce: an 11-byte big-endian counter, then 1 for the last chunk. */
function chunkNonce(n, last) {
  const nonce = new Uint8Array(12);
  for (let b = 0; b < 6; b++) nonce[10 - b] = Math.floor(n / 2 ** (8 * b)) & 0xff;
  nonce[11] = last ? 1 : 0;
  return nonce;
}

/** Seals `length` bytes of `input` into `output` as age's chunks from `counter`; the last is final when `final`. Returns the bytes written. */
function sealPiece(c, key, input, length, output, counter, final) {
  const chunks = Math.max(1, Math.ceil(length / CHUNK));
  for (let i = 0; i < chunks; i++) {
    const nonce = chunkNonce(counter + i, final && i === chunks - 1);
    const body = input.subarray(i * CHUNK, Math.min(length, (i + 1) * CHUNK));
    const cipher = c.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
    output.set(cipher.update(body), i * SEALED);
    cipher.final();
    output.set(cipher.getAuthTag(), i * SEALED + body.length);
  }
  return length + 16 * chunks;
}

const [inputPath, outputPath] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const here = process.argv.includes('--here');
const key = crypto.randomBytes(32);
const inputs = Array.from({ length: BUFFERS }, () => new Uint8Array(new SharedArrayBuffer(PIECE_CHUNKS * CHUNK)));
const outputs = Array.from({ length: BUFFERS }, () => new Uint8Array(new SharedArrayBuffer(PIECE_CHUNKS * SEALED)));

const worker = here
  ? undefined
  : new Worker(
      `const { parentPort } = require('node:worker_threads');
       const c = require('node:crypto');
       const CHUNK = ${CHUNK}, SEALED = ${SEALED};
       ${chunkNonce.toString()}
       const sealPiece = ${sealPiece.toString()};
       parentPort.on('message', (m) => parentPort.postMessage(sealPiece(c, m.key, m.input, m.length, m.output, m.counter, m.final)));`,
      { eval: true },
    );
/** The worker's answers, in the order its jobs went (it does them in turn). */
const answers = [];
worker?.on('message', (bytes) => answers.shift()(bytes));
let atWorker = 0;

const input = openSync(inputPath, 'r');
const output = openSync(outputPath, 'w');
const size = fstatSync(input).size;
const readInto = (b) => new Promise((done, fail) => read(input, b, 0, b.length, null, (e, n) => (e ? fail(e) : done(n))));
const writeFrom = (b, n) => new Promise((done, fail) => write(output, b, 0, n, null, (e) => (e ? fail(e) : done())));

/** Seals piece `i` (buffer index) on the worker while it has fewer than two, else here. */
function seal(i, length, counter, final) {
  if (worker === undefined || atWorker >= 2) return Promise.resolve(sealPiece(crypto, key, inputs[i], length, outputs[i], counter, final));
  atWorker++;
  return new Promise((done) => {
    answers.push((bytes) => {
      atWorker--;
      done(bytes);
    });
    worker.postMessage({ key, input: inputs[i], output: outputs[i], length, counter, final });
  });
}

const start = performance.now();
const queue = [];
let written = Promise.resolve();
const writeFirst = async () => {
  const { i, sealed } = queue.shift();
  const bytes = await sealed;
  await written;
  written = writeFrom(outputs[i], bytes);
  await written;
};
let counter = 0;
let done = 0;
let i = 0;
let length = await readInto(inputs[0]);
done += length;
for (;;) {
  // The next piece is read first: only then is it known whether this one ends the payload.
  while (queue.length >= BUFFERS - 1) await writeFirst();
  const next = (i + 1) % BUFFERS;
  const nextLength = done < size ? await readInto(inputs[next]) : 0;
  done += nextLength;
  const final = nextLength === 0;
  queue.push({ i, sealed: seal(i, length, counter, final) });
  counter += Math.max(1, Math.ceil(length / CHUNK));
  if (final) break;
  [i, length] = [next, nextLength];
}
while (queue.length > 0) await writeFirst();
const ms = performance.now() - start;
closeSync(output);
closeSync(input);
await worker?.terminate();

/** Opens chunk `n` of the output (final when `final`) and compares it with the input's. */
function check(n, final) {
  const inFd = openSync(inputPath, 'r');
  const outFd = openSync(outputPath, 'r');
  const plain = new Uint8Array(Math.min(CHUNK, size - n * CHUNK));
  readSync(inFd, plain, 0, plain.length, n * CHUNK);
  const sealed = new Uint8Array(plain.length + 16);
  readSync(outFd, sealed, 0, sealed.length, n * SEALED);
  closeSync(inFd);
  closeSync(outFd);
  const d = crypto.createDecipheriv('chacha20-poly1305', key, chunkNonce(n, final), { authTagLength: 16 });
  d.setAuthTag(sealed.subarray(plain.length));
  const opened = d.update(sealed.subarray(0, plain.length));
  d.final();
  if (Buffer.compare(opened, plain) !== 0) throw new Error(`chunk ${n} does not open to the input`);
}
check(0, counter === 1);
check(counter - 1, true);
console.log(`${(size / 2 ** 20).toFixed(0)} MiB, ${here ? 'this thread' : 'this thread and a worker'}: ${ms.toFixed(0)} ms, ${(size / 1e3 / ms).toFixed(0)} MB/s`);
