/**
 * BLAKE3 test support: the peers (@noble/hashes, hash-wasm), the official
 * vectors' input, random update splits, and a plain transcription of the
 * compression function from the BLAKE3 paper (arrays and loops, written
 * independently of src/blake3/js.ts) for what no peer can reach: output
 * blocks at counters of 2^32 and beyond.
 */
import assert from 'node:assert/strict';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { createBLAKE3, type IHasher } from 'hash-wasm';
import { ENGINE_COMPILES_WASM, randInt } from '../helpers.js';

export { nobleBlake3 };

export interface Vectors {
  key: string;
  context_string: string;
  cases: { input_len: number; hash: string; keyed_hash: string; derive_key: string }[];
}

/** The vectors' input: byte i is i mod 251. */
export const vectorInput = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => i % 251);

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Random update sizes summing to `len`, with empty, one-byte, chunk-sized and straddling pieces mixed in. */
export function randomSplit(len: number): number[] {
  const sizes: number[] = [];
  let left = len;
  while (left > 0) {
    const kind = randInt(8);
    const n =
      kind === 0
        ? 0
        : kind === 1
          ? 1
          : kind === 2
            ? 1024
            : kind === 3
              ? 64 * (1 + randInt(20)) + randInt(3) - 1
              : kind === 4
                ? 1024 * (1 + randInt(40)) + randInt(3) - 1
                : randInt(Math.min(left, 3000) + 1);
    const take = Math.min(Math.max(n, 0), left);
    sizes.push(take);
    left -= take;
  }
  sizes.push(0);
  return sizes;
}

// ---------------------------------------------------------------- hash-wasm

/**
 * hash-wasm is WebAssembly only. Where the engine has none (Hermes, node
 * --jitless) or compiles none from bytes (workerd), hashWasm and hashWasmSync compute @noble/hashes' BLAKE3
 * instead, so the tests keep an independent reference (as helpers.ts does
 * for node:crypto), and the checks of hash-wasm against noble, which would
 * then compare noble with itself, are left out (`HASH_WASM`).
 */
export const HASH_WASM: boolean = ENGINE_COMPILES_WASM;

let plain: IHasher | undefined;
const keyed = new Map<string, IHasher>();
const KEPT_HASHERS = 32;

/** Compiles hash-wasm's BLAKE3 (asynchronous); call in a `before` hook. */
export async function loadHashWasm(): Promise<void> {
  if (HASH_WASM) plain ??= await createBLAKE3(256);
}

/** hash-wasm's BLAKE3 (hash, or keyed_hash with `key`) of `data`, `length` bytes. */
export async function hashWasm(data: Uint8Array, length = 32, key?: Uint8Array): Promise<Uint8Array> {
  if (!HASH_WASM) return nobleBlake3(data, { dkLen: length, key });
  if (key === undefined && length === 32) return plain!.init().update(data).digest('binary');
  const id = `${length}:${key ? Buffer.from(key).toString('hex') : ''}`;
  let h = keyed.get(id);
  if (h === undefined) {
    // Each hasher is a WebAssembly instance with its own memory: a few dozen are kept, not one per key ever seen.
    if (keyed.size >= KEPT_HASHERS) keyed.delete(keyed.keys().next().value as string);
    keyed.set(id, (h = await createBLAKE3(8 * length, key)));
  }
  return h.init().update(data).digest('binary');
}

/** hash-wasm's plain 32-byte hash, synchronous (after loadHashWasm). */
export const hashWasmSync = (data: Uint8Array): Uint8Array => (HASH_WASM ? plain!.init().update(data).digest('binary') : nobleBlake3(data));

// ---------------------------------------------------------------- reference compression

const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];

const rotr = (x: number, n: number): number => ((x >>> n) | (x << (32 - n))) >>> 0;

function g(s: number[], a: number, b: number, c: number, d: number, x: number, y: number): void {
  s[a] = (s[a]! + s[b]! + x) >>> 0;
  s[d] = rotr(s[d]! ^ s[a]!, 16);
  s[c] = (s[c]! + s[d]!) >>> 0;
  s[b] = rotr(s[b]! ^ s[c]!, 12);
  s[a] = (s[a]! + s[b]! + y) >>> 0;
  s[d] = rotr(s[d]! ^ s[a]!, 8);
  s[c] = (s[c]! + s[d]!) >>> 0;
  s[b] = rotr(s[b]! ^ s[c]!, 7);
}

/** The compression function (BLAKE3 paper §2.2): the 16 output words for cv, block words, a 64-bit counter, length and flags. */
export function referenceCompress(cv: number[], block: number[], counter: bigint, length: number, flags: number): number[] {
  const s = [...cv, ...IV.slice(0, 4), Number(counter & 0xffffffffn), Number(counter >> 32n), length, flags];
  let m = [...block];
  for (let r = 0; r < 7; r++) {
    g(s, 0, 4, 8, 12, m[0]!, m[1]!);
    g(s, 1, 5, 9, 13, m[2]!, m[3]!);
    g(s, 2, 6, 10, 14, m[4]!, m[5]!);
    g(s, 3, 7, 11, 15, m[6]!, m[7]!);
    g(s, 0, 5, 10, 15, m[8]!, m[9]!);
    g(s, 1, 6, 11, 12, m[10]!, m[11]!);
    g(s, 2, 7, 8, 13, m[12]!, m[13]!);
    g(s, 3, 4, 9, 14, m[14]!, m[15]!);
    m = PERMUTATION.map((p) => m[p]!);
  }
  for (let i = 0; i < 8; i++) {
    s[i] = (s[i]! ^ s[i + 8]!) >>> 0;
    s[i + 8] = (s[i + 8]! ^ cv[i]!) >>> 0;
  }
  return s;
}

const words = (b: Uint8Array, at: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => new DataView(b.buffer, b.byteOffset).getUint32(at + 4 * i, true));

/**
 * Output blocks `counter .. counter + blocks - 1` of a root node in the
 * engines' layout (engine.ts RootNode: cv, block, length, flags).
 */
export function referenceOutput(root: Uint8Array, counter: bigint, blocks: number): Uint8Array {
  assert.equal(root.length, 104);
  const cv = words(root, 0, 8),
    block = words(root, 32, 16),
    [length, flags] = words(root, 96, 2);
  const out = new Uint8Array(64 * blocks);
  const dv = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const o = referenceCompress(cv, block, counter + BigInt(b), length!, flags!);
    o.forEach((w, i) => {
      dv.setUint32(64 * b + 4 * i, w, true);
    });
  }
  return out;
}
