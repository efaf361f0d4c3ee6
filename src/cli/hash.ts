/**
 * The root node of a file or of standard input (engine.ts RootNode), and
 * b3sum's output from it at any offset (--seek) and length. Input is streamed a
 * MiB at a time, never read whole; a regular file of PARALLEL_MIN bytes or
 * more is hashed by the worker pool, each subtree read from the file
 * straight into a worker's slot (positional reads, so several readers need
 * no seeking).
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import type { B3sumArgs } from './args.js';
import { readFull, type Output } from './io.js';
import type { RootNode, TreeState } from '../blake3/engine.js';
import { ROOT_BYTES } from '../blake3/layout.js';
import { engine } from '../blake3/tiers.js';
import { absorbParallel, PARALLEL_MIN, type ChunkSource } from '../parallel/blake3.js';
import { workersFor } from '../parallel/workers.js';

export const STDIN = 0;
const CHUNK = 1024;
const BUFFER = 1 << 20;

export interface Keying {
  key: Uint8Array;
  flags: number;
}

/** What one run shares: the arguments, the mode, the streams. */
export interface Run {
  args: B3sumArgs;
  keying: Keying;
  workers: number;
  out: Output;
  err: Output;
}

const fresh = (k: Keying): TreeState => ({ key: k.key.slice(), flags: k.flags, chunks: 0, base: 0, depth: 0, stack: new Uint8Array(0) });

function finish(state: TreeState, last: Uint8Array): RootNode {
  const root = new Uint8Array(ROOT_BYTES);
  engine().finish(state, last, root);
  return root;
}

/** Reads `fd` from its current position to the end, a buffer at a time, keeping back the chunk that may be the last. */
function streamed(fd: number, state: TreeState, buf: Uint8Array): RootNode {
  let filled = 0;
  for (;;) {
    const got = readFull(fd, buf.subarray(filled));
    filled += got;
    if (filled < buf.length) break;
    // Full: all but the last chunk go into the tree (more input may follow).
    engine().update(state, buf.subarray(0, buf.length - CHUNK));
    buf.copyWithin(0, buf.length - CHUNK);
    filled = CHUNK;
  }
  const whole = filled > CHUNK ? Math.floor((filled - 1) / CHUNK) * CHUNK : 0;
  if (whole > 0) engine().update(state, buf.subarray(0, whole));
  return finish(state, buf.subarray(whole, filled));
}

/** A regular file of `size` bytes, its whole chunks on the pool. */
async function parallel(fd: number, size: number, state: TreeState, buf: Uint8Array, workers: number): Promise<RootNode> {
  const read = (offset: number, into: Uint8Array) => {
    if (readFull(fd, into, offset) !== into.length) throw new Error('the file shrank while it was hashed');
    return into;
  };
  const source: ChunkSource = { copy: read, view: (offset, length) => read(offset, buf.subarray(0, length)) };
  const whole = Math.floor((size - 1) / CHUNK);
  await absorbParallel(state, source, whole, workersFor(size, workers));
  const last = read(whole * CHUNK, buf.subarray(0, size - whole * CHUNK));
  return finish(state, last);
}

/** The root node of what `fd` holds from its current position; `workers` 0 hashes on this thread only. */
export async function hashFd(fd: number, keying: Keying, workers: number): Promise<RootNode> {
  const state = fresh(keying);
  const buf = new Uint8Array(BUFFER);
  try {
    const stat = fstatSync(fd);
    if (workers > 0 && stat.isFile() && stat.size >= PARALLEL_MIN) return await parallel(fd, stat.size, state, buf, workers);
    return streamed(fd, state, buf);
  } finally {
    buf.fill(0);
    state.key.fill(0);
    state.stack.fill(0);
  }
}

/** The root node of a path (`-`: standard input), or the error b3sum would print for it. */
export async function hashPath(run: Run, path: string): Promise<RootNode> {
  if (path === '-') {
    if (run.args.keyed) throw new Error('Cannot open `-` in keyed mode');
    return hashFd(STDIN, run.keying, 0);
  }
  const fd = openSync(path, 'r');
  try {
    return await hashFd(fd, run.keying, run.args.noMmap ? 0 : run.workers);
  } finally {
    closeSync(fd);
  }
}

/**
 * Output bytes [seek, seek + length) of `root`, a block-aligned piece at a
 * time. Both are u64s, kept exact: the output block counter of a seek
 * past 2^53 is past 2^47, and b3sum goes on past 2^64 bytes.
 */
export function* outputBytes(root: RootNode, seek: bigint, length: bigint): Generator<Uint8Array> {
  const STEP = 1 << 16;
  let counter = seek / 64n;
  let skip = Number(seek % 64n);
  let left = length;
  const block = new Uint8Array(STEP + 64);
  try {
    while (left > 0n) {
      const want = left < BigInt(STEP) ? Number(left) : STEP;
      const blocks = Math.ceil((skip + want) / 64);
      const piece = block.subarray(0, 64 * blocks);
      engine().output(root, counter, piece);
      counter += BigInt(blocks);
      yield piece.subarray(skip, skip + want);
      left -= BigInt(want);
      skip = 0;
    }
  } finally {
    block.fill(0);
  }
}
