/**
 * What a tier ('simd' or 'js') provides for BLAKE3. The public API
 * (index.ts) validates arguments, keeps the last chunk of an incremental
 * input (the one that may become the root) and the XOF position, and picks
 * the engine of the active tier; engines trust their arguments.
 *
 * The pieces are the ones a parallel hasher needs too: `subtree` hashes a
 * range of whole chunks to one chaining value anywhere (a worker), and
 * `push` adds such a value to a tree state (the merging side).
 */

/**
 * The tree of an input being absorbed, as both tiers keep it between
 * calls: the key words, the mode flags, the chunk counter and the stack of
 * chaining values of complete subtrees (32 bytes each, little-endian words).
 */
export interface TreeState {
  /** The key words as 32 little-endian bytes: the IV, the key (keyed_hash) or the context key (derive_key). */
  readonly key: Uint8Array;
  /** KEYED_HASH, DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL or 0 (layout.ts). */
  readonly flags: number;
  /** Index of the next chunk: the chunks absorbed so far, plus `base`. */
  chunks: number;
  /** The chunk the tree starts at: 0 for a whole input, a subtree's first chunk otherwise. */
  base: number;
  /** Entries on `stack`. */
  depth: number;
  /** MAX_DEPTH entries of 32 bytes; an empty array while depth is 0 (engines allocate it when they push). */
  stack: Uint8Array;
}

/**
 * The root node: chaining value (32 bytes), block (64), block length and
 * flags (little-endian words), ROOT_BYTES in all (layout.ts ROOT..).
 * Output block t is its compression with counter t.
 */
export type RootNode = Uint8Array;

export interface Blake3Engine {
  /**
   * The first `length` output bytes of a whole input, in `out` when given
   * (`length` bytes: a long output the caller allocated before any work),
   * else in a new array; no key means the IV (the hash mode).
   */
  hash(key: Uint8Array | undefined, flags: number, data: Uint8Array, length: number, out?: Uint8Array): Uint8Array;

  /**
   * Absorbs whole chunks (data.length a multiple of 1024, none of them the
   * input's last chunk), after those of `head` (whole chunks too, at most
   * a slice) when given: buffered input and the input that follows it in
   * one call, without joining them first.
   */
  update(state: TreeState, data: Uint8Array, head?: Uint8Array): void;

  /**
   * Adds the chaining value of a complete subtree of `chunks` chunks (a
   * power of two) that starts at chunk state.chunks (a multiple of
   * `chunks` counted from state.base), as `subtree` computes it.
   */
  push(state: TreeState, cv: Uint8Array, chunks: number): void;

  /**
   * The root node of the tree with `last` as its final chunk (1..1024
   * bytes; 0 only when no chunk came before), written to `root`; and, when
   * `block0` (64 bytes) is given, the first output block into it, in the
   * same call (a digest then costs one).
   */
  finish(state: TreeState, last: Uint8Array, root: RootNode, block0?: Uint8Array): void;

  /**
   * Output blocks `counter`, `counter + 1`, ... of `root` into `out` (a
   * final partial block is cut). The counter is 64 bits: a number below
   * 2^53, or a bigint (b3sum --seek reaches 2^58).
   */
  output(root: RootNode, counter: number | bigint, out: Uint8Array): void;

  /**
   * The (non-root) chaining value, into `out` (32 bytes), of the subtree of
   * data.length / 1024 whole chunks (a power of two) starting at chunk
   * `counter` (a multiple of that power).
   */
  subtree(key: Uint8Array, flags: number, data: Uint8Array, counter: number, out: Uint8Array): void;
}
