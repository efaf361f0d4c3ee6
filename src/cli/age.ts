/**
 * `fourfold age`: the age command line (filippo.io/age's `age`), on every
 * core. The same flags, modes and exit codes, so that a script can call it
 * where it called age: encrypt to recipients (-r, -R, or -e with -i) or a
 * passphrase (-p), decrypt with identities (-i) or a passphrase, armor
 * (-a; detected when decrypting), -o, standard input and output. Messages
 * start with "fourfold age:" as age's start with "age:". Keys: age's
 * (X25519, post-quantum), SSH, tag recipients, and plugins' (run from
 * PATH; `-j batchpass`, age-plugin-batchpass's environment variables,
 * is built in). Its usage and flags are age-command.ts's, which imports
 * this module only to run a command that parsed.
 *
 * A run loads what its flags and files need (scripts/build-cli.ts puts
 * each import() in a chunk apart): the file calls and -o's output only
 * with -o, the pool only for an input that is not a regular file below
 * PARALLEL_MIN (the pool's runner would keep all of such an input on this
 * thread anyway). A small file from standard input to standard output, a
 * script's usual call, starts no sooner for code it never runs.
 */
import * as fs from 'node:fs';
import { accessSync, closeSync, constants, existsSync, fstatSync, openSync, realpathSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Failure, AgeOutput, progressFor, pump, takeStdin } from './age-io.js';
import { BATCHPASS_ENCRYPT } from './age-usage.js';
import { isBatchpass, receiverFor, senderFor } from './age-keys.js';
import { listOf, type Parsed } from './go-flags.js';
import { removeOnSignal } from './signals.js';
import { isTerminal } from './terminal.js';
import { type AgeRunners, Decryptor, Encryptor, type ReceiverOrAsk } from '../age/codec.js';
import { AgeFormatError, NoIdentityMatchError } from '../age/errors.js';
import { forgetKeys, type Sender } from '../age/file-key.js';
import type { FileCall } from '../age/file-ends.js';
import { hereRunner } from '../age/here.js';
import { PARALLEL_MIN } from '../pool/protocol.js';
import { AuthenticationError } from '../runtime/errors.js';

/** The checks age makes of the flags before it reads anything. */
function checkModes(flags: Parsed): void {
  const has = (f: string) => flags.bools.has(f);
  const recipients = listOf(flags, 'recipient').length;
  const files = listOf(flags, 'recipientsFile').length;
  const identities = listOf(flags, 'identity').length + listOf(flags, 'plugin').length;
  // -j batchpass is how a script encrypts with a passphrase: where its flags are refused, the hint gives them.
  const batchpassHint = listOf(flags, 'plugin').some(isBatchpass) ? [`to encrypt with the passphrase in AGE_PASSPHRASE: ${BATCHPASS_ENCRYPT}`] : [];
  if (has('decrypt')) {
    if (has('encrypt')) throw new Failure("-e/--encrypt can't be used with -d/--decrypt");
    if (has('armor'))
      throw new Failure("-a/--armor can't be used with -d/--decrypt", ['note that armored files are detected automatically, try again without -a/--armor']);
    if (has('passphrase'))
      throw new Failure("-p/--passphrase can't be used with -d/--decrypt", ['note that password protected files are detected automatically']);
    if (recipients > 0) throw new Failure("-r/--recipient can't be used with -d/--decrypt", ['did you mean to use -i/--identity to specify a private key?']);
    if (files > 0) throw new Failure("-R/--recipients-file can't be used with -d/--decrypt", ['did you mean to use -i/--identity to specify a private key?']);
    return;
  }
  if (identities > 0 && !has('encrypt')) {
    throw new Failure("-i/--identity and -j can't be used in encryption mode unless symmetric encryption is explicitly selected with -e/--encrypt", [
      'did you forget to specify -d/--decrypt?',
      ...batchpassHint,
    ]);
  }
  if (recipients + files + identities === 0 && !has('passphrase')) {
    throw new Failure('missing recipients', ['did you forget to specify -r/--recipient, -R/--recipients-file or -p/--passphrase?']);
  }
  if (recipients > 0 && has('passphrase')) throw new Failure("-p/--passphrase can't be combined with -r/--recipient");
  if (files > 0 && has('passphrase')) throw new Failure("-p/--passphrase can't be combined with -R/--recipients-file");
  if (identities > 0 && has('passphrase')) throw new Failure("-p/--passphrase can't be combined with -i/--identity and -j", batchpassHint);
}

/**
 * The runners for an input of `size` bytes (undefined: unknown, a pipe or
 * a device): this thread's below PARALLEL_MIN, as the pool's runner does
 * there (age/here.ts), with the pool's scrypt loaded only for a
 * passphrase; else the pool's, loaded now (`command`: the command's
 * runners for file calls, COMMAND_POOL_RUNNERS).
 */
async function runnersFor(size: number | undefined, command: boolean): Promise<AgeRunners> {
  // A passphrase's scrypt runs on a worker whatever the size, as POOL_RUNNERS' does.
  const pool = () => import('../parallel/age-pool.js');
  if (size !== undefined && size < PARALLEL_MIN) return { runner: () => hereRunner, scrypt: async (...a) => (await pool()).POOL_RUNNERS.scrypt(...a) };
  const { COMMAND_POOL_RUNNERS, POOL_RUNNERS } = await pool();
  return command ? COMMAND_POOL_RUNNERS : POOL_RUNNERS;
}

/** The size of the regular file open as `fd`, or undefined for anything else (a pipe, a device, a terminal). */
function regularSize(fd: number): number | undefined {
  try {
    const stat = fstatSync(fd);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}

const absolute = (p: string): string => (existsSync(p) ? realpathSync(p) : resolve(p));

/** Refuses an output that is the input or a key file. */
function refuseSameFiles(flags: Parsed): void {
  const name = flags.positional[0];
  const output = flags.strings.get('output');
  if (output === undefined || output === '-') return;
  const inUse = [...listOf(flags, 'identity'), ...listOf(flags, 'recipientsFile')];
  if (name !== undefined && name !== '-') inUse.push(name);
  for (const f of inUse) if (f !== '-' && absolute(f) === absolute(output)) throw new Failure(`input and output file are the same: ${JSON.stringify(output)}`);
}

/**
 * INPUT and OUTPUT when both are regular files this user may read and
 * write (OUTPUT new beside a folder it may write, or a regular file, or a
 * link to one: its target), so that the file calls do the work on every
 * core; else undefined, and the stream path reads and writes them, as it
 * does pipes, devices and terminals, with age's messages for what it
 * cannot open.
 */
async function regularFiles(flags: Parsed): Promise<{ input: string; output: string } | undefined> {
  const input = flags.positional[0];
  const output = flags.strings.get('output');
  if (input === undefined || input === '-' || output === undefined || output === '-') return undefined;
  try {
    if (!statSync(input).isFile()) return undefined;
    accessSync(input, constants.R_OK);
    const { isBait, outputTarget } = await import('./age-files.js');
    const target = await outputTarget(fs, output);
    if (target.kind === 'other' || (target.kind === 'file' && isBait(target, process.geteuid!()))) return undefined;
    if (target.kind === 'file') accessSync(target.path, constants.W_OK);
    accessSync(dirname(target.path), constants.W_OK);
    return { input, output };
  } catch {
    return undefined;
  }
}

/** Encrypts or decrypts file to file through the file calls (age/files.ts), their workers reading and writing at offsets. */
async function throughFiles(
  files: { input: string; output: string },
  flags: Parsed,
  label: string,
  sender: Sender | undefined,
  receiver: ReceiverOrAsk | undefined,
) {
  const size = statSync(files.input).size;
  const progress = progressFor(size, label);
  const [{ openFile, sealFile }, runners] = await Promise.all([import('./age-files.js'), runnersFor(size, true)]);
  const call: FileCall = {
    ...files,
    signal: undefined,
    onProgress: progress === undefined ? undefined : (done) => progress.update(done),
    armor: flags.bools.has('armor'),
    naming: false,
    watch: removeOnSignal,
  };
  try {
    if (sender !== undefined) await sealFile(runners, call, sender);
    else await openFile(runners, call, receiver!);
    progress?.end();
  } finally {
    if (sender !== undefined) forgetKeys(sender);
    if (receiver !== undefined && typeof receiver !== 'function') forgetKeys(receiver);
  }
}

/** Opens the input (INPUT, or standard input). */
function openInput(flags: Parsed): number {
  const name = flags.positional[0];
  if (name === undefined || name === '-') return takeStdin();
  try {
    if (statSync(name).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    return openSync(name, 'r');
  } catch (e) {
    throw new Failure(`failed to open input file ${JSON.stringify(name)}: ${(e as Error).message}`);
  }
}

/** What age says when none of the identities opens the file (its NoIdentityMatchError's words: the command always holds two identities or more). */
const NO_MATCH = 'no identity matched any of the recipients';

/** The message of an error the library threw, as age words its own. */
function failureOf(e: unknown): Failure {
  if (e instanceof Failure) return e;
  if (e instanceof NoIdentityMatchError) {
    if (e.message.startsWith('wrong passphrase')) return new Failure('incorrect passphrase');
    // The library's "no identity matches any of the file's N recipient stanzas" is age's sentence again: said once.
    return new Failure(e.message.startsWith('no identity matches') ? NO_MATCH : `${NO_MATCH}: ${e.message}`);
  }
  if (e instanceof AgeFormatError || e instanceof AuthenticationError) return new Failure(e.message);
  return new Failure(e instanceof Error ? e.message : String(e));
}

async function runAge(flags: Parsed): Promise<void> {
  checkModes(flags);
  if (flags.positional.length > 1) {
    const hint = flags.positional[1]!.startsWith('-')
      ? ['the input file must be specified after all flags']
      : ['only a single input file may be specified at a time'];
    throw new Failure(`too many INPUT arguments: ${flags.positional.map((a) => JSON.stringify(a)).join(' ')}`, hint);
  }
  const decrypting = flags.bools.has('decrypt');
  const outPath = flags.strings.get('output');
  const toStdout = outPath === undefined || outPath === '-';
  if (outPath === undefined && !decrypting && !flags.bools.has('armor') && isTerminal(1)) {
    throw new Failure('refusing to output binary to the terminal', ['did you mean to use -a/--armor?', 'force anyway with "-o -"']);
  }
  // Keys first (they may read standard input or ask for a passphrase), then the input.
  const sender = decrypting ? undefined : await senderFor(flags);
  const receiver = decrypting ? await receiverFor(flags) : undefined;
  const label = decrypting ? 'fourfold age: decrypting' : 'fourfold age: encrypting';
  refuseSameFiles(flags);
  const files = await regularFiles(flags);
  if (files !== undefined) return throughFiles(files, flags, label, sender, receiver);
  const input = openInput(flags);
  const out = new AgeOutput(toStdout ? undefined : outPath, !decrypting);
  const progress = input === 0 ? undefined : progressFor(fstatSync(input).size, label);
  const runners = await runnersFor(regularSize(input), false);
  const codec =
    sender !== undefined
      ? new Encryptor(sender, flags.bools.has('armor'), runners, (b) => out.write(b))
      : new Decryptor(receiver!, runners, (b) => out.write(b));
  try {
    await pump(
      input,
      async (bytes) => {
        await codec.write(bytes);
        await out.drain();
      },
      progress,
    );
    await codec.end();
    await out.close();
  } catch (e) {
    await out.abort();
    throw e;
  } finally {
    codec.forget();
    if (input !== 0) closeSync(input);
  }
}

/** `fourfold age` with its parsed flags: the exit code, 0, or 1 after an error, which it prints as age prints its own. */
export async function run(flags: Parsed): Promise<number> {
  // Synchronous writes: the command exits right after, and a pipe's asynchronous write would be cut.
  const say = (line: string) => writeSync(2, `fourfold age: ${line}\n`);
  try {
    await runAge(flags);
    return 0;
  } catch (e) {
    const f = failureOf(e);
    say(`error: ${f.message}`);
    for (const hint of f.hints) say(`hint: ${hint}`);
    return 1;
  }
}
