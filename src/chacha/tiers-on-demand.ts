/**
 * ChaCha's engine for code whose every call is asynchronous (age's
 * files: the typage API), with the js tier imported on demand: the
 * kernels' tier where the engine runs them, the js tier (js.ts, with
 * Poly1305's, some 3 KB of gzip) only where it does not, or when asked
 * for (ready({ tier: 'js' })). Such a call awaits engineReady() first.
 * Where tiers.ts is loaded (every synchronous entry, fourfold/age's
 * runners), it gives the js tier at once (withJs): no call of theirs
 * waits, and none fails for want of it.
 */
import type { ChachaEngine } from './engine.js';
import { nativeFirst } from './native.js';
import { simdChacha } from './simd.js';
import { chachaKernel } from '../chachapoly/wasm.js';
import { kernelCompiled, tierChoice, tierSelector } from '../runtime/kernels.js';
// The kernel's bytes last, as in tiers.ts: a bundle holds the code together before them, within gzip's window.
import { hex } from '../generated/chacha.js';

let js: ChachaEngine | undefined;

/** Gives the js tier's engine (tiers.ts, as it loads): calls on lazyJsEngine may run on it from then on. */
export function withJs(engine: ChachaEngine): ChachaEngine {
  js ??= engine;
  return engine;
}

const jsNow = (): ChachaEngine => {
  if (js === undefined) throw new Error("fourfold: ChaCha's js tier is not loaded: an asynchronous call awaits engineReady() before its work");
  return js;
};

/** The js tier as the selector sees it: its calls go to js.ts once it is given or imported. */
const onDemand: ChachaEngine = {
  xor: (...a) => jsNow().xor(...a),
  hchacha: (...a) => jsNow().hchacha(...a),
  seal: (...a) => jsNow().seal(...a),
  open: (...a) => jsNow().open(...a),
};

/** The engine of the tier a call on this thread runs on, node:crypto first where it is faster (as tiers.ts engine). */
export const lazyJsEngine = /*#__PURE__*/ nativeFirst(/*#__PURE__*/ tierSelector<ChachaEngine>(chachaKernel, onDemand, simdChacha, hex), onDemand);

/** Whether a call now would run on the kernels' tier. */
const onKernels = /*#__PURE__*/ tierChoice(chachaKernel, false, true);

/**
 * Makes lazyJsEngine usable for a call: waits for the kernel where the
 * engine runs it (a page's main thread compiles it in the background),
 * else imports the js tier. Quick once either is done.
 */
export async function engineReady(): Promise<void> {
  if (js !== undefined) return;
  await kernelCompiled(chachaKernel);
  // biome-ignore format: the parentheses keep Vite's preload helper out (age/keys.ts)
  if (!onKernels()) withJs((await import(('./js.js'))).jsChacha);
}
