/**
 * The age payload (C2SP age, "Payload"): a 16-byte nonce, then the
 * plaintext in chunks of 64 KiB, each sealed with ChaCha20-Poly1305 under
 * the payload key and a 12-byte nonce made of an 11-byte big-endian chunk
 * counter and a last byte that is 1 for the final chunk and 0 before it.
 * Only the final chunk may be shorter, and it may be empty only when the
 * whole payload is. Chunks are independent: any run of them can be sealed
 * or opened on any thread, given its first counter and whether it ends
 * the payload.
 */
import { hkdfSha256 } from './sha256.js';
import type { ChachaEngine } from '../chacha/engine.js';
import { zeroize, EMPTY } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';

/** Plaintext bytes of a chunk, and of a sealed one (with its tag). */
export const PLAIN_CHUNK = 65536;
export const TAG_BYTES = 16;
export const SEALED_CHUNK = PLAIN_CHUNK + TAG_BYTES;
/** The payload's nonce, before the first chunk. */
export const NONCE_BYTES = 16;

const PAYLOAD_INFO = new TextEncoder().encode('payload');

/** payload key = HKDF-SHA-256(ikm = file key, salt = nonce, info = "payload"). */
export const payloadKey = (fileKey: Uint8Array, nonce: Uint8Array): Uint8Array => hkdfSha256(fileKey, nonce, PAYLOAD_INFO, 32);

/** The AEAD nonce of chunk `counter`: the counter in bytes 0..10, big-endian (below 2^53, so bytes 0..3 stay 0), then the final flag. */
export function chunkNonce(counter: number, final: boolean, into: Uint8Array): Uint8Array {
  const high = Math.floor(counter / 2 ** 32);
  into[3] = high >>> 24;
  into[4] = high >>> 16;
  into[5] = high >>> 8;
  into[6] = high;
  into[7] = counter >>> 24;
  into[8] = counter >>> 16;
  into[9] = counter >>> 8;
  into[10] = counter;
  into[11] = final ? 1 : 0;
  return into;
}

/** Chunks of a run of `plain` plaintext bytes: the last may be short, and an empty run is one empty chunk. */
export const chunkCount = (plain: number): number => Math.max(1, Math.ceil(plain / PLAIN_CHUNK));

/** Sealed bytes of a run of `plain` plaintext bytes. */
export const sealedLength = (plain: number): number => plain + TAG_BYTES * chunkCount(plain);

/** A run's plaintext bytes from its sealed bytes: each chunk's tag taken off (a last chunk too short for one holds none). */
export function plainLength(sealed: number): number {
  const chunks = Math.ceil(sealed / SEALED_CHUNK);
  if (chunks === 0) return 0;
  return (chunks - 1) * PLAIN_CHUNK + Math.max(0, sealed - (chunks - 1) * SEALED_CHUNK - TAG_BYTES);
}

/** The part of a payload a job works on: chunks from `counter`, the last of them the payload's final chunk when `final`. */
export interface ChunkRun {
  readonly counter: number;
  readonly final: boolean;
}

/**
 * Seals `plain` (whole chunks but the last, which is short only when
 * `run.final`) into `out` (sealedLength bytes) under `key`.
 */
export function sealRun(engine: ChachaEngine, key: Uint8Array, run: ChunkRun, plain: Uint8Array, out: Uint8Array): void {
  const nonce = new Uint8Array(12);
  const chunks = chunkCount(plain.length);
  for (let i = 0; i < chunks; i++) {
    const last = i === chunks - 1;
    const chunk = plain.subarray(i * PLAIN_CHUNK, Math.min(plain.length, (i + 1) * PLAIN_CHUNK));
    engine.seal(
      key,
      chunkNonce(run.counter + i, run.final && last, nonce),
      EMPTY,
      chunk,
      out.subarray(i * SEALED_CHUNK, i * SEALED_CHUNK + chunk.length + TAG_BYTES),
    );
  }
}

/** A run that did not open: the plaintext it may release (payload.ts openOrFail), and why it stopped there. */
export interface OpenFailure {
  readonly verified: Uint8Array;
  readonly error: AuthenticationError;
}

/**
 * Opens `sealed` (openRun) into `out`: `out` when every chunk verified,
 * else the OpenFailure. It releases the chunks before the first that did not
 * open, and that one too when it opens under the other final flag (a file
 * cut short after it, or extended past it: its plaintext is authentic,
 * only the file around it is wrong), as age's STREAM readers do; `out`
 * past what it releases is zeroed.
 */
export function openOrFail(engine: ChachaEngine, key: Uint8Array, run: ChunkRun, sealed: Uint8Array, out: Uint8Array): Uint8Array | OpenFailure {
  const chunks = Math.ceil(sealed.length / SEALED_CHUNK);
  const good = openRun(engine, key, run, sealed, out);
  return good === chunks && chunks > 0 ? out : failureAt(engine, key, run, sealed, out, good);
}

/**
 * The OpenFailure of chunk `index` of `sealed`, which did not verify, `out`
 * holding the plaintext of those before it: they are released, and it too
 * where it opens under the other final flag; `out` past that is zeroed.
 */
export function failureAt(engine: ChachaEngine, key: Uint8Array, run: ChunkRun, sealed: Uint8Array, out: Uint8Array, index: number): OpenFailure {
  const chunks = Math.ceil(sealed.length / SEALED_CHUNK);
  const failed = sealed.subarray(index * SEALED_CHUNK, (index + 1) * SEALED_CHUNK);
  const target = out.subarray(index * PLAIN_CHUNK, index * PLAIN_CHUNK + Math.max(0, failed.length - TAG_BYTES));
  const reason = failureReason(engine, key, run.counter + index, run.final && index >= chunks - 1, failed, target);
  const released = index * PLAIN_CHUNK + (opensOtherwise(reason) ? target.length : 0);
  zeroize(out.subarray(released));
  return { verified: out.subarray(0, released), error: failureError(reason, run.counter + index) };
}

/**
 * Opens `sealed` (whole sealed chunks but the last, which is short only
 * when `run.final`) into `out` (plainLength bytes), chunk by chunk, each
 * verified before its plaintext is written. Returns how many chunks
 * verified: all of them, or the index of the first that did not (whose
 * part of `out` is then zeroed, and none after it written). `own`:
 * `sealed` is fourfold's own memory, read in place (ChachaEngine.open).
 */
export function openRun(engine: ChachaEngine, key: Uint8Array, run: ChunkRun, sealed: Uint8Array, out: Uint8Array, own = false): number {
  const nonce = new Uint8Array(12);
  const chunks = Math.ceil(sealed.length / SEALED_CHUNK);
  for (let i = 0; i < chunks; i++) {
    const chunk = sealed.subarray(i * SEALED_CHUNK, Math.min(sealed.length, (i + 1) * SEALED_CHUNK));
    const final = run.final && i === chunks - 1;
    // Too short for a tag, or an empty final chunk after others (only an empty payload may end so).
    if (chunk.length < TAG_BYTES || (final && chunk.length === TAG_BYTES && run.counter + i > 0)) return i;
    const target = out.subarray(i * PLAIN_CHUNK, i * PLAIN_CHUNK + chunk.length - TAG_BYTES);
    const body = chunk.subarray(0, chunk.length - TAG_BYTES);
    if (engine.open(key, chunkNonce(run.counter + i, final, nonce), EMPTY, body, chunk.subarray(body.length), target, own) === undefined) {
      zeroize(target);
      return i;
    }
  }
  return chunks;
}

/** Why a chunk did not open (failureReason), in a form a worker's answer carries. */
export const REASON = { changed: 0, cutShort: 1, extended: 2, tooShort: 3, emptyFinal: 4, shortNotFinal: 5 } as const;

/**
 * Whether a chunk that failed for `reason` opened under the other final
 * flag as a chunk that may stand there (its plaintext is then authentic and
 * released before the error): a whole chunk where the file ends, or a final
 * chunk with data after it. A short chunk not marked final is never valid.
 */
export const opensOtherwise = (reason: number): boolean => reason === REASON.cutShort || reason === REASON.extended;

/**
 * Why chunk `counter` (sealed bytes `chunk`), opened as the final chunk
 * (`final`) or not, did not open: a chunk that opens under the other flag
 * tells a file cut short at a chunk boundary, or extended after its final
 * chunk, from one changed. Where it opens so, its plaintext is left in
 * `into` (else `into` is zeroed).
 */
export function failureReason(engine: ChachaEngine, key: Uint8Array, counter: number, final: boolean, chunk: Uint8Array, into: Uint8Array): number {
  if (chunk.length < TAG_BYTES) return REASON.tooShort;
  if (final && chunk.length === TAG_BYTES && counter > 0) return REASON.emptyFinal;
  const nonce = chunkNonce(counter, !final, new Uint8Array(12));
  const body = chunk.subarray(0, chunk.length - TAG_BYTES);
  if (engine.open(key, nonce, EMPTY, body, chunk.subarray(body.length), into) === undefined) {
    zeroize(into);
    return REASON.changed;
  }
  if (!final) return REASON.extended;
  if (body.length === PLAIN_CHUNK) return REASON.cutShort;
  zeroize(into);
  return REASON.shortNotFinal;
}

/** The AuthenticationError for chunk `counter` that did not open, for `reason` (failureReason). */
export function failureError(reason: number, counter: number): AuthenticationError {
  switch (reason) {
    case REASON.tooShort:
      return new AuthenticationError(`the file is cut short: its last chunk (chunk ${counter}) is shorter than a tag`);
    case REASON.emptyFinal:
      return new AuthenticationError(`the final chunk (chunk ${counter}) is empty, which only an empty payload's may be`);
    case REASON.cutShort:
      return new AuthenticationError(`the file is cut short: it ends after chunk ${counter}, which is not its final chunk`);
    case REASON.extended:
      return new AuthenticationError(`the file goes on after its final chunk (chunk ${counter})`);
    case REASON.shortNotFinal:
      return new AuthenticationError(`the file's last chunk (chunk ${counter}) is short but not marked final: the file was cut short or changed`);
    default:
      return new AuthenticationError(`chunk ${counter} of the payload does not verify: the file was changed, or is cut short or extended`);
  }
}

/** The AuthenticationError of chunk `counter` that did not open (failureReason, failureError); its plaintext, if any, is wiped. */
export function chunkFailure(engine: ChachaEngine, key: Uint8Array, counter: number, final: boolean, chunk: Uint8Array): AuthenticationError {
  const scratch = new Uint8Array(Math.max(0, chunk.length - TAG_BYTES));
  const reason = failureReason(engine, key, counter, final, chunk, scratch);
  zeroize(scratch);
  return failureError(reason, counter);
}

/**
 * Where a piece's plaintext goes in the slot for sealing: after room for
 * its tags, so that each sealed chunk ends before the plaintext of the
 * next begins.
 */
export const sealPlainAt = (plain: number): number => sealedLength(plain) - plain;

/** Seals a piece in place: `slot` holds the plaintext at sealPlainAt and gets the sealed chunks from 0. */
export function sealInPlace(engine: ChachaEngine, key: Uint8Array, run: ChunkRun, slot: Uint8Array, length: number): void {
  const at = sealPlainAt(length);
  sealRun(engine, key, run, slot.subarray(at, at + length), slot.subarray(0, at + length));
}

/**
 * Opens a piece in place: `slot` holds the sealed chunks from 0 and gets
 * their plaintext from 0; returns the chunks that verified. The slot (a
 * worker's, or its piece buffer) is the job's own: no other thread writes
 * it while the job's result may be used.
 */
export function openInPlace(engine: ChachaEngine, key: Uint8Array, run: ChunkRun, slot: Uint8Array, length: number): number {
  return openRun(engine, key, run, slot.subarray(0, length), slot.subarray(0, plainLength(length)), true);
}

/** Chunks in a whole piece: its sealed form fits a slot of the pool (1 MiB: 15 chunks, 983,280 bytes). */
export const PIECE_CHUNKS = 15;

/** Whole pieces of `chunks` `unit`-byte chunks (PIECE_CHUNKS unless said) over `length` bytes (the last chunk may be short). */
export function wholePieces(length: number, unit: number, chunks = PIECE_CHUNKS): { start: number; length: number }[] {
  const size = chunks * unit;
  const pieces: { start: number; length: number }[] = [];
  for (let at = 0; at < length; at += size) pieces.push({ start: at, length: Math.min(size, length - at) });
  return pieces;
}
