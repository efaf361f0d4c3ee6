/**
 * Hosts that compile WebAssembly only from the modules their bundler
 * imports (Cloudflare Workers, Vercel's edge): a V8 context whose code
 * generation for WebAssembly is off (node:vm's codeGeneration.wasm,
 * which is how the edge-runtime package runs Vercel's edge functions),
 * running a bundle of each subpath as an edge bundler makes it: esbuild
 * with the `edge-light` condition, each `.wasm?module` import bound to
 * the kernel's file compiled outside the context, as the host does.
 *
 * - every subpath's edge entry point (dist/edge) hands over the kernels
 *   its code reaches: its call runs on the simd tier, with the bytes the
 *   default build gives in Node;
 * - the default entry points there run on the js tier, the same bytes,
 *   and say why: simdUnavailable() and one console warning naming the fix;
 * - useKernels(): modules handed over after a refused probe, only some
 *   kernels handed over (the others stay on the js tier, by name), and
 *   every kind of bad argument refused before anything is taken.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { kernelModules } from '../../scripts/package-check/edge.js';
import { KERNELS } from '../../src/kernels.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KERNEL_DIR = join(ROOT, 'dist/kernels');
const g = globalThis as { Deno?: unknown; Bun?: unknown };
/** node:vm's contexts whose WebAssembly code generation is off are Node's (Deno and Bun do not implement the option). */
const skip =
  g.Deno === undefined && g.Bun === undefined
    ? false
    : "not applicable: node:vm's codeGeneration option, which makes the context that refuses to compile, is Node's";

/** Each subpath's call (its result as hexadecimal text) in a bundle of that subpath alone: `F` is the subpath's module. */
const CALLS: Record<string, string> = {
  fourfold: 'hex(F.blake3(data))',
  'fourfold/chacha': 'hex(F.xchacha20poly1305(key, nonce24).encrypt(data))',
  'fourfold/poly1305': 'hex(F.poly1305(data, key))',
  'fourfold/blake3': 'hex(F.blake3(data, { dkLen: 100 }))',
  'fourfold/serpent': 'hex(F.ctr(key, nonce24.subarray(0, 16)).encrypt(data))',
  'fourfold/salsa': 'hex(F.secretbox(key, nonce24).seal(data))',
  'fourfold/secretstream': '(() => { const p = F.initPush(key); return hex(F.initPull(p.header, key).pull(p.push(data)).message); })()',
  'fourfold/scrypt': "hex(F.scrypt('pw', nonce24, { N: 1024, r: 8, p: 1 }))",
  'fourfold/argon2': "hex(F.argon2id('pw', nonce24, { t: 2, m: 256 }))",
  'fourfold/age': "hex(await F.decrypt(await F.encrypt(data, { passphrase: 'pw', workFactor: 4 }), { passphrase: 'pw' }))",
  'fourfold/parallel': 'hex(await F.blake3(data))',
  // typage's API: a passphrase file written and read (the pool's runners, on the calling thread here).
  'fourfold/age/typage':
    "await (async () => { const e = new F.Encrypter(); e.setScryptWorkFactor(4); e.setPassphrase('pw'); const d = new F.Decrypter(); d.addPassphrase('pw'); return hex(await d.decrypt(await e.encrypt(data))); })()",
  // The default export (libsodium-wrappers' object), which the edge entry names again, and a named call.
  'fourfold/sodium': "F.crypto_generichash(32, data, key, 'hex') + hex(F.default.crypto_secretbox_easy(data, nonce24, key))",
};

const subpaths = Object.keys(CALLS);

/** The program: the subpath's call, then what fourfold says of its tier; `globalThis.run` runs it. */
function program(subpath: string, handOver = ''): string {
  return `
import * as F from '${subpath}';
import { ready, simdUnavailable, tier } from '${join(ROOT, 'dist/runtime/kernels.js')}';
import { useKernels } from '${join(ROOT, 'dist/runtime/use-kernels.js')}';
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const data = new Uint8Array(3000).map((_, i) => (i * 7) & 255);
const key = new Uint8Array(32).map((_, i) => i);
const nonce24 = new Uint8Array(24).map((_, i) => 100 + i);
globalThis.run = async (warm) => {
  if (warm) await ready();
  ${handOver}
  const out = ${CALLS[subpath]};
  return { out, tier: tier(), why: simdUnavailable() };
};
globalThis.useKernels = useKernels;
`;
}

/** A bundle of `code` for an edge host (`edge-light`) or for any other (the default entry points). */
async function bundle(code: string, edge: boolean): Promise<string> {
  const result = await build({
    stdin: { contents: code, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    conditions: edge ? ['edge-light', 'worker', 'browser'] : ['worker', 'browser'],
    plugins: [kernelModules],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** Every kernel of dist/kernels, compiled here, outside the context. */
const compiled: Record<string, WebAssembly.Module> = Object.fromEntries(
  readdirSync(KERNEL_DIR).map((f) => [f.replace(/\.wasm$/, ''), new WebAssembly.Module(readFileSync(join(KERNEL_DIR, f)))]),
);

interface Outcome {
  out: string;
  tier: string;
  why: string | undefined;
  warnings: string[];
}

/** What an edge host gives a context beside JavaScript's own: WebCrypto, text codecs, timers, streams. */
const hostGlobals = (): Record<string, unknown> => ({
  crypto: globalThis.crypto,
  TextEncoder,
  TextDecoder,
  setTimeout,
  clearTimeout,
  queueMicrotask,
  ReadableStream,
  WritableStream,
  TransformStream,
});

/** Runs `code` in a fresh context that refuses to compile WebAssembly, with what a host gives (the kernels, WebCrypto, timers, streams). */
async function runRefusing(code: string): Promise<Outcome & { context: Record<string, unknown> }> {
  const warnings: string[] = [];
  const context = createContext(
    { ...hostGlobals(), kernels: compiled, console: { warn: (message: string) => warnings.push(message), log() {}, error() {} } },
    { codeGeneration: { strings: false, wasm: false } },
  );
  runInContext(code, context);
  const result = await (context.run as () => Promise<Omit<Outcome, 'warnings'>>)();
  return { ...result, warnings, context };
}

/** What the default build gives for each subpath's call in Node (compiled normally): the bytes the edge must match. */
async function expected(subpath: string): Promise<string> {
  const code = await bundle(program(subpath), false);
  const context = createContext({ ...hostGlobals(), console });
  runInContext(code, context);
  // No Node host in the context: kernels compile in the background, as on a page, until ready().
  const result = await (context.run as (warm: boolean) => Promise<Omit<Outcome, 'warnings'>>)(true);
  assert.equal(result.tier, 'simd', `${subpath}: Node compiles the kernels`);
  return result.out;
}

it('dist/kernels holds every kernel src/kernels.ts generates', { skip }, () => {
  assert.deepEqual(Object.keys(compiled).sort(), Object.keys(KERNELS).sort());
});

it('every subpath has an edge entry point that package.json gives under workerd and edge-light', { skip }, () => {
  const exports = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, Record<string, unknown>>;
  for (const subpath of subpaths) {
    const entry = exports[subpath === 'fourfold' ? '.' : `./${subpath.slice('fourfold/'.length)}`]!;
    assert.equal(Object.keys(entry)[0], 'workerd', `${subpath}: its first condition (a condition after require or default would never be reached)`);
    assert.equal(entry.workerd, entry['edge-light'], subpath);
    assert.ok(readFileSync(join(ROOT, entry.workerd as string), 'utf8').includes('useKernels('), subpath);
  }
});

it("each subpath's edge entry point runs its calls on the simd tier where compiling is refused, with Node's bytes", { skip }, async () => {
  for (const subpath of subpaths) {
    const r = await runRefusing(await bundle(program(subpath), true));
    assert.equal(r.out, await expected(subpath), subpath);
    assert.deepEqual({ tier: r.tier, why: r.why }, { tier: 'simd', why: undefined }, subpath);
    // fourfold/parallel finds no workers in such a context and says so; nothing else warns.
    assert.deepEqual(
      r.warnings.filter((w) => !w.startsWith('fourfold/parallel: workers are not available')),
      [],
      subpath,
    );
  }
});

it("fourfold/parallel's and fourfold/age/typage's edge entry points have no Web Worker form, which their default ones have for pages", { skip }, async () => {
  // webpack's runtime for new Worker(new URL(..., import.meta.url)) reads document.baseURI as an edge bundle loads (Next.js's edge).
  const form = /new Worker\(new URL\("\.\/worker(-js)?\.js", /g;
  for (const subpath of ['fourfold/parallel', 'fourfold/age/typage']) {
    const code = `import * as P from '${subpath}'; globalThis.P = P;`;
    assert.equal((await bundle(code, false)).match(form)?.length, 2, subpath);
    assert.equal((await bundle(code, true)).match(form), null, subpath);
  }
});

it('the default entry points there run on the js tier, the same bytes, and say why once', { skip }, async () => {
  for (const subpath of ['fourfold/chacha', 'fourfold/argon2', 'fourfold/age']) {
    const r = await runRefusing(await bundle(program(subpath), false));
    assert.equal(r.out, await expected(subpath), subpath);
    assert.equal(r.tier, 'js', subpath);
    assert.match(r.why ?? '', /disallowed by embedder/, subpath);
    const ours = r.warnings.filter((w) => w.startsWith('fourfold: '));
    assert.equal(ours.length, 1, `${subpath}: ${ours}`);
    assert.match(
      ours[0]!,
      /^fourfold: WebAssembly refused \(the SIMD probe: .*disallowed by embedder\): calls run on the js tier, slower; see docs\/edge\.md$/,
      subpath,
    );
  }
});

it('useKernels after calls on the js tier: the next calls run on the simd tier', { skip }, async () => {
  const code = await bundle(program('fourfold/chacha'), false);
  const first = await runRefusing(code);
  assert.equal(first.tier, 'js');
  const context = first.context;
  (context.useKernels as (k: unknown) => void)({ chacha: compiled.chacha });
  const again = await (context.run as () => Promise<Omit<Outcome, 'warnings'>>)();
  assert.deepEqual({ out: again.out, tier: again.tier, why: again.why }, { out: first.out, tier: 'simd', why: undefined });
});

it('kernels handed over in part: those run, the others stay on the js tier and are named', { skip }, async () => {
  // The argon2 kernel alone, then a ChaCha call: ChaCha's bytes may not be compiled, Argon2's module runs.
  const handOver = 'useKernels({ argon2: globalThis.kernels.argon2 });';
  const extra = [
    "import { argon2id } from 'fourfold/argon2';",
    "globalThis.argon2 = () => { argon2id('pw', nonce24, { t: 1, m: 64 }); return tier(); };",
    // With no host to say it may compile synchronously, ChaCha's compile is tried in the background; ready() awaits it.
    'globalThis.settled = async () => { await ready(); return simdUnavailable(); };',
  ].join('\n');
  const r = await runRefusing(await bundle(`${program('fourfold/chacha', handOver)}\n${extra}`, false));
  assert.equal(r.out, await expected('fourfold/chacha'));
  assert.equal(r.tier, 'js');
  assert.match((await (r.context.settled as () => Promise<string | undefined>)()) ?? '', /^the chacha kernel: .*disallowed by embedder/);
  assert.equal(r.warnings.filter((w) => w.startsWith('fourfold: ')).length, 1);
  assert.equal((r.context.argon2 as () => string)(), 'simd');
  const again = await (r.context.run as () => Promise<{ tier: string }>)();
  assert.equal(again.tier, 'js', 'ChaCha stays on the js tier');
});

it('useKernels refuses what is not a kernel, before taking any', { skip }, async () => {
  const { useKernels } = await import('fourfold');
  const other = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  const cases: [unknown, RegExp, ErrorConstructor][] = [
    [undefined, /kernels must be an object of WebAssembly modules by name, got undefined/, TypeError],
    [[compiled.chacha], /kernels must be an object/, TypeError],
    [
      { chacha: compiled.chacha, aes: other },
      /no kernel is named 'aes' \(the kernels: chacha, blake3, blake2, serpent, salsa, scrypt, argon2, argon2_shared, siphash\)/,
      RangeError,
    ],
    [{ toString: compiled.chacha }, /no kernel is named 'toString'/, RangeError],
    [{ chacha: new Uint8Array(8) }, /kernels\.chacha must be a WebAssembly\.Module, got Uint8Array/, TypeError],
    [{ chacha: Promise.resolve(compiled.chacha) }, /kernels\.chacha must be a WebAssembly\.Module, got a Promise: missing await\?/, TypeError],
    [{ blake3: compiled.chacha }, /kernels\.blake3 is not fourfold's blake3 kernel/, TypeError],
    [{ argon2: compiled.argon2_shared }, /kernels\.argon2 is not fourfold's argon2 kernel/, TypeError],
    [{ argon2_shared: compiled.argon2 }, /kernels\.argon2_shared is not fourfold's argon2_shared kernel/, TypeError],
    [{ serpent: other }, /kernels\.serpent is not fourfold's serpent kernel/, TypeError],
  ];
  for (const [kernels, message, type] of cases) {
    assert.throws(
      () => useKernels(kernels as never),
      (e: unknown) => e instanceof type && message.test((e as Error).message),
      String(message),
    );
  }
  // Every kernel of dist/kernels is taken under its own name.
  useKernels(compiled);
});
