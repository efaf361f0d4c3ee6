/**
 * `fourfold b3sum`: the official b3sum's command line, byte for byte: the
 * same output lines (hex, --no-names, --tag, --raw, any --length and
 * --seek), its escaping of file names holding a backslash, newline or
 * carriage return (a leading backslash, then \\ \n \r), its --check
 * messages, and exit code 1 when any file failed (2 for usage errors).
 */
import { parseArgs, UsageError, type B3sumArgs } from './args.js';
import { PROGRAM } from './clap.js';
import { checkFile } from './check.js';
import { hashPath, outputBytes, STDIN, type Run } from './hash.js';
import { ioErrorText, Fatal, Output, readFull } from './io.js';
import { modeOf } from '../blake3/args.js';
import { cores } from '../runtime/host.js';
import { ready } from '../runtime/kernels.js';

const HEX = '0123456789abcdef';

function hex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += HEX[b >>> 4]! + HEX[b & 15]!;
  return s;
}

/** b3sum's form of a name: `\` `\n` `\r` escaped, and whether any was. */
export function escapeName(name: string): { name: string; escaped: boolean } {
  if (!/[\\\n\r]/.test(name)) return { name, escaped: false };
  return { name: name.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r'), escaped: true };
}

async function hashOne(run: Run, path: string): Promise<void> {
  const { args, out } = run;
  const root = await hashPath(run, path);
  try {
    const digest = () => {
      for (const piece of outputBytes(root, args.seek, args.length)) out.write(args.raw ? piece : hex(piece));
    };
    if (args.raw) return digest();
    if (args.noNames) {
      digest();
      return out.write('\n');
    }
    const { name, escaped } = escapeName(path);
    if (escaped) out.write('\\');
    if (args.tag) {
      out.write(`BLAKE3 (${name}) = `);
      digest();
      return out.write('\n');
    }
    digest();
    out.write(`  ${name}\n`);
  } finally {
    root.fill(0);
  }
}

/** The 32-byte key of --keyed, from standard input (all of it: more than 32 bytes is an error). */
function readKey(): Uint8Array {
  const key = new Uint8Array(33);
  const n = readFull(STDIN, key);
  if (n < 32) throw new Fatal(`expected 32 key bytes from stdin, found ${n}`);
  if (n > 32) throw new Fatal('read more than 32 key bytes from stdin');
  return key.subarray(0, 32);
}

async function threads(args: B3sumArgs): Promise<number> {
  // A thread count past 2^53 is only a bound (no machine has that many).
  if (args.numThreads !== undefined && args.numThreads > 0n) return Number(args.numThreads);
  const env = Number(process.env.RAYON_NUM_THREADS);
  return Number.isSafeInteger(env) && env > 0 ? env : cores();
}

const HELP = `Usage: ${PROGRAM} [OPTIONS] [FILE]...

BLAKE3 sums of files (standard input when no file or - is given), as the
official b3sum prints them.

  --keyed               keyed_hash, with the 32-byte key read from standard input
  --derive-key CONTEXT  derive_key with this context string
  -l, --length LEN      output bytes before hex encoding (default 32)
  --seek SEEK           output offset in bytes (default 0)
  --num-threads NUM     threads hashing a large file, this one included (default: the logical cores)
  --no-mmap             hash on one thread
  --no-names            print the hashes only
  --raw                 write the raw output bytes (one input only)
  --tag                 BSD-style lines: BLAKE3 (FILE) = HASH
  -c, --check           check the sums listed in the FILEs
  --quiet               with --check: print failures only
  -h, --help            this text
  -V, --version         the version
`;

/** Runs b3sum with `argv` (the arguments after `b3sum`); resolves to the exit code. */
export async function b3sum(argv: readonly string[], version: string): Promise<number> {
  const out = new Output(1);
  const err = new Output(2);
  try {
    const args = parseArgs(argv);
    if (args.help || args.version) {
      out.write(args.help ? HELP : `b3sum (fourfold ${version})\n`);
      return 0;
    }
    const files = args.files.length > 0 ? args.files : ['-'];
    if (args.raw && files.length > 1) throw new Fatal('Only one filename can be provided when using --raw');
    await ready();
    const key = args.keyed ? readKey() : undefined;
    const mode = modeOf(key !== undefined ? { key } : args.deriveKey !== undefined ? { context: args.deriveKey } : undefined);
    const run: Run = { args, keying: { key: mode.key, flags: mode.flags }, workers: (await threads(args)) - 1, out, err };
    let failed = 0;
    try {
      for (const path of files) {
        if (args.check) {
          failed += await checkFile(run, path);
          continue;
        }
        try {
          await hashOne(run, path);
        } catch (e) {
          failed++;
          out.flush();
          err.write(`b3sum: ${path}: ${ioErrorText(e)}\n`);
          err.flush();
        }
      }
    } finally {
      key?.fill(0);
      if (mode.derived) mode.key.fill(0);
    }
    if (args.check && failed > 0) err.write(`b3sum: WARNING: ${failed} computed checksum${failed === 1 ? '' : 's'} did NOT match\n`);
    return failed > 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(e.message);
      return 2;
    }
    out.flush();
    err.write(`Error: ${e instanceof Fatal ? e.message : ioErrorText(e)}\n`);
    return 1;
  } finally {
    out.flush();
    err.flush();
  }
}
