/**
 * b3sum's command line, parsed as the official b3sum (Rust, clap) parses
 * it, with its error messages and exit code 2 for usage errors: long
 * options with `=value` or a separate value, short -c and -l (also
 * bundled, -cl 3, and -l5), `--` ending the options, `-` meaning standard
 * input.
 */

export interface B3sumArgs {
  files: string[];
  keyed: boolean;
  deriveKey: string | undefined;
  /** u64 values as b3sum reads them: exact (a seek past 2^53 is not rounded). */
  length: bigint;
  seek: bigint;
  numThreads: bigint | undefined;
  noMmap: boolean;
  noNames: boolean;
  raw: boolean;
  tag: boolean;
  check: boolean;
  quiet: boolean;
  help: boolean;
  version: boolean;
}

/** A usage error: printed to standard error as is, exit code 2. */
export class UsageError extends Error {}

interface Spec {
  key: keyof B3sumArgs;
  /** As clap names it in messages: '--length <LEN>', '--check'. */
  shown: string;
  value?: 'u64' | 'string';
}

const OPTIONS: Record<string, Spec> = {
  '--keyed': { key: 'keyed', shown: '--keyed' },
  '--derive-key': { key: 'deriveKey', shown: '--derive-key <CONTEXT>', value: 'string' },
  '--length': { key: 'length', shown: '--length <LEN>', value: 'u64' },
  '--seek': { key: 'seek', shown: '--seek <SEEK>', value: 'u64' },
  '--num-threads': { key: 'numThreads', shown: '--num-threads <NUM>', value: 'u64' },
  '--no-mmap': { key: 'noMmap', shown: '--no-mmap' },
  '--no-names': { key: 'noNames', shown: '--no-names' },
  '--raw': { key: 'raw', shown: '--raw' },
  '--tag': { key: 'tag', shown: '--tag' },
  '--check': { key: 'check', shown: '--check' },
  '--quiet': { key: 'quiet', shown: '--quiet' },
  '--help': { key: 'help', shown: '--help' },
  '--version': { key: 'version', shown: '--version' },
};
const SHORT: Record<string, string> = { c: '--check', l: '--length', h: '--help', V: '--version' };

/** Pairs clap refuses together (its `conflicts_with`), and what each needs (`requires`). */
const CONFLICTS: [string, string][] = [
  ['--keyed', '--derive-key'],
  ...['--derive-key', '--keyed', '--length', '--raw', '--tag', '--no-names'].map((o): [string, string] => ['--check', o]),
];

const MORE = "\nFor more information, try '--help'.\n";

function unexpected(arg: string): UsageError {
  return new UsageError(`error: unexpected argument '${arg}' found\n\n  tip: to pass '${arg}' as a value, use '-- ${arg}'\n\nUsage: b3sum [OPTIONS] [FILE]...\n${MORE}`);
}

/** Rust's u64 parsing, with its messages. */
function u64(text: string, spec: Spec): bigint {
  const fail = (why: string) => new UsageError(`error: invalid value '${text}' for '${spec.shown}': ${why}\n${MORE}`);
  if (text === '') throw fail('cannot parse integer from empty string');
  const digits = text.startsWith('+') ? text.slice(1) : text;
  if (digits === '' || !/^[0-9]+$/.test(digits)) throw fail('invalid digit found in string');
  const value = BigInt(digits);
  if (value >= 1n << 64n) throw fail('number too large to fit in target type');
  return value;
}

export function parseArgs(argv: readonly string[]): B3sumArgs {
  const args: B3sumArgs = {
    files: [], keyed: false, deriveKey: undefined, length: 32n, seek: 0n, numThreads: undefined,
    noMmap: false, noNames: false, raw: false, tag: false, check: false, quiet: false, help: false, version: false,
  };
  const seen: string[] = [];
  const set = (name: string, inline: string | undefined, next: () => string | undefined) => {
    const spec = OPTIONS[name]!;
    if (spec.value === undefined) {
      if (inline !== undefined) throw new UsageError(`error: unexpected value '${inline}' for '${spec.shown}' found; no more were expected\n\nUsage: b3sum ${spec.shown} [FILE]...\n${MORE}`);
      (args as unknown as Record<string, unknown>)[spec.key] = true;
    } else {
      const text = inline ?? next();
      if (text === undefined) throw new UsageError(`error: a value is required for '${spec.shown}' but none was supplied\n${MORE}`);
      (args as unknown as Record<string, unknown>)[spec.key] = spec.value === 'u64' ? u64(text, spec) : text;
    }
    if (!seen.includes(name)) seen.push(name);
  };
  let i = 0;
  const next = () => {
    const v = argv[i + 1];
    // clap takes a following value unless it looks like an option.
    if (v === undefined || (v.startsWith('-') && v !== '-')) return undefined;
    i++;
    return v;
  };
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      args.files.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      if (OPTIONS[name] === undefined) throw unexpected(a);
      set(name, eq < 0 ? undefined : a.slice(eq + 1), next);
    } else if (a.startsWith('-') && a !== '-') {
      for (let j = 1; j < a.length; j++) {
        const name = SHORT[a[j]!];
        if (name === undefined) throw unexpected(`-${a[j]}`);
        if (OPTIONS[name]!.value !== undefined) {
          const rest = a.slice(j + 1).replace(/^=/, '');
          set(name, rest === '' ? undefined : rest, next);
          break;
        }
        set(name, undefined, next);
      }
    } else {
      args.files.push(a);
    }
  }
  if (args.help || args.version) return args;
  for (const name of seen) {
    for (const [x, y] of CONFLICTS) {
      const other = name === x ? y : name === y ? x : undefined;
      if (other !== undefined && seen.includes(other) && seen.indexOf(other) > seen.indexOf(name)) {
        const shown = OPTIONS[name]!.shown;
        throw new UsageError(`error: the argument '${shown}' cannot be used with '${OPTIONS[other]!.shown}'\n\nUsage: b3sum ${shown} <FILE>...\n${MORE}`);
      }
    }
  }
  if (args.quiet && !args.check) throw new UsageError(`error: the following required arguments were not provided:\n  --check\n\nUsage: b3sum --check --quiet <FILE>...\n${MORE}`);
  if (args.keyed && args.files.length === 0) throw new UsageError(`error: the following required arguments were not provided:\n  <FILE>...\n\nUsage: b3sum --keyed <FILE>...\n${MORE}`);
  return args;
}
