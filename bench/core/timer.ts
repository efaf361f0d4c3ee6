/**
 * The clock. performance.now() is the one timer every engine has (Node,
 * Deno, Bun, browsers, workers); browsers coarsen it (to 5 µs or more when
 * the page is cross-origin isolated, 100 µs to 1 ms otherwise), so the
 * harness measures its granularity and keeps every sample long against it.
 */

/** Milliseconds, as a double. */
export const now = (): number => performance.now();

let granularity: number | undefined;

/**
 * The smallest nonzero step between two readings, in nanoseconds, over a
 * few hundred steps (stopping after ~50 ms on a very coarse clock).
 * Measured once, on first use.
 */
export function timerGranularityNs(): number {
  if (granularity !== undefined) return granularity;
  let smallest = Infinity;
  const deadline = now() + 50;
  for (let i = 0; i < 500; i++) {
    const start = now();
    let next = start;
    while (next === start) next = now();
    smallest = Math.min(smallest, next - start);
    if (next > deadline) break;
  }
  return (granularity = smallest * 1e6);
}
