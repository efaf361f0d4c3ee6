/**
 * scrypt (RFC 7914), r = 8, 32-byte key: 'scrypt' (p = 1) and 'scrypt-p4'.
 * A shape's size is one lane's memory, 128·r·N bytes (16 MiB: N = 2^14;
 * OpDefinition.sizeIsMemory). Peers: @noble/hashes (the reference),
 * node:crypto, hash-wasm (awaited call by call), libsodium's _ll call, each
 * given a memory bound above the shape's (node's default maxmem is 32 MiB);
 * fourfold/parallel's lanes go to the pool at any N.
 */
import { bytes } from '../fixtures.js';
import { type Apis, PARALLEL } from '../libraries.js';
import { type Derive, kdfEntries } from './table.js';
import { defineOp, type OpDefinition } from './types.js';

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

/** The parameters in hash-wasm's names. */
const hashWasmParams = (i: Inputs) => ({ password: i.password, salt: i.salt, costFactor: i.N, blockSize: R, parallelism: i.p, hashLength: KEY_BYTES });

/** libsodium's scrypt with every parameter (-sumo only: libraries.ts loads -sumo where installed). */
type SodiumScrypt = (password: Uint8Array, salt: Uint8Array, N: number, r: number, p: number, length: number) => Uint8Array;

/** Whether `size` is a lane's memory for some N = 2^k, k >= 1. */
function takesSize(size: number): boolean {
  const N = size / (128 * R);
  return Number.isInteger(N) && N >= 2 && (N & (N - 1)) === 0;
}

export function scryptOps({ fourfold, nobleHashes, node, hashWasm, sodium }: Apis): OpDefinition<unknown>[] {
  const ours = fourfold?.scrypt?.scrypt;
  const parallel = fourfold?.parallel?.scrypt;
  const noble = nobleHashes?.scrypt;
  const nodeScrypt = node?.scryptSync;
  const sumo = (sodium as { crypto_pwhash_scryptsalsa208sha256_ll?: SodiumScrypt } | undefined)?.crypto_pwhash_scryptsalsa208sha256_ll;
  const derive: Derive<Inputs> | undefined = ours && (({ password, salt, N, p }) => ours(password, salt, { N, r: R, p, dkLen: KEY_BYTES }));
  const entries = kdfEntries<Inputs>([
    ['fourfold', derive],
    ['fourfold-js', derive],
    [PARALLEL, parallel && (({ password, salt, N, p }) => parallel(password, salt, { N, r: R, p, dkLen: KEY_BYTES }))],
    ['noble-hashes', noble && (({ password, salt, N, p }) => noble(password, salt, { N, r: R, p, dkLen: KEY_BYTES, maxmem: MAXMEM }))],
    ['node', typeof nodeScrypt === 'function' ? (i) => nodeScrypt(i.password, i.salt, KEY_BYTES, { N: i.N, r: R, p: i.p, maxmem: MAXMEM }) : undefined],
    ['hash-wasm', hashWasm && ((i) => hashWasm.scrypt({ ...hashWasmParams(i), outputType: 'binary' }))],
    ['sodium', typeof sumo === 'function' ? ({ password, salt, N, p }) => sumo(password, salt, N, R, p, KEY_BYTES) : undefined],
  ]);
  const op = (name: string, p: number) =>
    defineOp<Inputs>({
      op: name,
      inputs: (shape) => ({ password: bytes('scrypt password', 16), salt: bytes('scrypt salt', 16), N: shape.size / (128 * R), p }),
      takesSize,
      sizeIsMemory: true,
      // Plain JavaScript: the same reference in every engine, WebAssembly or not.
      reference: 'noble-hashes',
      entries,
    });
  return [op('scrypt', 1), op('scrypt-p4', 4)];
}
