/**
 * The model of a fourfold/parallel call and the speedup it projects on more
 * cores than this machine has (docs/contributing/benchmarks.md, "The model"):
 *
 *   O = C + m·B/P,  V = (W - A)/(n - 1),  x = (V - O)/(W + V - O) (0 when O ≥ V),
 *   T(n) = x·W + (1 - x)·O + K,  speedup(n) = W / T(n);  serial (CBC): T = max(W - A, O) + K.
 *
 * Variants (libraries.ts): a new output (A its first touch), a reused one
 * (A = 0), shared memory in and out (C = 0).
 */

/** How the call's arrays are passed: a new output, a reused one, or SharedArrayBuffers in and out. */
export type Variant = 'new' | 'reused' | 'shared';

/** What the calling thread copies per byte of input, by op (docs/parallel.md, "What each primitive does"). */
export interface CopyPasses {
  /** Passes over the input into slots: 2 for an AEAD decryption into the caller's output, which checks the tag before it decrypts. */
  readonly in: number;
  /** Passes over slots into the output: 0 for a MAC or a hash, whose result is a few bytes. */
  readonly out: number;
  /** The pieces run one after another on one worker (CBC encryption). */
  readonly serial?: boolean;
}

export function copyPasses(op: string, variant: Variant = 'new'): CopyPasses {
  if (variant === 'shared') return { in: 0, out: 0, serial: op === 'serpent-cbc-encrypt' };
  if (op === 'poly1305' || op.startsWith('blake3')) return { in: 1, out: 0 };
  if (op === 'serpent-cbc-encrypt') return { in: 1, out: 1, serial: true };
  // Into the call's own output one pass; into the caller's, a first pass for the tag (docs/parallel.md).
  if (op.endsWith('poly1305-decrypt')) return { in: variant === 'reused' ? 2 : 1, out: 1 };
  return { in: 1, out: 1 };
}

/** The costs of one op at one size, in ms (per byte and per job as measured, scaled to the size). */
export interface Costs {
  /** The synchronous call. */
  readonly w: number;
  /** The calling thread's copies for the whole input (C), the output's allocation and first touch included. */
  readonly copies: number;
  /** Of those, the output's allocation and first touch (A), which W also includes. */
  readonly touch: number;
  /** Its messages for the whole input (m·B/P). */
  readonly messages: number;
  /** Its other costs of working in pieces (K). */
  readonly pieces: number;
  readonly serial?: boolean;
}

/** The model's time of a call on `cores` cores (the calling thread and cores - 1 workers), in ms. */
export function projectedMs(k: Costs, cores: number): number {
  const overhead = k.copies + k.messages;
  if (cores <= 1) return k.w + k.pieces;
  if (k.serial === true) return Math.max(k.w - k.touch, overhead) + k.pieces;
  const workers = (k.w - k.touch) / (cores - 1);
  const x = overhead >= workers ? 0 : (workers - overhead) / (k.w + workers - overhead);
  return x * k.w + (1 - x) * overhead + k.pieces;
}

export const projectedSpeedup = (k: Costs, cores: number): number => k.w / projectedMs(k, cores);

/** The simple bound on the speedup on `cores` cores: W / max((W + C)/n, C); a serial call's is W / max(W, C). */
export function boundSpeedup(k: Costs, cores: number): number {
  if (k.serial === true) return k.w / Math.max(k.w, k.copies);
  return k.w / Math.max((k.w + k.copies) / cores, k.copies);
}
