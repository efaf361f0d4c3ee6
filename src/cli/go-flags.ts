/**
 * Command lines as Go's `flag` package parses them, the parser the age and
 * age-keygen commands use: `-name` and `--name` alike, a value as the
 * next argument or after `=`, booleans that take no value (or `=true`,
 * `=false`), flags before the positional arguments only (parsing stops at
 * the first argument that is not a flag, or after `--`). A flag that does
 * not exist is a usage error, as Go reports it; -h and -help (any number
 * of dashes, any value) ask for the usage, as Go's ErrHelp.
 */

/** A usage error: the command prints it and its usage, and exits with code 2, as Go's flag package does. */
export class FlagError extends Error {}

/** -h or -help, where the command defines neither: the usage was asked for (Go's flag.ErrHelp, exit code 0). */
export class HelpRequested extends Error {}

/** What a flag takes: a boolean, one string, or a string per use. */
export type FlagKind = 'bool' | 'string' | 'list';

/** The flags a command knows, each under all its names ('o' and 'output'), by canonical name. */
export interface FlagSpec {
  readonly [canonical: string]: { readonly kind: FlagKind; readonly names: readonly string[] };
}

export interface Parsed {
  readonly bools: Set<string>;
  readonly strings: Map<string, string>;
  /** List flags in the order they came, with their canonical names (age keeps -i and -j in order). */
  readonly lists: { flag: string; value: string }[];
  readonly positional: string[];
}

export function parseFlags(args: readonly string[], spec: FlagSpec): Parsed {
  const byName = new Map<string, string>();
  for (const [canonical, { names }] of Object.entries(spec)) for (const n of names) byName.set(n, canonical);
  const parsed: Parsed = { bools: new Set(), strings: new Map(), lists: [], positional: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const canonical = byName.get(name);
    if (canonical === undefined && (name === 'h' || name === 'help')) throw new HelpRequested();
    if (name === '' || name.startsWith('-') || canonical === undefined) throw new FlagError(`flag provided but not defined: -${name}`);
    const { kind } = spec[canonical]!;
    if (kind === 'bool') {
      const value = eq < 0 ? 'true' : body.slice(eq + 1);
      if (value !== 'true' && value !== 'false' && value !== '1' && value !== '0') throw new FlagError(`invalid boolean value "${value}" for -${name}`);
      if (value === 'true' || value === '1') parsed.bools.add(canonical);
      else parsed.bools.delete(canonical);
      continue;
    }
    let value: string;
    if (eq >= 0) value = body.slice(eq + 1);
    else if (i + 1 < args.length) value = args[++i]!;
    else throw new FlagError(`flag needs an argument: -${name}`);
    if (kind === 'string') parsed.strings.set(canonical, value);
    else parsed.lists.push({ flag: canonical, value });
  }
  parsed.positional.push(...args.slice(i));
  return parsed;
}

/** The values given to list flag `flag`, in order. */
export const listOf = (flags: Parsed, flag: string): string[] => flags.lists.filter((l) => l.flag === flag).map((l) => l.value);
