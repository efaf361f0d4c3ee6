/**
 * age's jobs for the pool's workers (parallel/worker.ts and worker-js.ts
 * serve them): sealing and opening a piece of payload chunks (payload.ts)
 * in the job's slot, under a payload key the job carries, which the worker
 * wipes after it. postRun and takeOpened are the calling side, for
 * pieces.ts (a one-shot payload) and pool-tools.ts (a stream's pieces).
 *
 * Both work in place, with no copy: a piece's output starts at or before
 * its input in the slot, and the engines work front to back, reading each
 * part of the input before they write that part's output (as a move to a
 * lower address may overlap its source).
 */
import { CHUNK, openRun, plainLength, type Run, sealedLength, sealRun } from './payload.js';
import type { ChachaEngine } from '../chacha/engine.js';
import type { JobDone, JobHandle, PoolWorker } from '../pool/pool.js';
import type { Handlers, JobType } from '../pool/protocol.js';

/** A piece: the payload key, its first chunk's counter, whether it ends the payload, and its input's bytes (plaintext to seal, sealed chunks to open). */
type PieceParams = { key: Uint8Array; counter: number; final: boolean; length: number };

export type AgeJobs = {
  /**
   * Seals the job's shared input (`length` bytes), or else the slot's
   * plaintext (at sealPlainAt), into the slot from 0 (sealedLength bytes).
   */
  readonly 'age.seal': JobType<PieceParams, undefined>;
  /**
   * Opens the job's shared input (`length` sealed bytes), or else the
   * slot's (from 0), into the slot's plaintext, from 0: the result is one
   * byte, the number of chunks that verified (a piece has fewer than
   * 256). Past them the plaintext is zeros; the calling thread, which has
   * the sealed bytes, tells why the next did not verify.
   */
  readonly 'age.open': JobType<PieceParams, Uint8Array>;
};

/**
 * Where a piece's plaintext goes in the slot for sealing: after room for
 * its tags, so that each sealed chunk ends before the plaintext of the
 * next begins.
 */
export const sealPlainAt = (plain: number): number => sealedLength(plain) - plain;

/** Seals a piece in place: `slot` holds the plaintext at sealPlainAt and gets the sealed chunks from 0. */
export function sealInPlace(engine: ChachaEngine, key: Uint8Array, run: Run, slot: Uint8Array, length: number): void {
  const at = sealPlainAt(length);
  sealRun(engine, key, run, slot.subarray(at, at + length), slot.subarray(0, at + length));
}

/** Opens a piece in place: `slot` holds the sealed chunks from 0 and gets their plaintext from 0; returns the chunks that verified. */
export function openInPlace(engine: ChachaEngine, key: Uint8Array, run: Run, slot: Uint8Array, length: number): number {
  return openRun(engine, key, run, slot.subarray(0, length), slot.subarray(0, plainLength(length)));
}

/** The jobs on one tier's ChaCha engine: in place in the slot, or from a stream's shared input into the slot. */
export function ageJobs(engine: ChachaEngine): Handlers<AgeJobs> {
  return {
    'age.seal': (p, { input, slot }) => {
      const run = { counter: p.counter, final: p.final };
      if (input === slot) sealInPlace(engine, p.key, run, slot!, p.length);
      else sealRun(engine, p.key, run, input!.subarray(0, p.length), slot!.subarray(0, sealedLength(p.length)));
      return undefined;
    },
    'age.open': (p, { input, slot }) => {
      const run = { counter: p.counter, final: p.final };
      if (input === slot) return Uint8Array.of(openInPlace(engine, p.key, run, slot!, p.length));
      return Uint8Array.of(openRun(engine, p.key, run, input!.subarray(0, p.length), slot!.subarray(0, plainLength(p.length))));
    },
  };
}

/**
 * Gives a run of chunks (`input`: plaintext to seal, or sealed chunks to
 * open) to `w`, with a copy of the payload key that moves to the worker.
 * `own`: input in shared memory that no other code writes (a stream's
 * gathered buffers), which the worker reads where it is; any other input
 * is copied into the slot, where the job works in place (a caller's
 * ciphertext is read once, as decryption must).
 */
export function postRun(w: PoolWorker, key: Uint8Array, run: Run, input: Uint8Array, opening: boolean, own: boolean): JobHandle<unknown> {
  const copy = key.slice();
  const params = { key: copy, counter: run.counter, final: run.final, length: input.length };
  const shared = own ? { input } : {};
  if (opening) {
    const bytes = own ? plainLength(input.length) : input.length;
    if (!own) w.slot(bytes).set(input);
    return w.run<AgeJobs, 'age.open'>('age.open', params, bytes, shared, [copy.buffer], input.length);
  }
  const bytes = sealedLength(input.length);
  if (!own) w.slot(bytes).set(input, sealPlainAt(input.length));
  return w.run<AgeJobs, 'age.seal'>('age.seal', params, bytes, shared, [copy.buffer], input.length);
}

/** An open's answer: the number of chunks that verified, whose plaintext (only theirs: past it the slot holds zeros, then sealed bytes) goes to `out`. */
export function takeOpened(done: JobDone<unknown>, out: Uint8Array): number {
  const good = (done.result as Uint8Array)[0]!;
  out.set(done.data.subarray(0, Math.min(good * CHUNK, out.length)));
  return good;
}
