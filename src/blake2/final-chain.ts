/**
 * A hasher's final chain value h, any 1..64 bytes of it, whatever digest
 * length its parameter block names: libsodium's crypto_generichash_final
 * reads it so (blake2b_final copies `outlen` bytes of h), and
 * fourfold/sodium gives its bytes. fourfold/blake2's hasher returns its
 * digest length only; index.ts registers here the one reader of the rest,
 * so that it stays out of fourfold/blake2's public API.
 */

/** index.ts's Blake2b, named here by shape alone: this file imports nothing of index.ts. */
type Hasher = object;

let reader: ((hasher: Hasher, out: Uint8Array) => void) | undefined;

/** index.ts's registration, once, as it defines Blake2b. */
export function registerChainReader(read: (hasher: Hasher, out: Uint8Array) => void): void {
  reader = read;
}

/** The first `length` bytes (1..64) of a Blake2b's final h; the hasher is destroyed, as by digest(). */
export function finalChain(hasher: Hasher, length: number): Uint8Array {
  const out = new Uint8Array(length);
  reader?.(hasher, out);
  return out;
}
