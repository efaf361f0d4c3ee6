/**
 * Who an age command encrypts to and decrypts with, from its flags, as
 * age reads them: recipients (-r), recipients files (-R), identity files
 * (-i; an identity file may itself be passphrase-encrypted), passphrases
 * typed at the terminal (-p, or asked for once a file shows an scrypt
 * stanza), age plugins (age1NAME1... recipients, AGE-PLUGIN-NAME-1...
 * identities, -j NAME: run from PATH by age-plugin.ts), and
 * age-plugin-batchpass's environment variables (-j batchpass, built in).
 */
import { closeSync, openSync } from 'node:fs';
import { BATCHPASS_DECRYPT, BATCHPASS_ENCRYPT } from './age-usage.js';
import { listOf, type Parsed } from './go-flags.js';
import { Failure, takeStdin } from './age-io.js';
import { checkLabels, namedPlugin, nativeLabels, pluginIdentity, type PluginKey, pluginRecipient, unwrapWithPlugins, wrapForPlugins } from './age-plugin.js';
import { NoTerminal, readAll, readSecret, toTerminal } from './terminal.js';
import type { ReceiverOrAsk } from '../age/codec.js';
import { DEFAULT_MAX_WORK_FACTOR, type Receiver, receiverOf, type Sender, senderOf, DEFAULT_WORK_FACTOR } from '../age/file-key.js';
import type { Stanza } from '../age/header.js';
import { KEY_SSH, KEY_TAG } from '../age/key-types.js';
import { identityKey, type IdentityKey, recipientKey, recipientOfKey, sshCode, tagCode } from '../age/keys.js';
import { zeroize } from '../runtime/bytes.js';

/** The file and line limit age puts on recipient and identity files. */
const KEY_FILE_LIMIT = 1 << 24;

/** The lines of a key file that are not empty or comments, with their numbers. */
function keyLines(bytes: Uint8Array, what: string): { line: string; n: number }[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Failure(`${what} is not valid UTF-8`);
  }
  return text
    .split('\n')
    .map((line, i) => ({ line: line.replace(/\r$/, ''), n: i + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'));
}

function readKeyFile(name: string): Uint8Array {
  if (name === '-') return readAll(takeStdin(), KEY_FILE_LIMIT);
  let fd: number;
  try {
    fd = openSync(name, 'r');
  } catch (e) {
    throw new Failure(`failed to open file ${JSON.stringify(name)}: ${(e as Error).message}`);
  }
  try {
    return readAll(fd, KEY_FILE_LIMIT);
  } catch (e) {
    throw new Failure(`failed to read ${JSON.stringify(name)}: ${(e as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** At most the first 12 characters of a key, for a message that must say which of several it is: never a whole key, which may be 2,000 characters. */
const shortened = (key: string): string => JSON.stringify(key.length > 12 ? `${key.slice(0, 12)}…` : key);

/** `r`, once it is a recipient fourfold encrypts to (an SSH or tag key read in full; a plugin's, to be run); else a Failure saying what it is instead, as `where` (the flag, or a file's line). */
async function checkRecipient(r: string, where: string): Promise<string | PluginKey> {
  const plugin = pluginRecipient(r, where);
  if (plugin !== undefined) return plugin;
  try {
    const { type } = recipientKey(r, where);
    if (type === KEY_SSH) (await sshCode()).publicKeyFromLine(r, where);
    if (type === KEY_TAG) (await tagCode()).checkTagRecipient(r, where);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new Failure(e.message, r.startsWith('ssh-') ? ['use an ssh-ed25519 or ssh-rsa key, or an age key pair (fourfold age-keygen)'] : []);
  }
  return r;
}

/** An SSH public key line of a type age has no recipient for (ecdsa, sk-...): age skips such lines of a recipients file, warning. */
const otherSshKey = (line: string): string | undefined =>
  /^(ssh-(?!ed25519 |rsa )[a-z0-9-]+|ecdsa-sha2-[a-z0-9-]+|sk-[a-z0-9-@.]+) [A-Za-z0-9+/]/.exec(line)?.[1];

async function recipientsFile(name: string): Promise<(string | PluginKey)[]> {
  const lines = keyLines(readKeyFile(name), `${JSON.stringify(name)}: recipients file`);
  const recipients: (string | PluginKey)[] = [];
  for (const { line, n } of lines) {
    const other = otherSshKey(line);
    if (other !== undefined) {
      process.stderr.write(
        `fourfold age: warning: recipients file ${JSON.stringify(name)}: ignoring unsupported SSH key of type ${JSON.stringify(other)} at line ${n}\n`,
      );
      continue;
    }
    recipients.push(await checkRecipient(line, `${JSON.stringify(name)}: line ${n}`));
  }
  if (recipients.length === 0) throw new Failure(`failed to parse recipient file ${JSON.stringify(name)}: no recipients found`);
  return recipients;
}

/** The longest SSH private key file read: 16 KiB, as age. */
const SSH_KEY_LIMIT = 1 << 14;

/** An SSH private key file's identity: read now (a malformed one fails here), its passphrase asked for only when a file's stanza is the key's. */
async function sshIdentity(name: string, bytes: Uint8Array): Promise<IdentityKey & { publicLine: string }> {
  if (bytes.length >= SSH_KEY_LIMIT) throw new Failure(`failed to read ${JSON.stringify(name)}: file too long`);
  const text = new TextDecoder().decode(bytes);
  const ssh = await sshCode();
  let file: Awaited<ReturnType<typeof ssh.readPrivateKeyFile>>;
  try {
    file = await ssh.readPrivateKeyFile(text, JSON.stringify(name));
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new Failure(`malformed SSH identity: ${e.message}`);
  }
  const ask = async (): Promise<Uint8Array> => new TextEncoder().encode(await secret(`Enter passphrase for ${JSON.stringify(name)}:`));
  return { type: KEY_SSH, text, ask, publicLine: ssh.publicLine(file.public) };
}

/** An identity of an identity file, and the recipient it decrypts for (what -e -i encrypts to); or a plugin's identity, which its plugin encrypts to. */
type FileIdentity = { readonly key: IdentityKey; readonly recipient: () => string | Promise<string> } | { readonly plugin: PluginKey };

/** The identities of an identity file: an SSH private key, key lines (age's, or plugins'), or a passphrase-encrypted age file of them (the passphrase asked for). */
async function identitiesFile(name: string): Promise<FileIdentity[]> {
  let bytes = readKeyFile(name);
  const start = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart();
  if (start.startsWith('-----BEGIN') && !start.startsWith('-----BEGIN AGE ENCRYPTED FILE-----')) {
    const { publicLine, ...key } = await sshIdentity(name, bytes);
    return [{ key, recipient: () => publicLine }];
  }
  if (start.startsWith('age-encryption.org/') || start.startsWith('-----BEGIN AGE ENCRYPTED FILE-----')) {
    const passphrase = await secret(`Enter passphrase for identity file ${JSON.stringify(name)}:`);
    try {
      // The library's one-thread calls, loaded only for such a file.
      const { decrypt } = await import('../age/index.js');
      bytes = await decrypt(bytes, { passphrase, maxWorkFactor: 22 });
    } catch (e) {
      throw new Failure(`reading ${JSON.stringify(name)}: ${(e as Error).message}`);
    }
  }
  const lines = keyLines(bytes, `${JSON.stringify(name)}: identities file`);
  if (lines.length === 0) throw new Failure(`reading ${JSON.stringify(name)}: no identities found`);
  return lines.map(({ line, n }): FileIdentity => {
    const where = `reading ${JSON.stringify(name)}: line ${n}`;
    const plugin = pluginIdentity(line, where);
    if (plugin !== undefined) return { plugin };
    try {
      return { key: identityKey(line, where), recipient: () => recipientOfKey(identityKey(line, where)) };
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      const hint = line.startsWith('age1') ? ['did you mean to use -R/--recipients-file to encrypt to a recipient?'] : [];
      throw new Failure(e.message, hint);
    }
  });
}

/** A secret typed at the terminal; a Failure where there is none, with the command that needs none (`script`) as a hint. */
async function secret(prompt: string, script?: string): Promise<string> {
  try {
    return await readSecret(prompt);
  } catch (e) {
    if (!(e instanceof NoTerminal)) throw e;
    const hints = e.absent && script !== undefined ? [`without a terminal, give the passphrase in the environment: ${script}`] : [];
    throw new Failure(`could not read passphrase: ${e.message}`, hints);
  }
}

/** A passphrase for encryption: typed twice, or made up when left empty (as age does). */
async function passphraseForEncryption(): Promise<string> {
  const pass = await secret('Enter passphrase (leave empty to autogenerate a secure one):', BATCHPASS_ENCRYPT);
  if (pass !== '') {
    if ((await secret('Confirm passphrase:', BATCHPASS_ENCRYPT)) !== pass) throw new Failure("passphrases didn't match");
    return pass;
  }
  // 20 groups of 5 letters from 32: 100 bits; a word list would be easier to type, but this needs none.
  const alphabet = 'abcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(25));
  const made = Array.from(bytes, (b) => alphabet[b % 32]).join('');
  const words = made.match(/.{5}/g)!.join('-');
  toTerminal(`fourfold age: using autogenerated passphrase "${words}"`);
  return words;
}

/** The passphrase from descriptor `text` (AGE_PASSPHRASE_FD), trailing line ends dropped, as age-plugin-batchpass reads it. */
function passphraseFromFd(text: string): string {
  if (!/^[0-9]+$/.test(text)) throw new Failure(`-j batchpass: invalid AGE_PASSPHRASE_FD: ${JSON.stringify(text)}`);
  const fd = Number(text);
  let bytes: Uint8Array;
  try {
    bytes = readAll(fd, BATCHPASS_LIMIT);
  } catch (e) {
    throw new Failure(`-j batchpass: failed to read passphrase from fd ${fd}: ${(e as Error).message}`);
  }
  return new TextDecoder().decode(bytes).replace(/[\r\n]+$/, '');
}

/** The longest passphrase age-plugin-batchpass reads from a descriptor: 1 MiB. */
const BATCHPASS_LIMIT = 1 << 20;

/**
 * age-plugin-batchpass's settings: the passphrase from AGE_PASSPHRASE or
 * the descriptor AGE_PASSPHRASE_FD (one of them: both set is an error, as
 * in the plugin; an empty variable is unset), and the work factors.
 * `command` is the command line that sets them, for the hint.
 */
function batchpass(command: string): { passphrase: string; workFactor: number; maxWorkFactor: number } {
  const env = process.env;
  const set = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  const fromEnv = set('AGE_PASSPHRASE');
  const fd = set('AGE_PASSPHRASE_FD');
  if (fromEnv !== undefined && fd !== undefined) throw new Failure('-j batchpass: AGE_PASSPHRASE and AGE_PASSPHRASE_FD are mutually exclusive');
  if (fromEnv === undefined && fd === undefined) {
    throw new Failure('-j batchpass: either AGE_PASSPHRASE or AGE_PASSPHRASE_FD must be set', [`give the passphrase in the environment: ${command}`]);
  }
  const passphrase = fromEnv ?? passphraseFromFd(fd!);
  if (passphrase === '') throw new Failure('-j batchpass: the passphrase is empty');
  const factor = (name: string, fallback: number): number => {
    const value = set(name);
    if (value === undefined) return fallback;
    if (!/^[1-9][0-9]*$/.test(value) || Number(value) > 30) throw new Failure(`-j batchpass: ${name} must be a number from 1 to 30`);
    return Number(value);
  };
  return { passphrase, workFactor: factor('AGE_PASSPHRASE_WORK_FACTOR', DEFAULT_WORK_FACTOR), maxWorkFactor: factor('AGE_PASSPHRASE_MAX_WORK_FACTOR', 22) };
}

/** Whether -j's `name` is batchpass: in any case, as age runs age-plugin-NAME in lower case (plugin.NewIdentityWithoutData). */
export const isBatchpass = (name: string): boolean => name.toLowerCase() === 'batchpass';

/** The plugins -j names, in order: batchpass (built in) and those run from PATH. */
function namedPlugins(flags: Parsed): { batchpass: boolean; others: PluginKey[] } {
  const names = listOf(flags, 'plugin');
  return { batchpass: names.some(isBatchpass), others: names.filter((n) => !isBatchpass(n)).map(namedPlugin) };
}

/** Who the file is encrypted to. */
export async function senderFor(flags: Parsed): Promise<Sender> {
  if (flags.bools.has('passphrase')) return senderOf({ passphrase: await passphraseForEncryption() });
  const named = namedPlugins(flags);
  if (named.batchpass) {
    const { passphrase, workFactor } = batchpass(BATCHPASS_ENCRYPT);
    if (listOf(flags, 'recipient').length + listOf(flags, 'recipientsFile').length + listOf(flags, 'identity').length + named.others.length > 0) {
      throw new Failure('-j batchpass encrypts with a passphrase, which must be the only recipient');
    }
    return senderOf({ passphrase, workFactor });
  }
  const recipients: string[] = [];
  const plugins: PluginKey[] = [];
  const add = (r: string | PluginKey) => (typeof r === 'string' ? recipients.push(r) : plugins.push(r));
  for (const r of listOf(flags, 'recipient')) add(await checkRecipient(r, `-r ${shortened(r)}`));
  for (const name of listOf(flags, 'recipientsFile')) for (const r of await recipientsFile(name)) add(r);
  for (const name of listOf(flags, 'identity')) {
    for (const id of await identitiesFile(name)) {
      if ('plugin' in id) plugins.push(id.plugin);
      else {
        recipients.push(await id.recipient());
        if (id.key.type !== KEY_SSH) zeroize(id.key.bytes);
      }
    }
  }
  plugins.push(...named.others);
  const labels = recipients.map((r) => nativeLabels(recipientKey(r, 'a recipient')));
  for (const l of labels) checkLabels(labels[0]!, l);
  if (plugins.length === 0) return senderOf({ recipients });
  const natives = recipients.length === 0 ? { recipients: [], workFactor: DEFAULT_WORK_FACTOR } : senderOf({ recipients });
  return { ...natives, others: wrapForPlugins(plugins) };
}

/**
 * Who decrypts: the identities of -i's files and -j's plugins, in order,
 * (a passphrase file is then refused, as age refuses it, unless -j
 * batchpass gives its passphrase), batchpass's passphrase alone, or a
 * passphrase asked for once the header shows an scrypt stanza.
 */
export async function receiverFor(flags: Parsed): Promise<ReceiverOrAsk> {
  const named = namedPlugins(flags);
  const batch = named.batchpass ? batchpass(BATCHPASS_DECRYPT) : undefined;
  const identities: IdentityKey[] = [];
  const plugins: PluginKey[] = [];
  for (const { flag, value } of flags.lists) {
    if (flag === 'identity') for (const id of await identitiesFile(value)) 'plugin' in id ? plugins.push(id.plugin) : identities.push(id.key);
    if (flag === 'plugin' && !isBatchpass(value)) plugins.push(namedPlugin(value));
  }
  const withPassphrase = (): Receiver => receiverOf({ passphrase: batch!.passphrase, maxWorkFactor: batch!.maxWorkFactor });
  if (batch !== undefined && identities.length + plugins.length === 0) return withPassphrase();
  if (identities.length + plugins.length > 0) {
    const receiver: Receiver = { identities, maxWorkFactor: DEFAULT_MAX_WORK_FACTOR, ...(plugins.length > 0 ? { others: unwrapWithPlugins(plugins) } : {}) };
    return async (stanzas: readonly Stanza[]): Promise<Receiver> => {
      if (stanzas.length === 1 && stanzas[0]!.type === 'scrypt') {
        if (batch !== undefined) return withPassphrase();
        throw new Failure('file is passphrase-encrypted but identities were specified with -i/--identity or -j', [
          'remove all -i/--identity/-j flags to decrypt passphrase-encrypted files',
        ]);
      }
      return receiver;
    };
  }
  return async (stanzas: readonly Stanza[]): Promise<Receiver> => {
    if (!stanzas.some((s) => s.type === 'scrypt')) {
      throw new Failure('the file is not passphrase-encrypted, identities are required', ['specify identities with -i/--identity or -j to decrypt this file']);
    }
    return receiverOf({ passphrase: await secret('Enter passphrase:', BATCHPASS_DECRYPT), maxWorkFactor: Math.max(DEFAULT_MAX_WORK_FACTOR, 22) });
  };
}
