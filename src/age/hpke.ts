/**
 * HPKE (RFC 9180) in base mode for one message, as age's HPKE-based
 * stanza types use it: HKDF-SHA-256 (KDF 1) and ChaCha20-Poly1305 (AEAD
 * 3) over the KEM each names, the type's label as info, no associated
 * data. The key schedule turns a KEM's shared secret into the AEAD's key
 * and nonce; DHKEM's labeled steps are the same functions under the KEM's
 * own suite id. Imported only by the stanza types' lazy modules.
 */
import { expand } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8 } from './recipients.js';
import { joined, zeroize, EMPTY } from '../runtime/bytes.js';

const VERSION = utf8('HPKE-v1');
const twoBytes = (n: number): Uint8Array => Uint8Array.of(n >> 8, n & 0xff);

/** RFC 9180 §5.1: suite_id = "HPKE" || KEM id || KDF id (HKDF-SHA256, 1) || AEAD id (ChaCha20Poly1305, 3). */
const hpkeSuite = (kemId: number): Uint8Array => joined([utf8('HPKE'), twoBytes(kemId), twoBytes(1), twoBytes(3)]);

/** RFC 9180 §4.1: a DHKEM's suite_id = "KEM" || KEM id. */
export const kemSuite = (kemId: number): Uint8Array => joined([utf8('KEM'), twoBytes(kemId)]);

/**
 * RFC 9180 §4: LabeledExtract(salt, label, ikm) under `suite`. HKDF-Extract
 * is HMAC-SHA-256 keyed with the salt (RFC 5869 §2.2; an empty salt is
 * HashLen zeros, as HMAC pads its key), called as HMAC so that noble's
 * extract() stays out of the code every age page loads.
 */
export const labeledExtract = (suite: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array): Uint8Array =>
  hmac(sha256, salt, joined([VERSION, suite, utf8(label), ikm]));

/** RFC 9180 §4: LabeledExpand(prk, label, info, L) under `suite`. */
export const labeledExpand = (suite: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number): Uint8Array =>
  expand(sha256, prk, joined([twoBytes(length), VERSION, suite, utf8(label), info]), length);

/** One HPKE suite and info's key schedule: the AEAD key and nonce of the first (and only) message under a KEM's shared secret (wiped). */
export type Schedule = (shared: Uint8Array) => { key: Uint8Array; nonce: Uint8Array };

/** The key schedule of base mode (RFC 9180 §5.1: mode 0, no PSK) for KEM `kemId` and `info`; its context made once. */
export function keySchedule(kemId: number, info: Uint8Array): Schedule {
  const suite = hpkeSuite(kemId);
  const context = joined([Uint8Array.of(0), labeledExtract(suite, EMPTY, 'psk_id_hash', EMPTY), labeledExtract(suite, EMPTY, 'info_hash', info)]);
  return (shared) => {
    const secret = labeledExtract(suite, shared, 'secret', EMPTY);
    zeroize(shared);
    try {
      return { key: labeledExpand(suite, secret, 'key', context, 32), nonce: labeledExpand(suite, secret, 'base_nonce', context, 12) };
    } finally {
      zeroize(secret);
    }
  };
}
