/**
 * scrypt's synchronous derivation (RFC 7914 §6) of a call already checked:
 * scrypt() checks the options by the RFC's rules, fourfold/sodium's
 * crypto_pwhash_scryptsalsa208sha256_ll by libsodium's (args.ts
 * libsodiumCall).
 */
import { compress, expand, forget, type ScryptCall } from './args.js';
import type { ScryptEngine } from './engine.js';
import { slotBytes } from './layout.js';
import { engine } from './tiers.js';
import type { Bytes } from '../runtime/bytes.js';

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

/** The call's key, every lane on this thread at once; the call's copies of its inputs are wiped however it ends. */
export function deriveNow(c: ScryptCall): Bytes {
  const B = expand(c);
  try {
    const e = engine();
    for (let i = 0; i < c.p; i++) romixNow(e, c, B, i);
    return compress(c, B);
  } finally {
    forget(c, B);
  }
}
