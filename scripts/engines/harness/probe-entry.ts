/**
 * The entry of probe.ts: what the engine says about itself. A minimal
 * example of the runInEngine entry contract.
 */
import { engineHasSimd } from './simd.js';

export default function probe(): { runtime: string; webAssembly: boolean; simd: boolean; bigint64: boolean } {
  const g = globalThis as unknown as {
    Deno?: { version: { deno: string } };
    Bun?: { version: string };
    process?: { version?: string };
    HermesInternal?: unknown;
  };
  const runtime = g.Deno
    ? `Deno ${g.Deno.version.deno}`
    : g.Bun
      ? `Bun ${g.Bun.version}`
      : typeof document === 'object' || (typeof navigator === 'object' && navigator.userAgent === 'Cloudflare-Workers')
        ? navigator.userAgent
        : g.HermesInternal
          ? 'Hermes'
          : `Node ${g.process?.version}`;
  return { runtime, webAssembly: typeof WebAssembly === 'object', simd: engineHasSimd(), bigint64: typeof BigUint64Array === 'function' };
}
