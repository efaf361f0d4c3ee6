/**
 * age plugins for the command (C2SP age-plugin): a recipient "age1NAME1..."
 * or an identity "AGE-PLUGIN-NAME-1..." is handled by the program
 * age-plugin-NAME from PATH, which wraps a file key to it (the state
 * machine recipient-v1) or unwraps one from a header's stanzas
 * (identity-v1). Client and plugin talk in age stanzas over the plugin's
 * standard input and output; the plugin may ask the user things (a PIN,
 * a confirmation), which the terminal answers. As the Go age does, each
 * recipient or identity gets a plugin process of its own, started in the
 * temporary folder (plugin-session.ts), and the stanza types a plugin
 * does not know are answered "unsupported".
 */
import { writeSync } from 'node:fs';
import { bech32 } from '@scure/base';
import { Failure } from './age-io.js';
import { Session } from './plugin-session.js';
import { NoTerminal, readKey, readPublic, readSecret } from './terminal.js';
import { decodeBase64, type Stanza } from '../age/header.js';
import type { Receiver, Sender } from '../age/file-key.js';
import { bech32Flaw } from '../age/key-types.js';
import { type Key, postQuantum } from '../age/keys.js';
import { FILE_KEY_BYTES } from '../age/recipients.js';

/** A plugin recipient or identity: the plugin's name (age-plugin-NAME), the key as written, and which of the two it is. */
export interface PluginKey {
  readonly name: string;
  readonly text: string;
  readonly identity: boolean;
}

/** A plugin's name as age allows it (plugin.validPluginName): one or more of these characters, so never a path. */
const VALID_PLUGIN_NAME = /^[A-Za-z0-9+\-._]+$/;

/** The native types whose recipients start as a plugin's do (age1NAME1...): age reads them itself. */
const NATIVE = /^age1(?:pq|tag|tagpq)1/;

/**
 * `text` as a plugin recipient ("age1NAME1...", lower case, as age tells
 * them: "age1" and a second "1"), undefined when it is no such string, or
 * a Failure naming `where` when it is one that does not decode.
 */
export function pluginRecipient(text: string, where: string): PluginKey | undefined {
  const end = text.lastIndexOf('1');
  if (!text.startsWith('age1') || NATIVE.test(text) || end <= 3) return undefined;
  const name = text.slice(4, end);
  if (!VALID_PLUGIN_NAME.test(name)) throw new Failure(`${where} is a malformed plugin recipient: invalid plugin name ${JSON.stringify(name)}`);
  const flaw = bech32Flaw(text);
  if (flaw !== undefined) throw new Failure(`${where} is a malformed recipient of the plugin age-plugin-${name}: ${flaw}`);
  return { name, text, identity: false };
}

/** `text` as a plugin identity ("AGE-PLUGIN-NAME-1...", upper case), undefined when it is no such string, or a Failure naming `where`. */
export function pluginIdentity(text: string, where: string): PluginKey | undefined {
  if (!text.startsWith('AGE-PLUGIN-')) return undefined;
  const prefix = text.slice(0, text.lastIndexOf('1'));
  const name = prefix.slice('AGE-PLUGIN-'.length, -1).toLowerCase();
  if (!prefix.endsWith('-') || !VALID_PLUGIN_NAME.test(name)) throw new Failure(`${where} is a malformed plugin identity: no plugin name before "-1"`);
  const flaw = bech32Flaw(text);
  if (flaw !== undefined) throw new Failure(`${where} is a malformed identity of the plugin age-plugin-${name}: ${flaw}`);
  return { name, text, identity: true };
}

/** The identity that names plugin `name` and holds no data ("AGE-PLUGIN-NAME-1" and a checksum): what -j NAME stands for. */
export function namedPlugin(name: string): PluginKey {
  if (!VALID_PLUGIN_NAME.test(name)) throw new Failure(`-j ${JSON.stringify(name)}: invalid plugin name`, ['a plugin name is letters, digits and + - . _']);
  // The program's name in lower case, the identity's in upper, as age's plugin.NewIdentityWithoutData has them.
  return { name: name.toLowerCase(), text: bech32.encode(`AGE-PLUGIN-${name.toUpperCase()}-`, [], false).toUpperCase(), identity: true };
}

/** Grease, as age sends it: now and then a stanza of a made-up type that the plugin must ignore, so that plugins keep ignoring what they do not know. */
function sendGrease(s: Session): void {
  const random = crypto.getRandomValues(new Uint8Array(8));
  if (random[0]! % 3 === 0) return;
  const args = Array.from(random.subarray(1, 1 + (random[1]! % 3)), (b) => String(b % 100));
  const body = random[2]! % 2 === 0 ? crypto.getRandomValues(new Uint8Array(random[3]! % 100)) : new Uint8Array(0);
  s.send(`grease-${Array.from(random.subarray(4), (b) => b.toString(16).padStart(2, '0')).join('')}`, args, body);
}

/** A stanza body as the text it carries (UTF-8). */
const textOf = (body: Uint8Array): string => new TextDecoder().decode(body);

/** The answer to a question the plugin asks (msg, confirm, request-secret, request-public); false for a command this client does not know. */
async function answer(s: Session, q: Stanza): Promise<boolean> {
  const warn = (e: unknown) => writeSync(2, `fourfold age: warning: could not read value for age-plugin-${s.name}: ${(e as Error).message}\n`);
  if (q.type === 'msg') {
    writeSync(2, `fourfold age: ${s.name} plugin: ${textOf(q.body)}\n`);
    s.send('ok');
    return true;
  }
  if (q.type === 'request-secret' || q.type === 'request-public') {
    try {
      const value = q.type === 'request-secret' ? await readSecret(textOf(q.body)) : await readPublic(textOf(q.body));
      s.send('ok', [], new TextEncoder().encode(value));
    } catch (e) {
      if (!(e instanceof NoTerminal)) throw e;
      warn(e);
      s.send('fail');
    }
    return true;
  }
  if (q.type === 'confirm') {
    if (q.args.length !== 1 && q.args.length !== 2) throw s.broken('sent a malformed confirm stanza: one or two choices expected');
    const [yes, no] = q.args.map((a) => {
      try {
        return textOf(decodeBase64(a, 'a confirm choice'));
      } catch {
        throw s.broken('sent a malformed confirm stanza: a choice is not canonical base64');
      }
    });
    try {
      s.send('ok', [(await confirmed(s.name, textOf(q.body), yes!, no)) ? 'yes' : 'no']);
    } catch (e) {
      if (!(e instanceof NoTerminal)) throw e;
      warn(e);
      s.send('fail');
    }
    return true;
  }
  return false;
}

/** The user's choice at the terminal: enter for the only choice, or 1 or 2 between two (age's terminal UI). */
async function confirmed(name: string, message: string, yes: string, no: string | undefined): Promise<boolean> {
  if (no === undefined || no === '') {
    await readSecret(`${message} (press enter for ${JSON.stringify(yes)})`);
    return true;
  }
  for (;;) {
    const key = await readKey(`${message} (press [1] for ${JSON.stringify(yes)} or [2] for ${JSON.stringify(no)})`);
    if (key === '1' || key === '2') return key === '1';
    writeSync(2, `fourfold age: warning: reading value for age-plugin-${name}: invalid selection ${JSON.stringify(key)}\n`);
  }
}

/** The file index of a plugin's recipient-stanza or file-key: always 0, as one file key is sent (age's rule). */
function checkIndex(s: Session, index: string | undefined, what: string): void {
  if (index === undefined || !/^[0-9]+$/.test(index)) throw s.broken(`sent a malformed ${what} stanza: invalid index`);
  if (Number(index) !== 0) throw s.broken(`sent a malformed ${what} stanza: unexpected index`);
}

/** Runs a session of `stateMachine` for `key`: `start` sends phase 1, `step` reads each stanza of phase 2 (true once it was handled). */
async function session(key: PluginKey, stateMachine: string, start: (s: Session) => void, step: (s: Session, st: Stanza) => boolean): Promise<void> {
  const s = new Session(key.name, stateMachine);
  try {
    start(s);
    s.send('done');
    for (;;) {
      const st = await s.next();
      if (st.type === 'done') return;
      if (st.type === 'error') {
        s.send('ok');
        throw new Failure(`${key.name} plugin: ${textOf(st.body)}`);
      }
      if (!step(s, st) && !(await answer(s, st))) s.send('unsupported');
    }
  } finally {
    await s.close();
  }
}

/**
 * The stanzas plugin `key.name` wraps `fileKey` in for `key` (a recipient,
 * or an identity used as one), and its labels (sorted): recipient-v1, one
 * file key.
 */
export async function wrapWithPlugin(key: PluginKey, fileKey: Uint8Array): Promise<{ stanzas: Stanza[]; labels: string[] }> {
  const stanzas: Stanza[] = [];
  let labels: string[] | undefined;
  const start = (s: Session) => {
    s.send(key.identity ? 'add-identity' : 'add-recipient', [key.text]);
    sendGrease(s);
    s.send('wrap-file-key', [], fileKey);
    s.send('extension-labels');
  };
  const step = (s: Session, st: Stanza): boolean => {
    if (st.type === 'recipient-stanza') {
      if (st.args.length < 2) throw s.broken('sent a malformed recipient stanza: unexpected argument count');
      checkIndex(s, st.args[0], 'recipient');
      stanzas.push({ type: st.args[1]!, args: st.args.slice(2), body: st.body });
    } else if (st.type === 'labels') {
      if (labels !== undefined) throw s.broken('sent a repeated labels stanza');
      labels = [...st.args].sort();
    } else return false;
    s.send('ok');
    return true;
  };
  await session(key, 'recipient-v1', start, step);
  if (stanzas.length === 0) throw new Failure(`${key.name} plugin: received zero recipient stanzas`);
  return { stanzas, labels: labels ?? [] };
}

/** The file key plugin `key.name` unwraps from `stanzas` with identity `key` (identity-v1, one file), or undefined when it has none. */
export async function unwrapWithPlugin(key: PluginKey, stanzas: readonly Stanza[]): Promise<Uint8Array | undefined> {
  let fileKey: Uint8Array | undefined;
  const start = (s: Session) => {
    s.send('add-identity', [key.text]);
    sendGrease(s);
    for (const st of stanzas) s.send('recipient-stanza', ['0', st.type, ...st.args], st.body);
  };
  const step = (s: Session, st: Stanza): boolean => {
    if (st.type !== 'file-key') return false;
    if (st.args.length !== 1) throw s.broken('sent a malformed file-key stanza: unexpected arguments count');
    checkIndex(s, st.args[0], 'file-key');
    if (fileKey !== undefined) throw s.broken('sent a duplicated file-key stanza');
    // age takes any length here and fails on the header's MAC, which would blame the file for the plugin's fault.
    if (st.body.length !== FILE_KEY_BYTES) throw s.broken(`sent a file key of ${st.body.length} bytes (${FILE_KEY_BYTES} expected)`);
    fileKey = st.body;
    s.send('ok');
    return true;
  };
  await session(key, 'identity-v1', start, step);
  return fileKey;
}

/** A recipient's labels: a native one's is "postquantum" for the hybrid types, none otherwise; a plugin says its own. */
export const nativeLabels = (k: Key): string[] => (postQuantum(k) ? ['postquantum'] : []);

/** age's rule for one file: every recipient has the first one's (sorted) labels; else its error, in age's words. */
export function checkLabels(first: readonly string[], labels: readonly string[]): void {
  if (first.join(' ') === labels.join(' ')) return;
  if (first.includes('postquantum') !== labels.includes('postquantum'))
    throw new Failure("incompatible recipients: can't mix post-quantum and classic recipients, or the file would be vulnerable to quantum computers");
  throw new Failure(`incompatible recipients: ${JSON.stringify(first)} and ${JSON.stringify(labels)} can't be mixed`);
}

/**
 * A file key wrapped for the plugin recipients `keys`, one plugin after
 * another (each may ask the user something), after the native
 * `recipients`: each plugin's labels must be the first recipient's, as
 * age's Encrypt has it, or no later plugin runs.
 */
export function wrapForPlugins(keys: readonly PluginKey[]): NonNullable<Sender['others']> {
  return async (fileKey, recipients) => {
    const stanzas: Stanza[] = [];
    let first = recipients.length > 0 ? nativeLabels(recipients[0]!) : undefined;
    for (const key of keys) {
      const wrapped = await wrapWithPlugin(key, fileKey);
      first ??= wrapped.labels;
      checkLabels(first, wrapped.labels);
      stanzas.push(...wrapped.stanzas);
    }
    return stanzas;
  };
}

/** The file key the first of the plugin identities `keys` to unwrap one gives, each plugin run in turn; undefined when none does. */
export function unwrapWithPlugins(keys: readonly PluginKey[]): NonNullable<Receiver['others']> {
  return async (stanzas) => {
    for (const key of keys) {
      const fileKey = await unwrapWithPlugin(key, stanzas);
      if (fileKey !== undefined) return fileKey;
    }
    return undefined;
  };
}
