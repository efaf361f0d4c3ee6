/**
 * Bytes of input from which node:crypto (native.ts) is faster than
 * fourfold's own tier, per runtime, tier and operation: the smallest size
 * from which OpenSSL won at every larger size, as `npm run
 * bench:crossovers` measured them on a 2-core AMD EPYC (AVX-512) and
 * printed this table (docs/performance.md has its ratios). Below them a
 * call into node:crypto costs more than fourfold's whole work.
 */
import { RUNTIME } from '../runtime/native.js';

export interface Crossover {
  /** chacha20poly1305 encrypt and decrypt (plaintext bytes; ciphertext without its tag). */
  readonly seal: number;
  readonly open: number;
  /** xchacha20poly1305's. */
  readonly xseal: number;
  readonly xopen: number;
  /** chacha20 (and chacha20orig) and xchacha20. */
  readonly chacha20: number;
  readonly xchacha20: number;
}

type Table = Readonly<Record<string, Readonly<Record<'simd' | 'js', Crossover>>>>;

const MEASURED: Table = {
  node20: {
    simd: { seal: 5968, open: 4224, xseal: 8448, xopen: 8448, chacha20: 5968, xchacha20: 8448 },
    js: { seal: 368, open: 256, xseal: 368, xopen: 368, chacha20: 128, xchacha20: 1488 },
  },
  node26: {
    simd: { seal: 8448, open: 4224, xseal: 4224, xopen: 4224, chacha20: 4224, xchacha20: 5968 },
    js: { seal: 1056, open: 96, xseal: 752, xopen: 528, chacha20: 2112, xchacha20: 2112 },
  },
  deno: {
    simd: { seal: 5968, open: 5968, xseal: 16896, xopen: 4224, chacha20: 5968, xchacha20: 5968 },
    js: { seal: 64, open: 64, xseal: 64, xopen: 64, chacha20: 1056, xchacha20: 2112 },
  },
};

/** The Node release measured nearest to `major` (the newest not after it, else the oldest): V8 and OpenSSL change slowly between them. */
function nearestNode(major: number): string | undefined {
  const measured = Object.keys(MEASURED)
    .filter((k) => /^node\d+$/.test(k))
    .map((k) => Number(k.slice(4)))
    .sort((a, b) => a - b);
  const below = measured.filter((m) => m <= major);
  const pick = below.length > 0 ? below[below.length - 1] : measured[0];
  return pick === undefined ? undefined : `node${pick}`;
}

/** The crossovers of this runtime for calls that would run on `tier`; undefined where none was measured (Bun). */
export function crossoverFor(tier: 'simd' | 'js'): Crossover | undefined {
  if (RUNTIME === undefined) return undefined;
  const key = RUNTIME.startsWith('node') ? nearestNode(Number(RUNTIME.slice(4))) : RUNTIME;
  return key === undefined ? undefined : MEASURED[key]?.[tier];
}
