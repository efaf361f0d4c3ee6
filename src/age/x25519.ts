/**
 * X25519 (RFC 7748) for age's recipient stanzas, the first of these the
 * runtime has: node:crypto (Node, Deno, Bun: OpenSSL or BoringSSL,
 * synchronous, and no WebCrypto to load, which a fresh Node 20 pays some
 * 3 ms of CPU for), the platform's WebCrypto where it has the algorithm
 * (current browsers: native code, a few milliseconds), else
 * @noble/curves, imported only then: its module builds tables as it
 * loads, and its first multiplication more, some 40 ms of a fresh
 * process. All give the same bytes. A secret scalar reaches the platform
 * as a PKCS #8 key we wipe after the import; the key object made from it
 * is held by the multiplier alone (the platform frees it, unwiped). An
 * ephemeral secret is made by the platform where it makes pairs, on
 * node:crypto or WebCrypto (withEphemeral).
 */
import { zeroize } from '../runtime/bytes.js';
import { type NativeX25519, nativeX25519, randomBytes } from '../runtime/native.js';

/** RFC 8410's PKCS #8 wrapping of an X25519 private key, before its 32 bytes. */
export const PKCS8_PREFIX: Uint8Array = Uint8Array.of(0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20);
/** The base point's u-coordinate (RFC 7748 §4.1: u = 9): X25519(k, base) is k's public key. */
const BASE_POINT = Uint8Array.of(9, ...new Array<number>(31).fill(0));

const ALGORITHM = { name: 'X25519' } as const;

export type Subtle = Pick<SubtleCrypto, 'importKey' | 'deriveBits' | 'generateKey' | 'exportKey'>;

/** A way to X25519: node:crypto's, WebCrypto's, or (undefined) @noble/curves. */
export type Way = NativeX25519 | Subtle | undefined;

/** WebCrypto's X25519, or undefined where the platform has none (asked once: an import of the base point). */
let platform: Promise<Subtle | undefined> | undefined;

function subtleX25519(): Promise<Subtle | undefined> {
  platform ??= (async () => {
    const subtle = (globalThis.crypto as Crypto | undefined)?.subtle;
    if (subtle === undefined) return undefined;
    try {
      await subtle.importKey('raw', BASE_POINT, ALGORITHM, false, []);
      return subtle;
    } catch {
      return undefined;
    }
  })();
  return platform;
}

/** RFC 8410's PKCS #8 of `secret`, clamped (RFC 7748 §5: the function clamps anyway, so the result is the same); the caller wipes it. */
function pkcs8Of(secret: Uint8Array): Uint8Array<ArrayBuffer> {
  const pkcs8 = new Uint8Array(PKCS8_PREFIX.length + 32);
  pkcs8.set(PKCS8_PREFIX);
  pkcs8.set(secret, PKCS8_PREFIX.length);
  pkcs8[PKCS8_PREFIX.length] &= 248;
  pkcs8[pkcs8.length - 1] = (pkcs8[pkcs8.length - 1]! & 127) | 64;
  return pkcs8;
}

/**
 * `secret` as the platform's private key. Undefined where the platform
 * refuses it: noble then takes the call. WebKitGTK refuses every key whose
 * first byte is 0 (DataError), which after clamping is one random key in 32.
 */
async function importSecret(way: NativeX25519 | Subtle, secret: Uint8Array): Promise<object | undefined> {
  const pkcs8 = pkcs8Of(secret);
  try {
    return isNative(way) ? way.importSecret(pkcs8) : await way.importKey('pkcs8', pkcs8, ALGORITHM, false, ['deriveBits']);
  } catch {
    return undefined;
  } finally {
    zeroize(pkcs8);
  }
}

const isNative = (way: NativeX25519 | Subtle): way is NativeX25519 => 'multiply' in way;

/** X25519 with one secret scalar: the u-coordinate of the secret times the point u. */
export type Multiplier = (u: Uint8Array) => Promise<Uint8Array>;

/**
 * X25519 with `secret` against any number of points (a public key, a
 * header's shares), all zeros for a low-order u; on `way`, the secret
 * imported once (on WebCrypto the import is most of a multiplication's
 * cost: about 1 ms of 1.1), or on @noble/curves where it is undefined or
 * refuses the key. Holds `secret` (its caller wipes it) and, on the
 * platform, a key made from it.
 */
export async function multiplierOn(way: Way, secret: Uint8Array): Promise<Multiplier> {
  const privateKey = way === undefined ? undefined : await importSecret(way, secret);
  if (way === undefined || privateKey === undefined) return nobleMultiplier(secret);
  // The platform (as noble) refuses an all-zero result (a low-order point), at the import or the derivation, where RFC 7748's function returns it: so do we.
  return isNative(way) ? nativeMultiplier(way, privateKey) : subtleMultiplier(way, privateKey as CryptoKey);
}

/** X25519 on WebCrypto with a private key it holds; all zeros where it refuses the point. */
const subtleMultiplier =
  (way: Subtle, privateKey: CryptoKey): Multiplier =>
  async (u) => {
    try {
      const publicKey = await way.importKey('raw', u.slice(), ALGORITHM, false, []);
      return new Uint8Array(await way.deriveBits({ name: 'X25519', public: publicKey }, privateKey, 256));
    } catch {
      return new Uint8Array(32);
    }
  };

/** Whether WebCrypto may make X25519 pairs: until it says it cannot, or makes a bad one. */
let subtleGenerates = true;

/**
 * A new pair made by WebCrypto, its private key not extractable: the
 * public key and the multiplier; undefined where it makes none. Asked
 * again after a failure that may pass (WebKitGTK's generateKey has failed
 * under load), not after NotSupportedError or a bad public key. Two calls
 * (generateKey, exportKey) against three with a secret of ours (a PKCS #8
 * import, the base point's import and a derivation): Chromium 156, 0.064
 * ms against 0.10 ms an ephemeral.
 */
export async function subtlePair(way: Subtle): Promise<{ publicKey: Uint8Array; multiply: Multiplier } | undefined> {
  if (!subtleGenerates) return undefined;
  try {
    const pair = (await way.generateKey(ALGORITHM, false, ['deriveBits'])) as CryptoKeyPair;
    // constant-time: public publicKey: the ephemeral pair's public key, which the stanza sends as its share.
    const publicKey = new Uint8Array(await way.exportKey('raw', pair.publicKey));
    if (publicKey.length === 32 && !publicKey.every((b) => b === 0)) return { publicKey, multiply: subtleMultiplier(way, pair.privateKey) };
  } catch (e) {
    // This call's secret comes from random bytes; the next asks again.
    if ((e as { name?: unknown } | null)?.name !== 'NotSupportedError') return undefined;
  }
  subtleGenerates = false;
  return undefined;
}

/** X25519 on node:crypto with a private key it holds; all zeros where it refuses the point (a low-order one). */
const nativeMultiplier =
  (way: NativeX25519, privateKey: object): Multiplier =>
  async (u) => {
    try {
      return way.multiply(privateKey, u);
    } catch {
      return new Uint8Array(32);
    }
  };

/** X25519 with `secret` on @noble/curves, imported now. */
async function nobleMultiplier(secret: Uint8Array): Promise<Multiplier> {
  // biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
  const { x25519: noble } = await import(('@noble/curves/ed25519.js'));
  return async (u) => {
    try {
      return noble.scalarMult(secret, u);
    } catch {
      return new Uint8Array(32);
    }
  };
}

/** multiplierOn this runtime's first way: node:crypto, else WebCrypto where it has X25519, else @noble/curves. */
export const multiplierOf = async (secret: Uint8Array): Promise<Multiplier> => multiplierOn(nativeX25519() ?? (await subtleX25519()), secret);

/**
 * Calls `use` with a new ephemeral secret's public key (a stanza's share)
 * and multiplier. On node:crypto or WebCrypto the runtime makes the pair:
 * the secret is never in JavaScript's memory, and there is no PKCS #8
 * import (Node 20: 0.06 ms of CPU for the pair and its public key, against
 * 0.32 ms for the import and 0.04 for the base point; WebCrypto:
 * subtlePair). Elsewhere
 * 32 random bytes, wiped once `use` has settled.
 */
export async function withEphemeral<T>(use: (share: Uint8Array, multiply: Multiplier) => Promise<T>): Promise<T> {
  const native = nativeX25519();
  const pair = native?.generate();
  if (native !== undefined && pair !== undefined) return use(pair.publicKey, nativeMultiplier(native, pair.privateKey));
  const subtle = native === undefined ? await subtleX25519() : undefined;
  const made = subtle === undefined ? undefined : await subtlePair(subtle);
  if (made !== undefined) return use(made.publicKey, made.multiply);
  const secret = randomBytes(32);
  try {
    const multiply = await multiplierOf(secret);
    return await use(await publicKeyWith(multiply), multiply);
  } finally {
    zeroize(secret);
  }
}

/** X25519(secret, u) on `way` (multiplierOn). */
export async function multiplyOn(way: Way, secret: Uint8Array, u: Uint8Array): Promise<Uint8Array> {
  return (await multiplierOn(way, secret))(u);
}

/** The public key of a secret scalar, from its multiplier (never all zeros: a platform that gave that would make a stanza no one opens, so it throws). */
export async function publicKeyWith(multiply: Multiplier): Promise<Uint8Array> {
  // constant-time: public publicKey: X25519 of the base point is the public key.
  const publicKey = await multiply(BASE_POINT);
  if (publicKey.every((b) => b === 0)) throw new Error('fourfold: X25519 of the base point failed on this platform');
  return publicKey;
}
