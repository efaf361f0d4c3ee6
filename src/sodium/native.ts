/**
 * fourfold/sodium's X25519, Ed25519 and SHA-2 on node:crypto (Node, Deno,
 * Bun), where the runtime has it and ready() named no tier (as the ChaCha
 * family's native tier: runtime/native.ts): @noble/curves' X25519 takes
 * 0.84 ms a call in Node 20, OpenSSL's about 0.05 ms, with the same bytes.
 * package.json's "browser" field puts native-none.ts in this file's place.
 *
 * node:crypto takes keys as KeyObjects. A public key goes in as a JWK (its
 * base64url text; the fastest import in every runtime). A private key goes
 * in as a JWK where the runtime takes one without its public half (Node 20
 * and 22: 0.05 ms), else as PKCS #8 DER (RFC 8410 §7) in an array wiped
 * after the import (Node 26, Deno, Bun; Node 20's DER import takes 0.7 ms).
 * The JWK's base64url text of a private key is a string that JavaScript
 * cannot wipe, and OpenSSL holds each key until the KeyObject is collected:
 * ready({ tier: 'simd' }) keeps a process off this path (docs/api.md).
 *
 * Each capability is checked once against @noble's bytes at first use
 * (curves.test.ts and hashes.test.ts check every call on both paths).
 */
import { builtinModule } from '../runtime/host.js';
import { nativeWelcome, usedNative } from '../runtime/kernels.js';
import { RUNTIME } from '../runtime/native.js';
import { zeroize } from '../runtime/bytes.js';
import { ed25519, x25519 } from '@noble/curves/ed25519.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { base64_variants, from_base64, to_base64 } from './codecs.js';

interface KeyObject {
  export(options: { format: 'jwk' }): { x?: string };
}
type Jwk = { kty: 'OKP'; crv: string; x: string; d?: string };
type KeyInput = { key: Jwk; format: 'jwk' } | { key: Uint8Array; format: 'der'; type: 'pkcs8' };
interface Digest {
  update(data: Uint8Array): Digest;
  digest(): Uint8Array;
}

/** What fourfold/sodium uses of node:crypto. */
interface NodeCurves {
  createPrivateKey(input: KeyInput): KeyObject;
  createPublicKey(input: KeyInput | KeyObject): KeyObject;
  diffieHellman(options: { privateKey: KeyObject; publicKey: KeyObject }): Uint8Array;
  sign(algorithm: null, data: Uint8Array, key: KeyObject): Uint8Array;
  verify(algorithm: null, data: Uint8Array, key: KeyObject, signature: Uint8Array): boolean;
  createHash(algorithm: string): Digest;
  createHmac(algorithm: string, key: Uint8Array): Digest;
  /** Node 20.12 and later, Deno, Bun: one call, no Hash object. */
  hash?(algorithm: string, data: Uint8Array, outputEncoding: 'buffer'): Uint8Array;
}

/** The curves, as fourfold/sodium calls them: raw 32-byte keys in, plain arrays out. */
export interface NativeCurves {
  /** X25519(sk, pk), or undefined where it is all zeros (a low-order public key). */
  x25519(privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array | undefined;
  /** X25519(sk, 9). */
  x25519Public(privateKey: Uint8Array): Uint8Array;
  /** The public key of `privateKey` and X25519(sk, pk) from one import: a sealed box's ephemeral key. */
  x25519Both(privateKey: Uint8Array, publicKey: Uint8Array): { publicKey: Uint8Array; shared: Uint8Array | undefined };
  /** Ed25519's public key of a 32-byte seed. */
  ed25519Public(seed: Uint8Array): Uint8Array;
  /** Ed25519's signature (RFC 8032 §5.1.6) of `message` under a 32-byte seed, or undefined where the seed's public key is not `publicKey`. */
  ed25519Sign(seed: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Uint8Array | undefined;
  /** OpenSSL's verdict (cofactorless, S < L), with none of libsodium's checks of the encodings: sign.ts makes those. */
  ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

/** SHA-256, SHA-512 and their HMACs. */
export interface NativeHashes {
  hash(algorithm: 'sha256' | 'sha512', message: Uint8Array): Uint8Array;
  hmac(algorithm: 'sha256' | 'sha512', key: Uint8Array, message: Uint8Array): Uint8Array;
  /** An incremental hash or HMAC (with `key`), its digest a plain array. */
  start(algorithm: 'sha256' | 'sha512', key?: Uint8Array): { update(data: Uint8Array): unknown; digest(): Uint8Array };
}

const URLSAFE = base64_variants.URLSAFE_NO_PADDING;
const b64 = (bytes: Uint8Array): string => to_base64(bytes, URLSAFE);
/** The curves' object identifiers in PKCS #8 (RFC 8410 §3: 1.3.101.110 X25519, 1.3.101.112 Ed25519) with the 32-byte key's headers. */
const PKCS8_HEAD = { X25519: 0x6e, Ed25519: 0x70 } as const;
const DER = /*#__PURE__*/ Uint8Array.of(0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0, 0x04, 0x22, 0x04, 0x20, ...new Uint8Array(32));
/** A JWK's stand-in public half: Node 20 and 22 derive the public key from d and ignore x; Node 26 refuses a wrong one. */
const NO_X = /*#__PURE__*/ b64(new Uint8Array(32));

/** A node:crypto result as a plain array of its own: its buffer when it has it alone, else a copy (the source wiped). */
function own(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length && bytes.buffer instanceof ArrayBuffer) return new Uint8Array(bytes.buffer);
  const copy = new Uint8Array(bytes);
  zeroize(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  return copy;
}

/** Whether every byte is zero, without a branch on a byte. */
function allZero(bytes: Uint8Array): boolean {
  let acc = 0;
  for (let i = 0; i < bytes.length; i++) acc |= bytes[i];
  return acc === 0;
}

/** The curve calls on `c`, importing private keys as JWK (`jwk`) or DER. */
function curvesOn(c: NodeCurves, jwk: boolean): NativeCurves {
  const privateKey = (crv: 'X25519' | 'Ed25519', key: Uint8Array): KeyObject => {
    if (jwk) return c.createPrivateKey({ key: { kty: 'OKP', crv, d: b64(key), x: NO_X }, format: 'jwk' });
    DER[11] = PKCS8_HEAD[crv];
    DER.set(key, 16);
    try {
      return c.createPrivateKey({ key: DER, format: 'der', type: 'pkcs8' });
    } finally {
      zeroize(DER.subarray(16));
    }
  };
  const publicKey = (crv: 'X25519' | 'Ed25519', key: Uint8Array) => c.createPublicKey({ key: { kty: 'OKP', crv, x: b64(key) }, format: 'jwk' });
  // The public half alone: a private key's JWK would carry d as a string, which nothing can wipe.
  const publicOf = (key: KeyObject) => from_base64(c.createPublicKey(key).export({ format: 'jwk' }).x ?? '', URLSAFE);
  const shared = (sk: KeyObject, pk: Uint8Array): Uint8Array | undefined => {
    let s: Uint8Array;
    try {
      s = own(c.diffieHellman({ privateKey: sk, publicKey: publicKey('X25519', pk) }));
    } catch {
      // constant-time: public: OpenSSL refuses an all-zero secret (a low-order public key, the peer's), as libsodium does.
      return undefined;
    }
    // constant-time: public: the same refusal where a runtime returns the zeros.
    return allZero(s) ? undefined : s;
  };
  return {
    x25519: (sk, pk) => {
      usedNative();
      return shared(privateKey('X25519', sk), pk);
    },
    x25519Public: (sk) => {
      usedNative();
      return publicOf(privateKey('X25519', sk));
    },
    x25519Both: (sk, pk) => {
      usedNative();
      const key = privateKey('X25519', sk);
      return { publicKey: publicOf(key), shared: shared(key, pk) };
    },
    ed25519Public: (seed) => {
      usedNative();
      return publicOf(privateKey('Ed25519', seed));
    },
    ed25519Sign: (seed, message, pk) => {
      usedNative();
      const key = privateKey('Ed25519', seed);
      // OpenSSL keeps the seed's public key with it: reading it is no scalar multiplication.
      const derived = publicOf(key);
      // constant-time: public: two public keys.
      if (derived.some((b, i) => b !== pk[i])) return undefined;
      return own(c.sign(null, message, key));
    },
    ed25519Verify: (signature, message, pk) => {
      usedNative();
      try {
        return c.verify(null, message, publicKey('Ed25519', pk), signature);
      } catch {
        return false;
      }
    },
  };
}

/** The hash calls on `c`: crypto.hash where the runtime has it, else a Hash object a call. */
function hashesOn(c: NodeCurves): NativeHashes {
  const hash = c.hash;
  return {
    hash: hash === undefined ? (a, m) => own(c.createHash(a).update(m).digest()) : (a, m) => own(hash.call(c, a, m, 'buffer')),
    hmac: (a, key, m) => own(c.createHmac(a, key).update(m).digest()),
    start(a, key) {
      const h = key === undefined ? c.createHash(a) : c.createHmac(a, key);
      return {
        update: (data) => h.update(data),
        digest: () => own(h.digest()),
      };
    },
  };
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const counting = (length: number, from: number): Uint8Array => Uint8Array.from({ length }, (_, i) => (from + i * 7) & 255);

/** node:crypto, where the runtime has it (undefined in browsers, Hermes, workerd without node compatibility). */
let module: NodeCurves | null | undefined;
const nodeCurves = (): NodeCurves | undefined => {
  if (module === undefined) module = (RUNTIME === undefined ? undefined : builtinModule<NodeCurves>('node:crypto')) ?? null;
  return module ?? undefined;
};

/**
 * Whether `native` gives @noble's bytes: an X25519 with a public key of
 * bit 255 set (RFC 7748 §5: ignored), a public key, an Ed25519 public key
 * and signature.
 */
function curvesAgree(native: NativeCurves): boolean {
  const sk = counting(32, 1);
  const pk = x25519.getPublicKey(counting(32, 2));
  pk[31] |= 0x80;
  const message = counting(100, 3);
  return (
    same(native.x25519(sk, pk) ?? new Uint8Array(0), x25519.getSharedSecret(sk, pk)) &&
    same(native.x25519Public(sk), x25519.getPublicKey(sk)) &&
    same(native.ed25519Public(sk), ed25519.getPublicKey(sk)) &&
    same(native.ed25519Sign(sk, message, ed25519.getPublicKey(sk)) ?? new Uint8Array(0), ed25519.sign(message, sk))
  );
}

/** Whether `native` gives @noble's SHA-256, SHA-512 and HMAC-SHA-512 bytes. */
function hashesAgree(native: NativeHashes): boolean {
  const key = counting(32, 4);
  const message = counting(200, 5);
  return (
    same(native.hash('sha256', message), sha256(message)) &&
    same(native.hash('sha512', message), sha512(message)) &&
    same(native.hmac('sha512', key, message), hmac(sha512, key, message))
  );
}

let curves: NativeCurves | null | undefined;
let hashes: NativeHashes | null | undefined;

/**
 * The curves on node:crypto, or undefined: no node:crypto, ready() named
 * a tier, or no way of importing a private key that gives @noble's bytes
 * (asked once: a JWK, then PKCS #8).
 */
export function nativeCurves(): NativeCurves | undefined {
  if (!nativeWelcome()) return undefined;
  if (curves === undefined) {
    const c = nodeCurves();
    curves = null;
    for (const jwk of [true, false]) {
      try {
        const candidate = c === undefined ? undefined : curvesOn(c, jwk);
        if (candidate !== undefined && curvesAgree(candidate)) {
          curves = candidate;
          break;
        }
      } catch {
        // Not this runtime's way of importing keys (Node 26 refuses a JWK's stand-in x): the next, else @noble.
      }
    }
  }
  return curves ?? undefined;
}

/** SHA-2 on node:crypto, or undefined (as nativeCurves), once its bytes are @noble's. */
export function nativeHashes(): NativeHashes | undefined {
  if (!nativeWelcome()) return undefined;
  if (hashes === undefined) {
    const c = nodeCurves();
    hashes = null;
    try {
      const candidate = c === undefined ? undefined : hashesOn(c);
      if (candidate !== undefined && hashesAgree(candidate)) hashes = candidate;
    } catch {
      // A runtime without these hashes: @noble's.
    }
  }
  return hashes ?? undefined;
}
