/** What engine runs the core, found from its globals (no platform API is assumed). */
import type { EngineResult } from './types.js';

interface Globals {
  Deno?: { version: { deno: string; v8: string; typescript: string } };
  Bun?: { version: string; revision?: string };
  process?: { versions?: Record<string, string | undefined>; platform?: string; arch?: string };
  navigator?: { userAgent?: string; hardwareConcurrency?: number };
  crossOriginIsolated?: boolean;
}

export function describeEngine(): EngineResult['engine'] {
  const g = globalThis as Globals;
  const userAgent = g.navigator?.userAgent;
  const cores = g.navigator?.hardwareConcurrency;
  const common: Record<string, string> = cores === undefined ? {} : { hardwareConcurrency: String(cores) };
  // Deno and Bun also define `process` for Node compatibility: test them first.
  if (g.Deno !== undefined) return { runtime: 'deno', version: g.Deno.version.deno, userAgent, details: { ...common, v8: g.Deno.version.v8 } };
  if (g.Bun !== undefined) return { runtime: 'bun', version: g.Bun.version, userAgent, details: { ...common, revision: (g.Bun.revision ?? '').slice(0, 10) } };
  const node = g.process?.versions?.node;
  if (node !== undefined) return { runtime: 'node', version: node, userAgent, details: { ...common, v8: g.process!.versions!.v8 ?? '' } };
  return { runtime: 'browser', version: browserVersion(userAgent ?? ''), userAgent, details: common };
}

/** "Chrome/131.0", "Firefox/128.0" or "Version/18.0 Safari" from a user agent. */
function browserVersion(userAgent: string): string {
  for (const pattern of [/Firefox\/[\d.]+/, /Chrome\/[\d.]+/, /Version\/[\d.]+.*Safari/]) {
    const match = pattern.exec(userAgent);
    if (match !== null) return match[0];
  }
  return userAgent;
}

export function crossOriginIsolated(): boolean | undefined {
  return (globalThis as Globals).crossOriginIsolated;
}
