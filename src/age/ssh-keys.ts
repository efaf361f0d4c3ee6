import { utf8 } from './recipients.js';
import { equalBytes, joined, zeroize } from '../runtime/bytes.js';

export const SSH_ED25519 = 'ssh-ed25519';
export const SSH_RSA = 'ssh-rsa';

/**
 * An SSH public key age can encrypt to: its parts, and its wire form
 * (`blob`, which the stanza's fingerprint hashes) written canonically, as
 * Go's ssh package writes it (Marshal) whatever form it was read in.
 */
export type SshPublicKey =
  | { readonly type: typeof SSH_ED25519; readonly blob: Uint8Array; readonly point: Uint8Array }
  | { readonly type: typeof SSH_RSA; readonly blob: Uint8Array; readonly n: Uint8Array; readonly e: Uint8Array };

/** An RSA private key's integers, big-endian without leading zeros, as JWK wants them. */
export interface RsaSecret {
  readonly n: Uint8Array;
  readonly e: Uint8Array;
  readonly d: Uint8Array;
  readonly p: Uint8Array;
  readonly q: Uint8Array;
  readonly dp: Uint8Array;
  readonly dq: Uint8Array;
  readonly qi: Uint8Array;
}

/** A private key: Ed25519's 32-byte seed, or RSA's integers. */
export type SshSecret =
  | { readonly type: typeof SSH_ED25519; readonly public: SshPublicKey; readonly seed: Uint8Array }
  | { readonly type: typeof SSH_RSA; readonly public: SshPublicKey; readonly rsa: RsaSecret };

/** A private key file read: its public key, known before any passphrase, and the private key, after one where the file is protected. */
export interface SshKeyFile {
  readonly public: SshPublicKey;
  /** Whether opening it takes a passphrase. */
  readonly encrypted: boolean;
  /** The private key: `passphrase` is ignored for a plain file. An AuthenticationError when it is wrong. */
  open(passphrase?: Uint8Array): Promise<SshSecret>;
}

/** A key that is not what it claims: the message says what is wrong with it. */
export class SshKeyError extends RangeError {}

export const fail = (what: string): never => {
  throw new SshKeyError(what);
};

/** Reads RFC 4251 §5 values (uint32, string, mpint) from `bytes`, each length checked against what remains. */
export class Wire {
  at = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly what: string,
  ) {}
  get left(): number {
    return this.bytes.length - this.at;
  }
  uint32(): number {
    if (this.left < 4) fail(`${this.what} is cut short`);
    const n = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.at, 4).getUint32(0);
    this.at += 4;
    return n;
  }
  take(length: number): Uint8Array {
    if (length > this.left) fail(`${this.what} is cut short`);
    this.at += length;
    return this.bytes.subarray(this.at - length, this.at);
  }
  string(): Uint8Array {
    return this.take(this.uint32());
  }
  text(): string {
    return new TextDecoder().decode(this.string());
  }
  /** An mpint: a non-negative integer's big-endian bytes, leading zeros dropped. */
  mpint(): Uint8Array {
    const bytes = this.string();
    if (bytes.length > 0 && bytes[0]! & 0x80) fail(`${this.what} has a negative integer`);
    let start = 0;
    while (start < bytes.length && bytes[start] === 0) start++;
    return bytes.subarray(start);
  }
  end(): void {
    if (this.left !== 0) fail(`${this.what} has ${this.left} bytes after its end`);
  }
}

/** An SSH string: its length (uint32, big-endian), then its bytes. */
function sshString(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, 4);
  return out;
}
/** An mpint of non-negative big-endian bytes without leading zeros: a zero byte first where the top bit is set. */
const sshMpint = (bytes: Uint8Array): Uint8Array => sshString(bytes.length > 0 && bytes[0]! & 0x80 ? joined([Uint8Array.of(0), bytes]) : bytes);

/** The wire forms (RFC 4253 §6.6, RFC 8709 §4) of public keys by their parts, as Go's ssh package's Marshal writes them. */
export const ed25519Blob = (point: Uint8Array): Uint8Array => joined([sshString(utf8(SSH_ED25519)), sshString(point)]);
export const rsaBlob = (n: Uint8Array, e: Uint8Array): Uint8Array => joined([sshString(utf8(SSH_RSA)), sshMpint(e), sshMpint(n)]);

/** Whether `a` and `b` hold the same bytes. */
export const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && equalBytes(a, 0, b, 0, a.length);

/** Bits in a big-endian integer without leading zeros. */
export const bitLength = (n: Uint8Array): number => (n.length === 0 ? 0 : 8 * n.length - Math.clz32(n[0]!) + 24);

/** RSA moduli as age takes them: 2,048 bits at least (age's rule), 16,384 at most (OpenSSH's and Go's). */
const MIN_RSA_BITS = 2048;
export const MAX_RSA_BITS = 16384;

/**
 * Checks RSA public parts as Go's ssh package, age and Go's crypto/rsa
 * do: a small odd exponent, an odd modulus of 2,048 to 16,384 bits.
 */
export function checkRsa(n: Uint8Array, e: Uint8Array, what: string): void {
  if (bitLength(e) > 24) fail(`${what} has an RSA exponent over 24 bits`);
  const exponent = e.reduce((v, b) => v * 256 + b, 0);
  if (exponent < 3 || exponent % 2 === 0) fail(`${what} has an RSA exponent that is not odd and 3 or more`);
  const bits = bitLength(n);
  if (bits > MAX_RSA_BITS) fail(`${what} has an RSA modulus of ${bits} bits, over ${MAX_RSA_BITS}`);
  if (bits < MIN_RSA_BITS) fail(`${what} is an RSA key of ${bits} bits: age needs ${MIN_RSA_BITS} bits or more`);
  // A product of two odd primes is odd; WebCrypto would refuse an even one with no reason given.
  if (n.at(-1)! % 2 === 0) fail(`${what} is not a valid RSA key: its public modulus is even`);
}

/** The public key in wire form `blob`; `what` names it in errors, `encoding` where its encoding is broken. */
export function publicKeyOf(blob: Uint8Array, what: string, encoding = what): SshPublicKey {
  const wire = new Wire(blob, encoding);
  const type = wire.text();
  if (type === SSH_ED25519) {
    const point = wire.string();
    wire.end();
    if (point.length !== 32) fail(`${what} has an Ed25519 key of ${point.length} bytes (32 expected)`);
    return { type, blob: ed25519Blob(point), point };
  }
  if (type === SSH_RSA) {
    const e = wire.mpint();
    const n = wire.mpint();
    wire.end();
    checkRsa(n, e, what);
    // An mpint may carry extra leading zeros; age names the key by its minimal form, so the blob is written again.
    return { type, blob: rsaBlob(n, e), n, e };
  }
  return fail(`${what} is an SSH key of type ${JSON.stringify(type.slice(0, 40))}: age uses ssh-ed25519 and ssh-rsa keys only`);
}

/** Standard base64 (RFC 4648 §4, padded), strictly: undefined when `text` is not. */
export function base64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The longest public key line read (8 KiB, sshd's and age's). */
const MAX_LINE = 8 << 10;

/**
 * The public key of an authorized_keys line, "TYPE BASE64 [COMMENT]"
 * (the first field naming the type inside the key, as age checks); a
 * SshKeyError naming `what` and what is wrong.
 */
export function publicKeyFromLine(line: string, what: string): SshPublicKey {
  if (line.length > MAX_LINE) fail(`${what} is longer than ${MAX_LINE} characters`);
  const [type, encoded] = line.trim().split(/[ \t]+/);
  const blob = encoded === undefined ? undefined : base64(encoded);
  if (blob === undefined) return fail(`${what} is a malformed SSH public key: its second field is not base64`);
  const key = publicKeyOf(blob, what, `${what}, an SSH public key,`);
  if (key.type !== type) fail(`${what} is a malformed SSH public key: it says ${JSON.stringify(type)} but holds ${key.type}`);
  return key;
}

// ---------------------------------------------------------------- what private keys need too

/** The platform's WebCrypto, which SSH keys need (SHA-512, AES, RSA-OAEP, Ed25519). */
export function webCrypto(): SubtleCrypto {
  const subtle = (globalThis.crypto as Crypto | undefined)?.subtle;
  if (subtle === undefined) throw new Error('SSH keys need the platform WebCrypto (crypto.subtle), which this runtime does not have');
  return subtle;
}

/** Wipes a private key's secret parts. */
export function forgetSecret(secret: SshSecret): void {
  if (secret.type === SSH_ED25519) zeroize(secret.seed);
  else for (const part of [secret.rsa.d, secret.rsa.p, secret.rsa.q, secret.rsa.dp, secret.rsa.dq, secret.rsa.qi]) zeroize(part);
}
