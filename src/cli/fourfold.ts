#!/usr/bin/env node
/**
 * The `fourfold` command (package.json "bin"): `fourfold b3sum [OPTIONS]
 * [FILE]...`, BLAKE3 sums as the official b3sum prints them (b3sum.ts),
 * and `fourfold --help` / `--version`. Usage errors exit with code 2 and
 * name the program as --help does, as clap-style tools do.
 */
import { readFileSync } from 'node:fs';
import { b3sum } from './b3sum.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const USAGE = 'Usage: fourfold <COMMAND> [ARGS]...\n';
const HELP = `${USAGE}
Symmetric cryptography for every JavaScript engine: this command line.

Commands:
  b3sum          BLAKE3 sums of files, with the official b3sum's options and output
                 (fourfold b3sum --help lists them)

Options:
  -h, --help     this text
  -V, --version  the version
`;

const [command, ...rest] = process.argv.slice(2);

if (command === 'b3sum') {
  process.exitCode = await b3sum(rest, version);
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
