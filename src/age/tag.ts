/**
 * age's tag recipient types, encrypt-only (age 1.3, rage 0.12: the public
 * side of keys held in hardware, whose plugins decrypt): the file key
 * sealed with HPKE (RFC 9180, hpke.ts) in base mode to
 *
 * - p256tag ("age1tag1..."): a P-256 key, 33 bytes compressed, under
 *   DHKEM(P-256, HKDF-SHA256) (KEM 0x0010), info "age-encryption.org/p256tag";
 * - mlkem768p256tag ("age1tagpq1..."): ML-KEM-768's encapsulation key and
 *   an uncompressed P-256 key (1,184 + 65 bytes) under MLKEM768-P256
 *   (draft-ietf-hpke-pq, KEM 0x0050), info
 *   "age-encryption.org/mlkem768p256tag"; post-quantum, so never beside a
 *   classic recipient.
 *
 * A stanza's arguments are a 4-byte tag and HPKE's enc; the tag,
 * HKDF-Extract(salt = the info, enc || SHA-256(the P-256 key)[:4])[:4],
 * lets a hardware key's plugin find its stanzas without trying each
 * (the P-256 key as the recipient holds it: compressed for p256tag,
 * uncompressed for the hybrid). As age's reference (filippo.io/age/tag).
 *
 * ECDH on P-256 is the platform's WebCrypto (the recipient's point checked
 * on the curve here first), ML-KEM-768 @noble/post-quantum's; this module
 * is imported only when a tag recipient is used. Not @noble/curves'
 * P-256: a bundler puts the parts of noble's field and utility modules
 * that P-256 uses into every age page, since X25519 imports those modules.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { bech32 } from './text-encodings.js';
import { bigOf, bigBytes, power } from './bigint.js';
import { encodeBase64, type Stanza } from './header.js';
import { keySchedule, kemSuite, labeledExpand, labeledExtract, type Schedule } from './hpke.js';
import { KEM_PUBLIC_KEY, reducedKey } from './key-types.js';
import { utf8, wrap } from './recipients.js';
import { joined, zeroize, EMPTY } from '../runtime/bytes.js';

const COMPRESSED = 33;
const UNCOMPRESSED = 65;
/** One of the two types: its stanza type, HPKE info and its KEM's key schedule. */
interface TagType {
  readonly stanza: 'p256tag' | 'mlkem768p256tag';
  readonly info: Uint8Array;
  readonly schedule: Schedule;
}

const CLASSIC_INFO = utf8('age-encryption.org/p256tag');
const HYBRID_INFO = utf8('age-encryption.org/mlkem768p256tag');
const CLASSIC: TagType = { stanza: 'p256tag', info: CLASSIC_INFO, schedule: keySchedule(0x0010, CLASSIC_INFO) };
const HYBRID: TagType = { stanza: 'mlkem768p256tag', info: HYBRID_INFO, schedule: keySchedule(0x0050, HYBRID_INFO) };

/** A tag recipient read: its type, ML-KEM's key (the hybrid's), and its P-256 key uncompressed and as the tag hashes it. */
interface TagRecipient {
  readonly type: TagType;
  readonly kemPublic?: Uint8Array;
  readonly point: Uint8Array;
  readonly tagged: Uint8Array;
}

// ---------------------------------------------------------------- P-256

/** P-256's field prime and curve constant b (SEC 2 §2.4.2; a = -3). */
const P256_P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

/** y^2 on the curve at x: x^3 - 3x + b mod P. */
const rightSide = (x: bigint): bigint => (((x * x * x - 3n * x + B) % P256_P) + P256_P) % P256_P;

/**
 * The P-256 point `bytes`, in the one SEC 1 form `form` says (33 bytes
 * compressed, 65 uncompressed), as 65 bytes uncompressed; undefined where
 * it is not a point on the curve. A compressed point's y is the square
 * root x^3 - 3x + b has (P = 3 mod 4: a power of (P + 1) / 4), if any.
 */
function p256Point(bytes: Uint8Array, form: number): Uint8Array | undefined {
  if (bytes.length !== form || bytes[0] !== (form === COMPRESSED ? (bytes[0]! & 1) + 2 : 4)) return undefined;
  const x = bigOf(bytes.subarray(1, 33));
  if (x >= P256_P) return undefined;
  let y: bigint;
  if (form === COMPRESSED) {
    y = power(rightSide(x), (P256_P + 1n) / 4n, P256_P);
    if ((y & 1n) !== BigInt(bytes[0]! & 1)) y = P256_P - y;
  } else {
    y = bigOf(bytes.subarray(33));
    if (y >= P256_P) return undefined;
  }
  return (y * y) % P256_P === rightSide(x) ? Uint8Array.of(4, ...bigBytes(x, 32), ...bigBytes(y, 32)) : undefined;
}

const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const;

/**
 * An ephemeral P-256 key pair's ECDH with `point` (checked on the curve):
 * the share (uncompressed) and the shared x-coordinate, from the
 * platform's WebCrypto, so the ephemeral secret never reaches JavaScript.
 */
async function p256Exchange(point: Uint8Array): Promise<{ share: Uint8Array; shared: Uint8Array }> {
  const subtle = (globalThis.crypto as Crypto | undefined)?.subtle;
  if (subtle === undefined) throw new RangeError("tag recipients need the platform's WebCrypto (ECDH P-256), which this engine lacks");
  const [recipient, ephemeral] = await Promise.all([
    subtle.importKey('raw', point.slice(), ECDH, false, []),
    subtle.generateKey(ECDH, false, ['deriveBits']) as Promise<CryptoKeyPair>,
  ]);
  const [share, shared] = await Promise.all([
    subtle.exportKey('raw', ephemeral.publicKey),
    subtle.deriveBits({ name: 'ECDH', public: recipient }, ephemeral.privateKey, 256),
  ]);
  return { share: new Uint8Array(share), shared: new Uint8Array(shared) };
}

// ---------------------------------------------------------------- the stanzas

/**
 * A tag recipient string read in full, or a RangeError naming `name` and
 * what is wrong; its Bech32 checksum and length were checked where it was
 * recognized (keys.ts recipientKey).
 */
function parseRecipient(text: string, name: string): TagRecipient {
  const type = text.startsWith('age1tagpq1') ? HYBRID : CLASSIC;
  const what = `${name} is a malformed ${type === HYBRID ? 'post-quantum tag recipient (age1tagpq1...)' : 'tag recipient (age1tag1...)'}`;
  const bytes = bech32.fromWords(bech32.decode(text as `${string}1${string}`, false).words);
  if (type === CLASSIC) {
    const point = p256Point(bytes, COMPRESSED);
    if (point === undefined) throw new RangeError(`${what}: its 33 bytes are not a compressed P-256 point`);
    return { type, point, tagged: bytes };
  }
  const kemPublic = bytes.subarray(0, KEM_PUBLIC_KEY);
  if (!reducedKey(kemPublic)) throw new RangeError(`${what}: its ML-KEM-768 key fails FIPS 203's check (a coefficient of 3329 or more)`);
  const point = p256Point(bytes.subarray(KEM_PUBLIC_KEY), UNCOMPRESSED);
  if (point === undefined) throw new RangeError(`${what}: its last 65 bytes are not an uncompressed P-256 point`);
  return { type, kemPublic, point, tagged: point };
}

/** RFC 9180 §4.1: DHKEM(P-256, HKDF-SHA256)'s Encap to `point`: enc, and the shared secret. */
async function dhkemEncapsulate(point: Uint8Array): Promise<{ enc: Uint8Array; shared: Uint8Array }> {
  const suite = kemSuite(0x0010);
  const { share, shared: dh } = await p256Exchange(point);
  const prk = labeledExtract(suite, EMPTY, 'eae_prk', dh);
  zeroize(dh);
  try {
    return { enc: share, shared: labeledExpand(suite, prk, 'shared_secret', joined([share, point]), 32) };
  } finally {
    zeroize(prk);
  }
}

/** draft-ietf-hpke-pq's MLKEM768-P256 Encap: ML-KEM's ciphertext and the P-256 share, and SHA3-256 over both secrets, the share, the key and the label. */
async function hybridEncapsulate(kemPublic: Uint8Array, point: Uint8Array): Promise<{ enc: Uint8Array; shared: Uint8Array }> {
  const { share, shared: dh } = await p256Exchange(point);
  const kem = ml_kem768.encapsulate(kemPublic);
  const input = joined([kem.sharedSecret, dh, share, point, utf8('MLKEM768-P256')]);
  try {
    return { enc: joined([kem.cipherText, share]), shared: sha3_256(input) };
  } finally {
    zeroize(input);
    zeroize(dh);
    zeroize(kem.sharedSecret);
  }
}

/** The stanza's first argument: HKDF-Extract(salt = info, enc || SHA-256(the tagged key)[:4]), that is HMAC keyed with the info (RFC 5869 §2.2), its first 4 bytes. */
const recipientTag = (r: TagRecipient, enc: Uint8Array): Uint8Array => hmac(sha256, r.type.info, joined([enc, sha256(r.tagged).subarray(0, 4)])).subarray(0, 4);

/** The stanza wrapping `fileKey` for a tag recipient string ("age1tag1..." or "age1tagpq1..."); a RangeError naming `name` where it is malformed. */
export async function tagStanza(text: string, fileKey: Uint8Array, name: string): Promise<Stanza> {
  const r = parseRecipient(text, name);
  const { enc, shared } = r.kemPublic === undefined ? await dhkemEncapsulate(r.point) : await hybridEncapsulate(r.kemPublic, r.point);
  const { key, nonce } = r.type.schedule(shared);
  return { type: r.type.stanza, args: [encodeBase64(recipientTag(r, enc)), encodeBase64(enc)], body: wrap(key, fileKey, nonce) };
}

/** Checks a tag recipient string in full (Bech32, length, the P-256 point, ML-KEM's key): a RangeError naming `name` where it is malformed. */
export function checkTagRecipient(text: string, name: string): void {
  parseRecipient(text, name);
}
