/**
 * A hasher's final chain value h, any 16..64 bytes of it, whatever digest
 * length its parameter block names: libsodium's crypto_generichash_final
 * reads it so (blake2b_final copies `outlen` bytes of h), and
 * fourfold/sodium gives its bytes. fourfold/blake2's hasher returns its
 * digest length only; the rest it gives by a method under this symbol,
 * which fourfold/blake2's public API does not export.
 */

/** The key of Blake2b's method that writes the first out.length bytes of its final h into `out`. */
export const READ_CHAIN: unique symbol = Symbol('blake2b final chain value');

/** index.ts's Blake2b, as this file calls it. */
interface ChainReader {
  [READ_CHAIN](out: Uint8Array): void;
}

/** The first `length` bytes (16..64) of a Blake2b's final h; the hasher is destroyed, as by digest(). */
export function finalChain(hasher: ChainReader, length: number): Uint8Array {
  const out = new Uint8Array(length);
  hasher[READ_CHAIN](out);
  return out;
}
