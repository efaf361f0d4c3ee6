/**
 * Command-line options of `npm run bench`, and the profiles they start
 * from; docs/contributing/benchmarks.md tables what each profile covers
 * and what it takes.
 */
import { NATIVE, NODE_JOINED, PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED, TYPAGE_API, workerColumn } from '../core/libraries.js';
import { parts, type BenchConfig, type ParallelSettings, type Part } from '../core/types.js';
import { summarySizes } from '../report/summary.js';
import { engineNames, type EngineName } from './engines.js';

/** Parts the Node-side runner measures itself, next to the engine parts. */
export const runnerParts = ['setup', 'codesize'] as const;
type RunnerPart = (typeof runnerParts)[number];
const allParts: readonly string[] = [...parts, ...runnerParts];

export interface Options {
  readonly engines: EngineName[];
  readonly config: Omit<BenchConfig, 'versions'>;
  readonly runnerParts: RunnerPart[];
  /** The profile's name ('default', 'quick', 'full'). */
  readonly profile: ProfileName;
  /** Fresh processes per library in the setup part. */
  readonly setupRepetitions: number;
  /** How long one engine may run before the runner gives up on it. */
  readonly engineTimeoutMs: number;
  readonly out: string;
  /** Sizes of the Markdown summary table. */
  readonly tableSizes: number[];
}

const KiB = 1 << 10;
const MiB = 1 << 20;

/**
 * A profile: what a run measures unless the command line says otherwise,
 * and how. Each option of the command line overrides its field. The
 * method (warm-up, interleaved rounds, medians, ratios within one run) is
 * the same in every profile; profiles differ in what they cover, how many
 * samples they take, and their cap on one case.
 */
export interface Profile {
  /** One line for --help, with the time it takes in Node on the 2-core development machine. */
  readonly summary: string;
  readonly parts: readonly string[];
  readonly sizes: readonly number[];
  /** Sizes of the ops that have their own (BenchConfig.opSizes: scrypt's, a lane's memory; Argon2id's, a call's); --sizes replaces them too. */
  readonly opSizes?: BenchConfig['opSizes'];
  readonly sweep: BenchConfig['sweep'];
  readonly alignSizes: readonly number[];
  readonly keyCounts: readonly number[];
  readonly timing: BenchConfig['timing'];
  readonly capMs: number;
  /** The cap of some ops' cases (BenchConfig.opCapMs); --cap replaces it too. */
  readonly opCapMs?: BenchConfig['opCapMs'];
  readonly setupRepetitions: number;
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

/**
 * Argon2id's memory (m) by op, each op fixing t and p (core/ops/argon2.ts):
 * OWASP's m = 19 MiB with t = 2, p = 1; RFC 9106's second recommendation,
 * m = 64 MiB with t = 3, on one lane and four ('argon2id-t3-p4' takes
 * 'argon2id-t3''s, its longest prefix here).
 */
const argon2Sizes = { 'argon2id-t2': [19 * MiB], 'argon2id-t3': [64 * MiB] };

/** fourfold/parallel's chart and model at 64 MiB (where its two-core speedup targets are set), its longest task at 256 MiB; no worker-count columns. */
const parallelSettings: ParallelSettings = { workerCounts: [], chartSize: 64 * MiB, taskSize: 256 * MiB, taskCalls: 3 };

/** --full: every part, every length 0..8192 (Bernstein's sweep), 16 MiB, a million keys; its cap leaves out only what takes minutes a case (mipher's Serpent at 16 MiB and over the sweep). */
const full: Profile = {
  summary: "every part but 'parallel', every length 0..8192, 16 MiB, up to a million keys; about an hour",
  parts: allParts.filter((part) => part !== 'parallel'),
  sizes: [64, KiB, 8 * KiB, 64 * KiB, MiB, 16 * MiB],
  opSizes: { scrypt: scryptSizes, ...argon2Sizes, age: [16 * MiB, 256 * MiB] },
  sweep: { from: 0, to: 8192, step: 1 },
  alignSizes: [64, KiB, 64 * KiB],
  keyCounts: [1, 4, 16, 256, 4 * KiB, 64 * KiB, MiB],
  timing: {
    sizes: caseTiming,
    sweep: { warmupMs: 100, passes: 5, minSampleUs: 12 },
    align: { warmupMs: 20, sampleMs: 1, samples: 15, minSamples: 5, budgetMs: 1000 },
    keys: { warmupMs: 20, sampleMs: 1, samples: 15, minSamples: 5, budgetMs: 1500 },
  },
  capMs: 60_000,
  setupRepetitions: 10,
  engineTimeoutMs: 180 * 60_000,
  parallel: parallelSettings,
};

/**
 * The default: the headline comparisons in a few minutes. scrypt (16 MiB)
 * and Argon2id (19 MiB) have a cap of their own: their first calls alone,
 * cold, fill half of the messages' 4 s. The sweep's stride of 127 takes 65
 * lengths, one at every residue modulo 64.
 */
const standard: Profile = {
  summary: 'the summary sizes 64 B..1 MiB, scrypt at 16 MiB, argon2id at 19 MiB, a sparse sweep (per-call overhead), setup, code size; 1 to 4 minutes',
  parts: ['sizes', 'sweep', 'setup', 'codesize'],
  sizes: [64, KiB, 8 * KiB, 64 * KiB, MiB],
  opSizes: { scrypt: [16 * MiB], 'scrypt-p4': [], 'argon2id-t2': [19 * MiB], 'argon2id-t3': [], age: [] },
  sweep: { from: 0, to: 8192, step: 127 },
  alignSizes: full.alignSizes,
  keyCounts: full.keyCounts,
  // 20 ms of warm-up: thousands of calls (at least three), past the engines' optimizing tiers. The sweep's only sizes its batches.
  timing: {
    ...full.timing,
    sizes: { ...caseTiming, warmupMs: 20, samples: 15, budgetMs: 1000 },
    sweep: { warmupMs: 10, passes: 3, minSampleUs: 12 },
  },
  capMs: 4_000,
  opCapMs: { scrypt: 10_000, argon2id: 10_000 },
  libsLeftOut: [PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED],
  setupRepetitions: 3,
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
  alignSizes: [KiB],
  keyCounts: [1, 16, 256, 4 * KiB],
  timing: {
    sizes: { warmupMs: 10, sampleMs: 0.5, samples: 9, minSamples: 3, budgetMs: 300 },
    sweep: { warmupMs: 20, passes: 3, minSampleUs: 10 },
    align: { warmupMs: 5, sampleMs: 0.5, samples: 5, minSamples: 3, budgetMs: 200 },
    keys: { warmupMs: 5, sampleMs: 0.5, samples: 5, minSamples: 3, budgetMs: 300 },
  },
  capMs: 2_000,
  setupRepetitions: 3,
  engineTimeoutMs: 15 * 60_000,
  parallel: parallelSettings,
};

/**
 * --profile=parallel: fourfold/parallel against the synchronous function,
 * the reference for the ratio and the bytes. A call takes tens of ms to
 * seconds, so a sample is one call, after the three the warm-up makes.
 */
const parallel: Profile = {
  summary: 'fourfold/parallel against the synchronous functions at 16, 64 and 256 MiB, speedup by worker count, the model and its projection, the longest task',
  parts: ['sizes', 'parallel'],
  sizes: [16 * MiB, 64 * MiB, 256 * MiB],
  sweep: standard.sweep,
  alignSizes: standard.alignSizes,
  keyCounts: standard.keyCounts,
  timing: { ...standard.timing, sizes: { warmupMs: 0, sampleMs: 1, samples: 5, minSamples: 3, budgetMs: 3000 } },
  // Serpent's CBC encryption, serial, takes seconds per call at 256 MiB.
  capMs: 120_000,
  setupRepetitions: 3,
  engineTimeoutMs: 90 * 60_000,
  ops: ['chacha20', 'xchacha20', 'chacha20poly1305', 'xchacha20poly1305', 'poly1305', 'salsa20', 'xsalsa20', 'xsalsa20poly1305', 'blake3', 'serpent'],
  libs: ['fourfold', 'fourfold (output)', PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED],
  references: ['fourfold'],
  parallel: { ...parallelSettings, workerCounts: [0, 1, 2, 3] },
};

/**
 * --profile=scrypt: one lane and four, of 16 MiB (N = 2^14) and 128 MiB
 * (N = 2^17), every column. A call takes 20 ms to a second or two, so a
 * sample is one call, as in --profile=parallel; the cap leaves no column
 * out here. The asynchronous calls' longest block: bench/harness/blocking.ts.
 */
const scrypt: Profile = {
  summary: 'scrypt with p = 1 and p = 4 at 16 and 128 MiB a lane (N = 2^14, 2^17): fourfold, its js tier and fourfold/parallel against the peers',
  parts: ['sizes'],
  sizes: [16 * MiB, 128 * MiB],
  sweep: standard.sweep,
  alignSizes: standard.alignSizes,
  keyCounts: standard.keyCounts,
  timing: { ...standard.timing, sizes: { warmupMs: 0, sampleMs: 1, samples: 7, minSamples: 5, budgetMs: 3000 } },
  capMs: 120_000,
  setupRepetitions: 3,
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
    "age files of 16 and 256 MiB, one-shot, streamed, armored and file to file, X25519 and scrypt at work factors 10 and 18: fourfold/age, its every-core form and typage's API on fourfold against typage, the Go age CLI and rage",
  sizes: [16 * MiB, 256 * MiB],
  ops: ['age'],
  libs: ['fourfold', PARALLEL, 'typage', TYPAGE_API, 'age-cli', 'rage-cli'],
  references: ['typage'],
};

/**
 * --profile=js: the js tier (what Hermes, node --jitless and hosts without
 * WebAssembly run) against the pure-JavaScript peers; no secretstream,
 * whose one peer is libsodium. A warm-up of 250 ms, not 20: plain
 * JavaScript's unrolled functions run the optimizing compiler's code only
 * after 100 to 300 ms of calls on the busy 2-core machine (its compiler
 * thread shares the cores), and an op's first size would time them before.
 * The cap times mipher's Serpent at 1 MiB and @noble/hashes' Argon2id at 64 MiB.
 */
const js: Profile = {
  ...standard,
  summary: "fourfold's js tier against the pure-JavaScript peers (@noble/ciphers, @noble/hashes, mipher, blakejs) on every primitive they share",
  parts: ['sizes'],
  timing: { ...standard.timing, sizes: { ...standard.timing.sizes, warmupMs: 250 } },
  opSizes: { scrypt: [16 * MiB], 'scrypt-p4': [], ...argon2Sizes, 'argon2id-t3-p4': [] },
  capMs: 15_000,
  opCapMs: { argon2id: 30_000 },
  ops: [
    'chacha20',
    'xchacha20',
    'chacha20poly1305',
    'xchacha20poly1305',
    'poly1305',
    'salsa20',
    'xsalsa20',
    'xsalsa20poly1305',
    'blake3',
    'serpent',
    'scrypt',
    'argon2id',
  ],
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
  libs: ['fourfold', 'sodium'],
  libsLeftOut: undefined,
  references: ['sodium'],
};

/** The profiles by name; `--quick` and `--full` are short for `--profile=quick` and `--profile=full`. */
export const profiles = { default: standard, quick, full, parallel, scrypt, argon2, age, js, sodium } satisfies Record<string, Profile>;
export type ProfileName = keyof typeof profiles;

/** '64', '1k', '16m': a size as the command line takes it. */
const sizeText = (n: number) => (n >= MiB && n % MiB === 0 ? `${n / MiB}m` : n >= KiB && n % KiB === 0 ? `${n / KiB}k` : String(n));

/** A profile's own sizes of some ops: ', scrypt 16m, scrypt-p4 none'. */
const opSizesText = (p: Profile) =>
  Object.entries(p.opSizes ?? {})
    .map(([op, sizes]) => `, ${op} ${sizes.length === 0 ? 'none' : sizes.map(sizeText).join(',')}`)
    .join('');

/** A profile's own caps of some ops: ', scrypt 10'. */
const opCapsText = (p: Profile) =>
  Object.entries(p.opCapMs ?? {})
    .map(([op, ms]) => `, ${op} ${ms / 1000}`)
    .join('');

/** An option's value in the default profile, then in each profile where it differs: '(default: 4; --quick: 2; --full: 60)'. */
function defaults(value: (profile: Profile) => string): string {
  const byDefault = value(profiles.default);
  const others = Object.entries(profiles)
    .filter(([name, profile]) => name !== 'default' && value(profile) !== byDefault)
    .map(([name, profile]) => `; ${name === 'quick' || name === 'full' ? `--${name}` : `--profile=${name}`}: ${value(profile)}`);
  return `(default: ${byDefault}${others.join('')})`;
}

export const usage = `usage: npm run bench -- [options]
  (no option)      ${profiles.default.summary}
  --quick          ${profiles.quick.summary}
  --full           ${profiles.full.summary}
  --profile=parallel
                   ${profiles.parallel.summary}
  --profile=scrypt ${profiles.scrypt.summary}
  --profile=argon2 ${profiles.argon2.summary}
  --profile=age    ${profiles.age.summary}
  --profile=js     ${profiles.js.summary}
  --profile=sodium ${profiles.sodium.summary}
  --profile=name   ${Object.keys(profiles).join(', ')} (--quick and --full are short for two of them)
  --engines=a,b    node, deno, bun, chromium, firefox, webkit, or all (default: node)
  --ops=a,b        ops to run (default: all); 'chacha20poly1305' selects its -encrypt and -decrypt
  --libs=a,b       libraries to time: fourfold, 'fourfold (output)', fourfold-js, '${NATIVE}' (Node, Deno), '${PARALLEL}'
                   (from 2 MiB: below, a call runs inline; scrypt's at any size), noble, 'noble (output)',
                   sodium, node, '${NODE_JOINED}', noble-hashes, hash-wasm, mipher, blakejs, typage, age-cli ${defaults((p) => p.libs?.join(',') ?? (p.libsLeftOut === undefined ? 'all' : `all but ${p.libsLeftOut.join(', ')}`))}
  --workers=a,b    worker counts of the columns '${workerColumn(2)}' and so on, timed at
                   --chart-size wherever '${PARALLEL}' is ${defaults((p) => p.parallel.workerCounts.join(',') || 'none')}
  --chart-size=s   the size of the worker-count columns and of the model ${defaults((p) => sizeText(p.parallel.chartSize))}
  --task-size=s    the size of the longest task during a parallel call ${defaults((p) => sizeText(p.parallel.taskSize))}
  --sizes=a,b      sizes of the summary and the large-message cases, k/m suffixes for KiB/MiB; for every op
                   (scrypt's size is the memory of a lane: 16m is N = 2^14; argon2id's the memory m of a call:
                   19m is m = 19456 KiB)
                   ${defaults((p) => p.sizes.map(sizeText).join(',') + opSizesText(p))}
  --sweep=A-B[:S]  the length sweep: lengths A..B by S
                   ${defaults((p) => `${p.sweep.from}-${p.sweep.to}:${p.sweep.step}`)}
  --offsets=a,b    byteOffsets compared with 0 (default: 1,3,7) at --align-sizes
                   ${defaults((p) => p.alignSizes.map(sizeText).join(','))}
  --keys=a,b|all   numbers of keys to cycle through (powers of two), at --key-size bytes (default: 64);
                   all = 1, 2, 4, ..., 2^20 ${defaults((p) => p.keyCounts.map(sizeText).join(','))}
  --parts=a,b      ${allParts.join(', ')}
                   ${defaults((p) => (p.parts.length === allParts.length ? 'all' : p.parts.join(',')))}
  --cap=seconds    the most one case (or one library's share of a sweep) may take, for every op; a library too slow
                   to fit is reported as capped, not timed; 0: no cap ${defaults((p) => String(p.capMs / 1000) + opCapsText(p))}
  --out=dir        where results.json goes (default: bench-report); it is rewritten as
                   the run goes, so Ctrl-C leaves a report of what was measured
  --render[=dir]   measure nothing: print the summary of dir/results.json (default bench-report)
  --help           this text`;

export function parseSize(text: string): number {
  const match = /^(\d+)\s*(k|kib|m|mib)?$/i.exec(text.trim());
  if (match === null) throw new Error(`not a size: '${text}'`);
  const unit = match[2]?.toLowerCase().startsWith('m') ? MiB : match[2] !== undefined ? KiB : 1;
  return Number(match[1]) * unit;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseSweep(text: string): BenchConfig['sweep'] {
  const match = /^(\w+)-(\w+)(?::(\d+))?$/.exec(text.trim());
  if (match === null) throw new Error(`--sweep expects FROM-TO[:STEP], e.g. 0-8192:1, got '${text}'`);
  const sweep = { from: parseSize(match[1]!), to: parseSize(match[2]!), step: Number(match[3] ?? 1) };
  if (sweep.to < sweep.from || sweep.step < 1) throw new Error(`empty sweep '${text}'`);
  return sweep;
}

function parseKeys(text: string): number[] {
  if (text === 'all') return Array.from({ length: 21 }, (_, i) => 2 ** i);
  const counts = list(text).map(parseSize);
  const bad = counts.filter((n) => n < 1 || (n & (n - 1)) !== 0 || n > MiB);
  if (bad.length > 0) throw new Error(`--keys takes powers of two from 1 to 1m, got ${bad.join(', ')}`);
  return counts;
}

function parseWorkers(text: string): number[] {
  const counts = list(text).map(Number);
  const bad = counts.filter((n) => !Number.isInteger(n) || n < 0);
  if (bad.length > 0) throw new Error(`--workers takes worker counts (0, 1, 2, ...), got '${text}'`);
  return counts;
}

/** --cap: seconds, 0 for none; returned in ms. */
function parseSeconds(text: string): number {
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds < 0) throw new Error(`--cap expects seconds (0 for no cap), got '${text}'`);
  return seconds * 1000;
}

function parseEngines(text: string): EngineName[] {
  if (text === 'all') return [...engineNames];
  const names = list(text);
  const unknown = names.filter((name) => !(engineNames as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown engine: ${unknown.join(', ')} (engines: ${engineNames.join(', ')}, all)`);
  return names as EngineName[];
}

export function parseOptions(argv: readonly string[]): Options | 'help' {
  const values = new Map<string, string>();
  const chosen: string[] = [];
  for (const arg of argv) {
    const eq = arg.indexOf('=');
    const [name, value] = eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
    if (name === '--help' || name === '-h') return 'help';
    if ((name === '--quick' || name === '--full') && value === undefined) chosen.push(name.slice(2));
    else if (name === '--profile' && value !== undefined) chosen.push(value);
    else if (
      value !== undefined &&
      /^--(engines|ops|libs|sizes|sweep|offsets|align-sizes|keys|key-size|parts|cap|out|workers|chart-size|task-size)$/.test(name)
    )
      values.set(name.slice(2), value);
    else throw new Error(`unknown option '${arg}'\n${usage}`);
  }
  if (new Set(chosen).size > 1) throw new Error(`one profile at a time, got ${chosen.join(' and ')}`);
  const profileName = chosen[0] ?? 'default';
  if (!Object.hasOwn(profiles, profileName)) throw new Error(`unknown profile '${profileName}' (profiles: ${Object.keys(profiles).join(', ')})`);
  const profile: Profile = profiles[profileName as ProfileName];
  const get = <T>(name: string, parse: (text: string) => T, fallback: T): T => {
    const text = values.get(name);
    return text === undefined ? fallback : parse(text);
  };

  const chosenParts = get('parts', list, [...profile.parts]);
  const unknownParts = chosenParts.filter((p) => !allParts.includes(p));
  if (unknownParts.length > 0) throw new Error(`unknown part: ${unknownParts.join(', ')} (parts: ${allParts.join(', ')})`);
  const sizes = get('sizes', (t) => list(t).map(parseSize), [...profile.sizes]);
  // Sizes and a cap on the command line are every op's.
  const opSizes = values.has('sizes') ? undefined : profile.opSizes;
  const opCapMs = values.has('cap') ? undefined : profile.opCapMs;

  return {
    engines: get('engines', parseEngines, ['node'] as EngineName[]),
    config: {
      ops: get('ops', list, profile.ops),
      libs: get('libs', list, profile.libs),
      ...(values.has('libs') || profile.libsLeftOut === undefined ? {} : { libsLeftOut: profile.libsLeftOut }),
      parts: parts.filter((p) => chosenParts.includes(p)) as Part[],
      sizes,
      ...(opSizes === undefined ? {} : { opSizes }),
      sweep: get('sweep', parseSweep, profile.sweep),
      offsets: get('offsets', (t) => list(t).map(Number), [1, 3, 7]),
      alignSizes: get('align-sizes', (t) => list(t).map(parseSize), [...profile.alignSizes]),
      keyCounts: get('keys', parseKeys, [...profile.keyCounts]),
      keySize: get('key-size', parseSize, 64),
      timing: profile.timing,
      capMs: get('cap', parseSeconds, profile.capMs),
      ...(opCapMs === undefined ? {} : { opCapMs }),
      references: profile.references,
      parallel: {
        workerCounts: get('workers', parseWorkers, profile.parallel.workerCounts),
        chartSize: get('chart-size', parseSize, profile.parallel.chartSize),
        taskSize: get('task-size', parseSize, profile.parallel.taskSize),
        taskCalls: profile.parallel.taskCalls,
      },
    },
    runnerParts: runnerParts.filter((p) => chosenParts.includes(p)),
    profile: profileName as ProfileName,
    setupRepetitions: profile.setupRepetitions,
    engineTimeoutMs: profile.engineTimeoutMs,
    out: values.get('out') ?? 'bench-report',
    // The summary shows the sizes asked for, or by default the five summary sizes, 64 B to 1 MiB (or the profile's, when it has none of them).
    tableSizes: values.has('sizes') ? sizes : summarySizes(sizes),
  };
}
