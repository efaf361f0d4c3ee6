/**
 * Linear memory of the BLAKE3 kernel module, shared by its generator
 * (kernel.ts) and the runtime side (simd.ts). Everything the kernel touches
 * is secret (the key in keyed mode, chaining values, data) and is wiped
 * before each call returns: [0, BUFFER + the bytes a call used) and, when
 * the call built a tree, [TREE, TREE + TREE_BYTES).
 *
 * The tree state (KEY .. STACK) is what an incremental hasher keeps
 * between calls; the JavaScript side copies it in and out.
 */

/** The key words: the IV, the 32-byte key (keyed_hash) or the context key (derive_key). */
export const KEY = 0;
/** Mode flags OR-ed into every compression (KEYED_HASH, DERIVE_KEY_*), one i32. */
export const FLAGS = 32;
/** Chaining values on the stack, one i32. */
export const DEPTH = 36;
/** Index of the next chunk (the chunk counter), i64. */
export const COUNTER = 40;
/** The chunk index the tree being built starts at (0 for a whole input; a subtree's first chunk), i64. */
export const BASE = 48;
/** The next output block of the root (the XOF counter), i64. */
export const OUTPUT = 56;
/**
 * The root node, whose compressions with counters 0, 1, ... are the
 * output: its input chaining value (32 bytes), block (64), block length
 * and flags (ROOT included), as kernel finish() leaves them.
 */
export const ROOT = 64;
export const ROOT_CV = ROOT;
export const ROOT_BLOCK = ROOT + 32;
export const ROOT_LENGTH = ROOT + 96;
export const ROOT_FLAGS = ROOT + 100;
/** Bytes of the root node as JavaScript keeps it. */
export const ROOT_BYTES = 104;
/** 64 bytes of scratch: the last chunk's chaining value on its way to the root. */
export const BLOCK = 192;
/** Input slices are copied here (output blocks are written here too). */
export const BUFFER = 256;
/** Bytes per slice: whole 1 KiB chunks. */
export const SLICE = 32768;
/** Start of what only calls that build a tree use (so short calls need not wipe it). */
export const TREE = BUFFER + SLICE;
/** Chaining values of a slice's chunks, merged in place subtree by subtree, level by level. */
export const CVS = TREE;
export const CVS_BYTES = 32 * (SLICE / 1024);
/**
 * The chaining-value stack (32 bytes an entry). A tree of n chunks keeps at
 * most popcount(n) + 1 entries: 54 below 2^53 chunks, the most a JavaScript
 * number counts exactly.
 */
export const STACK = CVS + CVS_BYTES;
export const MAX_DEPTH = 56;
export const STACK_BYTES = 32 * MAX_DEPTH;
export const TREE_BYTES = CVS_BYTES + STACK_BYTES;
/**
 * 64 KiB pages, fixed. (A last 4-wide group of a slice's chunks may have
 * spare lanes: they read the buffer past the data, never past the slice,
 * and their CVs go to CVS entries below SLICE / 1024 that are never used.)
 */
export const PAGES = Math.ceil((TREE + TREE_BYTES) / 65536);

/** Flags of the compression function's last word (the BLAKE3 paper, §2.1, Table 3). */
export const CHUNK_START = 1;
export const CHUNK_END = 2;
export const PARENT = 4;
export const ROOT_FLAG = 8;
export const KEYED_HASH = 16;
export const DERIVE_KEY_CONTEXT = 32;
export const DERIVE_KEY_MATERIAL = 64;

/** The IV: the first 32 bits of the fractional parts of the square roots of the first 8 primes (as SHA-256's). */
export const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19] as const;
/** The IV as a key: its words as little-endian bytes (the hash mode's key). */
export const IV_BYTES: Uint8Array = new Uint8Array(32);
for (let i = 0; i < 32; i++) IV_BYTES[i] = IV[i >>> 2] >>> (8 * (i & 3));
/** The message word permutation applied between rounds. */
export const PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8] as const;
/** SCHEDULE[r][j]: the message word that position j of round r reads (the permutation applied r times). */
export const SCHEDULE: readonly (readonly number[])[] = (() => {
  const rounds: number[][] = [[...Array(16).keys()]];
  for (let r = 1; r < 7; r++) rounds.push(PERMUTATION.map((p) => rounds[r - 1][p]));
  return rounds;
})();
