/**
 * Argon2id (RFC 9106, version 0x13), 32-byte tag: 'argon2id-t2' (OWASP's
 * m = 19 MiB), 'argon2id-t3' and 'argon2id-t3-p4' (RFC 9106's second
 * recommendation). A shape's size is the memory m of the call
 * (OpDefinition.sizeIsMemory); peers and why libsodium has no p = 4 entry:
 * docs/contributing/benchmarks.md, "Argon2id". Salt of 16 bytes: libsodium
 * takes no other length.
 */
import { bytes } from '../fixtures.js';
import { type Apis, PARALLEL } from '../libraries.js';
import { type Derive, kdfEntries } from './table.js';
import { defineOp, type OpDefinition, type OpEntry } from './types.js';

const TAG_BYTES = 32;
/** Above every call here (four lanes of 64 MiB are 64 MiB in all); @noble/hashes' default is 1 GiB. */
const MAXMEM = 2 ** 31;

interface Inputs {
  readonly password: Uint8Array;
  readonly salt: Uint8Array;
  /** Memory in KiB (RFC 9106's m). */
  readonly m: number;
  readonly t: number;
  readonly p: number;
}

/** The parameters in the contract's names (fourfold/argon2, @noble/hashes), in node:crypto's and in hash-wasm's. */
const params = ({ m, t, p }: Inputs) => ({ t, m, p, dkLen: TAG_BYTES });
const nodeParams = (i: Inputs) => ({ message: i.password, nonce: i.salt, parallelism: i.p, tagLength: TAG_BYTES, memory: i.m, passes: i.t });
const hashWasmParams = (i: Inputs) => ({ password: i.password, salt: i.salt, iterations: i.t, memorySize: i.m, parallelism: i.p, hashLength: TAG_BYTES });

/** node:crypto's argon2Sync (Node 24.7 and later; @types/node 20 does not have it). */
type NodeArgon2Sync = (
  algorithm: 'argon2id',
  parameters: { message: Uint8Array; nonce: Uint8Array; parallelism: number; tagLength: number; memory: number; passes: number },
) => Uint8Array;

/** The entries of an op with `p` lanes, for the libraries loaded here. */
function entriesFor({ fourfold, nobleHashes, hashWasm, sodium, node }: Apis, p: number): OpEntry<Inputs>[] {
  const ours = fourfold?.argon2?.argon2id;
  const derive: Derive<Inputs> | undefined = ours && ((i) => ours(i.password, i.salt, params(i)));
  const noble = nobleHashes?.argon2id;
  const nodeArgon2 = (node as { argon2Sync?: NodeArgon2Sync } | undefined)?.argon2Sync;
  // libsodium's Argon2id has one lane: at p = 4 it would be another function.
  const oneLane = p === 1 && typeof sodium?.crypto_pwhash === 'function' ? sodium : undefined;
  const entries = kdfEntries<Inputs>([
    ['fourfold', derive],
    ['fourfold-js', derive],
    ['noble-hashes', noble && ((i) => noble(i.password, i.salt, { ...params(i), maxmem: MAXMEM }))],
    ['hash-wasm', hashWasm && ((i) => hashWasm.argon2id({ ...hashWasmParams(i), outputType: 'binary' }))],
    // memlimit in bytes, opslimit the passes.
    ['sodium', oneLane && ((i) => oneLane.crypto_pwhash(TAG_BYTES, i.password, i.salt, i.t, i.m * 1024, oneLane.crypto_pwhash_ALG_ARGON2ID13))],
    ['node', nodeArgon2 && ((i) => nodeArgon2('argon2id', nodeParams(i)))],
  ]);
  // fourfold/parallel's four lanes can go to the calling thread and the workers; one lane is one thread's work.
  const parallel = fourfold?.parallel?.argon2id;
  if (parallel === undefined || p === 1) return entries;
  return [...entries, { library: PARALLEL, bind: (i) => () => parallel(i.password, i.salt, params(i)) }];
}

export function argon2Ops(apis: Apis): OpDefinition<unknown>[] {
  const op = (name: string, t: number, p: number) =>
    defineOp<Inputs>({
      op: name,
      inputs: (shape) => ({ password: bytes('argon2id password', 16), salt: bytes('argon2id salt', 16), m: shape.size / 1024, t, p }),
      // Whole KiB, at least 8 KiB a lane (RFC 9106 §3.1: m >= 8p).
      takesSize: (size) => size % 1024 === 0 && size / 1024 >= 8 * p,
      sizeIsMemory: true,
      // Plain JavaScript: the same reference in every engine, WebAssembly or not.
      reference: 'noble-hashes',
      entries: entriesFor(apis, p),
    });
  return [op('argon2id-t2', 2, 1), op('argon2id-t3', 3, 1), op('argon2id-t3-p4', 3, 4)];
}
