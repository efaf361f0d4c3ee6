/**
 * `fourfold age`'s command line: its flags parsed as Go's flag package
 * parses them (age-usage.ts has them and the usage), -h, --help and
 * --version. This module imports no more than that: age.ts, which does
 * the work (and loads the library, its kernels and its dependencies), is
 * imported only for a command line that parsed, so that `fourfold age
 * --help` or a mistyped flag costs little more than Node's start.
 */
import { writeSync } from 'node:fs';
import { AGE_FLAGS, AGE_USAGE } from './age-usage.js';
import { FlagError, HelpRequested, parseFlags, type Parsed } from './go-flags.js';

/** `fourfold age ARGS`: the exit code (0, 1 for an error, 2 for flags that do not parse; 0 for -h and --help). */
export async function age(args: readonly string[], version: string): Promise<number> {
  // Synchronous writes: the command exits right after, and a pipe's asynchronous write would be cut.
  if (args.length === 0) {
    writeSync(2, `${AGE_USAGE}\n`);
    return 1;
  }
  let flags: Parsed;
  try {
    flags = parseFlags(args, AGE_FLAGS);
  } catch (e) {
    // Asked for, the usage goes to standard output (age writes it to standard error), with exit code 0 as age's.
    if (e instanceof HelpRequested) {
      writeSync(1, `${AGE_USAGE}\n`);
      return 0;
    }
    if (!(e instanceof FlagError)) throw e;
    writeSync(2, `${e.message}\n${AGE_USAGE}\n`);
    return 2;
  }
  if (flags.bools.has('version')) {
    writeSync(1, `fourfold ${version}\n`);
    return 0;
  }
  return (await import('./age.js')).run(flags);
}
