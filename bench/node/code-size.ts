/**
 * Code size: what each fourfold entry point costs a user, and the
 * WebAssembly inside it.
 * - kernels: each dist/generated/*.js embeds one WebAssembly module as
 *   base64; its decoded bytes, raw and gzipped;
 * - entry points (package.json "exports"): the dist files an import pulls
 *   in (relative imports followed from the entry), raw and gzipped as one
 *   concatenation, and, when esbuild is installed (it comes with tsx), the
 *   minified bundle raw and gzipped: closest to what an application ships;
 * - the peers' modules bundled the same way, for scale.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../../', import.meta.url));
const gzip = (data: Uint8Array | string) => gzipSync(data, { level: 9 }).length;

export interface KernelSize {
  readonly kernel: string;
  readonly file: string;
  readonly wasmBytes: number;
  readonly wasmGzipBytes: number;
  /** The generated .js file carrying it as base64. */
  readonly jsBytes: number;
  readonly jsGzipBytes: number;
}

export interface EntrySize {
  /** 'fourfold', 'fourfold/chacha', or a peer's module. */
  readonly entry: string;
  /** dist files pulled in (fourfold only). */
  readonly files?: number;
  readonly jsBytes?: number;
  readonly jsGzipBytes?: number;
  /** Kernels among those files. */
  readonly kernels?: string[];
  readonly minifiedBytes?: number;
  readonly minifiedGzipBytes?: number;
}

export interface CodeSizeResult {
  readonly kernels: KernelSize[];
  readonly entries: EntrySize[];
  readonly peers: EntrySize[];
  readonly note?: string;
}

function kernelSizes(): KernelSize[] {
  const dir = join(root, 'dist/generated');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const base64 = /base64\s*=\s*['"`]([A-Za-z0-9+/=]+)['"`]/.exec(text)?.[1] ?? '';
      const wasm = Buffer.from(base64, 'base64');
      return {
        kernel: file.replace(/\.js$/, ''),
        file: `dist/generated/${file}`,
        wasmBytes: wasm.length,
        wasmGzipBytes: gzip(wasm),
        jsBytes: Buffer.byteLength(text),
        jsGzipBytes: gzip(text),
      };
    });
}

/** Every dist file reachable from `file` through relative static imports and re-exports. */
function closure(file: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*['"](\.[^'"]+)['"]/g)) {
      visit(join(dirname(path), match[1] ?? match[2]!));
    }
  };
  visit(file);
  return [...seen].sort();
}

type Esbuild = typeof import('esbuild');

async function minified(esbuild: Esbuild | undefined, specifier: string): Promise<Pick<EntrySize, 'minifiedBytes' | 'minifiedGzipBytes'>> {
  if (esbuild === undefined) return {};
  const result = await esbuild.build({
    stdin: { contents: `export * from '${specifier}';`, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { minifiedBytes: code.length, minifiedGzipBytes: gzip(code) };
}

export async function measureCodeSize(): Promise<CodeSizeResult> {
  let esbuild: Esbuild | undefined;
  try {
    esbuild = await import('esbuild');
  } catch {
    esbuild = undefined;
  }
  const kernels = kernelSizes();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { default: string }> };
  const entries: EntrySize[] = [];
  for (const [key, target] of Object.entries(pkg.exports)) {
    // Code entries only: './package.json' maps to a file, not a module with its types.
    if (typeof target !== 'object' || !target.default.endsWith('.js')) continue;
    const entry = key === '.' ? 'fourfold' : `fourfold/${key.slice(2)}`;
    const files = closure(join(root, target.default));
    const texts = files.map((f) => readFileSync(f));
    entries.push({
      entry,
      files: files.length,
      jsBytes: texts.reduce((sum, t) => sum + t.length, 0),
      jsGzipBytes: gzip(Buffer.concat(texts)),
      kernels: kernels.filter((k) => files.some((f) => relative(root, f) === k.file)).map((k) => k.kernel),
      ...(await minified(esbuild, entry)),
    });
  }
  const peers: EntrySize[] = [];
  for (const specifier of ['@noble/ciphers/chacha.js', '@noble/ciphers/_poly1305.js', 'libsodium-wrappers', 'libsodium-wrappers-sumo']) {
    try {
      peers.push({ entry: specifier, ...(await minified(esbuild, specifier)) });
    } catch {
      // not installed: no row
    }
  }
  return { kernels, entries, peers, note: esbuild === undefined ? 'esbuild is not installed: no minified sizes' : undefined };
}
