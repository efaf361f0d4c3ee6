/**
 * Bytes of input from which node:crypto (native.ts) is faster than
 * fourfold's own tier, per processor maker, runtime, tier and operation:
 * the smallest size from which OpenSSL won at every larger size, as `npm
 * run bench:crossovers` measured them and printed these tables
 * (docs/performance.md has their ratios); an entry was moved where the
 * public calls, timed by `npm run bench` before and after the move in
 * turn, crossed elsewhere (those runs are in docs/results/). Below them
 * a call into node:crypto costs more than fourfold's whole work. The
 * makers differ 2-3x (OpenSSL's fixed cost per call against the kernels'
 * speed), so each has its table; on any other processor a call goes
 * native only from the larger of the two, where both measured OpenSSL
 * faster. That larger one alone, as one table per runtime, lost more
 * than 10% to these at some size on each runtime through the public
 * calls (docs/results/crossovers-2026-11-27-amd.txt), so each runtime
 * keeps a table per maker.
 */
import { cpuVendor, RUNTIME } from '../runtime/native.js';

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

const MEASURED: Readonly<Record<string, Table>> = {
  /** A 2-core AMD EPYC (Zen 5, AVX-512). */
  amd: {
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
  },
  /** A 2-core Intel Xeon (AVX-512). */
  intel: {
    node20: {
      simd: { seal: 10048, open: 5968, xseal: 13040, xopen: 11952, chacha20: 5024, xchacha20: 5968 },
      js: { seal: 1488, open: 128, xseal: 256, xopen: 128, chacha20: 2304, xchacha20: 1616 },
    },
    node26: {
      simd: { seal: 5968, open: 5968, xseal: 6512, xopen: 4608, chacha20: 2992, xchacha20: 5968 },
      js: { seal: 128, open: 64, xseal: 256, xopen: 80, chacha20: 2112, xchacha20: 2112 },
    },
    deno: {
      simd: { seal: 6512, open: 5024, xseal: 8448, xopen: 5968, chacha20: 4608, xchacha20: 6512 },
      js: { seal: 96, open: 64, xseal: 96, xopen: 64, chacha20: 3552, xchacha20: 432 },
    },
  },
};

/** The Node release measured nearest to `major` in `table` (the newest not after it, else the oldest): V8 and OpenSSL change slowly between them. */
function nearestNode(table: Table, major: number): string | undefined {
  const measured = Object.keys(table)
    .filter((k) => /^node\d+$/.test(k))
    .map((k) => Number(k.slice(4)))
    .sort((a, b) => a - b);
  const below = measured.filter((m) => m <= major);
  const pick = below.length > 0 ? below[below.length - 1] : measured[0];
  return pick === undefined ? undefined : `node${pick}`;
}

/** `runtime`'s row of `table` for `tier`. */
function rowOf(table: Table, runtime: string, tier: 'simd' | 'js'): Crossover | undefined {
  const key = runtime.startsWith('node') ? nearestNode(table, Number(runtime.slice(4))) : runtime;
  return key === undefined ? undefined : table[key]?.[tier];
}

/** Each operation's larger crossover of `rows`. */
function larger(rows: Crossover[]): Crossover | undefined {
  const [first, ...rest] = rows;
  if (first === undefined) return undefined;
  const out: Record<string, number> = { ...first };
  for (const row of rest) for (const [op, from] of Object.entries(row)) out[op] = Math.max(out[op]!, from);
  return out as unknown as Crossover;
}

/**
 * The crossovers of this runtime and processor (or those `where` names)
 * for calls that would run on `tier`; undefined where none was measured
 * (Bun).
 */
export function crossoverFor(tier: 'simd' | 'js', where?: { runtime: string | undefined; vendor: string | undefined }): Crossover | undefined {
  const runtime = where === undefined ? RUNTIME : where.runtime;
  if (runtime === undefined) return undefined;
  const vendor = where === undefined ? cpuVendor() : where.vendor;
  const table = vendor === undefined ? undefined : MEASURED[vendor];
  if (table !== undefined) return rowOf(table, runtime, tier);
  return larger(Object.values(MEASURED).flatMap((t) => rowOf(t, runtime, tier) ?? []));
}
