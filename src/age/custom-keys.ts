/**
 * Recipients and identities given as objects, as typage's `Recipient` and
 * `Identity` interfaces have them: `wrapFileKey(fileKey)` gives stanzas,
 * `unwrapFileKey(stanzas)` a file key or null. A stanza here is typage's
 * shape, its type first among its arguments ({ args: [type, ...], body }).
 * fourfold's passkeys (webauthn.ts) are such objects, and so is any
 * recipient a typage user wrote. What such an object gives is checked and
 * copied before it goes into a header (arguments of visible ASCII within
 * age's bound), and each object is given copies of the file's stanzas,
 * so that none changes what the others or the header see. What tells an
 * object from a key string, and the interfaces, are object-keys.ts: this
 * module is imported when a call is given such an object.
 */
import { AgeFormatError } from './errors.js';
import type { ObjectIdentity, ObjectRecipient, ObjectStanza } from './object-keys.js';
import { type Stanza, stanzaStart } from './header.js';
import { FILE_KEY_BYTES } from './recipients.js';
import * as check from '../runtime/assert.js';
import { zeroize } from '../runtime/bytes.js';

export type { ObjectIdentity, ObjectRecipient, ObjectStanza } from './object-keys.js';

/** A stanza an object gave, as a header holds it: its arguments read once and checked as a parsed line's are, its body copied. */
function headerStanza(given: unknown, name: string): Stanza {
  const o = given as Partial<ObjectStanza> | null;
  const args = typeof o === 'object' && o !== null && Array.isArray(o.args) ? [...o.args] : undefined;
  if (args === undefined || args.length === 0 || args.some((a) => typeof a !== 'string'))
    throw new TypeError(`${name} must be a stanza ({ args: [type, ...], body }) with its type first, got ${check.describe(given)}`);
  const body = check.bytes(o!.body, `${name}.body`).slice();
  const line = stanzaStart(`-> ${args.join(' ')}`);
  // A space inside an argument would make two: the count tells.
  if (line.args.length + 1 !== args.length) throw new AgeFormatError(`${name} has an argument with a space in it`);
  return { type: line.type, args: line.args, body };
}

/** The stanzas the recipient objects `recipients` wrap `fileKey` in, in their order; each recipient is given a copy of the key, wiped once it is done. */
export function wrapForObjects(recipients: readonly { recipient: ObjectRecipient; name: string }[]) {
  return async (fileKey: Uint8Array): Promise<Stanza[]> => {
    const stanzas: Stanza[] = [];
    for (const { recipient, name } of recipients) {
      const copy = fileKey.slice();
      let given: unknown;
      try {
        given = await recipient.wrapFileKey(copy);
      } finally {
        zeroize(copy);
      }
      if (!Array.isArray(given) || given.length === 0)
        throw new TypeError(`${name}.wrapFileKey must give an array of one or more stanzas, got ${check.describe(given)}`);
      stanzas.push(...[...given].map((s, i) => headerStanza(s, `${name}'s stanza ${i}`)));
    }
    return stanzas;
  };
}

/** The file key the first of `identities` to unwrap one of `stanzas` gives (checked: 16 bytes, copied), or undefined when none does. */
export function unwrapWithObjects(identities: readonly { identity: ObjectIdentity; name: string }[]) {
  return async (stanzas: readonly Stanza[]): Promise<Uint8Array | undefined> => {
    for (const { identity, name } of identities) {
      const copies = stanzas.map((s) => ({ args: [s.type, ...s.args], body: s.body.slice() }));
      const given: unknown = await identity.unwrapFileKey(copies);
      if (given === null || given === undefined) continue;
      return check.bytes(given, `the file key ${name}.unwrapFileKey gave`, FILE_KEY_BYTES).slice();
    }
    return undefined;
  };
}
