/**
 * The clock: performance.now(), which every engine has and browsers coarsen
 * (5 µs isolated, up to 1 ms not), so samples are kept long against its step.
 */

/** Milliseconds, as a double. */
export const now = (): number => performance.now();

let granularity: number | undefined;

/** The smallest nonzero step between two readings in ns, over a few hundred steps (~50 ms at most), measured once. */
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
