/** The machine and the package versions, read once by the Node-side runner. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly platform: string;
  readonly arch: string;
  readonly osRelease: string;
  readonly memoryBytes: number;
  /** os.loadavg() at the start and the end of the run: other load skews every number. */
  readonly loadAverage: { start: number[]; end?: number[] };
}

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    platform: process.platform,
    arch: process.arch,
    osRelease: os.release(),
    memoryBytes: os.totalmem(),
    loadAverage: { start: os.loadavg() },
  };
}

const root = new URL('../../', import.meta.url);

/** Version of an installed package, or undefined. */
function versionOf(packageJson: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(new URL(packageJson, root), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** The versions the engines report next to each library (they cannot read node_modules themselves). */
export function packageVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  const peers = [
    '@noble/ciphers',
    'libsodium-wrappers',
    'libsodium-wrappers-sumo',
    '@noble/hashes',
    '@noble/curves',
    'hash-wasm',
    'mipher',
    'blakejs',
    'age-encryption',
  ];
  const sources = [['fourfold', 'package.json'], ...peers.map((name) => [name, `node_modules/${name}/package.json`])] as const;
  for (const [name, path] of sources) {
    const version = versionOf(path);
    if (version !== undefined) versions[name] = version;
  }
  return versions;
}
