/**
 * The runtime in fresh processes: a primitive used before ready() compiles
 * the kernels synchronously (Node), and an engine without WebAssembly falls
 * back to the pure-JS tier with the same output.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chacha20 as nobleChacha20 } from '@noble/ciphers/chacha.js';

/** Runs `source` as an ES module in a new process of this runtime (Node, Deno or Bun) and returns its stdout. */
function runFresh(source: string): string {
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  const args = g.Deno ? ['eval', source] : g.Bun ? ['-e', source] : ['--input-type=module', '-e', source];
  return execFileSync(process.execPath, args, { encoding: 'utf8' }).trim();
}

const key = Uint8Array.from({ length: 32 }, (_, i) => i);
const nonce = Uint8Array.from({ length: 12 }, (_, i) => 100 + i);
const data = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
const expected = Buffer.from(nobleChacha20(key, nonce, data)).toString('hex');
const call = `
  const key = Uint8Array.from({ length: 32 }, (_, i) => i);
  const nonce = Uint8Array.from({ length: 12 }, (_, i) => 100 + i);
  const data = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
  const out = chacha20(key, nonce, data);
  console.log(tier(), Buffer.from(out).toString('hex'));`;

it('a primitive called before ready() compiles the kernels synchronously and uses the simd tier', () => {
  const output = runFresh(`import { chacha20, tier } from 'fourfold'; ${call}`);
  assert.equal(output, `simd ${expected}`);
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
