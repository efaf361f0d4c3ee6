/**
 * Running an age plugin (C2SP age-plugin) for the command: its process
 * (plugin-session.ts), the state machines recipient-v1 (wrap a file key)
 * and identity-v1 (unwrap one), and the user's answers to its questions.
 * age-plugin.ts reads the keys and imports this module only when a file
 * has a plugin's recipient or identity, so that a run without one loads
 * none of it.
 */
import { writeSync } from 'node:fs';
import { Failure } from './age-io.js';
import { Session } from './plugin-session.js';
import { NoTerminal, readKey, readPublic, readSecret } from './terminal.js';
import { decodeBase64, type Stanza } from '../age/header.js';
import { FILE_KEY_BYTES } from '../age/recipients.js';

/** A plugin recipient or identity: the plugin's name (age-plugin-NAME), the key as written, and which of the two it is. */
export interface PluginKey {
  readonly name: string;
  readonly text: string;
  readonly identity: boolean;
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
