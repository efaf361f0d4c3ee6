/**
 * The internals the tests reach, in one module: hooks that observe state
 * (kernelMemories, stateOf, the pool) and the tiers' engines and helpers
 * that tests compare with each other. Not a public entry: package.json
 * does not export it; tests import it through test/internal.ts only.
 */
import { simdArgon2 as simdArgon2Engine } from './argon2/simd.js';
import type { PoolWorker } from './pool/pool-worker.js';
import { pool as workerPool } from './pool/pool.js';
import { engine as argon2Selector } from './argon2/tiers.js';
import { engine as blake3Selector } from './blake3/tiers.js';
import { simdBlake3 as simdBlake3Engine } from './blake3/simd.js';
import { blake3Kernel as blake3KernelAccessor } from './blake3/wasm.js';
import { simdChacha as simdChachaEngine, simdChachaPiece as simdChachaPieceFunction } from './chacha/simd.js';
import { engine as chachaSelector } from './chacha/tiers.js';
import { chachaKernel as chachaKernelAccessor } from './chachapoly/wasm.js';
import { engine as poly1305Selector } from './poly1305/tiers.js';
import { simdPoly1305 as simdPoly1305Engine } from './poly1305/simd.js';
import { simdSalsaPiece as simdSalsaPieceFunction } from './salsa/simd.js';
import { engine as salsaSelector } from './salsa/tiers.js';
import { simdScrypt as simdScryptEngine } from './scrypt/simd.js';
import { engine as scryptSelector } from './scrypt/tiers.js';

/**
 * `value` (a simd engine or a kernel accessor), with its family's engine
 * selector referred to: the selector brings the kernel's bytes, and a
 * bundle (the engine matrix's) leaves out a selector nothing refers to,
 * which a test calling the simd engine directly never does.
 */
function withBytes<T>(selector: () => unknown, value: T): T {
  void selector;
  return value;
}

/** How many holdWorkers() holds each worker has; the held workers whose retirement the pool was refused meanwhile. */
const holds = new Map<PoolWorker, number>();
const putOff = new Set<PoolWorker>();
let retireAsUsual: ((w: PoolWorker) => void) | undefined;

/**
 * Keeps `workers` in the pool until release(): the pool does not retire
 * them (a Deno worker idle for DENO_IDLE_MS, pool/spawn.ts; one beyond a
 * lowered size), so that a test that takes a worker (to watch its jobs, to
 * make one of them fail) still has it after the calling thread worked for
 * a while. Unlike PoolWorker.pin(), it leaves the pool's choice of workers
 * for a call, and status().streams, as they were; a failure and
 * terminate() still end a held worker. At release(), one whose retirement
 * was put off is retired if it is still idle, as it would have been.
 */
export function holdWorkers(workers: readonly PoolWorker[]): { release(): void } {
  if (retireAsUsual === undefined) {
    const retire = workerPool.retire.bind(workerPool);
    retireAsUsual = retire;
    workerPool.retire = (w) => void (holds.has(w) ? putOff.add(w) : retire(w));
  }
  const mine = [...workers];
  for (const w of mine) holds.set(w, (holds.get(w) ?? 0) + 1);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      for (const w of mine) {
        const n = holds.get(w)! - 1;
        if (n > 0) {
          holds.set(w, n);
          continue;
        }
        holds.delete(w);
        if (putOff.delete(w) && !w.busy && workerPool.workers.includes(w)) retireAsUsual!(w);
      }
    },
  };
}

export { kernelMemories } from './runtime/kernel-registry.js';
export { pool } from './pool/pool.js';
export { transferablesOf } from './pool/protocol.js';
export { EMPTY } from './runtime/bytes.js';
export type { PoolWorker };
export type { JobDone, JobHandle } from './pool/job-handle.js';
export { contention, runOnWorkers, runPieces, turnSources, type Piece, type PieceWork } from './pool/schedule.js';
export { CoreJudge } from './pool/contention.js';
export { Completion, InFlight } from './pool/in-flight.js';
export { InOrder, WINDOW } from './pool/in-order.js';
export { Partition, SMALLEST } from './pool/partition.js';
export { HereClock } from './pool/turns.js';
export { VariantPicker, variantPicker, type VariantKernel } from './runtime/variants.js';
export { stateOf } from './secretstream/state.js';
export { chachaVariantPicker } from './chachapoly/wasm.js';
export type { ChachaJobs } from './chacha/jobs.js';
export const chachaKernel = withBytes(chachaSelector, chachaKernelAccessor);
export type { Blake3Engine, TreeState } from './blake3/engine.js';
export { jsBlake3 } from './blake3/js.js';
export { jsBlake2b } from './blake2/js.js';
export { PARALLEL_MIN } from './parallel/blake3.js';
export const simdBlake3 = withBytes(blake3Selector, simdBlake3Engine);
export { blake3VariantPicker } from './blake3/wasm.js';
export const blake3Kernel = withBytes(blake3Selector, blake3KernelAccessor);
export { PolynomialSum } from './poly1305/combine.js';
export { add, clampedR, multiply, newLimbs, setBytes, setRadix, tagInto, toBytes } from './poly1305/field.js';
export { jsPoly1305 } from './poly1305/js.js';
export const simdPoly1305 = withBytes(poly1305Selector, simdPoly1305Engine);
export { twoPasses, type PieceCrypt } from './aead/jobs.js';
export { jsChacha } from './chacha/js.js';
export { openOriginal, sealOriginal } from './chacha/original.js';
export const simdChacha = withBytes(chachaSelector, simdChachaEngine);
export type { ChachaEngine } from './chacha/engine.js';
export { COPIED_PIECEWISE_FROM, NATIVE_KEY, nativeOpen, nativeSeal, nativeXor, NATIVE_PIECE, PIECEWISE_FROM } from './chacha/native.js';
export { crossoverFor } from './chacha/crossovers.js';
export { cpuVendor, grown, nativeScrypt, nativeSha256, nativeX25519, RUNTIME, type NodeCrypto } from './runtime/native.js';
export { openInPlace, sealInPlace, sealPlainAt } from './age/payload.js';
export { openRun, sealRun } from './age/payload.js';
export { hereRunner } from './age/here.js';
export { PayloadOpener, PayloadSealer, type PayloadPiece, type Runner } from './age/pipeline.js';
export { TYPAGE_RUNNERS } from './typage/runners.js';
export { ArmorDecoder, ArmorEncoder, dearmoredLength } from './age/armor.js';
export { ArmoredLines, ArmoredRun, armoredLength, headLength } from './age/armor-lines.js';
export { identityKey } from './age/keys.js';
export { bcryptPbkdf } from './age/bcrypt-pbkdf.js';
export { bcryptHash, bcryptKey } from './bcrypt/bcrypt.js';
export { montgomeryOf } from './age/ssh.js';
export { nodeAgeScrypt, reachableWorkFactor, scryptFor, WASM_MAX_WORK_FACTOR } from './age/recipients.js';
export { multiplyOn, PKCS8_PREFIX, subtlePair } from './age/x25519.js';
export { jsSha256 } from './age/sha256-js.js';
export { jsSalsa } from './salsa/js.js';
export const simdChachaPiece = withBytes(chachaSelector, simdChachaPieceFunction);
export const simdSalsaPiece = withBytes(salsaSelector, simdSalsaPieceFunction);
export type { ScryptEngine } from './scrypt/engine.js';
export { jsScrypt } from './scrypt/js.js';
export { scryptFormPicker, scryptForms } from './scrypt/simd.js';
export const simdScrypt = withBytes(scryptSelector, simdScryptEngine);
export { spareMemory } from './scrypt/simd.js';
export type { Argon2Engine, Argon2Memory } from './argon2/engine.js';
export { shapeOf as argon2Shape } from './argon2/layout.js';
export { jsArgon2 } from './argon2/js.js';
export { compressBlock as argon2JsCompress } from './argon2/js-compress.js';
export const simdArgon2 = withBytes(argon2Selector, simdArgon2Engine);
export { spareMemory as argon2SpareMemory } from './argon2/simd.js';
export { fromB64, toB64 } from './argon2/phc-base64.js';
export { Written as Argon2Written } from './argon2/written.js';
export { spareSharedMemories, spareSharedMemory } from './parallel/argon2.js';
export { INVERSE_FUNCTIONS, SBOX_FUNCTIONS } from './serpent/js-sboxes.js';
export { evaluate, INVERSE_CIRCUITS, parseGates, SBOX_CIRCUITS, type Logic } from './serpent/sboxes.js';
export { inverse, SBOXES } from './serpent/tables.js';
