/**
 * The pool as age's tools (codec.ts Tools), for fourfold/parallel's age
 * and the fourfold age command. A payload's chunks are independent, so a
 * batch of them (a one-shot call's whole payload, or a stream's few MiB)
 * is shared between the pool's workers and this thread by the pool's
 * scheduler (pieces.ts); a batch too small to be worth the workers runs
 * here. A passphrase's scrypt runs on a worker too (fourfold/parallel's
 * scrypt), leaving the calling thread free.
 */
import type { Tools } from './codec.js';
import { CHUNK } from './payload.js';
import { openPieces, sealPieces } from './pieces.js';
import { hereRunner, type Runner } from './pipeline.js';
import { workersFor } from '../parallel/workers.js';
import type { PoolWorker } from '../pool/pool.js';
import { PARALLEL_MIN } from '../pool/transform.js';
import { scrypt as scryptOnPool } from '../scrypt/parallel.js';

/**
 * Chunks a stream gathers into one batch: 4 MiB, a few milliseconds on
 * two cores, so that the scheduler's equal cuts at a batch's end (where a
 * thread may wait for the other) are a small part of it; larger batches
 * were no faster, and each holds two batches' worth of memory (its bytes,
 * and its output) on top of the garbage the engine has yet to collect.
 */
const BATCH_CHUNKS = (4 << 20) / CHUNK;

/**
 * Batches on the pool's workers and this thread, those below PARALLEL_MIN
 * here; the slots of the workers it used are zeroed once the payload is
 * done.
 */
function poolRunner(): Runner {
  const used = new Set<PoolWorker>();
  const workers = (bytes: number): PoolWorker[] => {
    const list = workersFor(bytes);
    for (const w of list) used.add(w);
    return list;
  };
  return {
    batchChunks: BATCH_CHUNKS,
    seal(key, run, plain, out) {
      if (plain.length < PARALLEL_MIN) return hereRunner.seal(key, run, plain, out);
      return sealPieces(key, run, plain, out, workers(plain.length));
    },
    open(key, run, sealed, out) {
      if (sealed.length < PARALLEL_MIN) return hereRunner.open(key, run, sealed, out);
      return openPieces(key, run, sealed, out, workers(sealed.length));
    },
    done() {
      for (const w of used) w.zeroSlots();
      used.clear();
    },
  };
}

/** scrypt for age's passphrases (r = 8, p = 1, a 32-byte key) on a worker of the pool. */
const scrypt = (passphrase: Uint8Array, salt: Uint8Array, N: number) => scryptOnPool(passphrase, salt, { N, r: 8, p: 1, dkLen: 32, maxmem: 1024 * (N + 3) });

/** Every core: batches on the pool's workers and this thread, scrypt on a worker. */
export const POOL: Tools = { runner: poolRunner, scrypt };
