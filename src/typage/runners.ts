/**
 * Where the typage API's files run: this thread for what is too small to
 * be worth the pool's workers (as the pool's own runner does there,
 * parallel/age-pool.ts), the pool for the rest, imported the first time a
 * call needs it. Every call of the API is asynchronous, so a page that
 * writes and reads small files never loads the pool, its scheduling or its
 * worker scripts (some 12 KB of gzip); a large file, a long stream or a
 * passphrase (scrypt runs on a worker) loads it once.
 */
import type { AgeRunners } from '../age/codec.js';
import { engineReady, type Lane, openHere, type PayloadPiece, streamPieceHere, type Runner, sealHere } from '../age/pipeline.js';
import { PARALLEL_MIN } from '../pool/protocol.js';

/** The pool's runners, imported: fourfold/parallel's age without the Web Worker form (the edge entry's). */
// biome-ignore format: the parentheses keep Vite's preload helper out (age/keys.ts)
const plainPool = async (): Promise<AgeRunners> => (await import(('../parallel/age-pool.js'))).POOL_RUNNERS;

let loadPool: () => Promise<AgeRunners> = plainPool;

/**
 * Has the pool, when it is imported, loaded by `load` instead: the default
 * entry's, which gives it the Web Worker form first (web-workers.ts).
 */
export function usePoolLoader(load: () => Promise<AgeRunners>): void {
  loadPool = load;
}

/**
 * Piece buffers that streams done here dropped, zeroed, at most one of
 * each size (a sealing piece's and an opening piece's), for the next
 * stream: a page makes a new array of a piece (0.9 MiB) at far more than
 * its bytes' cost (fresh pages, then the stream's copy into them: some
 * 0.4 ms of a 1 MiB stream's 2.4 in Chromium 156), and a stream of a MiB
 * or so would make one each call. Only the calling thread ever had them.
 */
const spares = new Map<number, Uint8Array>();

/** A buffer of `bytes` for a stream done here: a spare of that size where there is one, else a new array. */
function hereBuffer(bytes: number): Uint8Array {
  const spare = spares.get(bytes);
  if (spare === undefined) return new Uint8Array(bytes);
  spares.delete(bytes);
  return spare;
}

/**
 * A stream's lane: its pieces here, each done as it comes, until the
 * stream has passed PARALLEL_MIN; then the pool's lane, told the bytes
 * done so far, which hands pieces to the workers from then on. Every piece done here has
 * been given back before the pool's lane takes one, so they stay in order.
 * A buffer the stream drops is kept for the next stream (spares) only
 * where no piece of its is being added (none will read it later) and the
 * pool never had one (no worker holds any).
 */
function lazyLane(key: Uint8Array, opening: boolean, pool: () => Promise<Runner>): Lane {
  let added = 0;
  let onPool: Lane | undefined;
  let adding = 0;
  return {
    // The pool's lane reads its pieces later: they are the stream's own buffers from the start.
    synchronous: false,
    async add(p: PayloadPiece) {
      adding++;
      try {
        if (onPool === undefined && added < PARALLEL_MIN) {
          await engineReady();
          added += p.input.length;
          streamPieceHere(key, p, opening, true);
          return [p];
        }
        onPool ??= (await pool()).lane(key, opening, added);
        return await onPool.add(p);
      } finally {
        adding--;
      }
    },
    finish: () => onPool?.finish() ?? [],
    abandon: () => onPool?.abandon(),
    buffer: (bytes) => (onPool === undefined ? hereBuffer(bytes) : onPool.buffer(bytes)),
    release: (buffer) => {
      if (onPool === undefined && adding === 0) spares.set(buffer.length, buffer);
    },
  };
}

/** A payload's runner: this thread below PARALLEL_MIN, the pool's (imported then) at or above. */
function lazyRunner(): Runner {
  let pooled: Promise<Runner> | undefined;
  let used: Runner | undefined;
  const pool = (): Promise<Runner> =>
    (pooled ??= loadPool().then((runners) => {
      used = runners.runner();
      return used;
    }));
  return {
    // The pool's (a sealed piece fills a worker's slot), which a stream's pieces keep once on the pool.
    pieceChunks: 15,
    // Below PARALLEL_MIN as age/here.ts's runner does (not here.ts itself: its file calls bring the pool's turns and file pieces).
    seal: async (key, run, plain, out) => {
      await engineReady();
      return plain.length < PARALLEL_MIN ? sealHere(key, run, plain, out) : (await pool()).seal(key, run, plain, out);
    },
    open: async (key, run, sealed, out) => {
      await engineReady();
      return sealed.length < PARALLEL_MIN ? openHere(key, run, sealed, out) : (await pool()).open(key, run, sealed, out);
    },
    lane: (key, opening) => lazyLane(key, opening, pool),
    files: async (payload, after) => (await pool()).files(payload, after),
    // The workers' slots it used are zeroed by the pool's runner; a runner that never reached the pool has nothing there.
    done: () => used?.done(),
  };
}

/** The typage API's runners: the pool imported when a call needs it; scrypt always on it (a worker). */
export const TYPAGE_RUNNERS: AgeRunners = {
  runner: lazyRunner,
  scrypt: async (passphrase, salt, N) => (await loadPool()).scrypt(passphrase, salt, N),
};

/** The stream calls' code (streams.ts: the coders, pulled streams), imported the first time a call is given a stream. */
// biome-ignore format: the parentheses keep Vite's preload helper out (age/keys.ts)
export const streamCode = () => import(('./streams.js'));
