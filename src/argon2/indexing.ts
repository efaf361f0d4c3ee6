/**
 * Which block a new block takes as its reference (RFC 9106 §3.4), for the
 * js tier (the kernel computes the same in WebAssembly, kernel.ts). J1 and
 * J2 are the two halves of a 64-bit pseudo-random value: from a block of
 * addresses in argon2i and argon2id's first half pass (data-independent),
 * else the previous block's first word (data-dependent). The arithmetic
 * does not branch on them.
 */
import { type Argon2Type, SLICES, type Shape, TYPES } from './layout.js';

/** Whether segment (pass, slice) takes its J1, J2 from blocks of addresses (§3.4.1.2), not from its data (§3.4.1.1). */
export const usesAddresses = (type: Argon2Type, pass: number, slice: number): boolean =>
  TYPES[type] === TYPES.argon2i || (TYPES[type] === TYPES.argon2id && pass === 0 && slice < SLICES / 2);

/**
 * The block (lane * q + column) that block `i` of segment (pass, slice,
 * lane) references, from its J1 and J2 (§3.4.1.3 and §3.4.2).
 */
export function referenceIndex(s: Shape, pass: number, slice: number, lane: number, i: number, j1: number, j2: number): number {
  const first = pass === 0 && slice === 0;
  // §3.4.1.3: l = J2 mod p, but the current lane in the first slice of the first pass.
  const refLane = first ? lane : modulo(j2, s.p);
  const same = Number(refLane === lane);
  // §3.4.2: the blocks W may reference: every finished block of the lane's other segments (all of them after the first pass), and in the same lane those of this segment but the previous one.
  const finished = pass === 0 ? slice * s.segmentLength : s.laneLength - s.segmentLength;
  const area = finished + same * (i - 1) + (1 - same) * -Number(i === 0);
  // J1 mapped onto W, denser near its end: x = J1^2 / 2^32, y = |W| * x / 2^32, zz = |W| - 1 - y.
  const x = mulHigh(j1, j1);
  const relative = area - 1 - mulHigh(area, x);
  const start = pass === 0 || slice === SLICES - 1 ? 0 : (slice + 1) * s.segmentLength;
  const column = start + relative;
  const wrapped = column - s.laneLength * Number(column >= s.laneLength);
  return refLane * s.laneLength + wrapped;
}

/** floor(a * b / 2^32) for 32-bit a and b, from 16-bit halves (each partial product exact in a double). */
function mulHigh(a: number, b: number): number {
  const al = a & 0xffff,
    ah = a >>> 16,
    bl = b & 0xffff,
    bh = b >>> 16;
  const ll = al * bl,
    lh = al * bh,
    hl = ah * bl;
  const mid = (ll >>> 16) + (lh & 0xffff) + (hl & 0xffff);
  return ah * bh + (lh >>> 16) + (hl >>> 16) + (mid >>> 16);
}

/**
 * x mod n for 32-bit x and n, without a divider: the quotient from a
 * product by 1 / n (within one of the true one: the product is within
 * 2^-20 of x / n), then one masked correction each way.
 */
function modulo(x: number, n: number): number {
  let r = x - ((x * (1 / n)) >>> 0) * n;
  r += n & -Number(r < 0);
  return r - (n & -Number(r >= n));
}
