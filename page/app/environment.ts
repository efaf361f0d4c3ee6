/**
 * What the page can learn about the browser and the device, and what it
 * must tell the visitor about them before any figure: the situations in
 * which the page measures less than it would elsewhere, each in words.
 */
import { engineHasSimd } from '../../scripts/engines/harness/simd.js';
import type { Environment } from '../../bench/report/json.js';

export type { Environment };

interface UaBrand {
  brand: string;
  version: string;
}
interface UserAgentData {
  brands?: UaBrand[];
  platform?: string;
  mobile?: boolean;
  getHighEntropyValues?(hints: string[]): Promise<Record<string, string | undefined>>;
}
type Nav = Navigator & { userAgentData?: UserAgentData; deviceMemory?: number };

/** 'Chrome 131', 'Firefox 128', 'Safari 18.1' from a user agent string; the engine behind it. */
export function browserOf(userAgent: string): { browser: string; engine: string } {
  const version = (pattern: RegExp) => pattern.exec(userAgent)?.[1]?.split('.').slice(0, 2).join('.') ?? '';
  const ios = /iPhone|iPad|iPod/.test(userAgent);
  // Every browser on iOS is WebKit underneath, whatever it is called.
  const named: [RegExp, string, string][] = [
    [/EdgA?\/([\d.]+)/, 'Edge', 'V8'],
    [/OPR\/([\d.]+)/, 'Opera', 'V8'],
    [/SamsungBrowser\/([\d.]+)/, 'Samsung Internet', 'V8'],
    [/FxiOS\/([\d.]+)/, 'Firefox (iOS)', 'JavaScriptCore'],
    [/CriOS\/([\d.]+)/, 'Chrome (iOS)', 'JavaScriptCore'],
    [/Firefox\/([\d.]+)/, 'Firefox', 'SpiderMonkey'],
    [/Chrome\/([\d.]+)/, 'Chrome', 'V8'],
  ];
  for (const [pattern, name, engine] of named) {
    if (pattern.test(userAgent)) return { browser: `${name} ${version(pattern)}`, engine: ios ? 'JavaScriptCore' : engine };
  }
  if (/AppleWebKit/.test(userAgent)) {
    const v = version(/Version\/([\d.]+)/);
    // WebKitGTK and WPE (Epiphany, MiniBrowser) say Safari too, on Linux.
    const name = /Linux/.test(userAgent) && !/Android/.test(userAgent) ? 'WebKitGTK (Safari-like)' : 'Safari';
    return { browser: v === '' ? name : `${name} ${v}`, engine: 'JavaScriptCore' };
  }
  return { browser: 'unknown browser', engine: 'unknown engine' };
}

/** The operating system, as far as the user agent string tells. */
export function osOf(userAgent: string): string {
  const android = /Android ([\d.]+)/.exec(userAgent);
  if (android !== null) return `Android ${android[1]}`;
  const ios = /(?:iPhone|iPad|iPod).*? OS ([\d_]+)/.exec(userAgent);
  if (ios !== null) return `iOS ${ios[1]!.replace(/_/g, '.')}`;
  if (/Mac OS X/.test(userAgent)) return 'macOS';
  if (/Windows/.test(userAgent)) return 'Windows';
  if (/CrOS/.test(userAgent)) return 'ChromeOS';
  if (/Linux/.test(userAgent)) return 'Linux';
  return 'unknown OS';
}

/** Everything the page can tell synchronously. */
export function detectEnvironment(): Environment {
  const nav = navigator as Nav;
  const userAgent = nav.userAgent;
  const g = globalThis as { crossOriginIsolated?: boolean; SharedArrayBuffer?: unknown; Atomics?: unknown };
  const isolated = g.crossOriginIsolated === true;
  const webAssembly = typeof WebAssembly === 'object' && typeof WebAssembly.validate === 'function';
  return {
    ...browserOf(userAgent),
    os: osOf(userAgent),
    cores: nav.hardwareConcurrency > 0 ? nav.hardwareConcurrency : 1,
    ...(typeof nav.deviceMemory === 'number' ? { memoryGiB: nav.deviceMemory } : {}),
    webAssembly,
    simd: webAssembly && engineHasSimd(),
    workers: typeof Worker === 'function',
    sharedMemory: isolated && typeof g.SharedArrayBuffer === 'function' && typeof g.Atomics === 'object',
    crossOriginIsolated: isolated,
    userAgent,
  };
}

/**
 * What Chromium-based browsers add on request (User-Agent Client Hints):
 * the OS version (Windows 11 reports 13 and above), the CPU architecture
 * and, on Android, the device model. Elsewhere the environment as it is.
 */
export async function refineEnvironment(environment: Environment): Promise<Environment> {
  const data = (navigator as Nav).userAgentData;
  if (data?.getHighEntropyValues === undefined) return environment;
  try {
    const hints = await data.getHighEntropyValues(['platformVersion', 'architecture', 'bitness', 'model']);
    let os = environment.os;
    const major = Number((hints.platformVersion ?? '').split('.')[0]);
    if (data.platform === 'Windows' && Number.isFinite(major)) os = major >= 13 ? 'Windows 11' : major > 0 ? 'Windows 10' : 'Windows';
    else if (data.platform === 'macOS' && hints.platformVersion) os = `macOS ${hints.platformVersion.split('.').slice(0, 2).join('.')}`;
    const architecture = hints.architecture ? `${hints.architecture}${hints.bitness ? `-${hints.bitness}` : ''}` : undefined;
    return { ...environment, os, ...(architecture === undefined ? {} : { architecture }), ...(hints.model ? { model: hints.model } : {}) };
  } catch {
    return environment;
  }
}

/** A notice: 'warn' for what the page measures less of here, 'info' for how to get more. */
export interface Notice {
  readonly level: 'warn' | 'info';
  readonly text: string;
}

/** What the visitor needs to know about this browser before the figures. */
export function notices(env: Environment): Notice[] {
  const out: Notice[] = [];
  if (!env.webAssembly) {
    out.push({
      level: 'warn',
      text:
        "This browser runs no WebAssembly (it may be switched off, as in Safari's Lockdown Mode or a hardened profile): fourfold runs its " +
        "js tier only, the pure-JavaScript one, so the figures below are that tier's. The peers that need WebAssembly (libsodium, hash-wasm) " +
        'cannot load, and there is no all-cores part (fourfold/parallel is timed on the simd tier).',
    });
  } else if (!env.simd) {
    out.push({
      level: 'warn',
      text:
        'This browser runs WebAssembly without SIMD, so fourfold chooses its js tier by itself (the same bytes, more slowly), and the ' +
        "figures below are that tier's. There is no all-cores part (fourfold/parallel is timed on the simd tier). A newer version of the browser most likely has SIMD.",
    });
  }
  if (!env.workers) {
    out.push({
      level: 'warn',
      text:
        'This browser has no Web Workers: the measuring runs on the page itself, which answers slowly while it does, and there is no ' +
        'all-cores part (fourfold/parallel needs workers).',
    });
  }
  if (!env.crossOriginIsolated) {
    out.push({
      level: 'info',
      text:
        'This page is not cross-origin isolated (its server does not send Cross-Origin-Opener-Policy: same-origin and ' +
        'Cross-Origin-Embedder-Policy: require-corp). The all-cores part therefore uses plain arrays only, without SharedArrayBuffer ' +
        "input and output, and the browser's clock is coarser, so each sample is made longer. docs/contributing/page.md says how to serve it isolated.",
    });
  } else if (!env.sharedMemory) {
    out.push({
      level: 'info',
      text: 'This page is cross-origin isolated, but the browser offers no SharedArrayBuffer: the all-cores part uses plain arrays only.',
    });
  }
  return out;
}
