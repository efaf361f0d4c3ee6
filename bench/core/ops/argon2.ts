/**
 * Argon2id (RFC 9106, version 0x13) with a 32-byte tag, at the parameter
 * sets it is deployed with: 'argon2id-t2' (t = 2, p = 1: OWASP's
 * m = 19 MiB), 'argon2id-t3' (t = 3, p = 1) and 'argon2id-t3-p4' (t = 3,
 * p = 4 lanes: RFC 9106's second recommendation, m = 64 MiB). An op fixes
 * t and p; a shape's size is the memory m of the whole call in bytes
 * (m KiB * 1024: 19 MiB is OWASP's m = 19456), so the op takes whole KiB
 * from 8 KiB a lane, and is timed in the 'sizes' part only
 * (OpDefinition.sizeIsMemory). Its MB/s are that memory per second, each
 * call passing over it t times: read the time per call and the ratios.
 * One fixed password and salt (16 bytes: libsodium takes no other salt
 * length).
 *
 * Peers: @noble/hashes (the reference), hash-wasm (asynchronous, awaited
 * call by call), libsodium's crypto_pwhash with
 * crypto_pwhash_ALG_ARGON2ID13 and node:crypto's argon2Sync (Node 24.7
 * and later). libsodium has no lanes parameter (its p is always 1), so
 * it has entries in the p = 1 ops only: at p = 4 it would compute
 * another function. 'fourfold (parallel)' is fourfold/parallel's
 * argon2id, in the p = 4 op, where its lanes run on the calling thread
 * and the pool's workers; a build of fourfold/parallel without argon2id
 * shows the column refused, with the reason.
 */
import { PARALLEL, type Apis } from '../libraries.js';
import { bytes } from '../fixtures.js';
import { defineOp, type Call, type OpDefinition, type OpEntry, type Shape } from './types.js';

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

/** The parameters every library is given, in the contract's names (fourfold/argon2, @noble/hashes). */
interface Params {
  readonly t: number;
  readonly m: number;
  readonly p: number;
  readonly dkLen: number;
}

/** fourfold/parallel's argon2id, where the build has it: a Promise of the tag. */
type ParallelArgon2id = (password: Uint8Array, salt: Uint8Array, opts: Params) => Promise<Uint8Array>;

/** node:crypto's argon2Sync (Node 24.7 and later; @types/node 20 does not have it). */
type NodeArgon2Sync = (
  algorithm: 'argon2id',
  parameters: { message: Uint8Array; nonce: Uint8Array; parallelism: number; tagLength: number; memory: number; passes: number },
) => Uint8Array;

/** One Argon2id call of a library, as the harness times it. */
type Derive = (inputs: Inputs) => ReturnType<Call>;

/** A column's derivation, and the ops it has entries in (libsodium: p = 1 only). */
interface Derivation {
  readonly library: string;
  readonly derive?: Derive;
  /** Why the column cannot run here, shown in its cell instead of a time. */
  readonly refusal?: string;
  readonly takesLanes: (p: number) => boolean;
}

const params = ({ m, t, p }: Inputs): Params => ({ t, m, p, dkLen: TAG_BYTES });
const always = () => true;

/** The derivations of the libraries loaded here, by column. */
function derivations(apis: Apis): Derivation[] {
  const out: Derivation[] = [];
  const fourfold = apis.fourfold?.argon2?.argon2id;
  if (fourfold !== undefined) {
    const derive: Derive = (inputs) => fourfold(inputs.password, inputs.salt, params(inputs));
    out.push({ library: 'fourfold', derive, takesLanes: always }, { library: 'fourfold-js', derive, takesLanes: always });
  }
  const pool = apis.fourfold?.parallel;
  if (pool !== undefined) {
    // Looked up by name: a build of fourfold/parallel from before its argon2id still runs the other columns.
    const parallel = (pool as unknown as { argon2id?: ParallelArgon2id }).argon2id;
    const lanes = (p: number) => p > 1;
    out.push(
      typeof parallel === 'function'
        ? { library: PARALLEL, derive: (inputs) => parallel(inputs.password, inputs.salt, params(inputs)), takesLanes: lanes }
        : { library: PARALLEL, refusal: 'this build of fourfold/parallel exports no argon2id', takesLanes: lanes },
    );
  }
  const noble = apis.nobleHashes?.argon2id;
  if (noble !== undefined)
    out.push({ library: 'noble-hashes', derive: (i) => noble(i.password, i.salt, { ...params(i), maxmem: MAXMEM }), takesLanes: always });
  const hashWasm = apis.hashWasm?.argon2id;
  if (hashWasm !== undefined) {
    out.push({
      library: 'hash-wasm',
      derive: ({ password, salt, m, t, p }) =>
        hashWasm({ password, salt, iterations: t, memorySize: m, parallelism: p, hashLength: TAG_BYTES, outputType: 'binary' }),
      takesLanes: always,
    });
  }
  const sodium = apis.sodium;
  if (typeof sodium?.crypto_pwhash === 'function') {
    out.push({
      library: 'sodium',
      // memlimit in bytes, opslimit the passes.
      derive: ({ password, salt, m, t }) => sodium.crypto_pwhash(TAG_BYTES, password, salt, t, m * 1024, sodium.crypto_pwhash_ALG_ARGON2ID13),
      takesLanes: (p) => p === 1,
    });
  }
  const node = (apis.node as { argon2Sync?: NodeArgon2Sync } | undefined)?.argon2Sync;
  if (typeof node === 'function') {
    out.push({
      library: 'node',
      derive: ({ password, salt, m, t, p }) => node('argon2id', { message: password, nonce: salt, parallelism: p, tagLength: TAG_BYTES, memory: m, passes: t }),
      takesLanes: always,
    });
  }
  return out;
}

/** The entries of an op with `p` lanes. */
function entriesFor(all: readonly Derivation[], p: number): OpEntry<Inputs>[] {
  return all
    .filter((d) => d.takesLanes(p))
    .map(({ library, derive, refusal }) =>
      derive === undefined
        ? { library, refuses: () => refusal, bind: () => () => Promise.reject(new Error(refusal)) }
        : { library, bind: (inputs) => () => derive(inputs) },
    );
}

export function argon2Ops(apis: Apis): OpDefinition<unknown>[] {
  const all = derivations(apis);
  const op = (name: string, t: number, p: number) =>
    defineOp<Inputs>({
      op: name,
      inputs: (shape: Shape) => ({ password: bytes('argon2id password', 16), salt: bytes('argon2id salt', 16), m: shape.size / 1024, t, p }),
      // Whole KiB, at least 8 KiB a lane (RFC 9106 §3.1: m >= 8p).
      takesSize: (size) => size % 1024 === 0 && size / 1024 >= 8 * p,
      sizeIsMemory: true,
      // Plain JavaScript: the same reference in every engine, WebAssembly or not.
      reference: 'noble-hashes',
      entries: entriesFor(all, p),
    });
  return [op('argon2id-t2', 2, 1), op('argon2id-t3', 3, 1), op('argon2id-t3-p4', 3, 4)];
}
