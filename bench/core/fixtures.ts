/**
 * Deterministic inputs named by a label, the same bytes for every library,
 * engine and rerun: FNV-1a seeds xorshift32 (unstructured, not cryptographic).
 */

function seedOf(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash === 0 ? 1 : hash >>> 0; // xorshift never leaves 0
}

/** Fills `out` with the pseudo-random stream of `label`. */
export function fill(label: string, out: Uint8Array): Uint8Array {
  let x = seedOf(label);
  let i = 0;
  for (; i + 4 <= out.length; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x;
    out[i + 1] = x >>> 8;
    out[i + 2] = x >>> 16;
    out[i + 3] = x >>> 24;
  }
  for (; i < out.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x;
  }
  return out;
}

/** `length` bytes of `label`'s stream, in a Uint8Array that owns its buffer. */
export function bytes(label: string, length: number): Uint8Array {
  return fill(label, new Uint8Array(length));
}
