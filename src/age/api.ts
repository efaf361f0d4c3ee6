/**
 * The age calls on a given set of tools (codec.ts Tools): fourfold/age's
 * on this thread (index.ts), fourfold/parallel's on the worker pool
 * (parallel.ts), with the same arguments and the same bytes.
 */
import { ArmorDecoder, ArmorEncoder, isArmored } from './armor.js';
import { Decryptor, type Emit, Encryptor, type Tools } from './codec.js';
import { AgeFormatError } from './errors.js';
import { forget, openHeader, receiverOf, type Sealed, sealHeader, senderOf } from './file-key.js';
import { parseHeader } from './header.js';
import { CHUNK, chunkFailure, type Failure, NONCE_BYTES, payloadKey, plainLength, SEALED_CHUNK, sealedLength } from './payload.js';
import { RUN_CHUNKS, type Runner } from './pipeline.js';
import { engine } from '../chacha/tiers.js';
import * as check from '../runtime/assert.js';
import { type Bytes, zeroize } from '../runtime/bytes.js';
import { releasingStream } from '../runtime/releasing-stream.js';

const EMPTY = new Uint8Array(0);

/** encrypt's and encryptStream's options. Any other property is refused (TypeError). */
export interface EncryptOptions {
  /** ASCII armor (PEM, "-----BEGIN AGE ENCRYPTED FILE-----"), for text channels; the default is the binary format. */
  armor?: boolean;
}

function armorOf(options: unknown): boolean {
  const armor = (check.options(options, 'options', ['armor']) as EncryptOptions | undefined)?.armor;
  if (armor !== undefined && typeof armor !== 'boolean') throw new TypeError(`options.armor must be a boolean, got ${check.describe(armor)}`);
  return armor === true;
}

/**
 * The payload of `plain` sealed into `out` from `at` on: every run handed
 * to the runner at once (so `plain` is read before the first wait), then
 * awaited.
 */
async function sealAll(runner: Runner, key: Uint8Array, plain: Uint8Array, out: Uint8Array, at: number): Promise<void> {
  const size = RUN_CHUNKS * CHUNK;
  const runs = Math.max(1, Math.ceil(plain.length / size));
  const pending: (Uint8Array | Promise<Uint8Array>)[] = [];
  for (let i = 0; i < runs; i++) {
    const part = plain.subarray(i * size, Math.min(plain.length, (i + 1) * size));
    const from = at + i * RUN_CHUNKS * SEALED_CHUNK;
    pending.push(runner.seal(key, { counter: i * RUN_CHUNKS, final: i === runs - 1 }, EMPTY, part, out.subarray(from, from + sealedLength(part.length))));
  }
  await Promise.all(pending);
}

/** The age file of `plain` (read at once) under a sealed header. */
async function payloadAfter(tools: Tools, { header, fileKey }: Sealed, plain: Uint8Array, armored: boolean): Promise<Bytes> {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const key = payloadKey(fileKey, nonce);
  zeroize(fileKey);
  const at = header.length + NONCE_BYTES;
  const out = new Uint8Array(at + sealedLength(plain.length));
  out.set(header);
  out.set(nonce, header.length);
  try {
    await sealAll(tools.runner(), key, plain, out, at);
  } finally {
    zeroize(key);
  }
  if (!armored) return out;
  const armor = new ArmorEncoder();
  const text = [armor.write(out), armor.end()];
  return joined(text);
}

export async function encryptWith(tools: Tools, data: unknown, to: unknown, options: unknown): Promise<Bytes> {
  const input = check.bytes(data, 'data');
  const armored = armorOf(options);
  const sender = senderOf(to);
  try {
    const sealed = sealHeader(sender, tools.scrypt);
    if (!(sealed instanceof Promise)) return await payloadAfter(tools, sealed, input, armored);
    // The plaintext is read now: the caller may change its array while scrypt runs.
    const copy = input.slice();
    try {
      return await payloadAfter(tools, await sealed, copy, armored);
    } finally {
      zeroize(copy);
    }
  } finally {
    forget(sender);
  }
}

/** The plaintext of the payload `sealed` (read at once), or the AuthenticationError of its first chunk that does not verify. */
async function openAll(runner: Runner, key: Uint8Array, sealed: Uint8Array): Promise<Bytes> {
  if (sealed.length === 0) throw chunkFailure(engine(), key, 0, true, sealed);
  const size = RUN_CHUNKS * SEALED_CHUNK;
  const runs = Math.ceil(sealed.length / size);
  const out = new Uint8Array(plainLength(sealed.length));
  const pending: (Uint8Array | Failure | Promise<Uint8Array | Failure>)[] = [];
  for (let i = 0; i < runs; i++) {
    const part = sealed.subarray(i * size, Math.min(sealed.length, (i + 1) * size));
    const from = i * RUN_CHUNKS * CHUNK;
    pending.push(runner.open(key, { counter: i * RUN_CHUNKS, final: i === runs - 1 }, EMPTY, part, out.subarray(from, from + plainLength(part.length))));
  }
  const failure = (await Promise.all(pending)).find((r): r is Failure => !(r instanceof Uint8Array));
  if (failure === undefined) return out;
  zeroize(out);
  throw failure.error;
}

/** The file's binary form: de-armored (into an array of ours) when it is armored, else the caller's bytes. */
function binaryOf(file: Uint8Array): Uint8Array {
  if (!isArmored(file, true)) return file;
  const decoder = new ArmorDecoder();
  return joined([decoder.push(file), decoder.end()]);
}

export async function decryptWith(tools: Tools, file: unknown, from: unknown): Promise<Bytes> {
  const input = check.bytes(file, 'file');
  const receiver = receiverOf(from);
  try {
    let binary = binaryOf(input);
    const header = parseHeader(binary);
    if (header === undefined) throw new AgeFormatError(binary.length === 0 ? 'not an age file: the file is empty' : 'the file ends inside its header');
    const opened = openHeader(header, receiver, tools.scrypt);
    // The file is read now: the caller may change its array while scrypt runs.
    if (opened instanceof Promise && binary === input) binary = input.slice();
    const fileKey = await opened;
    if (binary.length < header.length + NONCE_BYTES) throw new AgeFormatError(`the file ends before its ${NONCE_BYTES}-byte payload nonce`);
    const key = payloadKey(fileKey, binary.subarray(header.length, header.length + NONCE_BYTES));
    zeroize(fileKey);
    try {
      return await openAll(tools.runner(), key, binary.subarray(header.length + NONCE_BYTES));
    } finally {
      zeroize(key);
    }
  } finally {
    forget(receiver);
  }
}

function joined(parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Engines without web streams (React Native) are told what to use instead, before any key is taken. */
function needTransformStream(name: string): void {
  if (typeof TransformStream !== 'function') {
    throw new TypeError(`age: ${name} returns a TransformStream (web streams), which this engine does not have; use encrypt / decrypt`);
  }
}

/** A stream's chunk as a plain view of its bytes (read whole before the write waits: pipeline.ts). */
const chunkOf = (chunk: unknown): Uint8Array => check.byteSource(chunk, 'chunk');

export function encryptStreamWith(tools: Tools, to: unknown, options: unknown): TransformStream<Uint8Array, Uint8Array> {
  needTransformStream('encryptStream');
  const armored = armorOf(options);
  const sender = senderOf(to);
  let emit: Emit = () => {};
  const e = new Encryptor(sender, armored, tools, (b) => emit(b));
  return releasingStream<Uint8Array, Uint8Array>({
    async transform(chunk, out) {
      emit = out;
      await e.write(chunkOf(chunk));
    },
    async flush(out) {
      emit = out;
      await e.end();
    },
    release: () => e.forget(),
  });
}

export function decryptStreamWith(tools: Tools, from: unknown): TransformStream<Uint8Array, Uint8Array> {
  needTransformStream('decryptStream');
  let emit: Emit = () => {};
  const d = new Decryptor(receiverOf(from), tools, (b) => emit(b));
  return releasingStream<Uint8Array, Uint8Array>({
    async transform(chunk, out) {
      emit = out;
      await d.write(chunkOf(chunk));
    },
    async flush(out) {
      emit = out;
      await d.end();
    },
    release: () => d.forget(),
  });
}
