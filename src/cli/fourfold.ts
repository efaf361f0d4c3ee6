#!/usr/bin/env node
/**
 * The `fourfold` command (package.json "bin"): `fourfold b3sum [OPTIONS]
 * [FILE]...`, BLAKE3 sums as the official b3sum prints them (b3sum.ts).
 */
import { readFileSync } from 'node:fs';
import { b3sum } from './b3sum.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const [command, ...rest] = process.argv.slice(2);

if (command === 'b3sum') {
  process.exitCode = await b3sum(rest, version);
} else {
  process.stderr.write(`Usage: fourfold b3sum [OPTIONS] [FILE]...\n${command === undefined ? '' : `unknown command '${command}'\n`}`);
  process.exitCode = 2;
}
