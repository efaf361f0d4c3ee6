/**
 * Serpent's S-boxes as the specification lists them (Anderson, Biham,
 * Knudsen, "Serpent: A Proposal for the Advanced Encryption Standard",
 * appendix A.5). Only the circuit derivation (scripts/serpent-sboxes.ts)
 * and the tests read these tables: the cipher itself never indexes a table
 * with secret data, it evaluates the Boolean circuits of sboxes.ts.
 */
export const SBOXES: readonly (readonly number[])[] = [
  [3, 8, 15, 1, 10, 6, 5, 11, 14, 13, 4, 2, 7, 0, 9, 12],
  [15, 12, 2, 7, 9, 0, 5, 10, 1, 11, 14, 8, 6, 13, 3, 4],
  [8, 6, 7, 9, 3, 12, 10, 15, 13, 1, 14, 4, 0, 11, 5, 2],
  [0, 15, 11, 8, 12, 9, 6, 3, 13, 1, 2, 4, 10, 7, 5, 14],
  [1, 15, 8, 3, 12, 0, 11, 6, 2, 5, 4, 10, 9, 14, 7, 13],
  [15, 5, 2, 11, 4, 10, 9, 12, 0, 3, 14, 8, 13, 6, 7, 1],
  [7, 2, 12, 5, 8, 4, 6, 11, 14, 9, 1, 15, 13, 3, 10, 0],
  [1, 13, 15, 0, 14, 8, 2, 11, 7, 4, 12, 10, 9, 3, 5, 6],
];

/** The inverse permutation of a 4-bit S-box. */
export function inverse(table: readonly number[]): number[] {
  // constant-time: public table: the specification's S-boxes, constants (only the circuit search and the tests call this).
  const out = new Array<number>(16);
  table.forEach((y, x) => {
    out[y] = x;
  });
  return out;
}

/** PHI, the fractional part of the golden ratio, in the key schedule (§2.2); both tiers use it. */
export const PHI = 0x9e3779b9 | 0;
