/**
 * scrypt (RFC 7914), the password-based key derivation function of age's
 * passphrase files and libsodium's crypto_pwhash_scryptsalsa208sha256:
 * `scrypt` synchronous, `scryptAsync` in short turns that leave the
 * event loop free, with progress and an AbortSignal. The same bytes as
 * RFC 7914, Node's crypto.scrypt, libsodium and @noble/hashes.
 */
import { ASYNC_OPTIONS, compress, expand, forget, SYNC_OPTIONS, scryptCall, type ScryptAsyncOpts, type ScryptOpts } from './args.js';
import { deriveNow } from './derive.js';
import { LaneQueue, onThisThread } from './lanes.js';
import { throwIfAborted } from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';

export type { ScryptAsyncOpts, ScryptOpts } from './args.js';

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
  return deriveNow(scryptCall(password, salt, opts, SYNC_OPTIONS));
}

/** Time the calling thread works between two turns of the event loop: far from the 50 ms browsers count as a long task. */
const TURN_MS = 8;

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
  let B: Uint8Array | undefined;
  try {
    throwIfAborted(c.signal);
    B = expand(c);
    const q = new LaneQueue(c, B);
    await onThisThread(q, TURN_MS);
    const key = compress(c, B);
    c.onProgress?.(1);
    return key;
  } finally {
    forget(c, B);
  }
}
