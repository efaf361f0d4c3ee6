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
 * does not know are answered "unsupported". This module reads the keys;
 * plugin-run.ts, imported only when a plugin is to run, runs them.
 */
import { bech32 } from '../age/text-encodings.js';
import { Failure } from './age-io.js';
import type { Stanza } from '../age/header.js';
import type { Receiver, Sender } from '../age/file-key.js';
import { bech32Flaw } from '../age/key-types.js';
import { type Key, postQuantum } from '../age/keys.js';
import type { PluginKey } from './plugin-run.js';

export type { PluginKey };

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
    const { wrapWithPlugin } = await import('./plugin-run.js');
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
    const { unwrapWithPlugin } = await import('./plugin-run.js');
    for (const key of keys) {
      const fileKey = await unwrapWithPlugin(key, stanzas);
      if (fileKey !== undefined) return fileKey;
    }
    return undefined;
  };
}
