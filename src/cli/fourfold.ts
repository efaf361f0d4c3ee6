#!/usr/bin/env node
/**
 * The `fourfold` command (package.json "bin"): `fourfold b3sum [OPTIONS]
 * [FILE]...`, BLAKE3 sums as the official b3sum prints them (b3sum.ts);
 * `fourfold age` and `fourfold age-keygen`, age's commands on every core
 * (age.ts, age-keygen.ts); and `fourfold --help` / `--version`. Usage
 * errors exit with code 2 and name the program as --help does.
 */
import { readFileSync } from 'node:fs';
import { enableOwnCompileCache } from './compile-cache.js';
import { dieOnBrokenStdio } from './signals.js';

// V8's code cache for the modules loaded from here on, in a folder of the user's own that no one else can write, or none (compile-cache.ts).
enableOwnCompileCache();

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const USAGE = 'Usage: fourfold <COMMAND> [ARGS]...\n';
const HELP = `${USAGE}
Symmetric cryptography for every JavaScript engine: this command line.

Commands:
  b3sum          BLAKE3 sums of files, with the official b3sum's options and output
                 (fourfold b3sum --help lists them)
  age            age files: encrypt and decrypt with age's flags, on every core
                 (fourfold age --help lists them)
  age-keygen     a new age key pair, or an identity file's recipients (-y)
                 (fourfold age-keygen --help)

Options:
  -h, --help     this text
  -V, --version  the version
`;

const [command, ...rest] = process.argv.slice(2);

// Writes through process.stdout and process.stderr (help, age-keygen) fail asynchronously: a closed reader ends the command by SIGPIPE there too.
dieOnBrokenStdio();

// Each command loads only its own modules: a process's start is much of a small file's time.
if (command === 'b3sum') {
  const { b3sum } = await import('./b3sum.js');
  process.exitCode = await b3sum(rest, version);
} else if (command === 'age') {
  const { age } = await import('./age-command.js');
  process.exitCode = await age(rest, version);
  // The pool's workers and any timers end with the command.
  process.exit();
} else if (command === 'age-keygen') {
  const { ageKeygen } = await import('./age-keygen.js');
  process.exitCode = await ageKeygen(rest, version);
} else if (command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(HELP);
} else if (command === '--version' || command === '-V') {
  process.stdout.write(`fourfold ${version}\n`);
} else if (command === undefined) {
  process.stderr.write(HELP);
  process.exitCode = 2;
} else {
  const what = command.startsWith('-') ? 'unexpected argument' : 'unrecognized subcommand';
  process.stderr.write(`error: ${what} '${command}'\n\n${USAGE}\nFor more information, try 'fourfold --help'.\n`);
  process.exitCode = 2;
}
