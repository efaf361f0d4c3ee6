/**
 * What the page measures in each mode, as configurations of the benchmark
 * core (bench/core): the same ops, inputs, checks and timing method as
 * `npm run bench`, with the page's choice of ops, sizes and columns.
 *
 * - One core: every op at 64 B, 1 KiB, 64 KiB and 1 MiB, fourfold's simd
 *   and js tiers against each peer bundled into the page, and the
 *   platform's WebCrypto (AES-256-GCM, SHA-256) as a reference line.
 * - All cores: fourfold/parallel at 64 MiB on 1, 2, 4, ... threads up to
 *   the logical cores, against the synchronous function in the same case;
 *   on plain arrays, and on SharedArrayBuffers where the page can share
 *   memory with workers.
 * - scrypt (r = 8): one lane of 16 MiB (N = 2^14), and in the full mode
 *   of 128 MiB (N = 2^17), and four lanes of 16 MiB, which
 *   fourfold/parallel runs on all cores; fourfold's tiers and
 *   fourfold/parallel against the peers that have scrypt.
 * - Argon2id (a 32-byte tag): OWASP's m = 19 MiB, t = 2, p = 1, and in
 *   the full mode RFC 9106's m = 64 MiB, t = 3 on one lane and on four,
 *   which fourfold/parallel runs on all cores; fourfold's tiers and
 *   fourfold/parallel (four lanes) against the peers that have Argon2id.
 * - age: files of 4 MiB (quick) or 16 and 256 MiB (full) to one X25519
 *   recipient, one-shot and streamed, each way: fourfold/age on each tier
 *   and fourfold/parallel's age against typage.
 */
import { PARALLEL, sharedWorkerColumn, workerColumn } from '../../bench/core/libraries.js';
import type { BenchConfig, CaseTiming } from '../../bench/core/types.js';

export type Mode = 'quick' | 'full';

const KiB = 1 << 10;
const MiB = 1 << 20;

/** The message sizes of the one-core part. */
export const SIZES = [64, KiB, 64 * KiB, MiB];
/** The size of the all-cores part. */
export const SCALING_SIZE = 64 * MiB;

/** One direction of each: quick. */
const QUICK_OPS = [
  'chacha20',
  'xchacha20poly1305-encrypt',
  'chacha20poly1305-encrypt',
  'poly1305',
  'salsa20',
  'xsalsa20poly1305-encrypt',
  'secretstream-push',
  'serpent-ctr-encrypt',
  'serpent-cbc-encrypt',
  'blake3',
];
/** Both directions of the AEADs, the secretbox and Serpent: full. */
const FULL_OPS = [
  'chacha20',
  'xchacha20poly1305-encrypt',
  'xchacha20poly1305-decrypt',
  'chacha20poly1305-encrypt',
  'chacha20poly1305-decrypt',
  'poly1305',
  'salsa20',
  'xsalsa20poly1305-encrypt',
  'xsalsa20poly1305-decrypt',
  'secretstream-push',
  'serpent-ctr-encrypt',
  'serpent-ctr-decrypt',
  'serpent-cbc-encrypt',
  'serpent-cbc-decrypt',
  'blake3',
];
/** The platform's own cryptography: other algorithms, shown for scale (bench/core/ops/webcrypto.ts). */
export const REFERENCE_OPS = ['aes-256-gcm-encrypt', 'sha-256'];
export const SCALING_OPS = ['xchacha20poly1305-encrypt', 'xchacha20poly1305-decrypt', 'chacha20', 'blake3'];

/** fourfold's columns and the peers bundled into the page (bench/core/libraries.ts names them). */
export const FOURFOLD_COLUMNS = ['fourfold', 'fourfold-js'];
export const PEERS = ['noble', 'sodium', 'noble-hashes', 'hash-wasm', 'mipher', 'typage', 'webcrypto'];

/** The npm packages behind each peer column, for the page's text. */
export const PEER_PACKAGES: Record<string, string> = {
  noble: '@noble/ciphers',
  sodium: 'libsodium-wrappers',
  'noble-hashes': '@noble/hashes',
  'hash-wasm': 'hash-wasm',
  mipher: 'mipher',
  typage: 'age-encryption',
  webcrypto: 'WebCrypto (the browser)',
};

/** The ops of a mode's one-core part, the reference lines included. */
export function opsOf(mode: Mode): string[] {
  return [...(mode === 'quick' ? QUICK_OPS : FULL_OPS), ...REFERENCE_OPS];
}

/** Thread counts of the all-cores part: 1, 2, 4, ... up to `cores`, and `cores` itself. */
export function threadCounts(cores: number): number[] {
  const counts: number[] = [];
  for (let n = 1; n < cores; n *= 2) counts.push(n);
  counts.push(Math.max(1, cores));
  return counts;
}

/**
 * The method of `npm run bench`'s --quick (short samples, few of them) and
 * of its default run (more, longer ones). The caps are longer than
 * --quick's 2 s because of mipher's Serpent at 1 MiB, about a second per
 * call on a busy machine: quick's 4 s leave room for the one call that
 * checks fourfold's bytes against it (a reference that does not fit the
 * cap checks nothing) but not for its samples; full's 15 s time it too.
 */
const timing: Record<Mode, { sizes: CaseTiming; capMs: number }> = {
  quick: { sizes: { warmupMs: 10, sampleMs: 0.5, samples: 9, minSamples: 3, budgetMs: 300 }, capMs: 4_000 },
  full: { sizes: { warmupMs: 20, sampleMs: 1, samples: 15, minSamples: 5, budgetMs: 1000 }, capMs: 15_000 },
};

/** A configuration with only the 'sizes' part (the other parts' settings are required by the type, and unused). */
function sizesOnly(
  config: Pick<BenchConfig, 'ops' | 'libs' | 'references' | 'sizes' | 'opSizes' | 'capMs' | 'parallel' | 'versions'>,
  sizes: CaseTiming,
): BenchConfig {
  return {
    ...config,
    exactOps: true,
    parts: ['sizes'],
    sweep: { from: 0, to: 0, step: 1 },
    timing: { sizes, sweep: { warmupMs: 0, passes: 1, minSampleUs: 10 } },
  };
}

export function oneCoreConfig(mode: Mode, versions: Record<string, string>): BenchConfig {
  return sizesOnly(
    {
      ops: opsOf(mode),
      libs: [...FOURFOLD_COLUMNS, ...PEERS],
      sizes: SIZES,
      capMs: timing[mode].capMs,
      parallel: { workerCounts: [], chartSize: SCALING_SIZE, taskSize: SCALING_SIZE, taskCalls: 0 },
      versions,
    },
    timing[mode].sizes,
  );
}

/**
 * One case per op for a thread count n: fourfold against fourfold/parallel
 * with n - 1 workers (the measuring thread works too); `shared`: also with
 * input and output on SharedArrayBuffers, and the synchronous function
 * writing into a caller-supplied output, which like them allocates
 * nothing per call (report/scaling.ts). As `npm run bench --
 * --profile=parallel` times them: one call per sample after a warm-up of
 * three, the synchronous function the reference for the bytes.
 *
 * The thread counts are cases of their own, run fewest first: the pool
 * ends workers beyond a size that configure() lowers, so worker counts
 * interleaved in one case would restart workers between samples and time
 * their start. The synchronous function is timed in every case, and its
 * samples are pooled over them (results.ts joinRuns).
 */
export function scalingConfig(mode: Mode, threads: number, shared: boolean, versions: Record<string, string>): BenchConfig {
  const workers = threads - 1;
  return sizesOnly(
    {
      ops: SCALING_OPS,
      // fourfold (output): the synchronous function into a caller-supplied output, the baseline of the shared columns.
      libs: ['fourfold', ...(shared ? ['fourfold (output)'] : []), workerColumn(workers), ...(shared ? [sharedWorkerColumn(workers)] : [])],
      references: ['fourfold'],
      sizes: [SCALING_SIZE],
      capMs: 120_000,
      parallel: { workerCounts: [workers], chartSize: SCALING_SIZE, taskSize: SCALING_SIZE, taskCalls: 0 },
      versions,
    },
    mode === 'quick'
      ? { warmupMs: 0, sampleMs: 1, samples: 3, minSamples: 3, budgetMs: 1500 }
      : { warmupMs: 0, sampleMs: 1, samples: 7, minSamples: 5, budgetMs: 4000 },
  );
}

/**
 * scrypt's ops and the memory of a lane each is timed at (r = 8; a shape's
 * size is that memory: bench/core/ops/scrypt.ts). Quick: 16 MiB
 * (N = 2^14), one lane and four; full: also one lane of 128 MiB
 * (N = 2^17), a quarter of a second a call or more in every column.
 */
export const SCRYPT_SIZES: Record<Mode, Readonly<Record<string, readonly number[]>>> = {
  quick: { scrypt: [16 * MiB], 'scrypt-p4': [16 * MiB] },
  full: { scrypt: [16 * MiB, 128 * MiB], 'scrypt-p4': [16 * MiB] },
};

/** The scrypt shapes of a mode: [op, size], in the order the page shows them. */
export const scryptShapes = (mode: Mode): [string, number][] =>
  Object.entries(SCRYPT_SIZES[mode]).flatMap(([op, sizes]) => sizes.map((size): [string, number] => [op, size]));

/**
 * Argon2id's ops (each fixes t and p) and the memory m each is timed at
 * (a shape's size is m in bytes: bench/core/ops/argon2.ts). Quick: OWASP's
 * m = 19 MiB, t = 2, p = 1; full: also RFC 9106's m = 64 MiB, t = 3, on
 * one lane and on four (@noble/hashes takes a second or more a call there).
 */
export const ARGON2_SIZES: Record<Mode, Readonly<Record<string, readonly number[]>>> = {
  quick: { 'argon2id-t2': [19 * MiB] },
  full: { 'argon2id-t2': [19 * MiB], 'argon2id-t3': [64 * MiB], 'argon2id-t3-p4': [64 * MiB] },
};

/** The Argon2id shapes of a mode: [op, size], in the order the page shows them. */
export const argon2Shapes = (mode: Mode): [string, number][] =>
  Object.entries(ARGON2_SIZES[mode]).flatMap(([op, sizes]) => sizes.map((size): [string, number] => [op, size]));

/** Whether an Argon2id op has lanes for fourfold/parallel to run at once: its column is in those only ('argon2id-t3-p4'). */
export const argon2Pooled = (op: string): boolean => /-p\d+$/.test(op);

/** age's ops (bench/core/ops/age.ts): one-shot and streamed, each way. */
export const AGE_OPS = ['age-encrypt', 'age-decrypt', 'age-encrypt-stream', 'age-decrypt-stream'];

/**
 * The plaintext sizes age's ops are timed at: quick 4 MiB (above
 * fourfold/parallel's inline threshold, 2 MiB); full 16 and 256 MiB, a
 * file of the size the all-cores targets are set at.
 */
export const AGE_SIZES: Record<Mode, readonly number[]> = { quick: [4 * MiB], full: [16 * MiB, 256 * MiB] };

/** The age shapes of a mode: [op, size], in the order the page shows them. */
export const ageShapes = (mode: Mode): [string, number][] => AGE_OPS.flatMap((op) => AGE_SIZES[mode].map((size): [string, number] => [op, size]));

/**
 * The large calls' part: scrypt, Argon2id and age files, fourfold's two
 * tiers, fourfold/parallel's where its workers started (`pooled`: scrypt's
 * four lanes on the workers and the measuring thread, one lane on one
 * worker; Argon2id's four lanes the same way; age's chunks on all of
 * them) and each peer that has the op, the outputs checked against
 * @noble/hashes' (scrypt, Argon2id) and typage's (age). A call takes
 * 20 ms to seconds, so as `npm run bench -- --profile=scrypt` and
 * `--profile=age` time them: one call per sample after a warm-up of
 * three, and a cap that leaves every column in on a two-core machine.
 */
export function largeConfig(mode: Mode, pooled: boolean, versions: Record<string, string>): BenchConfig {
  const opSizes = { ...SCRYPT_SIZES[mode], ...ARGON2_SIZES[mode], age: AGE_SIZES[mode] };
  return sizesOnly(
    {
      ops: [...Object.keys(SCRYPT_SIZES[mode]), ...Object.keys(ARGON2_SIZES[mode]), ...AGE_OPS],
      libs: [...FOURFOLD_COLUMNS, ...(pooled ? [PARALLEL] : []), ...PEERS],
      sizes: [...new Set(Object.values(opSizes).flat())].sort((a, b) => a - b),
      opSizes,
      capMs: mode === 'quick' ? 30_000 : 90_000,
      parallel: { workerCounts: [], chartSize: SCALING_SIZE, taskSize: SCALING_SIZE, taskCalls: 0 },
      versions,
    },
    mode === 'quick'
      ? { warmupMs: 0, sampleMs: 1, samples: 3, minSamples: 3, budgetMs: 1500 }
      : { warmupMs: 0, sampleMs: 1, samples: 7, minSamples: 5, budgetMs: 4000 },
  );
}
