/**
 * The entry module of a bundled test suite (see bundle.ts): loads each
 * test file's bundle in turn (or, in a shell, the one file its script
 * names), runs what it registered through the node:test stand-in, and
 * resolves to a JSON report. Its default export follows the entry contract
 * of run.ts: `(context) => Promise<JSON>`.
 */
import FILES from 'engines:test-files';
import type { Wasm } from '../engines.js';
import { runCollected, type TestResult } from './node-test.js';
import { engineWasm } from './simd.js';

export interface FileReport {
  file: string;
  ms: number;
  results: TestResult[];
  /** The bundle could not be imported (syntax the engine lacks, a throwing top level...). */
  loadError?: string;
}

export interface SuiteReport {
  /** The runtime as it describes itself (user agent, or runtime and version). */
  runtime: string;
  /** The engine's WebAssembly: with SIMD (v128), without, or none at all. */
  wasm: Wasm;
  files: FileReport[];
}

function runtime(): string {
  const g = globalThis as unknown as {
    Deno?: { version: { deno: string; v8: string } };
    Bun?: { version: string };
    process?: { version?: string };
    HermesInternal?: { getRuntimeProperties?(): Record<string, string> };
  };
  if (g.Deno) return `Deno ${g.Deno.version.deno} (V8 ${g.Deno.version.v8})`;
  if (g.Bun) return `Bun ${g.Bun.version}`;
  if (g.HermesInternal) return `Hermes ${g.HermesInternal.getRuntimeProperties?.()['OSS Release Version'] ?? '?'}`;
  // workerd's navigator names the platform, not the runtime's version (engines.ts versionOf asks the binary).
  if (typeof navigator === 'object' && navigator.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (typeof navigator === 'object' && navigator.userAgent && typeof document === 'object') return navigator.userAgent;
  return `Node ${g.process?.version ?? '?'}`;
}

const now = () => (globalThis.performance ? performance.now() : Date.now());

/** Shells run one file per process: the per-file script sets this first (bundle.ts). */
const only = (globalThis as { __fourfoldTestFile?: string }).__fourfoldTestFile;

export default async function runSuite(context: { progress?: (message: string) => void } = {}): Promise<SuiteReport> {
  const report: SuiteReport = { runtime: runtime(), wasm: engineWasm(), files: [] };
  for (const { file, load } of FILES) {
    if (only !== undefined && file !== only) continue;
    context.progress?.(`${file}: loading`);
    const t0 = now();
    let loadError: string | undefined;
    try {
      await load();
    } catch (e) {
      loadError = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e);
    }
    // Run whatever registered even after a load error: Node reports those tests too.
    const results = await runCollected((name) => context.progress?.(`${file}: ${name}`));
    report.files.push({ file, ms: Math.round(now() - t0), results, ...(loadError ? { loadError } : {}) });
  }
  return report;
}
