/**
 * The profiles of `npm run bench`: what a run measures unless the command
 * line says otherwise, and how (node/options.ts reads the command line on
 * top of one); docs/contributing/benchmarks.md tables what each profile
 * covers and what it takes.
 */
import { NATIVE, PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED, TYPAGE_API } from '../core/libraries.js';
import { parts, type BenchConfig, type ParallelSettings } from '../core/types.js';

/** Parts the Node-side runner measures itself, next to the engine parts. */
export const runnerParts = ['codesize'] as const;
export type RunnerPart = (typeof runnerParts)[number];
export const allParts: readonly string[] = [...parts, ...runnerParts];

export const KiB = 1 << 10;
export const MiB = 1 << 20;

/**
 * A profile: what a run measures unless the command line overrides a field.
 * The method is the same in every profile; they differ in what they cover,
 * their samples and their cap.
 */
export interface Profile {
  /** One line for --help, with the time it takes in Node on the 2-core development machine. */
  readonly summary: string;
  readonly parts: readonly string[];
  readonly sizes: readonly number[];
  /** Sizes of the ops that have their own (BenchConfig.opSizes: scrypt's, a lane's memory; Argon2id's, a call's); --sizes replaces them too. */
  readonly opSizes?: BenchConfig['opSizes'];
  readonly sweep: BenchConfig['sweep'];
  readonly timing: BenchConfig['timing'];
  readonly capMs: number;
  /** The cap of some ops' cases (BenchConfig.opCapMs); --cap replaces it too. */
  readonly opCapMs?: BenchConfig['opCapMs'];
  readonly engineTimeoutMs: number;
  /** Ops and libraries timed when the command line does not say (all when absent). */
  readonly ops?: readonly string[];
  readonly libs?: readonly string[];
  /** Libraries left out when the command line names none (BenchConfig.libsLeftOut). */
  readonly libsLeftOut?: readonly string[];
  /** The libraries whose outputs the others must reproduce (the established peers when absent). */
  readonly references?: readonly string[];
  readonly parallel: ParallelSettings;
}

// Samples are short (1 ms) and many: on a shared machine a sample that
// spans a preemption is an outlier, and short samples make outliers rare
// enough for the median to ignore them.
const caseTiming = { warmupMs: 50, sampleMs: 1, samples: 31, minSamples: 5, budgetMs: 1500 };

/** scrypt's sizes in --full: a lane of 1 MiB (N = 2^10), 16 MiB (N = 2^14, Node's default) and 128 MiB (N = 2^17, fourfold's advice for a login). */
const scryptSizes = [MiB, 16 * MiB, 128 * MiB];

/** Argon2id's m by op (t and p fixed by the op): OWASP's 19 MiB at t = 2, RFC 9106's 64 MiB at t = 3 ('argon2id-t3-p4' too, by prefix). */
const argon2Sizes = { 'argon2id-t2': [19 * MiB], 'argon2id-t3': [64 * MiB] };

/** fourfold/parallel's chart and model at 64 MiB (where its two-core speedup targets are set), its longest task at 256 MiB; no worker-count columns. */
const parallelSettings: ParallelSettings = { workerCounts: [], chartSize: 64 * MiB, taskSize: 256 * MiB, taskCalls: 3 };

/** --full: every part, every length 0..8192 (Bernstein's sweep), 16 MiB; its cap leaves out only what takes minutes a case (mipher's Serpent at 16 MiB and over the sweep). */
const full: Profile = {
  summary: "every part but 'parallel', every length 0..8192, 16 MiB; about an hour",
  parts: allParts.filter((part) => part !== 'parallel'),
  sizes: [64, KiB, 8 * KiB, 64 * KiB, MiB, 16 * MiB],
  opSizes: { scrypt: scryptSizes, ...argon2Sizes, age: [16 * MiB, 256 * MiB] },
  sweep: { from: 0, to: 8192, step: 1 },
  timing: { sizes: caseTiming, sweep: { warmupMs: 100, passes: 5, minSampleUs: 12 } },
  capMs: 60_000,
  engineTimeoutMs: 180 * 60_000,
  parallel: parallelSettings,
};

/**
 * The default, in a few minutes: scrypt and Argon2id get a cap of their own
 * (their cold first calls fill half of 4 s); a stride of 127 hits every residue mod 64.
 */
const standard: Profile = {
  summary: 'the summary sizes 64 B..1 MiB, scrypt at 16 MiB, argon2id at 19 MiB, a sparse sweep (per-call overhead), code size; 1 to 4 minutes',
  parts: ['sizes', 'sweep', 'codesize'],
  sizes: [64, KiB, 8 * KiB, 64 * KiB, MiB],
  opSizes: { scrypt: [16 * MiB], 'scrypt-p4': [], 'argon2id-t2': [19 * MiB], 'argon2id-t3': [], age: [] },
  sweep: { from: 0, to: 8192, step: 127 },
  // 20 ms of warm-up: thousands of calls (at least three), past the engines' optimizing tiers. The sweep's only sizes its batches.
  timing: { sizes: { ...caseTiming, warmupMs: 20, samples: 15, budgetMs: 1000 }, sweep: { warmupMs: 10, passes: 3, minSampleUs: 12 } },
  capMs: 4_000,
  opCapMs: { scrypt: 10_000, argon2id: 10_000 },
  libsLeftOut: [PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED],
  engineTimeoutMs: 30 * 60_000,
  parallel: parallelSettings,
};

/** --quick: a smoke test of every part in every engine (--engines=all in well under 15 minutes), not numbers to quote. */
const quick: Profile = {
  summary: "every part but 'parallel', fewer sizes, fewer and shorter samples: a check that everything runs; 1 to 1.5 minutes per engine",
  parts: full.parts,
  sizes: [64, KiB, 64 * KiB, MiB],
  // scrypt with lanes of 1 MiB (N = 2^10), Argon2id in 1 MiB: a few ms a call; age files of 1 MiB.
  opSizes: { scrypt: [MiB], argon2id: [MiB], age: [MiB] },
  sweep: standard.sweep,
  timing: { sizes: { warmupMs: 10, sampleMs: 0.5, samples: 9, minSamples: 3, budgetMs: 300 }, sweep: { warmupMs: 20, passes: 3, minSampleUs: 10 } },
  capMs: 2_000,
  engineTimeoutMs: 15 * 60_000,
  parallel: parallelSettings,
};

/** --profile=parallel: against the synchronous function (the ratio's and the bytes' reference); a call takes tens of ms, so a sample is one. */
const parallel: Profile = {
  summary: 'fourfold/parallel against the synchronous functions at 16, 64 and 256 MiB, speedup by worker count, the model and its projection, the longest task',
  parts: ['sizes', 'parallel'],
  sizes: [16 * MiB, 64 * MiB, 256 * MiB],
  sweep: standard.sweep,
  timing: { ...standard.timing, sizes: { warmupMs: 0, sampleMs: 1, samples: 5, minSamples: 3, budgetMs: 3000 } },
  // Serpent's CBC encryption, serial, takes seconds per call at 256 MiB.
  capMs: 120_000,
  engineTimeoutMs: 90 * 60_000,
  ops: ['chacha20', 'xchacha20', 'chacha20poly1305', 'xchacha20poly1305', 'poly1305', 'salsa20', 'xsalsa20', 'xsalsa20poly1305', 'blake3', 'serpent'],
  libs: ['fourfold', 'fourfold (output)', PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED],
  references: ['fourfold'],
  parallel: { ...parallelSettings, workerCounts: [0, 1, 2, 3] },
};

/**
 * --profile=scrypt: one lane and four, of 16 and 128 MiB, every column; a
 * call takes 20 ms to seconds, so a sample is one call.
 */
const scrypt: Profile = {
  summary: 'scrypt with p = 1 and p = 4 at 16 and 128 MiB a lane (N = 2^14, 2^17): fourfold, its js tier and fourfold/parallel against the peers',
  parts: ['sizes'],
  sizes: [16 * MiB, 128 * MiB],
  sweep: standard.sweep,
  timing: { ...standard.timing, sizes: { warmupMs: 0, sampleMs: 1, samples: 7, minSamples: 5, budgetMs: 3000 } },
  capMs: 120_000,
  engineTimeoutMs: 60 * 60_000,
  ops: ['scrypt'],
  parallel: parallelSettings,
};

/** --profile=argon2: OWASP's m = 19 MiB, t = 2, p = 1 and RFC 9106's m = 64 MiB, t = 3, p = 1 and 4, timed as --profile=scrypt (35 ms to over a second a call). */
const argon2: Profile = {
  ...scrypt,
  summary:
    "argon2id at OWASP's m = 19 MiB, t = 2, p = 1 and RFC 9106's m = 64 MiB, t = 3, p = 1 and 4: fourfold, its js tier and fourfold/parallel against the peers",
  sizes: [19 * MiB, 64 * MiB],
  opSizes: argon2Sizes,
  ops: ['argon2id'],
};

/** --profile=age: age files of 16 and 256 MiB, timed as --profile=scrypt (20 ms to seconds a call: typage at 256 MiB). */
const age: Profile = {
  ...scrypt,
  summary:
    "age files of 16 and 256 MiB, one-shot, streamed, armored and file to file, X25519 and scrypt at work factors 10 and 18: fourfold/age, its every-core form and typage's API on fourfold against typage, the Go age CLI and rage (fourfold's own command beside them)",
  sizes: [16 * MiB, 256 * MiB],
  ops: ['age'],
  libs: ['fourfold', PARALLEL, 'typage', TYPAGE_API, 'age-cli', 'rage-cli', 'fourfold-cli'],
  references: ['typage'],
};

/**
 * --profile=js: the js tier against the pure-JavaScript peers (no
 * secretstream: its one peer is libsodium). A warm-up of 250 ms: unrolled
 * plain JavaScript gets optimized code only after 100 to 300 ms of calls on
 * a busy 2-core machine. The cap times mipher's Serpent at 1 MiB and
 * @noble/hashes' Argon2id at 64 MiB.
 */
const js: Profile = {
  ...standard,
  summary: "fourfold's js tier against the pure-JavaScript peers (@noble/ciphers, @noble/hashes, mipher, blakejs) on every primitive they share",
  parts: ['sizes'],
  timing: { ...standard.timing, sizes: { ...standard.timing.sizes, warmupMs: 250 } },
  opSizes: { scrypt: [16 * MiB], 'scrypt-p4': [], ...argon2Sizes, 'argon2id-t3-p4': [] },
  capMs: 15_000,
  opCapMs: { argon2id: 30_000 },
  // The ciphers, MACs and hashes of --profile=parallel, and the KDFs.
  ops: [...parallel.ops!, 'scrypt', 'argon2id'],
  libs: ['fourfold-js', 'noble', 'noble-hashes', 'mipher', 'blakejs'],
  libsLeftOut: undefined,
};

/** --profile=sodium: fourfold/sodium against libsodium-wrappers-sumo, call for call (core/ops/sodium.ts); the password hashes under a cap of their own. */
const sodium: Profile = {
  ...standard,
  summary: 'fourfold/sodium against libsodium-wrappers-sumo, every call family at 64 B, 1 KiB, 64 KiB, 1 MiB (pwhash at its interactive limits)',
  parts: ['sizes'],
  // As --profile=js: a column's first size timed only once the optimizing compiler's code runs (fourfold/sodium's
  // wrappers and js cores are JavaScript; libsodium's WebAssembly is compiled up front). With the default's 20 ms,
  // at load 18 here, the first op's 64 B row timed fourfold at 39.7 us a call against 2.1 us in the next op.
  timing: { ...standard.timing, sizes: { ...standard.timing.sizes, warmupMs: 250 } },
  sizes: [64, KiB, 64 * KiB, MiB],
  opSizes: {
    'sodium-scalarmult': [32],
    'sodium-kx': [32],
    'sodium-kdf': [32],
    'sodium-pwhash-argon2id': [64 * MiB],
    'sodium-pwhash-scryptsalsa208sha256': [16 * MiB],
  },
  opCapMs: { 'sodium-pwhash': 30_000 },
  ops: ['sodium'],
  // The dependencies' bare calls where a row's work is theirs (SHA-2, HMAC, Ed25519, X25519): the floors of fourfold's columns there.
  libs: ['fourfold', NATIVE, 'sodium', 'node', 'noble-hashes', 'noble-curves'],
  libsLeftOut: undefined,
  references: ['sodium'],
};

/** The profiles by name; `--quick` and `--full` are short for `--profile=quick` and `--profile=full`. */
export const profiles = { default: standard, quick, full, parallel, scrypt, argon2, age, js, sodium } satisfies Record<string, Profile>;
export type ProfileName = keyof typeof profiles;
