/**
 * Command-line options of `npm run bench`, and the two timing profiles:
 * the default run (a few minutes in Node) and --quick (every part, fewer
 * and shorter samples: all engines in under ten minutes).
 */
import { parts, type BenchConfig, type Part } from '../core/types.js';
import { engineNames, type EngineName } from './engines.js';

/** Parts the Node-side runner measures itself, next to the engine parts. */
export const runnerParts = ['setup', 'codesize'] as const;
type RunnerPart = (typeof runnerParts)[number];
const allParts: readonly string[] = [...parts, ...runnerParts];

export const usage = `usage: npm run bench -- [options]
  --engines=a,b    node, deno, bun, chromium, firefox, webkit, or all (default: node)
  --ops=a,b        ops to run (default: all); 'chacha20poly1305' selects its -encrypt and -decrypt
  --libs=a,b       libraries to time (default: all): fourfold, 'fourfold (output)', fourfold-js,
                   noble, 'noble (output)', sodium, node
  --sizes=a,b      sizes of the summary and the large-message cases, k/m suffixes for KiB/MiB
                   (default: 64,1k,8k,64k,1m,16m)
  --sweep=A-B[:S]  the every-length sweep: lengths A..B by S (default: 0-8192:1; --quick: 0-8192:7)
  --offsets=a,b    byteOffsets compared with 0 (default: 1,3,7) at --align-sizes (default: 64,1k,64k)
  --keys=a,b|all   numbers of keys to cycle through (powers of two), at --key-size bytes (default: 64);
                   all = 1, 2, 4, ..., 2^20 (default: 1,4,16,256,4k,64k,1m; --quick: 1,16,256,4k,64k)
  --parts=a,b      ${allParts.join(', ')} (default: all)
  --quick          every part, fewer and shorter samples: a check that everything runs, and a
                   rough picture
  --out=dir        where results.json and index.html go (default: bench-report)
  --help           this text`;

export interface Options {
  readonly engines: EngineName[];
  readonly config: Omit<BenchConfig, 'versions'>;
  readonly runnerParts: RunnerPart[];
  readonly quick: boolean;
  readonly out: string;
  /** Sizes of the Markdown summary table. */
  readonly tableSizes: number[];
}

const KiB = 1 << 10;
const MiB = 1 << 20;

// Samples are short (1 ms) and many: on a shared machine a sample that
// spans a preemption is an outlier, and short samples make outliers rare
// enough for the median to ignore them. Default: about half a minute for
// the summary sizes, two for the sweep, half a minute each for alignment
// and keys, in Node on an idle 2-core machine.
const full: Pick<BenchConfig, 'timing' | 'sweep' | 'keyCounts'> = {
  timing: {
    sizes: { warmupMs: 50, sampleMs: 1, samples: 31, minSamples: 5, budgetMs: 1500 },
    sweep: { warmupMs: 100, passes: 5, minSampleUs: 12 },
    align: { warmupMs: 20, sampleMs: 1, samples: 15, minSamples: 5, budgetMs: 1000 },
    keys: { warmupMs: 20, sampleMs: 1, samples: 15, minSamples: 5, budgetMs: 1500 },
  },
  sweep: { from: 0, to: 8192, step: 1 },
  keyCounts: [1, 4, 16, 256, 4 * KiB, 64 * KiB, MiB],
};

// --quick: a smoke test of the whole matrix, not numbers to quote.
const quick: typeof full = {
  timing: {
    sizes: { warmupMs: 10, sampleMs: 0.5, samples: 9, minSamples: 3, budgetMs: 300 },
    sweep: { warmupMs: 20, passes: 3, minSampleUs: 10 },
    align: { warmupMs: 5, sampleMs: 0.5, samples: 5, minSamples: 3, budgetMs: 200 },
    keys: { warmupMs: 5, sampleMs: 0.5, samples: 5, minSamples: 3, budgetMs: 300 },
  },
  // A stride prime to 64 still lands on every residue of a block, so the steps show.
  sweep: { from: 0, to: 8192, step: 7 },
  keyCounts: [1, 16, 256, 4 * KiB, 64 * KiB],
};

export function parseSize(text: string): number {
  const match = /^(\d+)\s*(k|kib|m|mib)?$/i.exec(text.trim());
  if (match === null) throw new Error(`not a size: '${text}'`);
  const unit = match[2]?.toLowerCase().startsWith('m') ? MiB : match[2] !== undefined ? KiB : 1;
  return Number(match[1]) * unit;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseSweep(text: string): BenchConfig['sweep'] {
  const match = /^(\w+)-(\w+)(?::(\d+))?$/.exec(text.trim());
  if (match === null) throw new Error(`--sweep expects FROM-TO[:STEP], e.g. 0-8192:1, got '${text}'`);
  const sweep = { from: parseSize(match[1]!), to: parseSize(match[2]!), step: Number(match[3] ?? 1) };
  if (sweep.to < sweep.from || sweep.step < 1) throw new Error(`empty sweep '${text}'`);
  return sweep;
}

function parseKeys(text: string): number[] {
  if (text === 'all') return Array.from({ length: 21 }, (_, i) => 2 ** i);
  const counts = list(text).map(parseSize);
  const bad = counts.filter((n) => n < 1 || (n & (n - 1)) !== 0 || n > MiB);
  if (bad.length > 0) throw new Error(`--keys takes powers of two from 1 to 1m, got ${bad.join(', ')}`);
  return counts;
}

function parseEngines(text: string): EngineName[] {
  if (text === 'all') return [...engineNames];
  const names = list(text);
  const unknown = names.filter((name) => !(engineNames as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown engine: ${unknown.join(', ')} (engines: ${engineNames.join(', ')}, all)`);
  return names as EngineName[];
}

export function parseOptions(argv: readonly string[]): Options | 'help' {
  const values = new Map<string, string>();
  let isQuick = false;
  for (const arg of argv) {
    const eq = arg.indexOf('=');
    const [name, value] = eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
    if (name === '--help' || name === '-h') return 'help';
    if (name === '--quick' && value === undefined) isQuick = true;
    else if (value !== undefined && /^--(engines|ops|libs|sizes|sweep|offsets|align-sizes|keys|key-size|parts|out)$/.test(name)) values.set(name.slice(2), value);
    else throw new Error(`unknown option '${arg}'\n${usage}`);
  }
  const profile = isQuick ? quick : full;
  const get = <T>(name: string, parse: (text: string) => T, fallback: T): T => {
    const text = values.get(name);
    return text === undefined ? fallback : parse(text);
  };

  const chosenParts = get('parts', list, allParts as string[]);
  const unknownParts = chosenParts.filter((p) => !allParts.includes(p));
  if (unknownParts.length > 0) throw new Error(`unknown part: ${unknownParts.join(', ')} (parts: ${allParts.join(', ')})`);
  const sizes = get('sizes', (t) => list(t).map(parseSize), [64, KiB, 8 * KiB, 64 * KiB, MiB, 16 * MiB]);

  return {
    engines: get('engines', parseEngines, ['node'] as EngineName[]),
    config: {
      ops: get('ops', list, undefined),
      libs: get('libs', list, undefined),
      parts: parts.filter((p) => chosenParts.includes(p)) as Part[],
      sizes,
      sweep: get('sweep', parseSweep, profile.sweep),
      offsets: get('offsets', (t) => list(t).map(Number), [1, 3, 7]),
      alignSizes: get('align-sizes', (t) => list(t).map(parseSize), isQuick ? [64, 64 * KiB] : [64, KiB, 64 * KiB]),
      keyCounts: get('keys', parseKeys, profile.keyCounts),
      keySize: get('key-size', parseSize, 64),
      timing: profile.timing,
    },
    runnerParts: runnerParts.filter((p) => chosenParts.includes(p)),
    quick: isQuick,
    out: values.get('out') ?? 'bench-report',
    // The summary shows the sizes asked for, or by default the five of the issue.
    tableSizes: values.has('sizes') ? sizes : [64, KiB, 8 * KiB, 64 * KiB, MiB],
  };
}
