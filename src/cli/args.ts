/**
 * b3sum's command line, parsed as the official b3sum (Rust, clap) parses
 * it, with its error messages and exit code 2 for usage errors: long
 * options with `=value` or a separate value, short -c and -l (also
 * bundled, -cl 3, and -l5), `--` ending the options, `-` meaning standard
 * input. The errors are clap's to the byte, in the order clap finds them:
 * its suggestions for mistyped options, the usage lines naming the options
 * given so far, its checks of repeats, conflicts and requirements (checked
 * against native b3sum: test/cli/b3sum.test.ts).
 */

import {
  checkConflicts,
  checkRequired,
  FILES,
  flagWithValue,
  OPTIONS,
  repeated,
  SHORT,
  u64,
  unexpected,
  unknownLong,
  valueRequired,
  type B3sumArgs,
  type Seen,
} from './clap.js';

export { UsageError, type B3sumArgs } from './clap.js';

/**
 * The parse, in clap's order of events. An option whose value is the next
 * argument is pending until the argument after that: only then is it
 * recorded, its value parsed, and a repeat refused (clap's
 * resolve_pending). An unknown option or a flag given a value there is
 * reported first, whatever the pending one held.
 */
class Parser {
  readonly args: B3sumArgs = {
    files: [],
    keyed: false,
    deriveKey: undefined,
    length: 32n,
    seek: 0n,
    numThreads: undefined,
    noMmap: false,
    noNames: false,
    raw: false,
    tag: false,
    check: false,
    quiet: false,
    help: false,
    version: false,
  };
  readonly seen: Seen = { options: [], file: false };
  private pending: { name: string; text: string } | undefined;
  /** Set by --help and --version: the rest is not parsed. */
  done = false;

  /** Records option `name` with its value (undefined for a flag), as clap's react does: a repeat is an error, and removes the first. */
  private record(name: string, text: string | undefined): void {
    const spec = OPTIONS[name]!;
    const options = this.seen.options;
    if (options.includes(name)) {
      options.splice(options.indexOf(name), 1);
      throw repeated(spec);
    }
    options.push(name);
    const value = text === undefined ? true : spec.value === 'u64' ? u64(text, spec) : text;
    (this.args as unknown as Record<string, unknown>)[spec.key] = value;
  }

  /** Whether a FILE was given as '': clap refuses the empty path when it resolves the FILE values, after an unknown argument. */
  private emptyFile = false;

  /**
   * The pending arguments, resolved now: the option waiting for its value
   * recorded, and the FILE values checked. With `quiet`, their errors are
   * dropped (clap then reports an unknown argument instead).
   */
  resolve(quiet = false): void {
    this.resolveOption(quiet);
    if (this.emptyFile && !quiet) throw valueRequired(FILES);
  }

  private resolveOption(quiet: boolean): void {
    const p = this.pending;
    this.pending = undefined;
    if (p === undefined) return;
    try {
      this.record(p.name, p.text);
    } catch (e) {
      if (!quiet) throw e;
    }
  }

  /** An argument starting with '-' where an option waits for its value: parsed as an option, so an unknown one is the error. */
  private refuseUnknown(arg: string): void {
    if (arg === '--') return;
    if (arg.startsWith('--')) {
      const [name, ...value] = arg.slice(2).split('=');
      const spec = OPTIONS[`--${name}`];
      if (spec === undefined) throw unknownLong(name!, this.seen);
      // The waiting option has started the group.
      if (spec.value === undefined && value.length > 0) throw flagWithValue(`--${name}`, value.join('='), this.seen.file || this.seen.options.length > 0);
      return;
    }
    const first = [...arg.slice(1)][0]!;
    if (SHORT[first] === undefined) throw unexpected(`-${first}`);
  }

  /** Option `name`, its value inline (`--length=3`, `-l3`) or else the argument after (`following`); returns whether that was taken. */
  option(name: string, inline: string | undefined, following: string | undefined): boolean {
    const spec = OPTIONS[name]!;
    if (spec.value === undefined) {
      if (inline !== undefined) {
        throw flagWithValue(name, inline, this.seen.options.length > 0 || (this.pending !== undefined && this.seen.file));
      }
      this.resolve();
      this.record(name, undefined);
      this.done = name === '--help' || name === '--version';
      return false;
    }
    this.resolve();
    if (inline !== undefined) {
      this.record(name, inline);
      return false;
    }
    // clap takes the following argument as the value unless it looks like an option.
    if (following?.startsWith('-') && following !== '-') this.refuseUnknown(following);
    else if (following !== undefined) {
      this.pending = { name, text: following };
      return true;
    }
    throw valueRequired(spec);
  }

  long(arg: string, following: string | undefined): boolean {
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (OPTIONS[name] === undefined) {
      this.resolve(true);
      throw unknownLong(name.slice(2), this.seen);
    }
    return this.option(name, eq < 0 ? undefined : arg.slice(eq + 1), following);
  }

  /** -c, -l3, -l=3, -cl 3: flags, then at most one option taking the rest or the next argument. */
  shorts(arg: string, following: string | undefined): boolean {
    const letters = [...arg.slice(1)];
    for (let j = 0; j < letters.length && !this.done; j++) {
      const name = SHORT[letters[j]!];
      if (name === undefined) throw unexpected(`-${letters[j]}`);
      if (OPTIONS[name]!.value !== undefined) {
        // -l= is an empty value; -l alone takes the next argument.
        const rest = letters.slice(j + 1).join('');
        return this.option(name, rest === '' ? undefined : rest.replace(/^=/, ''), following);
      }
      this.option(name, undefined, following);
    }
    return false;
  }

  file(path: string): void {
    this.resolveOption(false);
    if (path === '') this.emptyFile = true;
    this.args.files.push(path);
    this.seen.file = true;
  }
}

export function parseArgs(argv: readonly string[]): B3sumArgs {
  const parser = new Parser();
  for (let i = 0; i < argv.length && !parser.done; i++) {
    const a = argv[i]!;
    if (a === '--') {
      parser.resolve();
      for (const path of argv.slice(i + 1)) parser.file(path);
      break;
    }
    let took = false;
    if (a.startsWith('--')) took = parser.long(a, argv[i + 1]);
    else if (a.startsWith('-') && a !== '-') took = parser.shorts(a, argv[i + 1]);
    else parser.file(a);
    if (took) i++;
  }
  const { args, seen } = parser;
  if (args.help || args.version) return args;
  parser.resolve();
  checkConflicts(seen);
  checkRequired(seen);
  return args;
}
