/**
 * fourfold/parallel's age: fourfold/age's calls, with the same arguments
 * and bytes, on every core. A payload's chunks are independent, so runs
 * of them go to the pool's workers as they come, up to two a worker in
 * flight, and to the calling thread when every worker has its two; the
 * results come back in order (pipeline.ts), so memory stays a few runs a
 * thread whatever the file's size. A passphrase's scrypt runs on a worker
 * too (fourfold/parallel's scrypt), leaving the calling thread free.
 *
 * A worker lost mid-stream costs time, never bytes: the calling thread
 * keeps each run's input until its answer comes, and does the run itself
 * when the worker is gone.
 */
import { decryptStreamWith, decryptWith, type EncryptOptions, encryptStreamWith, encryptWith } from './api.js';
import type { Tools } from './codec.js';
import type { AgeFrom, AgeTo } from './file-key.js';
import { type AgeJobs, OPEN_TRAILER } from './jobs.js';
import { CHUNK, type Failure, failureError, opensOtherwise, plainLength, type Run, SEALED_CHUNK } from './payload.js';
import { openHere, type Runner, sealHere } from './pipeline.js';
import { decryptRangeWith, type RangeInput } from './range.js';
import { thePool } from '../parallel/workers.js';
import { canShare, pool, type PoolWorker } from '../pool/pool.js';
import type { Bytes } from '../runtime/bytes.js';
import { scrypt as scryptOnPool } from '../scrypt/parallel.js';

export { AgeFormatError, NoIdentityMatchError } from './errors.js';
export type { AgeFrom, AgeTo, FromIdentities, FromPassphrase, ToPassphrase, ToRecipients } from './file-key.js';
export type { EncryptOptions } from './api.js';
export { generateIdentity, identityToRecipient } from './keys.js';
export type { FileHandleLike, RangeInput, RangeSource } from './range.js';

const EMPTY = new Uint8Array(0);

/** Runs a worker holds at once: one running, one queued behind it, so it never waits for the calling thread. */
const PER_WORKER = 2;

/** A run's input as one array a job can carry (shared memory where the engine allows, so keeping it costs no copy). */
function jobInput(head: Uint8Array, body: Uint8Array): Uint8Array {
  const length = head.length + body.length;
  const input = new Uint8Array(canShare() ? new SharedArrayBuffer(length) : new ArrayBuffer(length));
  input.set(head);
  input.set(body, head.length);
  return input;
}

/** The plaintext, or the Failure, an open job's answer (jobs.ts OPEN_TRAILER) carries. */
function opened(answer: Uint8Array, run: Run, sealedLength: number): Uint8Array | Failure {
  const n = plainLength(sealedLength);
  const view = new DataView(answer.buffer, answer.byteOffset + n, OPEN_TRAILER);
  const good = view.getUint32(0, true);
  const plain = answer.subarray(0, n);
  if (good === Math.ceil(sealedLength / SEALED_CHUNK)) return plain;
  const reason = view.getUint32(4, true);
  const released = opensOtherwise(reason) ? Math.min(n, (good + 1) * CHUNK) : good * CHUNK;
  return { verified: plain.subarray(0, released), error: failureError(reason, run.counter + good) };
}

/**
 * The pool's workers as a Runner: a run goes to a ready worker with room
 * (fewer than PER_WORKER of its runs in flight), else it is done here.
 */
function poolRunner(): Runner {
  const workers = thePool().grow(pool.size);
  const inFlight = new Map<PoolWorker, number>();
  const free = (): PoolWorker | undefined => workers.find((w) => w.ready && !w.retiring && (inFlight.get(w) ?? 0) < PER_WORKER);
  /** Runs `job` on `w`, counting it; a lost worker's run is done here instead. */
  async function on<T>(w: PoolWorker, job: () => Promise<T>, here: () => T): Promise<T> {
    inFlight.set(w, (inFlight.get(w) ?? 0) + 1);
    try {
      return await job();
    } catch {
      workers.splice(workers.indexOf(w), 1);
      return here();
    } finally {
      inFlight.set(w, (inFlight.get(w) ?? 1) - 1);
    }
  }
  /** A job's params with a copy of the key, which moves to the worker (it wipes it after the job), and what to transfer. */
  const keyed = <P extends object>(key: Uint8Array, run: Run, rest: P) => {
    const copy = key.slice();
    return { params: { key: copy, counter: run.counter, final: run.final, ...rest }, transfer: [copy.buffer] };
  };
  return {
    seal(key, run, head, body, out) {
      const w = free();
      if (w === undefined) return sealHere(key, run, head, body, out);
      const plain = jobInput(head, body);
      const job = () => {
        const { params, transfer } = keyed(key, run, { plain });
        return w.call<AgeJobs, 'age.seal'>('age.seal', params, transfer);
      };
      return on(w, job, () => sealHere(key, run, plain, EMPTY, out)).then((sealed) => {
        plain.fill(0);
        if (out === undefined) return sealed;
        out.set(sealed);
        return out;
      });
    },
    open(key, run, head, body, out) {
      const w = free();
      if (w === undefined) return openHere(key, run, head, body, out);
      const sealed = jobInput(head, body);
      const job = async () => {
        const { params, transfer } = keyed(key, run, { sealed });
        return opened(await w.call<AgeJobs, 'age.open'>('age.open', params, transfer), run, sealed.length);
      };
      return on(w, job, () => openHere(key, run, sealed, EMPTY, out)).then((result) => {
        if (out === undefined || !(result instanceof Uint8Array)) return result;
        out.set(result);
        result.fill(0);
        return out;
      });
    },
    window: PER_WORKER * Math.max(1, workers.length) + 1,
  };
}

/** scrypt for age's passphrases (r = 8, p = 1, a 32-byte key) on a worker of the pool. */
const scrypt = (passphrase: Uint8Array, salt: Uint8Array, N: number) => scryptOnPool(passphrase, salt, { N, r: 8, p: 1, dkLen: 32, maxmem: 1024 * (N + 3) });

/** Every core: runs on the pool's workers and this thread, scrypt on a worker. */
const POOL: Tools = { runner: poolRunner, scrypt };

/**
 * fourfold/age's encrypt, on every core: the same bytes (but for the
 * random file key and nonce), the calling thread free for the most part.
 *
 * @example
 * ```ts
 * import { age } from 'fourfold/parallel';
 * const file = await age.encrypt(bytes, { recipients: ['age1...'] });
 * ```
 */
export function encrypt(data: Uint8Array, to: AgeTo, options?: EncryptOptions): Promise<Bytes> {
  return encryptWith(POOL, data, to, options);
}

/** fourfold/age's decrypt, on every core. */
export function decrypt(file: Uint8Array, from: AgeFrom): Promise<Bytes> {
  return decryptWith(POOL, file, from);
}

/**
 * fourfold/age's encryptStream, its runs of chunks sealed on every core
 * (a bounded window of them in flight), in order.
 *
 * @example
 * ```ts
 * import { age } from 'fourfold/parallel';
 * await file.stream().pipeThrough(age.encryptStream({ recipients: [recipient] })).pipeTo(writable);
 * ```
 */
export function encryptStream(to: AgeTo, options?: EncryptOptions): TransformStream<Uint8Array, Uint8Array> {
  return encryptStreamWith(POOL, to, options);
}

/** fourfold/age's decryptStream, its runs of chunks opened on every core, released in order, each chunk after its tag verified. */
export function decryptStream(from: AgeFrom): TransformStream<Uint8Array, Uint8Array> {
  return decryptStreamWith(POOL, from);
}

/** fourfold/age's decryptRange, the range's chunks opened on every core. */
export function decryptRange(source: RangeInput, start: number, end: number, from: AgeFrom): Promise<Bytes> {
  return decryptRangeWith(POOL, source, start, end, from);
}
