/**
 * age's post-quantum hybrid recipient type (C2SP age, "The
 * mlkem768x25519 recipient type"): the file key sealed with HPKE (RFC
 * 9180) in base mode, one message, to an X-Wing key (ML-KEM-768 and
 * X25519, HPKE KEM 0x647a), with HKDF-SHA-256 and ChaCha20-Poly1305, info
 * "age-encryption.org/mlkem768x25519" and no associated data. An identity
 * is X-Wing's 32-byte seed; a recipient its 1,216-byte encapsulation key.
 *
 * ML-KEM-768 (FIPS 203) and SHA-3 are @noble/post-quantum's and
 * @noble/hashes'; X25519 is age's own (x25519.ts: WebCrypto where the
 * platform has it). X-Wing's combiner (draft-connolly-cfrg-xwing-kem) is a
 * few lines here and HPKE's key schedule a few in hpke.ts, rather than noble's
 * hybrid module: that one brings P-256 and P-384 and shares enough of
 * @noble/curves with the X25519 code that a bundler would keep its parts
 * in every age page. This module is imported only when a hybrid key is
 * used, so X25519-only code never loads ML-KEM.
 */
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { sha3_256, shake256 } from '@noble/hashes/sha3.js';
import { bech32 } from './text-encodings.js';
import { AgeFormatError } from './errors.js';
import { decodeBase64, encodeBase64, type Stanza } from './header.js';
import { keySchedule as hpkeSchedule } from './hpke.js';
import { KEM_PUBLIC_KEY, KEY_HYBRID } from './key-types.js';
import { checkBody, unwrap } from './identities.js';
import { utf8, wrap } from './recipients.js';
import { type Multiplier, multiplierOf, publicKeyWith } from './x25519.js';
import { joined, zeroize, isZero } from '../runtime/bytes.js';

/** ML-KEM-768's ciphertext; X-Wing appends an X25519 share to it (and a public key to the encapsulation key, KEM_PUBLIC_KEY). */
const KEM_CIPHERTEXT = 1088;
/** X-Wing's domain separator, the ASCII "\.//^\". */
const XWING_LABEL = Uint8Array.of(0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c);

// ---------------------------------------------------------------- X-Wing

/** An X-Wing identity made ready: ML-KEM's decapsulation key, and the X25519 half's multiplier and public key. */
interface Expanded {
  readonly kemSecret: Uint8Array;
  readonly kemPublic: Uint8Array;
  readonly multiply: Multiplier;
  /** X25519's public key, made while the share's multiplication runs (each a platform call where WebCrypto has X25519). */
  readonly x25519Public: Promise<Uint8Array>;
  /** Wipes the secrets it holds. */
  forget(): void;
}

/** X-Wing's key derivation: SHAKE256(seed) to 96 bytes, ML-KEM-768's key pair from the first 64, X25519's secret the last 32. */
async function expandSeed(seed: Uint8Array): Promise<Expanded> {
  const expanded = shake256(seed, { dkLen: 96 });
  const x25519Secret = expanded.slice(64);
  try {
    const kem = ml_kem768.keygen(expanded.subarray(0, 64));
    const multiply = await multiplierOf(x25519Secret);
    const x25519Public = publicKeyWith(multiply);
    // Awaited by whoever uses it; a failure is theirs to report.
    x25519Public.catch(() => {});
    return {
      kemSecret: kem.secretKey,
      kemPublic: kem.publicKey,
      multiply,
      x25519Public,
      forget: () => {
        zeroize(kem.secretKey);
        zeroize(x25519Secret);
      },
    };
  } finally {
    zeroize(expanded);
  }
}

/** X-Wing's combiner: SHA3-256(ML-KEM's secret || X25519's || the X25519 share || the recipient's X25519 key || label). */
function combine(kemShared: Uint8Array, x25519Shared: Uint8Array, share: Uint8Array, x25519Public: Uint8Array): Uint8Array {
  const input = joined([kemShared, x25519Shared, share, x25519Public, XWING_LABEL]);
  try {
    return sha3_256(input);
  } finally {
    zeroize(input);
    zeroize(kemShared);
    zeroize(x25519Shared);
  }
}

/** X-Wing's encapsulation to `recipient`: the ciphertext (HPKE's enc) and the shared secret. A key ML-KEM refuses, or a low-order X25519 key, throws. */
async function encapsulate(recipient: Uint8Array): Promise<{ enc: Uint8Array; shared: Uint8Array }> {
  const x25519Public = recipient.subarray(KEM_PUBLIC_KEY);
  const kem = ml_kem768.encapsulate(recipient.subarray(0, KEM_PUBLIC_KEY));
  const ephemeral = crypto.getRandomValues(new Uint8Array(32));
  try {
    const multiply = await multiplierOf(ephemeral);
    const [share, x25519Shared] = await Promise.all([publicKeyWith(multiply), multiply(x25519Public)]);
    if (isZero(x25519Shared)) throw new Error('its X25519 key is a low-order point');
    return { enc: joined([kem.cipherText, share]), shared: combine(kem.sharedSecret, x25519Shared, share, x25519Public) };
  } finally {
    zeroize(ephemeral);
    zeroize(kem.sharedSecret);
  }
}

/**
 * X-Wing's decapsulation of `enc` (its length checked) for an identity:
 * ML-KEM rejects implicitly (another's ciphertext gives a secret that
 * opens nothing); an X25519 share giving the all-zero secret is refused.
 */
async function decapsulate(enc: Uint8Array, identity: Expanded): Promise<Uint8Array> {
  const share = enc.subarray(KEM_CIPHERTEXT);
  const [x25519Shared, x25519Public] = await Promise.all([identity.multiply(share), identity.x25519Public]);
  if (isZero(x25519Shared)) throw new AgeFormatError(`an ${KEY_HYBRID} stanza whose X25519 share gives an all-zero shared secret (a low-order point)`);
  const kemShared = ml_kem768.decapsulate(enc.subarray(0, KEM_CIPHERTEXT), identity.kemSecret);
  return combine(kemShared, x25519Shared, share, x25519Public);
}

/** HPKE's key schedule for X-Wing (KEM 0x647a) and age's info. */
const HYBRID_SCHEDULE = hpkeSchedule(0x647a, utf8('age-encryption.org/mlkem768x25519'));

// ---------------------------------------------------------------- age

/** The hybrid recipient string ("age1pq1...") of an identity's seed: ML-KEM's encapsulation key, then X25519's public key. */
export async function hybridRecipient(seed: Uint8Array): Promise<string> {
  const identity = await expandSeed(seed);
  identity.forget();
  return bech32.encode('age1pq', bech32.toWords(joined([identity.kemPublic, await identity.x25519Public])), false);
}

/** A hybrid stanza wrapping `fileKey` for the encapsulation key `recipient`; a RangeError naming `name` where the key is refused. */
export async function hybridStanza(recipient: Uint8Array, fileKey: Uint8Array, name: string): Promise<Stanza> {
  let sealed: { enc: Uint8Array; shared: Uint8Array };
  try {
    sealed = await encapsulate(recipient);
  } catch (e) {
    throw new RangeError(`${name} is not a valid post-quantum recipient: ${(e as Error).message}`);
  }
  const { key, nonce } = HYBRID_SCHEDULE(sealed.shared);
  return { type: KEY_HYBRID, args: [encodeBase64(sealed.enc)], body: wrap(key, fileKey, nonce) };
}

/** The stanza's enc, after the checks the specification asks of an identity (two arguments, a canonical 1,120-byte enc, a 32-byte body). */
function encOf(s: Stanza): Uint8Array {
  if (s.args.length !== 1) throw new AgeFormatError(`an ${KEY_HYBRID} stanza with ${s.args.length + 1} arguments (2 expected)`);
  const enc = decodeBase64(s.args[0]!, `an ${KEY_HYBRID} stanza's encapsulated key`);
  const bytes = KEM_CIPHERTEXT + 32;
  if (enc.length !== bytes) throw new AgeFormatError(`an ${KEY_HYBRID} stanza's encapsulated key of ${enc.length} bytes (${bytes} expected)`);
  checkBody(s);
  return enc;
}

/**
 * The file key from the first of `stanzas` (hybrid ones) that one of the
 * identities' seeds opens, or undefined; each seed expanded once. A
 * malformed stanza is an AgeFormatError, as age has it.
 */
export async function hybridUnwrap(stanzas: readonly Stanza[], seeds: readonly Uint8Array[]): Promise<Uint8Array | undefined> {
  const identities: Expanded[] = [];
  try {
    for (const seed of seeds) identities.push(await expandSeed(seed));
    for (const s of stanzas) {
      const enc = encOf(s);
      for (const identity of identities) {
        const { key, nonce } = HYBRID_SCHEDULE(await decapsulate(enc, identity));
        const fileKey = unwrap(key, s.body, nonce);
        if (fileKey !== undefined) return fileKey;
      }
    }
    return undefined;
  } finally {
    for (const identity of identities) identity.forget();
  }
}
