/**
 * The checks every BLAKE3 entry point shares: the options (dkLen, key,
 * context) turned into the key words, the mode flags and the output
 * length (the BLAKE3 paper, §2.3 and §5: hash, keyed_hash and derive_key
 * differ only in those), and the one-shot hash of both APIs.
 */
import { DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL, IV_BYTES, KEYED_HASH } from './layout.js';
import { engine } from './tiers.js';
import * as check from '../runtime/assert.js';

/** BLAKE3's options (those of @noble/hashes' blake3): at most one of `key` and `context`. Any other property is refused (TypeError). */
export interface Blake3Opts {
  /** Output length in bytes (default 32); any length, the output being a stream (XOF). */
  dkLen?: number;
  /** keyed_hash, a MAC: a 32-byte key (a secret, not a password). */
  key?: Uint8Array;
  /**
   * derive_key: the context (a string, UTF-8 encoded, or its bytes); the
   * data is the key material. Hard-coded, globally unique and
   * application-specific, e.g. "[application] [commit timestamp] [purpose]".
   */
  context?: string | Uint8Array;
}

export const DEFAULT_LENGTH = 32;

export interface Mode {
  key: Uint8Array;
  flags: number;
  dkLen: number;
  /** Whether `key` is ours (a derived context key) and should be wiped after a one-shot call. */
  derived: boolean;
}

/** The options blake3() takes: Blake3Opts'. */
const OPTIONS = ['dkLen', 'key', 'context'];

/** The mode `opts` (Blake3Opts) asks for; `more` names the other options the caller reads itself (fourfold/parallel's blake3 reads `workers`). */
export function modeOf(opts: unknown, more: readonly string[] = []): Mode {
  if (opts === undefined) return { key: IV_BYTES, flags: 0, dkLen: DEFAULT_LENGTH, derived: false };
  // Each option read once, before any work.
  const { dkLen, key, context } = check.options(opts, 'opts', more.length === 0 ? OPTIONS : [...OPTIONS, ...more]) as Blake3Opts;
  const length = dkLen === undefined ? DEFAULT_LENGTH : check.count(dkLen, 'dkLen');
  if (key !== undefined && context !== undefined) throw new TypeError('opts: key (keyed_hash) and context (derive_key) are exclusive');
  if (key !== undefined) return { key: check.bytes(key, 'key', 32), flags: KEYED_HASH, dkLen: length, derived: false };
  if (context !== undefined) {
    let bytes: Uint8Array;
    if (typeof context === 'string') bytes = new TextEncoder().encode(context);
    else if (typeof context === 'object' && context !== null) bytes = check.bytes(context, 'context');
    else throw new TypeError(`context must be a string or a Uint8Array, got ${check.describe(context)}`);
    const contextKey = engine().hash(undefined, DERIVE_KEY_CONTEXT, bytes, 32);
    return { key: contextKey, flags: DERIVE_KEY_MATERIAL, dkLen: length, derived: true };
  }
  return { key: IV_BYTES, flags: 0, dkLen: length, derived: false };
}

/** One-shot outputs longer than this are allocated before hashing; shorter ones come out of the engine in one step. */
const ALLOCATE_FIRST = 1 << 16;

/**
 * The one-shot hash of `data` under `mode` (blake3(), and fourfold/parallel's
 * blake3 below PARALLEL_MIN); a derived key is wiped afterwards, whatever happens.
 */
export function hashOnce(mode: Mode, data: unknown): Uint8Array {
  try {
    const input = check.bytes(data, 'data');
    // A long output is allocated first: a length the engine cannot allocate fails before any work.
    const out = mode.dkLen > ALLOCATE_FIRST ? check.allocate(mode.dkLen, 'dkLen') : undefined;
    return engine().hash(mode.key, mode.flags, input, mode.dkLen, out);
  } finally {
    if (mode.derived) mode.key.fill(0);
  }
}
