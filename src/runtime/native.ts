/**
 * The native tier: node:crypto's OpenSSL, where the runtime has it (Node,
 * Deno; Bun's BoringSSL has none of these ciphers). WebAssembly has
 * 128-bit vectors only, OpenSSL has AVX2 and AVX-512 code: above a few
 * KiB it is faster on servers, below that a call into it costs more than
 * the kernels' whole work. Each family decides per call, by size, at
 * crossovers measured per runtime (chacha/crossovers.ts); this module
 * finds node:crypto (through process.getBuiltinModule, so that a bundle
 * for browsers has no node: import) and names the runtime.
 */
import type { Bytes } from './bytes.js';
import { builtinModule } from './host.js';
import { nativeWelcome } from './kernels.js';

/** What fourfold uses of node:crypto, typed here (no @types/node in the package's declarations). */
export interface NodeCrypto {
  createCipheriv(algorithm: string, key: Uint8Array, iv: Uint8Array, options?: { authTagLength: number }): NodeCipher;
  createDecipheriv(algorithm: string, key: Uint8Array, iv: Uint8Array, options?: { authTagLength: number }): NodeCipher;
}

export interface NodeCipher {
  setAAD(aad: Uint8Array): unknown;
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
  getAuthTag(): Uint8Array;
  setAuthTag(tag: Uint8Array): unknown;
}

interface RuntimeGlobal {
  Deno?: unknown;
  Bun?: unknown;
  process?: { versions?: { node?: string } };
}

/**
 * The runtime, as crossover tables name it: 'deno', 'bun', or 'node' and
 * Node's major version ('node20'); undefined where there is no node:crypto.
 */
export const RUNTIME: string | undefined = ((): string | undefined => {
  const g = globalThis as RuntimeGlobal;
  if (g.Deno !== undefined) return 'deno';
  if (g.Bun !== undefined) return 'bun';
  const node = g.process?.versions?.node;
  return node === undefined ? undefined : `node${node.split('.')[0]}`;
})();

/** cpuVendor()'s answer once asked (null before). */
let vendor: string | undefined | null = null;

/**
 * The processor's maker, as crossover tables name it ('amd', 'intel'),
 * from node:os's model name; undefined where unknown, or where the
 * program may not ask. Asked once: where OpenSSL overtakes the kernels
 * differs between them by 2-3x.
 */
export function cpuVendor(): string | undefined {
  if (vendor === null) {
    const model = processorModel() ?? '';
    vendor = /\bAMD\b/i.test(model) ? 'amd' : /\bIntel\b/i.test(model) ? 'intel' : undefined;
  }
  return vendor;
}

interface DenoPermissions {
  permissions?: { querySync?(descriptor: { name: 'sys'; kind: 'cpus' }): { state: string } };
}

/**
 * The first processor's model name from node:os, where the program was
 * given the right to read it: in Deno, os.cpus() needs sys access to
 * "cpus", without which it throws NotCapable (or, at a terminal, prompts
 * the user), so it is called only once querySync (which never prompts)
 * says the permission is granted. A library asks for no permission its
 * caller did not give: without it, each crossover is the larger of the
 * two makers' (chacha/crossovers.ts).
 */
function processorModel(): string | undefined {
  try {
    const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
    if (deno !== undefined && deno.permissions?.querySync?.({ name: 'sys', kind: 'cpus' }).state !== 'granted') return undefined;
    return builtinModule<{ cpus(): { model?: string }[] }>('node:os')?.cpus()[0]?.model;
  } catch {
    // A runtime that refuses the question itself (a Deno without the "cpus" kind): the maker stays unknown.
    return undefined;
  }
}

let found: NodeCrypto | null | undefined;

/** node:crypto, or undefined where the runtime has none (browsers, Hermes) or ready() named a tier. */
export function nodeCrypto(): NodeCrypto | undefined {
  if (!nativeWelcome()) return undefined;
  if (found === undefined) found = RUNTIME === undefined ? null : (builtinModule<NodeCrypto>('node:crypto') ?? null);
  return found ?? undefined;
}

/** scrypt's parameters (RFC 7914 §2) for nativeScrypt. */
export interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly dkLen: number;
}

/** scrypt on node:crypto, resolving to a plain array of the key. */
export type NativeScrypt = (password: Uint8Array, salt: Uint8Array, params: ScryptParams) => Promise<Uint8Array>;

/** What fourfold uses of node:crypto's scrypt (Node, Deno, Bun). */
interface NodeScryptModule {
  scrypt(
    password: Uint8Array,
    salt: Uint8Array,
    keylen: number,
    options: { N: number; r: number; p: number; maxmem: number },
    callback: (error: Error | null | undefined, key: Uint8Array) => void,
  ): void;
}

let scryptModule: NodeScryptModule | null | undefined;

/**
 * node:crypto's scrypt where the runtime has one (Node and Deno on
 * OpenSSL or their own, Bun on BoringSSL), asynchronous on the runtime's
 * thread pool; undefined elsewhere (browsers, Hermes). Not a faster tier,
 * so whatever tier ready() named: the one way to a cost that a
 * WebAssembly memory (4 GiB) cannot hold, such as age's work factor 22.
 * Its memory bound (maxmem) is set to what the call needs, 128 * r *
 * (N + p + 2) bytes: the caller has bounded N.
 */
export function nativeScrypt(): NativeScrypt | undefined {
  if (scryptModule === undefined) scryptModule = RUNTIME === undefined ? null : (builtinModule<NodeScryptModule>('node:crypto') ?? null);
  const m = scryptModule;
  if (m === null || typeof m.scrypt !== 'function') return undefined;
  return (password, salt, { N, r, p, dkLen }) =>
    new Promise((resolve, reject) => {
      m.scrypt(password, salt, dkLen, { N, r, p, maxmem: 128 * r * (N + p + 2) }, (error, key) => {
        // Bun passes undefined where Node passes null.
        if (error) return reject(error);
        const out = new Uint8Array(key);
        key.fill(0);
        resolve(out);
      });
    });
}

/** HKDF-SHA-256 (RFC 5869) and HMAC-SHA-256 (RFC 2104) from one implementation: age's own keys (age/sha256.ts). */
export interface Sha256Kdf {
  hkdf(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Uint8Array;
  hmac(key: Uint8Array, message: Uint8Array): Uint8Array;
}

/** What fourfold uses of node:crypto's hashes. */
interface NodeHashes {
  hkdfSync(digest: 'sha256', ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): ArrayBuffer;
  createHmac(digest: 'sha256', key: Uint8Array): { update(message: Uint8Array): { digest(): Uint8Array } };
}

/**
 * node:crypto's HKDF-SHA-256 and HMAC-SHA-256 where the runtime has them
 * (Node, Deno, Bun), whatever tier ready() named: no tier of fourfold's
 * has SHA-256, and node:crypto is loaded anyway; undefined elsewhere.
 * Results are plain arrays of their own (digest() gives a Buffer).
 */
export function nativeSha256(): Sha256Kdf | undefined {
  const c = RUNTIME === undefined ? undefined : builtinModule<NodeHashes>('node:crypto');
  if (typeof c?.hkdfSync !== 'function' || typeof c.createHmac !== 'function') return undefined;
  return {
    hkdf: (ikm, salt, info, length) => new Uint8Array(c.hkdfSync('sha256', ikm, salt, info, length)),
    hmac: (key, message) => new Uint8Array(c.createHmac('sha256', key).update(message).digest()),
  };
}

/** X25519 (RFC 7748) on node:crypto: a secret scalar imported once, then a shared secret per point; see nativeX25519. */
export interface NativeX25519 {
  /** A private key from RFC 8410's PKCS #8 DER of a (clamped) scalar; throws where node:crypto refuses it. */
  importSecret(pkcs8: Uint8Array): object;
  /** X25519 of the imported scalar and the point u (32 bytes); throws where OpenSSL refuses the point or the result (all zeros: a low-order point). */
  multiply(privateKey: object, u: Uint8Array): Uint8Array;
  /**
   * A new key pair made by the runtime, its secret never in JavaScript's
   * memory: the private key, and the public key's 32 bytes; undefined
   * where the runtime cannot (asked once).
   */
  generate(): { privateKey: object; publicKey: Uint8Array } | undefined;
}

/** A JSON Web Key of an X25519 public key (RFC 8037 §2: its 32 bytes in base64url, no padding). */
interface PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'X25519';
  readonly x: string;
}

/** What fourfold uses of node:crypto's keys. */
interface NodeKeys {
  createPrivateKey(key: { key: Uint8Array; format: 'der'; type: 'pkcs8' }): object;
  createPublicKey(key: { key: PublicJwk; format: 'jwk' }): object;
  diffieHellman(keys: { privateKey: object; publicKey: object }): Uint8Array;
  generateKeyPairSync?(type: 'x25519'): { privateKey: object };
}

/** X25519's base point, u = 9 (RFC 7748 §4.1), as 32 bytes. */
const BASE_POINT = Uint8Array.of(9, ...new Array<number>(31).fill(0));

/** `bytes` in base64url without padding (RFC 4648 §5): a public key's, for its JWK. */
const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/**
 * X25519 on node:crypto where the runtime has it (Node, Deno, Bun),
 * whatever tier ready() named (no tier of fourfold's has X25519);
 * undefined elsewhere. Synchronous, and it loads no WebCrypto: in a fresh
 * Node 20 the first X25519 through crypto.subtle costs some 3 ms of CPU
 * more than through node:crypto. Results are plain arrays of their own;
 * OpenSSL's is wiped.
 */
export function nativeX25519(): NativeX25519 | undefined {
  if (x25519 === undefined) x25519 = x25519On(RUNTIME === undefined ? undefined : builtinModule<NodeKeys>('node:crypto')) ?? null;
  return x25519 ?? undefined;
}

let x25519: NativeX25519 | null | undefined;

/**
 * X25519 on `c`, where it has the calls and takes an X25519 public key
 * (asked once: an import of the base point, u = 9). A point goes in as a
 * JWK: Node 20 imports one in 10 us, and the same key as DER (RFC 8410's
 * SubjectPublicKeyInfo) in 74 us; a public key's text needs no wiping.
 */
function x25519On(c: NodeKeys | undefined): NativeX25519 | undefined {
  if (typeof c?.createPrivateKey !== 'function' || typeof c.createPublicKey !== 'function' || typeof c.diffieHellman !== 'function') return undefined;
  const publicKey = (u: Uint8Array) => c.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: base64url(u) }, format: 'jwk' });
  let basePoint: object;
  try {
    basePoint = publicKey(BASE_POINT);
  } catch {
    return undefined;
  }
  const sharedSecret = (privateKey: object, point: object): Uint8Array => {
    const shared = c.diffieHellman({ privateKey, publicKey: point });
    const out = new Uint8Array(shared);
    shared.fill(0);
    return out;
  };
  let generates = typeof c.generateKeyPairSync === 'function';
  return {
    importSecret: (pkcs8) => c.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
    multiply: (privateKey, u) => sharedSecret(privateKey, publicKey(u)),
    generate() {
      if (!generates) return undefined;
      try {
        const pair = c.generateKeyPairSync!('x25519');
        // The public key as X25519(secret, 9), never exported: Node 20 writes a generated key's JWK holding the key's
        // lock, and a garbage collection then that finalizes generateKeyPairSync's job takes that lock again (a deadlock).
        const share = sharedSecret(pair.privateKey, basePoint);
        if (share.length === 32) return { privateKey: pair.privateKey, publicKey: share };
      } catch {
        // Not this runtime's: the caller makes the secret itself.
      }
      generates = false;
      return undefined;
    },
  };
}

/** What fourfold uses of node:crypto's random bytes. */
interface NodeRandom {
  randomFillSync(bytes: Uint8Array): Uint8Array;
}

/**
 * `length` bytes from the platform's CSPRNG: node:crypto's randomFillSync
 * where the runtime has it (Node, Deno, Bun: the same generator as
 * crypto.getRandomValues, whose first use in Node 20 loads WebCrypto, some
 * 1 to 2 ms of a fresh process), else crypto.getRandomValues.
 */
export function randomBytes(length: number): Bytes {
  const c = RUNTIME === undefined ? undefined : builtinModule<NodeRandom>('node:crypto');
  const bytes = new Uint8Array(length);
  if (typeof c?.randomFillSync === 'function') c.randomFillSync(bytes);
  else crypto.getRandomValues(bytes);
  return bytes;
}

/** ArrayBuffer.prototype.transfer (ES2024: Node 22 and later, Deno; not Node 20), captured before any user code runs. */
const transfer = (ArrayBuffer.prototype as { transfer?: (this: ArrayBuffer, length: number) => ArrayBuffer }).transfer;
const transferOf = transfer === undefined ? undefined : (Function.prototype.call.bind(transfer) as (buffer: ArrayBuffer, length: number) => ArrayBuffer);

/** Whether grown() can grow an array here. */
export const CAN_GROW: boolean = transferOf !== undefined;

/**
 * `bytes` (a result node:crypto made, alone on its ArrayBuffer) grown to
 * `length` bytes as a plain Uint8Array, its bytes kept and `bytes`
 * detached; undefined where the engine has no transfer() or `bytes`
 * shares its buffer. transfer() moves the memory where a new array would
 * be allocated and written: a new ArrayBuffer of a few KiB costs 2.5-4 µs
 * in Node, a third of a 6 KiB call.
 */
export function grown(bytes: Uint8Array, length: number): Uint8Array | undefined {
  const buffer = bytes.buffer;
  if (transferOf === undefined || bytes.byteOffset !== 0 || !(buffer instanceof ArrayBuffer) || buffer.byteLength !== bytes.length) return undefined;
  return new Uint8Array(transferOf(buffer, length));
}

interface NodeBuffer {
  Buffer: { allocUnsafeSlow(size: number): Uint8Array };
}

let buffers: NodeBuffer | null | undefined;

/**
 * A new array of `length` bytes whose every byte the caller writes before
 * anyone reads it: node:buffer's allocUnsafeSlow (an ArrayBuffer of its
 * own, not zeroed: zeroing a large result costs as much as OpenSSL's
 * work on it), seen as a plain Uint8Array; a zeroed one elsewhere.
 */
export function toBeWritten(length: number): Uint8Array {
  if (buffers === undefined) buffers = builtinModule<NodeBuffer>('node:buffer') ?? null;
  if (buffers === null) return new Uint8Array(length);
  const b = buffers.Buffer.allocUnsafeSlow(length);
  return new Uint8Array(b.buffer, b.byteOffset, length);
}
