/**
 * scrypt (RFC 7914), the password-based key derivation function of age's
 * passphrase files and libsodium's crypto_pwhash_scryptsalsa208sha256:
 * `scrypt` synchronous, `scryptAsync` in short turns that leave the
 * event loop free, with progress and an AbortSignal. The same bytes as
 * RFC 7914, Node's crypto.scrypt, libsodium and @noble/hashes.
 */
import { ASYNC_OPTIONS, compress, expand, forget, SYNC_OPTIONS, scryptCall, type ScryptAsyncOpts, type ScryptCall, type ScryptOpts } from './args.js';
import type { RomixRun, ScryptEngine } from './engine.js';
import { slotBytes } from './layout.js';
import { engine } from './tiers.js';
import { scryptKernel } from './wasm.js';
import { throwIfAborted } from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';
import { now } from '../runtime/host.js';
import { kernelCompiled } from '../runtime/kernels.js';
import { ticker } from '../pool/turns.js';

export type { ScryptAsyncOpts, ScryptOpts } from './args.js';

/** Lane i's part of B (RFC 7914 §6: B_i, 128 * r bytes). */
const lane = (c: ScryptCall, B: Uint8Array, i: number): Uint8Array => B.subarray(i * slotBytes(c.r), (i + 1) * slotBytes(c.r));

/** ROMix of lane `i` in place, all at once. */
function romixNow(e: ScryptEngine, c: ScryptCall, B: Uint8Array, i: number): void {
  const run = e.romix(lane(c, B, i), c.N, c.r);
  try {
    run.step(2 * c.N);
    run.finish(lane(c, B, i));
  } finally {
    run.abandon();
  }
}

/**
 * scrypt of `password` with `salt` (RFC 7914 §6): a key of `dkLen` bytes
 * (default 32). Strings are taken as their UTF-8 bytes, as given (apply
 * `normalize('NFC')` first where the same password may come in another
 * Unicode form). It takes N * r * 128 bytes of memory and time in
 * proportion: docs/api.md#choosing-n says how to choose N.
 *
 * @example
 * ```ts
 * import { scrypt } from 'fourfold/scrypt';
 * const salt = crypto.getRandomValues(new Uint8Array(16)); // stored beside what the key protects
 * const key = scrypt('correct horse battery staple', salt, { N: 2 ** 17 }); // 32 bytes, 128 MiB
 * ```
 */
export function scrypt(password: string | Uint8Array, salt: string | Uint8Array, opts: ScryptOpts): Bytes {
  const c = scryptCall(password, salt, opts, SYNC_OPTIONS);
  const B = expand(c);
  try {
    const e = engine();
    for (let i = 0; i < c.p; i++) romixNow(e, c, B, i);
    return compress(c, B);
  } finally {
    forget(c, B);
  }
}

/** Time the calling thread works between two turns of the event loop: far from the 50 ms browsers count as a long task. */
const TURN_MS = 8;

/** Iterations in one step: about TURN_MS at the speed seen so far. */
class StepClock {
  private iterations = 0;
  private ms = 0;

  time(run: RomixRun, count: number): void {
    const t0 = now();
    const before = run.done;
    run.step(count);
    this.ms += now() - t0;
    this.iterations += run.done - before;
  }

  next(): number {
    // Four iterations first: a whole BlockMix of the largest r takes well under a millisecond.
    return this.ms > 0 ? Math.max(1, Math.floor((this.iterations / this.ms) * TURN_MS)) : 4;
  }
}

/**
 * scrypt as scrypt() computes it, on this thread in turns of a few
 * milliseconds with the event loop free between them (a page stays
 * responsive); `onProgress` is told the fraction done after each turn
 * (throttled to every 1/1000 of the work), and `signal` stops it with its
 * reason. Waits for the kernel to compile where it is compiled in the
 * background (a page's main thread) rather than run on the js tier. For
 * several lanes (p > 1) on several cores, see fourfold/parallel's scrypt.
 *
 * @example
 * ```ts
 * import { scryptAsync } from 'fourfold/scrypt';
 * const key = await scryptAsync(password, salt, { N: 2 ** 17, onProgress: (f) => (bar.value = f) });
 * ```
 */
export async function scryptAsync(password: string | Uint8Array, salt: string | Uint8Array, opts: ScryptAsyncOpts): Promise<Bytes> {
  const c = scryptCall(password, salt, opts, ASYNC_OPTIONS);
  const turns = ticker();
  let run: RomixRun | undefined;
  let B: Uint8Array | undefined;
  try {
    throwIfAborted(c.signal);
    await kernelCompiled(scryptKernel);
    throwIfAborted(c.signal);
    B = expand(c);
    const total = 2 * c.N * c.p;
    const clock = new StepClock();
    let reported = -1;
    for (let i = 0; i < c.p; i++) {
      run = engine().romix(lane(c, B, i), c.N, c.r);
      while (run.done < 2 * c.N) {
        clock.time(run, clock.next());
        const fraction = (2 * c.N * i + run.done) / total;
        if (c.onProgress !== undefined && fraction < 1 && fraction - reported >= 0.001) {
          reported = fraction;
          c.onProgress(fraction);
        }
        await turns.tick();
        throwIfAborted(c.signal);
      }
      run.finish(lane(c, B, i));
      run = undefined;
    }
    const key = compress(c, B);
    c.onProgress?.(1);
    return key;
  } finally {
    run?.abandon();
    turns.close();
    forget(c, B);
  }
}
