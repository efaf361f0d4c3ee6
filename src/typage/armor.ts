/**
 * typage's `armor` namespace: an age file as ASCII armor (C2SP age, "ASCII
 * armor": PEM, "-----BEGIN AGE ENCRYPTED FILE-----", 64 columns) and back,
 * on fourfold's armor (src/age/armor.ts), which reads it as strictly as
 * age does. fourfold's Decrypter reads armored files as they are too.
 */
import { ArmorDecoder, ArmorEncoder } from '../age/armor.js';
import { joined } from '../runtime/bytes.js';
import * as check from '../runtime/assert.js';

/** The armored text of a binary age file (Encrypter.encrypt's), ending with a line feed. */
export function encode(file: Uint8Array): string {
  return new TextDecoder().decode(new ArmorEncoder().end(check.bytes(file, 'file')));
}

/** The binary age file of armored text (for Decrypter.decrypt); throws AgeFormatError for text that breaks the armor's rules. */
export function decode(file: string): Uint8Array {
  if (typeof file !== 'string') throw new TypeError(`file must be a string, got ${check.describe(file)}`);
  const decoder = new ArmorDecoder();
  return joined([decoder.push(new TextEncoder().encode(file)), decoder.end()]);
}
