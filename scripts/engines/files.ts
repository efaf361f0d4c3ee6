/**
 * Which test files each engine runs. Each engine runs what only it can
 * show; a file it leaves out is reported as skipped with the reason given
 * here, never dropped in silence.
 *
 * - Browsers and shells cannot start processes or run Node's tools
 *   (NOT_BUNDLED), and Hermes has no threads (NOT_IN_SHELLS).
 * - The fourfold command is a Node program: the engines that would only
 *   start the same `node` again leave its tests to `npm test`
 *   (NODE_PROGRAM), and the package's files read with Node's tools are
 *   the same files in every Node (NODE_TOOLS).
 * - The engines that only interpret (node --jitless and Hermes: no JIT, no
 *   WebAssembly) run the files of INTERPRETED alone: that fourfold picks
 *   the js tier by itself there and gives the published bytes, formats,
 *   errors and tiers with no WebAssembly at all. The sweeps of the js tier
 *   (differential tests, streams, the pool, the scheduler, races between
 *   threads) run on the same code in every engine with a JIT, where they
 *   take seconds instead of many minutes.
 * - The ARM64 builds under qemu (Engine.emulator) run the files of EMULATED
 *   alone: that the simd kernels, compiled to ARM64 code there, give the
 *   published bytes and errors. Everything else runs on the same
 *   WebAssembly in the x86-64 engines, without emulation's slowdown.
 * - workerd runs the files of AT_THE_EDGE alone: what the edge entry
 *   points show where no WebAssembly is compiled from bytes.
 */
import type { Engine, EngineId } from './engines.js';

/** The tests that read the package's files (its declarations, docs, tarball) with Node's tools. */
const PACKAGE_FILES_READ = [
  'test/package/browser-field.test.ts',
  'test/package/contributor-docs.test.ts',
  'test/package/declarations.test.ts',
  'test/package/engine-harness.test.ts',
  'test/package/docs.test.ts',
  'test/package/imports.test.ts',
  'test/package/kernel-hashes.test.ts',
  'test/package/names.test.ts',
  'test/package/packed.test.ts',
  'test/package/results.test.ts',
  'test/package/sizes.test.ts',
];

/** Test files that cannot run in a browser or a shell (bundled engines without processes), and why. */
const NOT_BUNDLED: Record<string, string> = {
  'test/runtime.test.ts': 'starts fresh processes of the runtime (node:child_process)',
  'test/cli/b3sum.test.ts': 'runs the fourfold and b3sum commands (node:child_process)',
  'test/cli/fourfold.test.ts': 'runs the fourfold command (node:child_process)',
  'test/cli/compile-cache.test.ts': 'runs the fourfold command as root and as a second user (node:child_process, setpriv)',
  'test/cli/plugin-path.test.ts': "runs the fourfold command and age plugins as root and a second user's programs (node:child_process, setpriv)",
  'test/cli/loads.test.ts': 'runs the fourfold command and lists the modules it loads (node:child_process)',
  'test/cli/pipeline.test.ts': 'runs the fourfold command on a FIFO (node:child_process)',
  'test/cli/age-command.test.ts': 'runs the fourfold, age and rage commands (node:child_process)',
  'test/cli/age-files.test.ts': 'runs the fourfold, age and rage commands (node:child_process)',
  'test/cli/age-keys.test.ts': 'runs the fourfold, age and rage commands (node:child_process)',
  'test/cli/age-plugins.test.ts': "runs the fourfold and age commands and age's plugins (node:child_process)",
  'test/age/disk-full.test.ts': 'runs the file calls in a child process with a file-size limit (node:child_process, a shell)',
  'test/age/outputs-command.test.ts': 'makes FIFOs and devices (mkfifo, mknod) and runs the command in child processes (node:child_process)',
  'test/age/outputs-files.test.ts': 'makes FIFOs and devices (mkfifo, mknod) and runs the calls in child processes (node:child_process)',
  'test/age/outputs-handles.test.ts': 'opens handles with node:fs, one of a device made with mknod (node:child_process)',
  'test/runtime/x25519-collection.test.ts': "starts Node with V8's flags (node:child_process)",
  'test/runtime/edge.test.ts': "bundles the package with esbuild's native binary and runs the bundles in node:vm contexts",
  'test/runtime/throwing-host.test.ts': "bundles the package with esbuild's native binary and runs the bundle in node:vm contexts",
  ...Object.fromEntries(
    [...PACKAGE_FILES_READ, 'test/package/readme.test.ts'].map((f) => [
      f,
      "reads the package's own files with Node's tools (npm, the TypeScript compiler): the same files in every engine, checked in Node",
    ]),
  ),
};

/** And those that cannot run in a shell (Hermes), or show nothing there. */
const NO_THREADS = 'tests the worker pool, and Hermes has no threads (test/parallel/no-threads.test.ts runs instead)';
const NOT_IN_SHELLS: Record<string, string> = {
  ...Object.fromEntries(
    [
      'test/blake3/parallel.test.ts',
      'test/parallel/aead.test.ts',
      'test/parallel/argon2-phc.test.ts',
      'test/parallel/bytes.test.ts',
      'test/parallel/faults-bounds.test.ts',
      'test/parallel/faults-ended.test.ts',
      'test/parallel/faults-inputs.test.ts',
      'test/parallel/pool.test.ts',
      'test/parallel/secretstream.test.ts',
    ].map((f) => [f, NO_THREADS]),
  ),
  'test/chacha/native.test.ts':
    'tests the native tier (node:crypto), which Hermes lacks: that no call goes native without it, the browsers show with a JIT in seconds (a minute here)',
  // The scheduler's tests time fake workers with setTimeout, whose delay the Hermes shell ignores (a
  // 150 ms timer fired at 0 ms here); React Native's timers are real, and without Worker the scheduler
  // never gives a job there.
  'test/parallel/schedule.test.ts':
    "times fake workers with setTimeout, whose delay the Hermes shell ignores (React Native's timers are real; with no Worker, Hermes never schedules a job)",
};

/**
 * Tests of the fourfold command, a Node program: Deno and Bun run it with
 * the system's `node`, node --jitless with node without --jitless (the
 * option does not reach the processes a test starts), so they would start
 * the very processes `npm test` starts. The current Node runs them with
 * itself, and so does `node`; age's against age and rage run in npm test
 * alone (NODE_ENGINES_SKIP).
 */
const NODE_PROGRAM: Record<string, string> = {
  ...Object.fromEntries(
    [
      'test/cli/b3sum.test.ts',
      'test/cli/compile-cache.test.ts',
      'test/cli/fourfold.test.ts',
      'test/cli/loads.test.ts',
      'test/cli/pipeline.test.ts',
      'test/cli/plugin-path.test.ts',
    ].map((f) => [f, "runs the fourfold command, a Node program, with the system's node: the same processes as npm test's"]),
  ),
  'test/age/typage-tiers.test.ts': 'runs the typage API alone in a new node process (--input-type=module -e), as a page has it: no other entry loaded',
  // Its hosts are node:vm contexts with WebAssembly code generation off, an option of Node's node:vm alone.
  'test/runtime/edge.test.ts': "runs bundles in node:vm contexts that refuse to compile WebAssembly, an option Deno's and Bun's node:vm lack",
  // Its hosts are node:vm contexts given Node's own globals and worker_threads, one of them made to throw.
  'test/runtime/throwing-host.test.ts': "runs a bundle in node:vm contexts with Node's globals and worker_threads, one of them throwing",
};

/** node --jitless's option does not reach the processes a test starts: these would start the processes npm test starts. */
const NOT_JITLESS: Record<string, string> = {
  'test/runtime.test.ts':
    "starts fresh processes of node, which --jitless does not reach: the same processes as npm test's (they take WebAssembly away themselves)",
};

/**
 * Test files every engine leaves to `npm test`: the differential fuzzing
 * spends its budget once, in Node, against node:crypto, libsodium and
 * typage; its cases run the same js and simd code in every engine, and
 * `npm run fuzz` is its long run. The constant-time checks read bytes and
 * source that no engine changes.
 */
const NPM_TEST_ONLY: Record<string, string> = {
  'test/fuzz/fuzz.test.ts':
    "the differential fuzzing's budget is spent once, in Node (npm test), against node:crypto, libsodium and typage: the same js and simd code every engine runs",
  'test/trust/wasm-constant-time.test.ts':
    "the constant-time check reads the WebAssembly the package ships, the same bytes in every engine, with binaryen and Node's file system: npm test runs it",
  'test/sodium/programs.test.ts':
    "reads fourfold/sodium's declarations with the TypeScript compiler: npm test runs its programs; the calls are the same js and simd code every engine runs test/sodium's other files on",
  'test/trust/js-constant-time.test.ts':
    "the constant-time lint reads the js tiers' source, the same in every engine, with the TypeScript compiler: npm test runs it",
  'test/age/typage-bundle.test.ts':
    "bundles a page of the typage API with esbuild's native binary, the same bundle whichever engine starts it: npm test runs it",
};

/** Test files whose peers are native addons, which a bundle cannot load: node and node-current run them. */
const NODE_ADDONS: Record<string, string> = {
  'test/argon2/peer-hashes.test.ts':
    'makes its strings with node-argon2 and @node-rs/argon2, native addons that no bundle loads: test/argon2/stored-hashes.test.ts checks them, recorded, in every engine',
};

/** Test files the Node engines leave to `npm test`. */
const NODE_ENGINES_SKIP: Record<string, string> = {
  'test/cli/age-command.test.ts': 'runs the fourfold command with the system node against age and rage: npm test runs it',
  'test/cli/age-files.test.ts': 'runs the fourfold command with the system node against age and rage: npm test runs it',
  'test/cli/age-keys.test.ts': 'runs the fourfold command with the system node against age and rage: npm test runs it',
  'test/cli/age-plugins.test.ts': "runs the fourfold command with the system node, driving age's plugins: npm test runs it",
};

/** What the package's files are, read with Node's tools: the same in every Node, so `node` (and npm test) alone reads them. */
const NODE_TOOLS: Record<string, string> = Object.fromEntries(
  PACKAGE_FILES_READ.map((f) => [
    f,
    "reads the package's own files with Node's tools: the same files whichever Node reads them; node (and npm test) checks them",
  ]),
);

/**
 * What the engines without a JIT run (node --jitless, Hermes), by what it
 * shows there. `*` stands for one path segment.
 */
export const INTERPRETED: { shows: string; files: string[] }[] = [
  {
    shows: "the published vectors (known answers), on the js tier fourfold chose itself, and age's X25519 without WebCrypto's (Hermes)",
    files: ['test/*/vectors.test.ts', 'test/age/testkit.test.ts', 'test/age/x25519.test.ts', 'test/poly1305/poly1305.test.ts', 'test/serpent/sboxes.test.ts'],
  },
  // Argon2's files: vectors.test.ts and errors.test.ts run here (10 to 16 s each in node --jitless, 9 in Hermes: the
  // vectors file runs the small ones on the js tier and the errors file small calls). phc-*.test.ts, a format, do not:
  // their strings are hashed at OWASP's 19 MiB and checked against libsodium and hash-wasm, 105 s without a JIT, for
  // the same js-tier code the vectors give; stored-hashes and bcrypt-*.test.ts neither (bcrypt to cost 10, node-argon2's string at
  // 64 MiB). differential.test.ts sweeps the js tier; wipe.test.ts checks the simd tier's memory, which an interpreter lacks.
  {
    shows: 'the formats: age files made and read (with typage too), the bounds of their headers, secretstream messages',
    files: ['test/age/files.test.ts', 'test/age/header.test.ts', 'test/age/typage.test.ts', 'test/secretstream/stream.test.ts'],
  },
  {
    shows: 'the errors: every argument check and failure, with the same types and messages as where WebAssembly runs',
    files: ['test/*/errors.test.ts', 'test/chacha/aead-errors.test.ts', 'test/age/typage-errors.test.ts', 'test/runtime/messages.test.ts'],
  },
  {
    shows:
      "the tiers: ready() and tier() with no WebAssembly, every export's result, node:crypto's crossovers above the js tier (node --jitless), no threads and no crypto.getRandomValues (Hermes)",
    files: [
      'test/exports.test.ts',
      'test/runtime/tiers.test.ts',
      'test/chacha/native.test.ts',
      'test/parallel/no-threads.test.ts',
      'test/secretstream/environment.test.ts',
    ],
  },
];

/**
 * What the ARM64 engines under qemu run: the published vectors and the
 * peers' answers (Poly1305's), where the simd tier's kernels meet the
 * ARM64 code the engine compiled them to; the errors; and the tier
 * selection that puts the kernels there. The sweeps (differential tests,
 * streams, the pool) run on the same WebAssembly in the x86-64 engines,
 * and so do the age files but the test kit, which goes through age's
 * whole stack. Inside these files `{ skip: EMULATED }` (test/helpers.ts)
 * leaves out the js tier (the same JavaScript on every machine), the test
 * kit's stream and pool passes, and the vectors of a GiB or more (Argon2's
 * above 64 MiB-passes, scrypt's fourth): with them Node alone took 330 s
 * here, without them 90 s.
 */
export const EMULATED: { shows: string; files: string[] }[] = [
  {
    shows: "the published vectors and age's test kit on the simd tier's ARM64 code",
    files: ['test/*/vectors.test.ts', 'test/age/testkit.test.ts', 'test/poly1305/poly1305.test.ts'],
  },
  {
    shows: 'the errors: argument checks and failures, the same types and messages on ARM64',
    files: ['test/*/errors.test.ts', 'test/chacha/aead-errors.test.ts'],
  },
  { shows: 'the tiers: ready() picks the simd tier on ARM64 and objects live through a change of tier', files: ['test/runtime/tiers.test.ts'] },
];

/**
 * What workerd runs (Cloudflare Workers' runtime, which compiles no
 * WebAssembly from bytes), by what it shows there: that the edge entry
 * points (dist/edge, the `workerd` condition) put every kernel on the simd
 * tier from modules the host compiled, with the published bytes, formats
 * and errors. The rest is the same code on the same V8 as Node's and
 * Deno's, or needs what a Worker lacks (threads, files, processes).
 */
export const AT_THE_EDGE: { shows: string; files: string[] }[] = [
  {
    shows: "the published vectors on the simd tier, from the kernels handed over as modules, Argon2's PHC strings and the stored hashes (bcrypt's too)",
    files: [
      'test/*/vectors.test.ts',
      'test/age/testkit.test.ts',
      'test/poly1305/poly1305.test.ts',
      'test/argon2/phc-b64.test.ts',
      'test/argon2/phc-hash.test.ts',
      'test/argon2/phc-peers.test.ts',
      'test/argon2/phc-verify.test.ts',
      'test/argon2/bcrypt-passwords.test.ts',
      'test/argon2/bcrypt-strings.test.ts',
      'test/argon2/stored-hashes.test.ts',
    ],
  },
  {
    shows: 'the formats: age files made and read, the bounds of their headers, secretstream messages',
    files: ['test/age/files.test.ts', 'test/age/header.test.ts', 'test/secretstream/stream.test.ts'],
  },
  {
    shows: 'the errors: every argument check and failure',
    files: ['test/*/errors.test.ts', 'test/chacha/aead-errors.test.ts', 'test/runtime/messages.test.ts'],
  },
  // workerd runs a MessageChannel's messages ahead of every timer: the async calls' turns must let its timers in (argon2's in errors.test.ts).
  // Calls at once do not share turns there (pool/turns.ts sharedTicker): test/runtime/shared-turns.test.ts is not run.
  { shows: "the async calls: turns that let the Worker's timers in, progress, an abort", files: ['test/scrypt/async.test.ts'] },
  { shows: 'the tiers: ready() and tier() where the kernels came as modules', files: ['test/runtime/tiers.test.ts'] },
];

const NOT_AT_THE_EDGE =
  "not run in workerd: the same code on the same V8 as Node's and Deno's, or what a Worker lacks (threads, files, processes); workerd runs the vector, format, error, async and tier tests";

const NOT_INTERPRETED =
  'not run without a JIT: a sweep of the js tier, its streams, the pool or threads, which every engine with a JIT runs on the same code in seconds and an interpreter in minutes, showing nothing more; the interpreters run the vector, format, error and tier tests';

const NOT_EMULATED =
  "not run under emulation: the x86-64 engines run it on the same WebAssembly in seconds; the ARM64 engines run the vector, error and tier tests, where the simd kernels' ARM64 code shows";

const pattern = (glob: string): RegExp => new RegExp(`^${glob.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
const INTERPRETED_FILES = INTERPRETED.flatMap((g) => g.files.map(pattern));
const EMULATED_FILES = EMULATED.flatMap((g) => g.files.map(pattern));
const AT_THE_EDGE_FILES = AT_THE_EDGE.flatMap((g) => g.files.map(pattern));

/** Where an engine that only interprets (Engine.slow) runs `file`. */
const interpreted = (file: string): boolean => INTERPRETED_FILES.some((p) => p.test(file));

const NODE_ENGINES: readonly EngineId[] = ['node', 'node-current', 'node-jitless'];

/** Why `engine` does not run `file`, or undefined where it runs it. */
export function notRun(engine: Engine, file: string): string | undefined {
  const isNode = NODE_ENGINES.includes(engine.id);
  if (NPM_TEST_ONLY[file] !== undefined) return NPM_TEST_ONLY[file];
  if (engine.id !== 'node' && engine.id !== 'node-current' && NODE_ADDONS[file] !== undefined) return NODE_ADDONS[file];
  if (engine.kind === 'worker' && !AT_THE_EDGE_FILES.some((p) => p.test(file))) return NOT_AT_THE_EDGE;
  if (engine.kind !== 'script' && NOT_BUNDLED[file] !== undefined) {
    return `not applicable in ${engine.kind === 'browser' ? 'browsers' : 'shells'}: ${NOT_BUNDLED[file]}`;
  }
  if (engine.kind === 'shell' && NOT_IN_SHELLS[file] !== undefined) return `not applicable in shells: ${NOT_IN_SHELLS[file]}`;
  if (isNode && NODE_ENGINES_SKIP[file] !== undefined) return NODE_ENGINES_SKIP[file];
  if (engine.id !== 'node' && engine.id !== 'node-current' && NODE_PROGRAM[file] !== undefined) return NODE_PROGRAM[file];
  if (isNode && engine.id !== 'node' && NODE_TOOLS[file] !== undefined) return NODE_TOOLS[file];
  if (engine.id === 'node-jitless' && NOT_JITLESS[file] !== undefined) return NOT_JITLESS[file];
  if (engine.slow !== undefined && !interpreted(file)) return NOT_INTERPRETED;
  if (engine.emulator !== undefined && !EMULATED_FILES.some((p) => p.test(file))) return NOT_EMULATED;
  return undefined;
}

/** Every test file these tables name must exist (a renamed file would otherwise be run everywhere, or nowhere, unnoticed). */
export function checkTables(files: readonly string[]): void {
  const tables = [NOT_BUNDLED, NOT_IN_SHELLS, NODE_PROGRAM, NOT_JITLESS, NODE_ENGINES_SKIP, NODE_TOOLS, NPM_TEST_ONLY, NODE_ADDONS];
  const named = tables.flatMap((t) => Object.keys(t));
  const missing = named.filter((f) => !files.includes(f));
  const unmatched = [...INTERPRETED, ...EMULATED, ...AT_THE_EDGE].flatMap((g) => g.files).filter((glob) => !files.some((f) => pattern(glob).test(f)));
  if (missing.length || unmatched.length) {
    throw new Error(`scripts/engines/files.ts names test files that are not there: ${[...missing, ...unmatched].join(', ')}`);
  }
}
