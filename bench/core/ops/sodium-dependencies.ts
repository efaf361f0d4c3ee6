/**
 * The dependencies' own calls on the sodium rows whose whole work is a
 * dependency's (SHA-2 and the HMACs: FIPS 180-4, RFC 2104; Ed25519: RFC 8032;
 * X25519: RFC 7748): node:crypto's in the 'node' column, @noble's in
 * 'noble-hashes' and 'noble-curves'. fourfold/sodium hands these calls to
 * node:crypto where the engine has it, else to @noble, so each column is the
 * floor of a fourfold column beside libsodium.js: bare, no argument checks,
 * a key object made from the raw bytes at each call as a libsodium call
 * takes them (a JWK, RFC 8037).
 */
import type { Apis } from '../libraries.js';
import type { OpEntry } from './types.js';

/** What these calls read of a sodium row's inputs (ops/sodium.ts). */
interface KeyedInputs {
  readonly key: Uint8Array;
  readonly message: Uint8Array;
  readonly sealed: Uint8Array;
  readonly sender: { publicKey: Uint8Array; privateKey: Uint8Array };
  readonly recipient: { publicKey: Uint8Array };
  readonly signer: { publicKey: Uint8Array; privateKey: Uint8Array };
}

type Bare = (i: KeyedInputs) => Uint8Array;
type Node = NonNullable<Apis['node']>;

/** RFC 8037's JWK of an OKP key: x (and d for a private key) in base64url; JWK imports faster than DER in Node 20's OpenSSL 3. */
const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
const jwkOf = (crv: 'X25519' | 'Ed25519', x: Uint8Array, d?: Uint8Array) =>
  ({ key: { kty: 'OKP', crv, x: b64url(x), ...(d === undefined ? {} : { d: b64url(d) }) }, format: 'jwk' }) as const;

function nodeCalls(node: Node): Record<string, Bare> {
  const own = (b: Uint8Array) => new Uint8Array(b.buffer, b.byteOffset, b.length);
  // crypto.hash where the engine has it (Node 20.12 on), else a Hash object a call.
  const hash = (algorithm: string, m: Uint8Array) =>
    own(typeof node.hash === 'function' ? node.hash(algorithm, m, 'buffer') : node.createHash(algorithm).update(m).digest());
  const hmac = (algorithm: string, key: Uint8Array, m: Uint8Array) => own(node.createHmac(algorithm, key).update(m).digest());
  const privateKey = (crv: 'X25519' | 'Ed25519', seed: Uint8Array, x: Uint8Array) => node.createPrivateKey(jwkOf(crv, x, seed.subarray(0, 32)));
  const publicKey = (crv: 'X25519' | 'Ed25519', key: Uint8Array) => node.createPublicKey(jwkOf(crv, key));
  return {
    'sodium-hash-sha256': (i) => hash('sha256', i.message),
    'sodium-hash-sha512': (i) => hash('sha512', i.message),
    'sodium-auth': (i) => hmac('sha512', i.key, i.message).subarray(0, 32),
    'sodium-auth-hmacsha256': (i) => hmac('sha256', i.key, i.message),
    'sodium-auth-hmacsha512': (i) => hmac('sha512', i.key, i.message),
    'sodium-sign-detached': (i) => own(node.sign(null, i.message, privateKey('Ed25519', i.signer.privateKey, i.signer.publicKey))),
    'sodium-sign-verify-detached': (i) => Uint8Array.of(node.verify(null, i.message, publicKey('Ed25519', i.signer.publicKey), i.sealed) ? 1 : 0),
    'sodium-scalarmult': (i) =>
      own(
        node.diffieHellman({
          privateKey: privateKey('X25519', i.sender.privateKey, i.sender.publicKey),
          publicKey: publicKey('X25519', i.recipient.publicKey),
        }),
      ),
  };
}

function nobleCalls({ nobleHashes: h, nobleCurves: c }: Apis): [string, Record<string, Bare>][] {
  const hashes: Record<string, Bare> = h
    ? {
        'sodium-hash-sha256': (i) => h.sha256(i.message),
        'sodium-hash-sha512': (i) => h.sha512(i.message),
        'sodium-auth': (i) => h.hmac(h.sha512, i.key, i.message).subarray(0, 32),
        'sodium-auth-hmacsha256': (i) => h.hmac(h.sha256, i.key, i.message),
        'sodium-auth-hmacsha512': (i) => h.hmac(h.sha512, i.key, i.message),
      }
    : {};
  const curves: Record<string, Bare> = c
    ? {
        'sodium-sign-detached': (i) => c.ed25519.sign(i.message, i.signer.privateKey.subarray(0, 32)),
        // @noble's own verification (its default, ZIP 215's cofactored equation): the same answer on a valid signature.
        'sodium-sign-verify-detached': (i) => Uint8Array.of(c.ed25519.verify(i.sealed, i.message, i.signer.publicKey) ? 1 : 0),
        'sodium-scalarmult': (i) => c.x25519.getSharedSecret(i.sender.privateKey, i.recipient.publicKey),
      }
    : {};
  return [
    ['noble-hashes', hashes],
    ['noble-curves', curves],
  ];
}

/** The dependency columns' entries of the sodium row `op`: none where its work is fourfold's own. */
export function dependencyEntries(op: string, apis: Apis): OpEntry<KeyedInputs>[] {
  const columns = [...(apis.node === undefined ? [] : [['node', nodeCalls(apis.node)] as const]), ...nobleCalls(apis)];
  return columns.flatMap(([library, calls]) => {
    const call = calls[op];
    return call === undefined ? [] : [{ library, bind: (i: KeyedInputs) => () => call(i) }];
  });
}
