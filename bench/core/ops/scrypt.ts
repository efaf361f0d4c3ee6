/**
 * scrypt (RFC 7914) with r = 8 and a 32-byte key: 'scrypt' with p = 1,
 * 'scrypt-p4' with p = 4 (four lanes, which fourfold/parallel's runs on
 * as many cores). A shape's size is the memory one lane works in,
 * 128 * r * N bytes (16 MiB: N = 2^14; 128 MiB: N = 2^17), so the op takes
 * 128 * r times a power of two from 2, and is timed in the 'sizes' part
 * only (OpDefinition.sizeIsMemory); its MB/s are a lane's memory per
 * second. One fixed password and salt.
 *
 * Peers: @noble/hashes (the reference), node:crypto's scryptSync,
 * hash-wasm (asynchronous, awaited call by call) and libsodium's
 * crypto_pwhash_scryptsalsa208sha256_ll (in -sumo). Each is given a memory
 * bound above what the shape takes (node's default maxmem is 32 MiB);
 * fourfold's default bound allows N = 2^20. 'fourfold (parallel)' is
 * fourfold/parallel's scrypt, timed at every size: its lanes go to the
 * pool at any N (p = 1: one worker, the calling thread free).
 */
import { PARALLEL, type Apis } from '../libraries.js';
import { bytes } from '../fixtures.js';
import { defineOp, type Call, type OpDefinition, type OpEntry, type Shape } from './types.js';

/** The block size everyone uses. */
const R = 8;
const KEY_BYTES = 32;
/** Above every bound the calls take here (p = 4 lanes of 128 MiB run one after another in the synchronous peers). */
const MAXMEM = 2 ** 31;

interface Inputs {
  readonly password: Uint8Array;
  readonly salt: Uint8Array;
  readonly N: number;
  readonly p: number;
}

/** libsodium's scrypt with every parameter (-sumo only). */
type SodiumScrypt = (password: Uint8Array, salt: Uint8Array, N: number, r: number, p: number, length: number) => Uint8Array;

/** One scrypt call of a library, as the harness times it. */
type Derive = (inputs: Inputs) => ReturnType<Call>;

/** Whether `size` is a lane's memory for some N = 2^k, k >= 1. */
function takesSize(size: number): boolean {
  const N = size / (128 * R);
  return Number.isInteger(N) && N >= 2 && (N & (N - 1)) === 0;
}

/** The derivations of the libraries loaded here, by column. */
function derivations(apis: Apis): [string, Derive][] {
  const out: [string, Derive][] = [];
  const fourfold = apis.fourfold?.scrypt?.scrypt;
  if (fourfold !== undefined) {
    const derive: Derive = ({ password, salt, N, p }) => fourfold(password, salt, { N, r: R, p, dkLen: KEY_BYTES });
    out.push(['fourfold', derive], ['fourfold-js', derive]);
  }
  const parallel = apis.fourfold?.parallel?.scrypt;
  if (parallel !== undefined) out.push([PARALLEL, ({ password, salt, N, p }) => parallel(password, salt, { N, r: R, p, dkLen: KEY_BYTES })]);
  const noble = apis.nobleHashes?.scrypt;
  if (noble !== undefined) out.push(['noble-hashes', ({ password, salt, N, p }) => noble(password, salt, { N, r: R, p, dkLen: KEY_BYTES, maxmem: MAXMEM })]);
  const node = apis.node?.scryptSync;
  if (typeof node === 'function') out.push(['node', ({ password, salt, N, p }) => node(password, salt, KEY_BYTES, { N, r: R, p, maxmem: MAXMEM })]);
  const hashWasm = apis.hashWasm?.scrypt;
  if (hashWasm !== undefined) {
    out.push([
      'hash-wasm',
      ({ password, salt, N, p }) => hashWasm({ password, salt, costFactor: N, blockSize: R, parallelism: p, hashLength: KEY_BYTES, outputType: 'binary' }),
    ]);
  }
  // Only -sumo has it (libraries.ts loads -sumo where installed).
  const sodium = (apis.sodium as { crypto_pwhash_scryptsalsa208sha256_ll?: SodiumScrypt } | undefined)?.crypto_pwhash_scryptsalsa208sha256_ll;
  if (typeof sodium === 'function') out.push(['sodium', ({ password, salt, N, p }) => sodium(password, salt, N, R, p, KEY_BYTES)]);
  return out;
}

export function scryptOps(apis: Apis): OpDefinition<unknown>[] {
  const entries: OpEntry<Inputs>[] = derivations(apis).map(([library, derive]) => ({ library, bind: (inputs) => () => derive(inputs) }));
  const op = (name: string, p: number) =>
    defineOp<Inputs>({
      op: name,
      inputs: (shape: Shape) => ({ password: bytes('scrypt password', 16), salt: bytes('scrypt salt', 16), N: shape.size / (128 * R), p }),
      takesSize,
      sizeIsMemory: true,
      // Plain JavaScript: the same reference in every engine, WebAssembly or not.
      reference: 'noble-hashes',
      entries,
    });
  return [op('scrypt', 1), op('scrypt-p4', 4)];
}
