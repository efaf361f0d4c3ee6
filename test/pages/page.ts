/**
 * What the browser page tests share (test/pages/*.page.ts: each runs in a
 * fresh page of its own, see scripts/engines/test.ts): inputs, hex, and
 * waiting for something the page does in the background.
 */
import { engineHasSimd } from '../../scripts/engines/harness/simd.js';

/** Whether this engine runs WebAssembly SIMD, asked of the engine itself rather than of fourfold. */
export const HAS_SIMD = engineHasSimd();

/** The tier fourfold should reach here once its kernels are ready. */
export const BEST = HAS_SIMD ? 'simd' : 'js';

/** `n` bytes that differ with `seed`: inputs need no randomness here. */
export const pattern = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 97 + (i >> 8)) & 0xff);

export const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/**
 * Resolves once `condition()` holds, checking every 10 ms; rejects after
 * `limitMs` (a guard against a hang, not a timing: a background compile
 * takes milliseconds).
 */
export async function until(condition: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > limitMs) throw new Error(`gave up after ${limitMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
