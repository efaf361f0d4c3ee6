/**
 * Poly1305 in pieces (fourfold/parallel): each piece's polynomial computed
 * apart, by a worker or the calling thread, and appended in order to a
 * PolynomialSum (combine.ts), from which the tag follows.
 * parallel/poly1305.ts uses it for the MAC, and the AEADs' pieces (src/aead/) for their tags.
 */
import type { PolynomialSum } from './combine.js';
import { blocksOf, copyPolynomialHere, polynomialOf, type PolynomialJob } from './polynomial.js';
import { engine as polyHere } from './tiers.js';
import type { PoolWorker } from '../pool/pool-worker.js';
import { transform, type Part } from '../pool/transform.js';

/** The first 16 bytes of a Poly1305 key and 16 zero bytes: what a piece's polynomial needs (r), without s. */
export const rOnly = (oneTimeKey: Uint8Array): Uint8Array => {
  const k = new Uint8Array(32);
  k.set(oneTimeKey.subarray(0, 16));
  return k;
};

/** Wipes the pieces' results (polynomials). */
export function wipeParts(parts: readonly Part[]): void {
  for (const p of parts) p.result?.fill(0);
}

/** Appends the pieces' polynomials to `sum`, in order, and wipes them. */
export function appendParts(sum: PolynomialSum, parts: readonly Part[]): void {
  for (const p of parts) sum.append(p.result!, blocksOf(p.length));
  wipeParts(parts);
}

/** The polynomial of `data` on this thread (an aad, a length block), appended to `sum`. */
export function appendHere(sum: PolynomialSum, oneTimeKey: Uint8Array, data: Uint8Array, zeroPad: boolean): void {
  const h = polynomialOf(polyHere(), oneTimeKey, data, zeroPad);
  sum.append(h, blocksOf(data.length));
  h.fill(0);
}

/**
 * Appends the polynomial of `data` to `sum` (under the r of `oneTimeKey`,
 * padded as polynomialOf's `zeroPad` says), and resolves to the pieces
 * with their polynomials, kept for a second pass to check against (the
 * caller wipes them: wipeParts). With `copyTo`, `data` is also copied
 * there, each piece from the one read its polynomial came from.
 */
export async function polynomialPieces(
  oneTimeKey: Uint8Array,
  zeroPad: boolean,
  sum: PolynomialSum,
  data: Uint8Array,
  workers: readonly PoolWorker[],
  copyTo?: Uint8Array,
): Promise<Part[]> {
  const copy = copyTo !== undefined;
  const parts = await transform<{ 'poly1305.polynomial': PolynomialJob }, 'poly1305.polynomial'>(
    {
      op: 'poly1305.polynomial',
      align: 64,
      readsTwice: copy,
      params: () => ({ key: rOnly(oneTimeKey), zeroPad: zeroPad ? 1 : 0, copy: copy ? 1 : 0 }),
      onThisThread: (i, o) => (o === undefined ? polynomialOf(polyHere(), oneTimeKey, i, zeroPad) : copyPolynomialHere()(oneTimeKey, zeroPad, i, o)),
    },
    data,
    copyTo,
    workers,
  );
  for (const p of parts) sum.append(p.result!, blocksOf(p.length));
  return parts;
}
