/**
 * age's key types as fourfold reads them: the name of each it uses (the
 * stanza type it writes), the check of a post-quantum key made where it
 * is read, and, in a phrase, what a key string is when it is not a key
 * fourfold can use. Below keys.ts and the types' own code (hybrid.ts,
 * ssh.ts, tag.ts), which keys.ts imports when such a key appears.
 *
 * What a key string is when it is not a key fourfold can use (X25519,
 * post-quantum hybrid, tag, ssh-ed25519, ssh-rsa), said in a phrase for an
 * error ("recipients[2] is <phrase>"): another of age's key types (plugin;
 * SSH keys of other types), a malformed key, the wrong case, a
 * recipient where an identity belongs or the reverse, or Bech32 that does
 * not decode. A type fourfold does not support is told apart from a key
 * that is malformed, and no phrase quotes the key: an identity is a secret,
 * and a post-quantum recipient is nearly 2,000 characters.
 *
 * Case follows age (C2SP age, "The X25519 recipient type"; the Go age,
 * typage): an identity is upper case (AGE-SECRET-KEY-1...), a recipient
 * lower case (age1...), as age-keygen writes them; Bech32 itself allows
 * either, but age's parsers accept these forms only.
 */
import { bech32 } from './text-encodings.js';

/** The stanza type of each native key type: a key string read (identityKey, recipientKey) says which it is. */
export const KEY_X25519 = 'X25519';
export const KEY_HYBRID = 'mlkem768x25519';
/** SSH keys (ssh-ed25519, ssh-rsa), read in full by ssh.ts when a call uses them. */
export const KEY_SSH = 'ssh';
/** Tag recipients (age1tag1..., age1tagpq1...), read in full by tag.ts when a call uses them. */
export const KEY_TAG = 'tag';

/** An ML-KEM-768 encapsulation key's bytes (FIPS 203): the hybrid and tag recipients' first part. */
export const KEM_PUBLIC_KEY = 1184;

/**
 * FIPS 203 §7.2's check of an ML-KEM-768 encapsulation key, made here so
 * that a bad key is refused where it is read, without ML-KEM's code: its
 * first 1,152 bytes are 768 coefficients of 12 bits, each below q = 3329.
 */
export function reducedKey(key: Uint8Array): boolean {
  let over = 0;
  for (let i = 0; i < 1152; i += 3) {
    const low = key[i]! | ((key[i + 1]! & 0x0f) << 8);
    const high = (key[i + 1]! >> 4) | (key[i + 2]! << 4);
    over |= (3328 - low) | (3328 - high);
  }
  return over >= 0;
}

/** The characters of Bech32's data part (BIP 173). */
const BECH32_DATA = /^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/;

/**
 * What keeps `text` from decoding as Bech32 (a clause: "its checksum does
 * not verify"), or, when it decodes, undefined. `bytes`, when given, is
 * the length its data must have.
 */
export function bech32Flaw(text: string, bytes?: number): string | undefined {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return 'it mixes upper and lower case';
  const lower = text.toLowerCase();
  const data = lower.slice(lower.lastIndexOf('1') + 1);
  if (!BECH32_DATA.test(data)) return 'it has characters Bech32 does not use (such as b, i, o, 1 or a space)';
  if (data.length < 6) return 'it is too short to hold a checksum';
  let decoded: Uint8Array;
  try {
    decoded = bech32.fromWords(bech32.decode(lower as `${string}1${string}`, false).words);
  } catch {
    return 'its checksum does not verify';
  }
  if (bytes !== undefined && decoded.length !== bytes) return `it holds ${decoded.length} bytes, not ${bytes}`;
  return undefined;
}

/** An unsupported type's phrase ("a tag recipient (...), which..."), or its malformed form's when `text` does not decode. */
function unsupported(text: string, what: string, why: string): string {
  const flaw = bech32Flaw(text);
  return flaw === undefined ? `${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}, ${why}` : `a malformed ${what}: ${flaw}`;
}

/** Plugins are programs: the command runs them, as age does, and the library (in a browser too) does not. */
const ONLY_THE_COMMAND = 'which only the command runs (fourfold age)';

/** A passkey's identity string (webauthn-keys.ts), which the library takes inside the objects of its webauthn namespace. */
const PASSKEY_IDENTITY = 'AGE-PLUGIN-FIDO2PRF-1';
const PASSKEY_PHRASE = "a passkey's identity (AGE-PLUGIN-FIDO2PRF-1...): in a page, give";

/** A plugin's name as age spells it (age-plugin-NAME): letters, digits and a few signs. */
const PLUGIN_NAME = /^[a-z0-9][a-z0-9._+-]{0,31}$/;

/** The type of an SSH public key ("ssh-ed25519 AAAA..."), or undefined when `text` is not one. */
function sshKeyType(text: string): string | undefined {
  const type = text.slice(0, text.search(/[ \t]/));
  return /^(?:ssh-[a-z0-9-]+|ecdsa-sha2-[a-z0-9-]+|sk-[a-z0-9-]+@openssh\.com)$/.test(type) && type.length <= 40 ? type : undefined;
}

/** A PEM block's first line, "-----BEGIN OPENSSH PRIVATE KEY-----", said as what it holds; undefined when `text` is not one. */
function pemPhrase(text: string): string | undefined {
  const label = /^-----BEGIN ([A-Z0-9 ]{1,40})-----/.exec(text)?.[1];
  if (label === undefined) return undefined;
  const line = `-----BEGIN ${label}-----`;
  if (!label.endsWith('PRIVATE KEY')) return `a PEM block (${line}), not an age key`;
  return `a private key (${line}), not a recipient: encrypt to its public key (the line of its .pub file)`;
}

/**
 * Why `text`, which is not a recipient fourfold decodes, is none:
 * a phrase to follow "is" in a message, naming the type seen.
 */
export function notARecipient(text: string): string {
  if (text.startsWith('age1')) {
    const prefix = text.slice(0, text.lastIndexOf('1'));
    if (prefix === 'age') return `a malformed X25519 recipient (age1...): ${bech32Flaw(text, 32) ?? 'its type is not one age knows'}`;
    if (prefix === 'age1pq') return `a malformed post-quantum recipient (age1pq1...): ${bech32Flaw(text, 1216) ?? 'its type is not one age knows'}`;
    if (prefix === 'age1tag') return `a malformed tag recipient (age1tag1...): ${bech32Flaw(text, 33) ?? 'its type is not one age knows'}`;
    if (prefix === 'age1tagpq') return `a malformed post-quantum tag recipient (age1tagpq1...): ${bech32Flaw(text, 1249) ?? 'its type is not one age knows'}`;
    const name = prefix.slice('age1'.length);
    if (PLUGIN_NAME.test(name)) return unsupported(text, `recipient of the plugin age-plugin-${name} (age1${name}1...)`, ONLY_THE_COMMAND);
    return `a malformed recipient (age1...): ${bech32Flaw(text) ?? 'its type is not one age knows'}`;
  }
  if (/^age1/i.test(text))
    return text === text.toUpperCase()
      ? "in upper case: age's recipients are lower case (age1...), as age-keygen writes them"
      : 'a malformed recipient (age1...): it mixes upper and lower case';
  if (text.startsWith(PASSKEY_IDENTITY)) return `${PASSKEY_PHRASE} new webauthn.WebAuthnRecipient({ identity }) to encrypt to it`;
  if (/^age-/i.test(text)) return 'a secret key (AGE-...), not a recipient: encrypt to the public key made from it (age1...)';
  const ssh = sshKeyType(text);
  if (ssh !== undefined) return `an SSH public key of type ${ssh}: age uses ssh-ed25519 and ssh-rsa keys only`;
  return pemPhrase(text) ?? 'not an age recipient (age1...) or SSH public key (ssh-ed25519 AAAA...)';
}

/**
 * Why `text`, which is not an identity fourfold decodes, is none:
 * a phrase to follow "is" in a message, naming the type seen.
 */
export function notAnIdentity(text: string): string {
  if (text.startsWith('age-encryption.org/') || text.startsWith('-----BEGIN AGE ENCRYPTED FILE-----'))
    return 'an age file, not an identity: a passphrase-protected identity file is decrypted first (decrypt(file, { passphrase })), and the text it holds given';
  if (text.startsWith('AGE-SECRET-KEY-PQ-1'))
    return `a malformed post-quantum identity (AGE-SECRET-KEY-PQ-1...): ${bech32Flaw(text, 32) ?? 'its type is not one age knows'}`;
  if (text.startsWith(PASSKEY_IDENTITY)) return `${PASSKEY_PHRASE} new webauthn.WebAuthnIdentity({ identity }) to decrypt with it`;
  if (text.startsWith('AGE-PLUGIN-')) {
    const name = text.slice('AGE-PLUGIN-'.length, text.lastIndexOf('-1')).toLowerCase();
    if (PLUGIN_NAME.test(name)) return unsupported(text, `identity of the plugin age-plugin-${name} (AGE-PLUGIN-${name.toUpperCase()}-1...)`, ONLY_THE_COMMAND);
  }
  if (text.startsWith('AGE-SECRET-KEY-1'))
    return `a malformed X25519 identity (AGE-SECRET-KEY-1...): ${bech32Flaw(text, 32) ?? 'its type is not one age knows'}`;
  if (/^age-/i.test(text)) {
    if (text === text.toLowerCase()) return "in lower case: age's identities are upper case (AGE-SECRET-KEY-1...), as age-keygen writes them";
    return `a malformed identity (AGE-...): ${bech32Flaw(text) ?? 'its type is not one age knows'}`;
  }
  if (/^age1/i.test(text))
    return 'a recipient (age1..., a public key), not an identity: decrypting takes the secret key (AGE-SECRET-KEY-1...) it was made from';
  const ssh = sshKeyType(text);
  if (ssh !== undefined) return `an SSH public key (${ssh}), not an identity: decrypting takes its private key file's text (id_ed25519, not id_ed25519.pub)`;
  return (
    pemPhrase(text) ??
    'not an age identity (AGE-SECRET-KEY-1..., AGE-SECRET-KEY-PQ-1..., or an identity file of them) or SSH private key (-----BEGIN OPENSSH PRIVATE KEY-----)'
  );
}
