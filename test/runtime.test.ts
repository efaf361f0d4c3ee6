/**
 * The runtime in fresh processes (Node, Deno, Bun): a primitive used
 * before ready() compiles its kernel synchronously, so does one imported
 * after ready(); an engine without WebAssembly, without SIMD, or with a
 * policy that refuses to compile or instantiate modules (as a
 * Content-Security-Policy without 'wasm-unsafe-eval' does in browsers)
 * runs the js tier with the same output, after one attempt at most;
 * so does fourfold/parallel's Argon2, its lanes on js workers and here.
 * Browsers: test/pages.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chacha20 as nobleChacha20 } from '@noble/ciphers/chacha.js';
import { argon2id as nobleArgon2id } from '@noble/hashes/argon2.js';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { refCtr } from './serpent/reference.js';

/**
 * Runs `source` as an ES module in a new process of this runtime (Node,
 * Deno or Bun) and returns its stdout. (Print strings: Deno's console.log
 * colours a number argument.)
 */
function runFresh(source: string): string {
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  const args = g.Deno ? ['eval', source] : g.Bun ? ['-e', source] : ['--input-type=module', '-e', source];
  return execFileSync(process.execPath, args, { encoding: 'utf8' }).trim();
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const key = Uint8Array.from({ length: 32 }, (_, i) => i);
const nonce = Uint8Array.from({ length: 12 }, (_, i) => 100 + i);
// Below every crossover to node:crypto (src/chacha/crossovers.ts): these tests are about fourfold's own tiers.
const data = Uint8Array.from({ length: 64 }, (_, i) => i & 0xff);
const expected = hex(nobleChacha20(key, nonce, data));
const call = `
  const key = Uint8Array.from({ length: 32 }, (_, i) => i);
  const nonce = Uint8Array.from({ length: 12 }, (_, i) => 100 + i);
  const data = Uint8Array.from({ length: 64 }, (_, i) => i & 0xff);
  const out = chacha20(key, nonce, data);
  console.log(tier(), Buffer.from(out).toString('hex'));`;

/** Three families, each printed as `tier hex`: ChaCha20, BLAKE3 and Serpent-CTR of `data`. */
const threeFamilies = `
  const key = Uint8Array.from({ length: 32 }, (_, i) => i);
  const data = Uint8Array.from({ length: 64 }, (_, i) => i & 0xff);
  const hex = (b) => Buffer.from(b).toString('hex');
  const { chacha20 } = await import('fourfold/chacha');
  const { blake3 } = await import('fourfold/blake3');
  const { ctr } = await import('fourfold/serpent');
  const { tier } = await import('fourfold');
  const calls = () => {
    const out = [];
    out.push(hex(chacha20(key, key.subarray(0, 12), data)), tier());
    out.push(hex(blake3(data)), tier());
    out.push(hex(ctr(key, key.subarray(0, 16)).encrypt(data)), tier());
    return out.join(' ');
  };`;
const threeExpected = (t: string): string =>
  [hex(nobleChacha20(key, key.subarray(0, 12), data)), t, hex(nobleBlake3(data)), t, hex(refCtr(key, key.subarray(0, 16), data)), t].join(' ');

it('a primitive called before ready() compiles the kernels synchronously and uses the simd tier', () => {
  const output = runFresh(`import { chacha20, tier } from 'fourfold'; ${call}`);
  assert.equal(output, `simd ${expected}`);
});

it('a family first imported after ready() (code splitting) runs on the simd tier without another ready()', () => {
  // ready() from the runtime's modules alone, so that no family's kernel is registered when it runs.
  const runtime = new URL('../dist/runtime/kernels.js', import.meta.url).href;
  const registry = new URL('../dist/runtime/kernel-registry.js', import.meta.url).href;
  const output = runFresh(`
    const { ready } = await import(${JSON.stringify(runtime)});
    const { kernelMemories } = await import(${JSON.stringify(registry)});
    console.log(String(await ready()), String(kernelMemories().length));
    ${threeFamilies}
    console.log(calls());`);
  assert.equal(output, `simd 0\n${threeExpected('simd')}`);
});

it('without WebAssembly (as under a CSP that forbids it), ready() selects the js tier with the same output', () => {
  const output = runFresh(`delete globalThis.WebAssembly;
    const { chacha20, tier, ready } = await import('fourfold');
    console.log(await ready());
    ${call}`);
  assert.equal(output, `js\njs ${expected}`);
});

it("ready({ tier: 'simd' }) rejects where WebAssembly is unavailable instead of falling back", () => {
  const output = runFresh(`delete globalThis.WebAssembly;
    const { ready } = await import('fourfold');
    try { await ready({ tier: 'simd' }); console.log('resolved'); } catch (e) { console.log('rejected', e.message); }`);
  assert.match(output, /^rejected .*simd tier is not available/);
});

/**
 * Replaces WebAssembly's compiling and instantiating entry points by ones
 * that count their calls and throw where `refuse` says so, as a browser
 * enforcing a Content-Security-Policy does: Chromium and Firefox refuse to
 * compile, WebKit to instantiate.
 */
const refusing = (refuse: 'compile' | 'instantiate') => `
  const W = globalThis.WebAssembly;
  let attempts = 0;
  const refused = () => { attempts++; return new W.CompileError('refused by the page policy'); };
  const compiles = ${refuse === 'compile'};
  const Module = W.Module, Instance = W.Instance;
  W.Module = function (bytes) { if (compiles) throw refused(); return new Module(bytes); };
  W.compile = async () => { throw refused(); };
  W.Instance = function (module, imports) { if (!compiles) throw refused(); return new Instance(module, imports); };
  W.instantiate = async () => { throw refused(); };`;

for (const refuse of ['compile', 'instantiate'] as const) {
  it(`where the engine refuses to ${refuse} WebAssembly, three families try once in all and run on the js tier`, () => {
    const output = runFresh(`${refusing(refuse)}
      ${threeFamilies}
      console.log(calls());
      console.log(await (await import('fourfold')).ready(), calls());
      console.log('attempts', String(attempts));`);
    assert.equal(output, `${threeExpected('js')}\njs ${threeExpected('js')}\nattempts 1`);
  });
}

it('without WebAssembly SIMD (WebAssembly.validate refuses v128), the js tier runs without a compile attempt', () => {
  const output = runFresh(`
    let compiles = 0;
    const W = globalThis.WebAssembly;
    const Module = W.Module, compile = W.compile;
    W.validate = () => false;
    W.Module = function (bytes) { compiles++; return new Module(bytes); };
    W.compile = (bytes) => { compiles++; return compile(bytes); };
    ${threeFamilies}
    console.log(calls());
    console.log(await (await import('fourfold')).ready(), 'compiles', String(compiles));`);
  assert.equal(output, `${threeExpected('js')}\njs compiles 0`);
});

/**
 * fourfold/parallel's argon2id with memory shared with one worker and p = 2
 * (a lane on the worker, one here), printed as `hex jobs`: the tag, and
 * whether the worker did jobs.
 */
const parallelArgon2 = `
  const P = await import('fourfold/parallel');
  P.configure({ workers: 1 });
  await P.warm();
  const tag = await P.argon2id('password', 'somesalt', { t: 2, m: 64, p: 2 });
  console.log(Buffer.from(tag).toString('hex'), P.status().jobs > 0 ? 'jobs' : 'no jobs');
  P.terminate();`;
const argon2Expected = `${hex(nobleArgon2id('password', 'somesalt', { t: 2, m: 64, p: 2 }))} jobs`;

for (const refuse of ['compile', 'instantiate'] as const) {
  it(`where the engine refuses to ${refuse} WebAssembly, fourfold/parallel's argon2id runs on js workers and here: the same bytes, one attempt`, () => {
    const output = runFresh(`${refusing(refuse)}
      ${parallelArgon2}
      console.log('attempts', String(attempts));`);
    assert.equal(output, `${argon2Expected}\nattempts 1`);
  });
}

it("without WebAssembly SIMD, fourfold/parallel's argon2id runs on js workers and here without a compile attempt", () => {
  const output = runFresh(`
    let compiles = 0;
    const W = globalThis.WebAssembly;
    const Module = W.Module, compile = W.compile;
    W.validate = () => false;
    W.Module = function (bytes) { compiles++; return new Module(bytes); };
    W.compile = (bytes) => { compiles++; return compile(bytes); };
    ${parallelArgon2}
    console.log('compiles', String(compiles));`);
  assert.equal(output, `${argon2Expected}\ncompiles 0`);
});
