import { createHash } from 'node:crypto';

/**
 * Deterministic pseudo-random bytes named by a label. Every library of a
 * case reads the same inputs, so their outputs can be compared byte for
 * byte, and a rerun measures exactly the same data. SHAKE256 is used only
 * because node:crypto offers it as an expandable generator in one call.
 */
export function bytes(label: string, length: number): Uint8Array {
  if (length === 0) return new Uint8Array(0);
  const digest = createHash('shake256', { outputLength: length }).update(label).digest();
  // Copy out of the Buffer into a plain Uint8Array that owns its memory:
  // some libraries take a slower path for Buffers or views into a pool.
  return new Uint8Array(digest);
}
