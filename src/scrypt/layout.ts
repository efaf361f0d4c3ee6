/**
 * The scrypt kernel's memory for one lane (kernel.ts): N + 2 slots of
 * 128 * r bytes, V in slots 0..N-1 and X with its BlockMix in slots N and
 * N + 1. It grows with the call; nothing of it is fixed.
 */

/** Bytes of a slot: one BlockMix input or output, 2r Salsa20 blocks of 64 bytes (RFC 7914 §4). */
export const slotBytes = (r: number): number => 128 * r;

/** Bytes of a lane's memory: V and the two slots of X. */
export const laneBytes = (N: number, r: number): number => slotBytes(r) * (N + 2);

/** The slot where ROMix's result is once both loops ran (kernel.ts mix: X ends in slot N). */
export const resultSlot = (N: number): number => N;
