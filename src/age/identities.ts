/**
 * How an identity of age's native types (C2SP age, "The X25519 recipient
 * type" and "The scrypt recipient type") unwraps the file key from its
 * stanza, with every check the specification asks of an identity; the
 * wrapping side and the key derivations both share are recipients.ts.
 * Apart from it so that a page that only encrypts carries none of this.
 */
import { AgeFormatError } from './errors.js';
import { decodeBase64, type Stanza } from './header.js';
import { FILE_KEY_BYTES, reachableWorkFactor, type Scrypt, scryptFor, scryptSalt, sharedSecret, unreachable, x25519WrapKey, ZERO_NONCE } from './recipients.js';
import type { Multiplier } from './x25519.js';
import { lazyJsEngine as engine } from '../chacha/tiers-on-demand.js';
import { EMPTY, zeroize } from '../runtime/bytes.js';

/** A wrapped file key: the key and its 16-byte tag. */
const WRAPPED_BYTES = FILE_KEY_BYTES + 16;

/** The file key from `body` under `key` (wiped after) and `nonce`, or undefined when it does not verify: the stanza is someone else's. */
export function unwrap(key: Uint8Array, body: Uint8Array, nonce: Uint8Array = ZERO_NONCE): Uint8Array | undefined {
  try {
    // ChaCha20-Poly1305 (RFC 8439) on the engine itself, not fourfold/chacha's checked API (its argument checks and the
    // stream ciphers' code, a kilobyte of a page): a 32-byte key and a 12-byte nonce by construction; a body shorter than a tag opens nothing.
    const n = body.length - 16;
    return n < 0 ? undefined : engine().open(key, nonce, EMPTY, body.subarray(0, n), body.subarray(n));
  } finally {
    zeroize(key);
  }
}

/** A stanza's body must be exactly a wrapped file key, checked before any decryption (the specification's defence against partitioning oracles). */
export function checkBody(s: Stanza): void {
  if (s.body.length !== WRAPPED_BYTES) throw new AgeFormatError(`a ${s.type} stanza's body is ${s.body.length} bytes (${WRAPPED_BYTES} expected)`);
}

// ---------------------------------------------------------------- X25519

/** The X25519 stanza's share, after the checks the specification asks of an identity (two arguments, a canonical 32-byte share, a 32-byte body). */
function x25519Share(s: Stanza): Uint8Array {
  if (s.args.length !== 1) throw new AgeFormatError(`an X25519 stanza with ${s.args.length + 1} arguments (2 expected)`);
  const share = decodeBase64(s.args[0]!, "an X25519 stanza's share");
  if (share.length !== 32) throw new AgeFormatError(`an X25519 stanza's share of ${share.length} bytes (32 expected)`);
  checkBody(s);
  return share;
}

/** The file key from an X25519 stanza for an identity (its multiplier and public key `publicKey`), or undefined when it is for another. */
export async function x25519Unwrap(s: Stanza, identity: Multiplier, publicKey: Uint8Array): Promise<Uint8Array | undefined> {
  const share = x25519Share(s);
  return unwrap(x25519WrapKey(await sharedSecret(identity, share), share, publicKey), s.body);
}

// ---------------------------------------------------------------- scrypt

/** A work factor as the specification writes it: decimal digits, no leading zero. */
const DECIMAL_WORK_FACTOR = /^[1-9][0-9]*$/;

/** The salt and work factor of an scrypt stanza, after the checks the specification asks of an identity; a work factor above `max` is refused. */
function scryptArgs(s: Stanza, max: number): { salt: Uint8Array; workFactor: number } {
  if (s.args.length !== 2) throw new AgeFormatError(`an scrypt stanza with ${s.args.length + 1} arguments (3 expected)`);
  const salt = decodeBase64(s.args[0]!, "an scrypt stanza's salt");
  if (salt.length !== 16) throw new AgeFormatError(`an scrypt stanza's salt of ${salt.length} bytes (16 expected)`);
  const text = s.args[1]!;
  if (!DECIMAL_WORK_FACTOR.test(text)) throw new AgeFormatError(`an scrypt stanza's work factor is not a decimal number: ${JSON.stringify(text)}`);
  const workFactor = Number(text);
  // Said first: where the runtime cannot compute it, a larger maxWorkFactor would not help.
  if (workFactor > reachableWorkFactor()) throw new AgeFormatError(`the file asks for scrypt work factor ${text}, which ${unreachable(workFactor)}`);
  if (workFactor > max) {
    throw new AgeFormatError(
      `the file asks for scrypt work factor ${text} (N = 2^${text}), above the bound ${max}: pass a larger maxWorkFactor if you trust its sender`,
    );
  }
  checkBody(s);
  return { salt, workFactor };
}

/** The file key from the scrypt stanza under `passphrase`, or undefined when it does not open it (a wrong passphrase). */
export async function scryptUnwrap(s: Stanza, passphrase: Uint8Array, maxWorkFactor: number, kdf: Scrypt): Promise<Uint8Array | undefined> {
  const { salt, workFactor } = scryptArgs(s, maxWorkFactor);
  return unwrap(await scryptFor(workFactor, kdf)(passphrase, scryptSalt(salt), 2 ** workFactor), s.body);
}
