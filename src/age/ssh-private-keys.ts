/**
 * SSH private key files as age reads them: OpenSSH's format (PROTOCOL.key:
 * "openssh-key-v1", plain or passphrase-protected with bcrypt_pbkdf and
 * AES), PKCS#1 (RSA PRIVATE KEY) and PKCS#8 (PRIVATE KEY, RSA or
 * Ed25519), apart from the public keys (ssh-keys.ts) because only
 * decryption reads them. Every length read is checked against what
 * remains, and bcrypt's rounds are bounded (2,048) as the Go ssh package
 * bounds them. AES and the Ed25519 public key of a PKCS#8 seed are the
 * platform's (WebCrypto).
 */
import { bigOf, bigBytes } from './bigint.js';
import { bcryptPbkdf, MAX_ROUNDS } from './bcrypt-pbkdf.js';
import {
  base64,
  bitLength,
  checkRsa,
  ed25519Blob,
  fail,
  forgetSecret,
  MAX_RSA_BITS,
  publicKeyOf,
  type RsaSecret,
  rsaBlob,
  same,
  SSH_ED25519,
  SSH_RSA,
  type SshKeyFile,
  type SshPublicKey,
  type SshSecret,
  webCrypto,
  Wire,
} from './ssh-keys.js';
import { utf8 } from './recipients.js';
import { equalBytes, joined, zeroize } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';

// ---------------------------------------------------------------- PEM and DER

/** The bytes of a PEM block (RFC 7468) with label `label`, and its headers (legacy encryption's Proc-Type and DEK-Info). */
function pemBlock(text: string, what: string): { label: string; headers: Map<string, string>; der: Uint8Array } {
  const lines = text.replace(/\r/g, '').trim().split('\n');
  const label = /^-----BEGIN ([A-Z0-9 ]+)-----$/.exec(lines[0] ?? '')?.[1];
  if (label === undefined || lines.at(-1) !== `-----END ${label}-----`) return fail(`${what} is not a PEM private key (-----BEGIN ... PRIVATE KEY-----)`);
  const body = lines.slice(1, -1);
  const headers = new Map<string, string>();
  while (body.length > 0 && body[0]!.includes(':')) {
    const line = body.shift()!;
    headers.set(line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim());
  }
  if (headers.size > 0 && body[0] === '') body.shift();
  const der = base64(body.join('').replace(/[ \t]/g, ''));
  if (der === undefined) return fail(`${what} is a malformed PEM block: its body is not base64`);
  return { label, headers, der };
}

/** Reads DER (X.690) elements: a tag, a definite length, the contents. */
class Der {
  at = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly what: string,
  ) {}
  element(tag: number): Uint8Array {
    if (this.bytes[this.at] !== tag) fail(`${this.what} is malformed DER (tag ${this.bytes[this.at]} where ${tag} belongs)`);
    let length = this.bytes[this.at + 1] ?? fail(`${this.what} is cut short`);
    this.at += 2;
    if (length & 0x80) {
      const count = length & 0x7f;
      if (count === 0 || count > 3) fail(`${this.what} has a DER length it does not take`);
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + (this.bytes[this.at++] ?? fail(`${this.what} is cut short`));
    }
    if (this.at + length > this.bytes.length) fail(`${this.what} is cut short`);
    this.at += length;
    return this.bytes.subarray(this.at - length, this.at);
  }
  /** A non-negative INTEGER's big-endian bytes, leading zeros dropped. */
  integer(): Uint8Array {
    const bytes = this.element(0x02);
    if (bytes.length === 0 || bytes[0]! & 0x80) fail(`${this.what} has a negative or empty integer`);
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    return bytes.subarray(start);
  }
}

/** PKCS#1's RSAPrivateKey (RFC 8017 A.1.2), two primes. */
function pkcs1(der: Uint8Array, what: string): SshSecret {
  const outer = new Der(der, what);
  const seq = new Der(outer.element(0x30), what);
  const version = seq.integer();
  if (version.length !== 1 || version[0] !== 0) fail(`${what} is a multi-prime RSA key, which SSH does not use`);
  const [n, e, d, p, q, dp, dq, qi] = Array.from({ length: 8 }, () => seq.integer().slice()) as [Uint8Array, ...Uint8Array[]];
  return rsaSecret({ n, e, d: d!, p: p!, q: q!, dp: dp!, dq: dq!, qi: qi! }, what);
}

/** DER of the object identifiers PKCS#8 names: rsaEncryption (1.2.840.113549.1.1.1) and Ed25519 (1.3.101.112). */
const RSA_OID = Uint8Array.of(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01);
const ED25519_OID = Uint8Array.of(0x2b, 0x65, 0x70);

/** PKCS#8's PrivateKeyInfo (RFC 5208, RFC 8410): an RSA key, or an Ed25519 seed. */
async function pkcs8(der: Uint8Array, what: string): Promise<SshSecret> {
  const info = new Der(new Der(der, what).element(0x30), what);
  info.integer();
  const algorithm = new Der(info.element(0x30), what);
  const oid = algorithm.element(0x06);
  const privateKey = info.element(0x04);
  if (same(oid, RSA_OID)) return pkcs1(privateKey, what);
  if (same(oid, ED25519_OID)) {
    const seed = new Der(privateKey, what).element(0x04);
    if (seed.length !== 32) fail(`${what} has an Ed25519 seed of ${seed.length} bytes (32 expected)`);
    return ed25519Secret(seed.slice(), await ed25519PublicOf(der, what), what);
  }
  return fail(`${what} is a PKCS#8 key of a type age does not use (only RSA and Ed25519)`);
}

/** The Ed25519 public key of a PKCS#8 private key, from the platform (WebCrypto): the point is the seed's hash times the base point. */
async function ed25519PublicOf(pkcs8Der: Uint8Array, what: string): Promise<Uint8Array> {
  const subtle = webCrypto();
  let key: CryptoKey;
  try {
    key = await subtle.importKey('pkcs8', pkcs8Der.slice(), { name: 'Ed25519' }, true, ['sign']);
  } catch (e) {
    if ((e as Error).name !== 'NotSupportedError') throw e;
    return fail(
      `${what} is a PKCS#8 Ed25519 key, whose public half takes Ed25519, which this runtime's WebCrypto does not have: rewrite it in OpenSSH's format (ssh-keygen -p -f KEYFILE), which carries it`,
    );
  }
  const { x } = await subtle.exportKey('jwk', key);
  return Uint8Array.from(atob(x!.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
}

function ed25519Secret(seed: Uint8Array, point: Uint8Array, what: string): SshSecret {
  if (point.length !== 32) fail(`${what} has an Ed25519 key of ${point.length} bytes (32 expected)`);
  return { type: SSH_ED25519, seed, public: { type: SSH_ED25519, blob: ed25519Blob(point), point } };
}

/** b mod m for a big-endian byte string, as bytes: the CRT exponents where a key leaves them out. */
const mod = (b: Uint8Array, m: bigint): Uint8Array => bigBytes(bigOf(b) % m);

function rsaSecret(rsa: RsaSecret, what: string): SshSecret {
  checkRsa(rsa.n, rsa.e, what);
  if (bitLength(rsa.p) > MAX_RSA_BITS / 2 || bitLength(rsa.q) > MAX_RSA_BITS / 2) fail(`${what} has an RSA prime over ${MAX_RSA_BITS / 2} bits`);
  if (bigOf(rsa.p) * bigOf(rsa.q) !== bigOf(rsa.n)) fail(`${what} is an inconsistent RSA key: p times q is not its modulus`);
  return { type: SSH_RSA, rsa, public: { type: SSH_RSA, blob: rsaBlob(rsa.n, rsa.e), n: rsa.n, e: rsa.e } };
}

// ---------------------------------------------------------------- OpenSSH's format

const OPENSSH_MAGIC = utf8('openssh-key-v1\0');

/** The AES modes OpenSSH protects keys with: WebCrypto's name, key and IV bytes; GCM's 16-byte tag follows the data. */
const CIPHERS: Record<string, { name: 'AES-CTR' | 'AES-CBC' | 'AES-GCM'; key: number; iv: number }> = {
  'aes128-ctr': { name: 'AES-CTR', key: 16, iv: 16 },
  'aes192-ctr': { name: 'AES-CTR', key: 24, iv: 16 },
  'aes256-ctr': { name: 'AES-CTR', key: 32, iv: 16 },
  'aes128-cbc': { name: 'AES-CBC', key: 16, iv: 16 },
  'aes192-cbc': { name: 'AES-CBC', key: 24, iv: 16 },
  'aes256-cbc': { name: 'AES-CBC', key: 32, iv: 16 },
  'aes128-gcm@openssh.com': { name: 'AES-GCM', key: 16, iv: 12 },
  'aes256-gcm@openssh.com': { name: 'AES-GCM', key: 32, iv: 12 },
};

/** The hint for a key file fourfold cannot open as it is. */
const REWRITE = 'rewrite it with a cipher age reads: ssh-keygen -p -Z aes256-ctr -f KEYFILE';

/** An OpenSSH private key file (PROTOCOL.key): one key, its public half in the clear. */
function openssh(der: Uint8Array, what: string): SshKeyFile {
  if (!same(der.subarray(0, OPENSSH_MAGIC.length), OPENSSH_MAGIC)) return fail(`${what} is not an OpenSSH private key (no "openssh-key-v1" at its start)`);
  const wire = new Wire(der.subarray(OPENSSH_MAGIC.length), what);
  const cipher = wire.text();
  const kdf = wire.text();
  const kdfOptions = wire.string();
  if (wire.uint32() !== 1) fail(`${what} holds several keys: age reads files of one key, as OpenSSH writes them`);
  const publicKey = publicKeyOf(wire.string().slice(), what);
  const sealed = wire.string();
  const encrypted = cipher !== 'none';
  const mode = CIPHERS[cipher];
  if (encrypted && mode === undefined) fail(`${what} is protected with ${JSON.stringify(cipher.slice(0, 40))}, which fourfold does not read: ${REWRITE}`);
  if (encrypted !== (kdf !== 'none')) fail(`${what} names cipher ${JSON.stringify(cipher)} with KDF ${JSON.stringify(kdf)}`);
  if (encrypted && kdf !== 'bcrypt') fail(`${what} uses the KDF ${JSON.stringify(kdf.slice(0, 40))}; OpenSSH keys use bcrypt`);
  const tag = mode?.name === 'AES-GCM' ? wire.take(16) : undefined;
  wire.end();
  return {
    public: publicKey,
    encrypted,
    async open(passphrase?: Uint8Array): Promise<SshSecret> {
      if (!encrypted) return privateSection(sealed.slice(), publicKey, what, false);
      if (passphrase === undefined) return fail(`${what} is passphrase-protected, and no passphrase was given`);
      const plain = await decryptSection(sealed, tag, mode!, kdfOptions, passphrase, what);
      return privateSection(plain, publicKey, what, true);
    },
  };
}

/** The private section decrypted under bcrypt_pbkdf(passphrase, salt, rounds), key then IV. */
async function decryptSection(
  sealed: Uint8Array,
  tag: Uint8Array | undefined,
  mode: (typeof CIPHERS)[string],
  kdfOptions: Uint8Array,
  passphrase: Uint8Array,
  what: string,
): Promise<Uint8Array> {
  const options = new Wire(kdfOptions, `${what}'s KDF options`);
  const salt = options.string();
  const rounds = options.uint32();
  options.end();
  if (rounds < 1 || rounds > MAX_ROUNDS) fail(`${what} asks for ${rounds} bcrypt rounds (1 to ${MAX_ROUNDS} are read)`);
  if (sealed.length % 16 !== 0) fail(`${what}'s private section is not a whole number of AES blocks`);
  const derived = await bcryptPbkdf(passphrase, salt, rounds, mode.key + mode.iv);
  const subtle = webCrypto();
  try {
    const raw = derived.slice(0, mode.key);
    const key = await subtle.importKey('raw', raw, mode.name, false, ['encrypt', 'decrypt']).finally(() => zeroize(raw));
    const iv = derived.slice(mode.key);
    if (mode.name === 'AES-CTR') return new Uint8Array(await subtle.decrypt({ name: 'AES-CTR', counter: iv, length: 128 }, key, sealed.slice()));
    if (mode.name === 'AES-GCM') {
      try {
        return new Uint8Array(await subtle.decrypt({ name: 'AES-GCM', iv }, key, joined([sealed, tag!]).slice()));
      } catch {
        throw new AuthenticationError(`${what}: wrong passphrase (the key's AES-GCM tag does not verify)`);
      }
    }
    return await cbcDecrypt(subtle, key, iv, sealed);
  } finally {
    zeroize(derived);
  }
}

/**
 * AES-CBC without padding on WebCrypto, which checks PKCS#7 padding: a
 * block of sixteen 16s, encrypted after the last ciphertext block, is
 * appended, so that the padding WebCrypto strips is that block.
 */
async function cbcDecrypt(subtle: SubtleCrypto, key: CryptoKey, iv: Uint8Array, sealed: Uint8Array): Promise<Uint8Array> {
  if (sealed.length === 0) return new Uint8Array(0);
  const last = sealed.slice(sealed.length - 16);
  const padding = new Uint8Array(await subtle.encrypt({ name: 'AES-CBC', iv: last }, key, new Uint8Array(0))).subarray(0, 16);
  return new Uint8Array(await subtle.decrypt({ name: 'AES-CBC', iv: iv.slice() }, key, joined([sealed, padding]).slice()));
}

/** PROTOCOL.key's private section: two equal check words (unequal: a wrong passphrase), the key, a comment, padding 1, 2, 3... */
function privateSection(plain: Uint8Array, publicKey: SshPublicKey, what: string, encrypted: boolean): SshSecret {
  try {
    const wire = new Wire(plain, what);
    const check = wire.uint32();
    if (wire.uint32() !== check) {
      if (encrypted) throw new AuthenticationError(`${what}: wrong passphrase (the key's check words differ)`);
      fail(`${what} is malformed: its check words differ`);
    }
    const type = wire.text();
    let secret: SshSecret;
    if (type === SSH_ED25519) {
      const point = wire.string();
      const pair = wire.string();
      if (pair.length !== 64 || point.length !== 32 || !equalBytes(pair, 32, point, 0, 32)) fail(`${what} has a malformed Ed25519 private key`);
      secret = ed25519Secret(pair.slice(0, 32), point.slice(), what);
    } else if (type === SSH_RSA) {
      const [n, e, d, qi, p, q] = Array.from({ length: 6 }, () => wire.mpint().slice());
      checkRsa(n!, e!, what);
      if (bitLength(p!) > MAX_RSA_BITS / 2 || bitLength(q!) > MAX_RSA_BITS / 2) fail(`${what} has an RSA prime over ${MAX_RSA_BITS / 2} bits`);
      const dp = mod(d!, bigOf(p!) - 1n);
      const dq = mod(d!, bigOf(q!) - 1n);
      secret = rsaSecret({ n: n!, e: e!, d: d!, p: p!, q: q!, dp, dq, qi: qi! }, what);
    } else {
      return fail(`${what} is an SSH key of type ${JSON.stringify(type.slice(0, 40))}: age uses ssh-ed25519 and ssh-rsa keys only`);
    }
    wire.string();
    const padding = wire.take(wire.left);
    if (padding.length >= 16 || padding.some((b, i) => b !== i + 1)) fail(`${what} is malformed: its padding is not 1, 2, 3...`);
    if (!same(secret.public.blob, publicKey.blob)) fail(`${what} is malformed: its private key does not match its public key`);
    return secret;
  } finally {
    zeroize(plain);
  }
}

// ---------------------------------------------------------------- any private key file

/**
 * A private key file: OpenSSH's format, PKCS#1 or PKCS#8; its public key
 * is known at once (from the file's clear part, or the key itself), and
 * its private key after a passphrase where it has one. `what` names it in
 * errors.
 */
export async function readPrivateKeyFile(text: string, what: string): Promise<SshKeyFile> {
  const { label, headers, der } = pemBlock(text, what);
  if (label === 'OPENSSH PRIVATE KEY') return openssh(der, what);
  if (headers.has('Proc-Type') || label === 'ENCRYPTED PRIVATE KEY')
    return fail(`${what} is a passphrase-protected ${label} file in a legacy PEM encryption fourfold does not read: ${REWRITE}`);
  if (label !== 'RSA PRIVATE KEY' && label !== 'PRIVATE KEY')
    return fail(`${what} is a ${label} file: age decrypts with ssh-ed25519 and ssh-rsa keys (OPENSSH, RSA or PKCS#8 PRIVATE KEY)`);
  // Read again at each open, so that each caller's secret is its own to wipe.
  const read = async (): Promise<SshSecret> => (label === 'RSA PRIVATE KEY' ? pkcs1(der, what) : pkcs8(der, what));
  const secret = await read();
  forgetSecret(secret);
  return { public: secret.public, encrypted: false, open: read };
}
