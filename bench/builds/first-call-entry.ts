/**
 * The page side of bench/builds/first-call.ts: one build of fourfold (the
 * bundler aliases `F` to its dist/ directory), one family imported, as a
 * one-import page would. Reports, in ms since the page's time origin, when
 * this script started (the library's module code runs after it, at its import) and when
 * the first call on the simd tier returned: after `await ready()` (MODE
 * 'ready'), or with no ready() at all, calling every 2 ms (MODE 'none').
 */
declare const FAMILY: 'blake3' | 'xchacha20poly1305';
declare const MODE: 'ready' | 'none';
type Blake3Module = typeof import('../../src/blake3/index.js');
type ChachaModule = typeof import('../../src/chacha/index.js');
type KernelsModule = typeof import('../../src/runtime/kernels.js');

const started = performance.now();

export default async function main(): Promise<unknown> {
  const { tier, ready } = (await import('F/runtime/kernels.js' as string)) as KernelsModule;
  const data = new Uint8Array(1024);
  let call: (d: Uint8Array) => Uint8Array;
  if (FAMILY === 'blake3') {
    const { blake3 } = (await import('F/blake3/index.js' as string)) as Blake3Module;
    call = (d) => blake3(d);
  } else {
    const { xchacha20poly1305 } = (await import('F/chacha/index.js' as string)) as ChachaModule;
    const key = new Uint8Array(32);
    const nonce = new Uint8Array(24);
    call = (d) => xchacha20poly1305(key, nonce).encrypt(d);
  }
  const first = performance.now();
  call(data);
  const firstTier = tier();
  if (MODE === 'ready') await ready();
  for (let i = 0; i < 5000; i++) {
    call(data);
    if (tier() === 'simd') return { started, first, firstTier, simd: performance.now(), calls: i + 1 };
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return { started, first, firstTier, simd: null };
}
