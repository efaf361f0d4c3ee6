/** Command-line options of `npm run bench` (see usage below). */
import type { Timing } from './harness.js';

export const defaultSizes = [64, 256, 1024, 8192, 65536, 1048576];

// About 100 ms of warm-up, then 21 samples of about 15 ms, per library and
// case: long enough for the optimizing compiler to settle and for the
// median to shrug off GC pauses and a busy neighbour, short enough for the
// default set to finish in a minute or two.
const fullTiming: Timing = { warmupMs: 100, sampleMs: 15, samples: 21 };
// --quick: a smoke test of the whole matrix, not numbers to quote.
const quickTiming: Timing = { warmupMs: 20, sampleMs: 4, samples: 5 };

export const usage = `usage: npm run bench -- [options]
  --ops=a,b      ops to run (default: all); 'chacha20poly1305' selects its -encrypt and -decrypt
  --sizes=a,b    message sizes in bytes, k/m suffixes for KiB/MiB (default: 64,256,1k,8k,64k,1m)
  --libs=a,b     libraries to time (default: all): fourfold, fourfold-js, noble, sodium, node
  --quick        fewer, shorter samples: a quick check that everything runs
  --out=path     where to write the JSON report (default: bench-report/results.json)
  --help         this text`;

export interface Options {
  readonly ops?: string[];
  readonly sizes: number[];
  readonly libs?: string[];
  readonly quick: boolean;
  readonly timing: Timing;
  readonly out: string;
}

function parseSize(text: string): number {
  const match = /^(\d+)\s*(k|kib|m|mib)?$/i.exec(text.trim());
  if (match === null) throw new Error(`not a size: '${text}'`);
  const unit = match[2]?.toLowerCase().startsWith('m') ? 1 << 20 : match[2] !== undefined ? 1 << 10 : 1;
  return Number(match[1]) * unit;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function parseOptions(argv: readonly string[]): Options | 'help' {
  let ops: string[] | undefined;
  let sizes = defaultSizes;
  let libs: string[] | undefined;
  let quick = false;
  let out = 'bench-report/results.json';
  for (const arg of argv) {
    const [name, value] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--help' || name === '-h') return 'help';
    else if (name === '--quick' && value === undefined) quick = true;
    else if (name === '--ops' && value !== undefined) ops = list(value);
    else if (name === '--sizes' && value !== undefined) sizes = list(value).map(parseSize);
    else if (name === '--libs' && value !== undefined) libs = list(value);
    else if (name === '--out' && value !== undefined) out = value;
    else throw new Error(`unknown option '${arg}'\n${usage}`);
  }
  return { ops, sizes, libs, quick, timing: quick ? quickTiming : fullTiming, out };
}
