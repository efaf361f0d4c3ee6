/**
 * Argon2 (RFC 9106), the password hash OWASP recommends first: argon2id,
 * argon2i and argon2d, synchronous, and asynchronous in short turns that
 * leave the event loop free, with progress and an AbortSignal. The same
 * bytes as RFC 9106's reference, libsodium, Node's crypto.argon2 and
 * @noble/hashes, whose option names these take.
 */
import { type Argon2AsyncOpts, type Argon2Call, type Argon2Opts, type Argon2Type, argon2Call, ASYNC_OPTIONS, forget, SYNC_OPTIONS } from './args.js';
import { Fill, FirstBlocks, inPieces, LastBlocks, ProgressReport } from './fill.js';
import type { Argon2Memory } from './engine.js';
import { engine } from './tiers.js';
import { argon2Kernel } from './wasm.js';
import { sharedTicker } from '../pool/turns.js';
import { throwIfAborted } from '../runtime/assert.js';
import { type Bytes, zeroize } from '../runtime/bytes.js';
import { kernelCompiled } from '../runtime/kernels.js';

export type { Argon2AsyncOpts, Argon2Opts } from './args.js';

/** Bytes of memory wiped per turn once the tag is made: a few milliseconds' work. */
const WIPE_STEP = 16 * 2 ** 20;

function argon2(type: Argon2Type, password: unknown, salt: unknown, opts: unknown): Bytes {
  const c = argon2Call(type, password, salt, opts, SYNC_OPTIONS);
  try {
    const memory = engine().open(c, c.type);
    let first: FirstBlocks | undefined;
    const last = new LastBlocks(c, memory);
    try {
      first = new FirstBlocks(c, memory);
      for (const steps of [first, new Fill(c, memory), last]) steps.step(Number.POSITIVE_INFINITY);
      return last.tag();
    } finally {
      first?.forget();
      last.forget();
      memory.abandon();
    }
  } finally {
    forget(c);
  }
}

/**
 * A checked call computed on this thread in turns of about tickMs, the
 * event loop free between them, with progress and its signal; the caller
 * forgets the call's arguments. Every stage goes in turns (the lanes'
 * first blocks cost 62 BLAKE2b compressions a lane, seconds at thousands
 * of lanes), and the signal is looked at after each. Waits for the kernel
 * to compile where it compiles in the background (a page's main thread).
 * `told`: the progress a first try already told (fourfold/parallel's,
 * started again here), below which this one tells nothing.
 */
export async function inTurns(c: Argon2Call, told = 0): Promise<Bytes> {
  throwIfAborted(c.signal);
  await kernelCompiled(argon2Kernel);
  throwIfAborted(c.signal);
  const turns = sharedTicker(c.signal);
  // Its memory and first piece in a turn of its own: calls made at once (a burst of logins) do not all start in one.
  await turns.tick();
  throwIfAborted(c.signal);
  const memory = engine().open(c, c.type);
  let first: FirstBlocks | undefined;
  const last = new LastBlocks(c, memory);
  try {
    first = new FirstBlocks(c, memory);
    const progress = new ProgressReport(c, told);
    const between = async (work: number): Promise<void> => {
      progress.add(work);
      await turns.tick();
      throwIfAborted(c.signal);
    };
    for (const steps of [first, new Fill(c, memory), last]) await inPieces(steps, c.tickMs, between);
    const key = last.tag();
    try {
      while (!memory.wipe(WIPE_STEP)) await turns.tick();
      c.onProgress?.(1);
    } catch (e) {
      // A turn that failed (a host's primitive threw) or a throwing onProgress: the tag is not given, so it is wiped.
      zeroize(key);
      throw e;
    }
    return key;
  } finally {
    first?.forget();
    last.forget();
    turns.close();
    await wipeInTurns(memory);
  }
}

/**
 * Wipes what is left of an asynchronous call's memory (all it wrote
 * where the call failed or was aborted; fourfold/parallel's too), in
 * pieces with the event loop free between them: turns of their own, as
 * the call's give no turn once its signal aborted. Where a turn fails (a
 * host's primitive threw), the rest is wiped at once and the failure
 * thrown.
 */
export async function wipeInTurns(memory: Argon2Memory): Promise<void> {
  if (memory.wipe(WIPE_STEP)) return;
  const turns = sharedTicker();
  try {
    do await turns.tick();
    while (!memory.wipe(WIPE_STEP));
  } finally {
    turns.close();
    memory.abandon();
  }
}

async function argon2Async(type: Argon2Type, password: unknown, salt: unknown, opts: unknown): Promise<Bytes> {
  const c = argon2Call(type, password, salt, opts, ASYNC_OPTIONS);
  try {
    return await inTurns(c);
  } finally {
    forget(c);
  }
}

/**
 * Argon2id of `password` with `salt` (RFC 9106): a tag of `dkLen` bytes
 * (default 32), the password hash to choose. Strings are taken as their
 * UTF-8 bytes, as given (apply `normalize('NFC')` first where the same
 * password may come in another Unicode form). It takes m KiB of memory and
 * t passes over it: docs/api.md#choosing-m-and-t says how to choose them.
 *
 * @example
 * ```ts
 * import { argon2id } from 'fourfold/argon2';
 * const salt = crypto.getRandomValues(new Uint8Array(16)); // stored beside what the key protects
 * const key = argon2id('correct horse battery staple', salt, { t: 2, m: 19456 }); // OWASP's: 19 MiB, 2 passes
 * ```
 */
export function argon2id(password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2Opts): Bytes {
  return argon2('argon2id', password, salt, opts);
}

/** Argon2i (RFC 9106): argon2id's arguments; memory read at addresses independent of the password in every pass. */
export function argon2i(password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2Opts): Bytes {
  return argon2('argon2i', password, salt, opts);
}

/** Argon2d (RFC 9106): argon2id's arguments; memory read at addresses that depend on the password from the first block (for uses where no one can time the machine). */
export function argon2d(password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2Opts): Bytes {
  return argon2('argon2d', password, salt, opts);
}

/**
 * argon2id as argon2id() computes it, on this thread in turns of a few
 * milliseconds (`asyncTick`, default 8) with the event loop free between
 * them (a page stays responsive); `onProgress` is told the fraction done
 * (throttled to every 1/1000 of the work), and `signal` stops it with its
 * reason. Waits for the kernel to compile where it is compiled in the
 * background (a page's main thread) rather than run on the js tier. For
 * the work on another core, see fourfold/parallel's argon2id.
 *
 * @example
 * ```ts
 * import { argon2idAsync } from 'fourfold/argon2';
 * const key = await argon2idAsync(password, salt, { t: 3, m: 65536, onProgress: (f) => (bar.value = f) });
 * ```
 */
export function argon2idAsync(password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2AsyncOpts): Promise<Bytes> {
  return argon2Async('argon2id', password, salt, opts);
}

/** argon2i in turns, as argon2idAsync. */
export function argon2iAsync(password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2AsyncOpts): Promise<Bytes> {
  return argon2Async('argon2i', password, salt, opts);
}

/** argon2d in turns, as argon2idAsync. */
export function argon2dAsync(password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2AsyncOpts): Promise<Bytes> {
  return argon2Async('argon2d', password, salt, opts);
}
