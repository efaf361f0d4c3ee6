/**
 * `fourfold age-keygen`: age-keygen's command line. Without -y, a new
 * X25519 identity (with -pq, a post-quantum hybrid one, ML-KEM-768 +
 * X25519) with its creation time and public key as comments (the
 * public key also on standard error when the output is not a terminal);
 * -o writes it to a new file, mode 0600, never over one that exists. With
 * -y, an identity file's recipients, one per line.
 */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { FlagError, HelpRequested, parseFlags } from './go-flags.js';
import { Failure } from './age-io.js';
import { isTerminal, readAll } from './terminal.js';
import { generateHybridIdentity, generateIdentity, identityKey, type NativeKey, recipientOfKey } from '../age/keys.js';

export const KEYGEN_USAGE = `Usage:
    fourfold age-keygen [-pq] [-o OUTPUT]
    fourfold age-keygen -y [-o OUTPUT] [INPUT]

Options:
    -pq                       Generate a post-quantum hybrid ML-KEM-768 + X25519 key pair.
    -o, --output OUTPUT       Write the result to the file at path OUTPUT.
    -y                        Convert an identity file to a recipients file.

fourfold age-keygen generates a new native X25519 or, with the -pq flag,
post-quantum hybrid ML-KEM-768 + X25519 key pair, and outputs it to
standard output or to the OUTPUT file.

If an OUTPUT file is specified, the public key is printed to standard error.
If OUTPUT already exists, it is not overwritten.

In -y mode, it reads an identity file from INPUT or from standard input and
writes the corresponding recipient(s) to OUTPUT or to standard output, one
per line, with no comments.`;

/** RFC 3339 with the local offset, as Go's time.RFC3339 prints it. */
function rfc3339(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const offset = -d.getTimezoneOffset();
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${zone}`;
}

function outputFd(path: string | undefined): number {
  if (path === undefined) return 1;
  try {
    return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (e) {
    throw new Failure(`failed to open output file ${JSON.stringify(path)}: ${(e as Error).message}`);
  }
}

async function convert(input: string | undefined, out: number): Promise<void> {
  let fd = 0;
  if (input !== undefined && input !== '-') {
    try {
      fd = openSync(input, 'r');
    } catch (e) {
      throw new Failure(`failed to open input file ${JSON.stringify(input)}: ${(e as Error).message}`);
    }
  }
  const text = new TextDecoder().decode(readAll(fd, 1 << 24));
  if (fd !== 0) closeSync(fd);
  const lines = text
    .split('\n')
    .map((l, i) => ({ line: l.replace(/\r$/, ''), n: i + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'));
  if (lines.length === 0) throw new Failure('no identities found in the input');
  const recipients: string[] = [];
  for (const { line, n } of lines) {
    let key: NativeKey;
    try {
      key = identityKey(line, `line ${n}`);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      // A plugin's identity holds what its plugin needs, and only the plugin knows its recipient (the protocol has no command for it).
      if (line.startsWith('AGE-PLUGIN-'))
        throw new Failure(
          `failed to parse input: line ${n} is a plugin's identity (AGE-PLUGIN-...): its recipient is the plugin's to give (see its documentation)`,
        );
      throw new Failure(`failed to parse input: ${e.message}`);
    }
    recipients.push(await recipientOfKey(key));
  }
  writeSync(out, recipients.map((r) => `${r}\n`).join(''));
}

async function generate(out: number, postQuantum: boolean): Promise<void> {
  const identity = postQuantum ? generateHybridIdentity() : generateIdentity();
  const recipient = await recipientOfKey(identityKey(identity, 'identity'));
  if (!isTerminal(out)) process.stderr.write(`Public key: ${recipient}\n`);
  const stat = fstatSync(out);
  if (stat.isFile() && (stat.mode & 0o004) !== 0) process.stderr.write('fourfold age-keygen: warning: writing secret key to a world-readable file\n');
  writeSync(out, `# created: ${rfc3339(new Date())}\n# public key: ${recipient}\n${identity}\n`);
}

/** `fourfold age-keygen ARGS`: the exit code. */
export async function ageKeygen(args: readonly string[], version: string): Promise<number> {
  let flags: ReturnType<typeof parseFlags>;
  try {
    flags = parseFlags(args, {
      version: { kind: 'bool', names: ['version'] },
      postQuantum: { kind: 'bool', names: ['pq'] },
      convert: { kind: 'bool', names: ['y'] },
      output: { kind: 'string', names: ['o', 'output'] },
    });
  } catch (e) {
    if (e instanceof HelpRequested) {
      process.stdout.write(`${KEYGEN_USAGE}\n`);
      return 0;
    }
    if (!(e instanceof FlagError)) throw e;
    process.stderr.write(`${e.message}\n${KEYGEN_USAGE}\n`);
    return 2;
  }
  if (flags.bools.has('version')) {
    process.stdout.write(`fourfold ${version}\n`);
    return 0;
  }
  try {
    const converting = flags.bools.has('convert');
    if (flags.positional.length > (converting ? 1 : 0)) throw new Failure('too many arguments');
    const postQuantum = flags.bools.has('postQuantum');
    if (postQuantum && converting) throw new Failure('-pq cannot be used with -y');
    const out = outputFd(flags.strings.get('output'));
    try {
      if (converting) await convert(flags.positional[0], out);
      else await generate(out, postQuantum);
    } finally {
      if (out !== 1) closeSync(out);
    }
    return 0;
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    process.stderr.write(`fourfold age-keygen: error: ${e.message}\n`);
    return 1;
  }
}
