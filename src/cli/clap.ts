/**
 * clap's view of b3sum's options, and its messages: the options, their
 * conflicts and requirements, the usage lines, the suggestions for a
 * mistyped option (strsim's Jaro similarity), each error's text to the
 * byte, as the official b3sum (Rust, clap 4) prints them. args.ts parses.
 */

/** A usage error: printed to standard error as is, exit code 2. */
export class UsageError extends Error {}

/** The command as a user types it: usage lines and --help name it (where b3sum's name `b3sum`). */
export const PROGRAM = 'fourfold b3sum';

/** The parsed command line. */
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

export interface Spec {
  key: keyof B3sumArgs;
  /** As clap names it in messages: '--length <LEN>', '--check'. */
  shown: string;
  value?: 'u64' | 'string';
}

export const OPTIONS: Record<string, Spec> = {
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
export const SHORT: Record<string, string> = { c: '--check', l: '--length', h: '--help', V: '--version' };
/** The FILE arguments, as clap names them when one is the empty path (which its PathBuf parser refuses). */
export const FILES: Spec = { key: 'files', shown: '[FILE]...' };

/** Pairs clap refuses together (its `conflicts_with`, both ways). */
const CONFLICTS: [string, string][] = [
  ['--keyed', '--derive-key'],
  ...['--derive-key', '--keyed', '--length', '--raw', '--tag', '--no-names'].map((o): [string, string] => ['--check', o]),
];
const conflict = (a: string, b: string): boolean => CONFLICTS.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

/** What an option needs (clap's `requires`): --quiet the --check option, --keyed a FILE. */
const FILE = '<FILE>...';
const REQUIRES: Record<string, string> = { '--quiet': '--check', '--keyed': FILE };

/** The group clap's derive makes of the arguments, which some usage lines show (flagWithValue). */
const GROUP = `<FILE|${Object.keys(OPTIONS)
  .filter((o) => o !== '--help' && o !== '--version')
  .map((o) => OPTIONS[o]!.shown)
  .join('|')}>`;

const MORE = "\nFor more information, try '--help'.\n";

/** clap's usage line for the options `shown` (in order, without repeats) and the FILE argument, required (<FILE>...) or not. */
function usage(shown: string[], fileRequired: boolean): string {
  if (shown.length === 0 && !fileRequired) return `Usage: ${PROGRAM} [OPTIONS] [FILE]...`;
  const options = [...new Set(shown)].map((o) => `${OPTIONS[o]!.shown} `).join('');
  return `Usage: ${PROGRAM} ${options}${fileRequired ? FILE : '[FILE]...'}`;
}

export function unexpected(arg: string): UsageError {
  return new UsageError(
    `error: unexpected argument '${arg}' found\n\n  tip: to pass '${arg}' as a value, use '-- ${arg}'\n\nUsage: ${PROGRAM} [OPTIONS] [FILE]...\n${MORE}`,
  );
}

/** A second use of an option. */
export function repeated(spec: Spec): UsageError {
  return new UsageError(`error: the argument '${spec.shown}' cannot be used multiple times\n\nUsage: ${PROGRAM} [OPTIONS] [FILE]...\n${MORE}`);
}

export function valueRequired(spec: Spec): UsageError {
  return new UsageError(`error: a value is required for '${spec.shown}' but none was supplied\n${MORE}`);
}

/** Rust's u64 parsing, with its messages. */
export function u64(text: string, spec: Spec): bigint {
  const fail = (why: string) => new UsageError(`error: invalid value '${text}' for '${spec.shown}': ${why}\n${MORE}`);
  if (text === '') throw fail('cannot parse integer from empty string');
  const digits = text.startsWith('+') ? text.slice(1) : text;
  if (digits === '' || !/^[0-9]+$/.test(digits)) throw fail('invalid digit found in string');
  const value = BigInt(digits);
  if (value >= 1n << 64n) throw fail('number too large to fit in target type');
  return value;
}

/**
 * The Jaro similarity of two strings, over their code points, as the
 * strsim crate computes it (clap's suggestions use it): matches within
 * half the longer length, less half the transpositions.
 */
function jaro(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  if (x.length === 0 || y.length === 0) return x.length === y.length ? 1 : 0;
  const range = Math.max(0, Math.floor(Math.max(x.length, y.length) / 2) - 1);
  const xMatched = x.map(() => false);
  const yMatched = y.map(() => false);
  let matches = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = Math.max(0, i - range); j < Math.min(y.length, i + range + 1); j++) {
      if (!yMatched[j] && x[i] === y[j]) {
        xMatched[i] = yMatched[j] = true;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < x.length; i++) {
    if (!xMatched[i]) continue;
    while (!yMatched[j]) j++;
    if (x[i] !== y[j++]) transpositions++;
  }
  const t = Math.floor(transpositions / 2);
  return (matches / x.length + matches / y.length + (matches - t) / matches) / 3;
}

/** The arguments so far, for clap's usage lines: the options recorded, in order of first use, and whether a FILE came. */
export interface Seen {
  options: string[];
  file: boolean;
}

/**
 * A flag given a value (`--tag=x`). clap's usage line for it names the
 * flag alone, unless its derive's group of all the arguments is present:
 * an option has started it and some argument in it has been recorded (a
 * FILE, or an option; one whose value is the next argument is recorded
 * only at the argument after that). Then the line shows that group (a
 * quirk, copied).
 */
export function flagWithValue(name: string, value: string, groupPresent: boolean): UsageError {
  const shown = OPTIONS[name]!.shown;
  const inGroup = name !== '--help' && name !== '--version';
  const line = groupPresent ? `Usage: ${PROGRAM} ${inGroup ? '' : `${shown} `}${GROUP}` : usage([name], false);
  return new UsageError(`error: unexpected value '${value}' for '${shown}' found; no more were expected\n\n${line}\n${MORE}`);
}

/**
 * An unknown long option `--name`, as clap reports it: with the most
 * similar known option (Jaro above 0.7; on a tie the later one) as a tip
 * and added to the usage line, else the tip to pass it as a value.
 */
export function unknownLong(name: string, seen: Seen): UsageError {
  let best: string | undefined;
  let score = 0.7;
  for (const option of Object.keys(OPTIONS)) {
    const s = jaro(name, option.slice(2));
    if (s > score || (s === score && best !== undefined)) [best, score] = [option, s];
  }
  const tip = best === undefined ? `to pass '--${name}' as a value, use '-- --${name}'` : `a similar argument exists: '${best}'`;
  const shown = best === undefined ? seen.options : [...seen.options, best];
  return new UsageError(`error: unexpected argument '--${name}' found\n\n  tip: ${tip}\n\n${usage(shown, seen.file)}\n${MORE}`);
}

/** The first option (in order of use) that conflicts with others given, as clap reports it. */
export function checkConflicts(seen: Seen): void {
  for (const name of seen.options) {
    const others = seen.options.filter((o) => conflict(name, o));
    if (others.length === 0) continue;
    const shown = (o: string) => OPTIONS[o]!.shown;
    const what =
      others.length === 1
        ? ` '${shown(others[0]!)}'`
        : `:\n${others
            .map((o) => `  ${shown(o)}\n`)
            .join('')
            .slice(0, -1)}`;
    // The usage line: what is left, after what it requires (and is not in conflict).
    const left = seen.options.filter((o) => !others.includes(o));
    const needs = left.map((o) => REQUIRES[o]).filter((r): r is string => r !== undefined && !others.includes(r) && !left.includes(r));
    const line = usage([...needs.filter((r) => r !== FILE), ...left], seen.file || needs.includes(FILE));
    throw new UsageError(`error: the argument '${shown(name)}' cannot be used with${what}\n\n${line}\n${MORE}`);
  }
}

/**
 * What the options given require: missing, it is an error, except --check
 * where an option it conflicts with was given (clap then lets it go, but
 * still lists it when something else is missing).
 */
export function checkRequired(seen: Seen): void {
  const needed = [...new Set(seen.options.map((o) => REQUIRES[o]).filter((r): r is string => r !== undefined))];
  const given = (r: string) => (r === FILE ? seen.file : seen.options.includes(r));
  const excused = (r: string) => r !== FILE && seen.options.some((o) => conflict(r, o));
  if (needed.every((r) => given(r) || excused(r))) return;
  const missing = needed.filter((r) => !given(r)).sort((a, b) => Number(a === FILE) - Number(b === FILE));
  const line = usage([...missing.filter((r) => r !== FILE), ...seen.options], seen.file || needed.includes(FILE));
  throw new UsageError(`error: the following required arguments were not provided:\n${missing.map((r) => `  ${r}\n`).join('')}\n${line}\n${MORE}`);
}
