/**
 * Poly1305 in fourfold/parallel: the message cut into pieces of whole
 * blocks, each piece's polynomial computed apart (by a worker or the
 * calling thread) and the pieces combined into the tag
 * (poly1305/combine.ts): bit for bit the tag of the synchronous poly1305.
 */
import { PolynomialSum } from '../poly1305/combine.js';
import { poly1305 as syncPoly1305, type Poly1305 } from '../poly1305/index.js';
import { polynomialPieces, wipeParts } from '../poly1305/pieces.js';
import { bytes } from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';
import { PARALLEL_MIN } from '../pool/transform.js';
import { workersFor } from './workers.js';

/** Poly1305 on all cores: resolves to the 16-byte tag fourfold's poly1305 returns for `message` under the 32-byte one-time `key`. */
export const poly1305: ((message: Uint8Array, key: Uint8Array) => Promise<Bytes>) & {
  /** The synchronous incremental Poly1305 (fourfold's poly1305.create). */
  create(key: Uint8Array): Poly1305;
} = Object.assign(
  async (message: Uint8Array, key: Uint8Array): Promise<Bytes> => {
    const m = bytes(message, 'message');
    const k = bytes(key, 'key', 32);
    if (m.length < PARALLEL_MIN) return syncPoly1305(m, k);
    const sum = new PolynomialSum(k);
    const keyCopy = k.slice();
    try {
      wipeParts(await polynomialPieces(keyCopy, false, sum, m, workersFor(m.length)));
      const tag = new Uint8Array(16);
      sum.tagInto(tag);
      return tag;
    } finally {
      sum.wipe();
      keyCopy.fill(0);
    }
  },
  { create: (key: Uint8Array): Poly1305 => syncPoly1305.create(key) },
);
