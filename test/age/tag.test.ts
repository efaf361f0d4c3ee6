/**
 * age's tag recipients (age1tag1..., P-256; age1tagpq1..., ML-KEM-768 +
 * P-256), which encrypt only: files made here through every call of
 * fourfold/age and fourfold/parallel's age, on both tiers, to keys made
 * here with @noble/curves and @noble/post-quantum (its MLKEM768-P256 is
 * draft-ietf-hpke-pq's), are opened by typage with an identity written
 * in this file from RFC 9180 on noble's primitives, each stanza's tag
 * checked; bad recipients are refused by name before any output. Go age
 * decrypting them (its age-plugin-tagtest identity) is in
 * test/cli/age-keys.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { p256 } from '@noble/curves/nist.js';
import { expand, extract } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { ml_kem768_p256 } from '@noble/post-quantum/hybrid.js';
import { base64nopad, bech32 } from '@scure/base';
import { Decrypter, type Identity } from 'age-encryption';
import * as age from 'fourfold/age';
import { age as parallelAge } from 'fourfold/parallel';
import { assertBytes, concat, forEachTier, rand } from '../helpers.js';
import { AGE_CALLS, NO_BLOB, through } from './calls.js';

const CHUNK = 65536;
const NO_WEBCRYPTO = globalThis.crypto?.subtle === undefined ? 'not applicable: tag recipients need WebCrypto (ECDH P-256), which this engine lacks' : false;
const EMPTY = new Uint8Array(0);
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const twoBytes = (n: number): Uint8Array => Uint8Array.of(n >> 8, n & 0xff);

// ---------------------------------------------------------------- an identity from the specs

/** RFC 9180 §4's labeled HKDF steps under `suite`. */
const labeledExtract = (suite: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array) =>
  extract(sha256, concat(utf8('HPKE-v1'), suite, utf8(label), ikm), salt);
const labeledExpand = (suite: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number) =>
  expand(sha256, prk, concat(twoBytes(length), utf8('HPKE-v1'), suite, utf8(label), info), length);

/** RFC 9180 §5.1 and §5.2: base mode's key schedule for KEM `kemId` (HKDF-SHA256, ChaCha20Poly1305), then Open of one message. */
function hpkeOpen(kemId: number, info: Uint8Array, shared: Uint8Array, sealed: Uint8Array): Uint8Array {
  const suite = concat(utf8('HPKE'), twoBytes(kemId), twoBytes(1), twoBytes(3));
  const context = concat(Uint8Array.of(0), labeledExtract(suite, EMPTY, 'psk_id_hash', EMPTY), labeledExtract(suite, EMPTY, 'info_hash', info));
  const secret = labeledExtract(suite, shared, 'secret', EMPTY);
  const key = labeledExpand(suite, secret, 'key', context, 32);
  const nonce = labeledExpand(suite, secret, 'base_nonce', context, 12);
  return chacha20poly1305(key, nonce).decrypt(sealed);
}

/** A tag key pair made here, as an age recipient string and a typage identity that opens its stanzas (counting those it opened). */
interface TagKeyPair {
  readonly recipient: string;
  readonly identity: Identity & { opened: number };
}

/** One of the two types as the identity sees it: stanza type, HPKE KEM and info, the P-256 key the tag hashes, and its KEM's Decap. */
interface TagKind {
  readonly stanza: string;
  readonly kemId: number;
  readonly info: Uint8Array;
  readonly tagged: Uint8Array;
  decapsulate(enc: Uint8Array): Uint8Array;
}

/** A typage identity for `kind`: the first stanza of its type whose tag is its key's, opened with HPKE. */
function identityOf(kind: TagKind): TagKeyPair['identity'] {
  const identity = {
    opened: 0,
    unwrapFileKey(stanzas: { args: string[]; body: Uint8Array }[]) {
      for (const s of stanzas) {
        if (s.args[0] !== kind.stanza) continue;
        const enc = base64nopad.decode(s.args[2]!);
        if (base64nopad.encode(tagOf(enc, kind.tagged, kind.info)) !== s.args[1]) continue;
        identity.opened++;
        return hpkeOpen(kind.kemId, kind.info, kind.decapsulate(enc), s.body);
      }
      return null;
    },
  };
  return identity;
}

/** A p256tag key pair: the recipient is the compressed point; DHKEM(P-256, HKDF-SHA256) (RFC 9180 §4.1, KEM 0x0010) opens. */
function classicPair(): TagKeyPair {
  const secret = p256.utils.randomSecretKey();
  const compressed = p256.getPublicKey(secret, true);
  const uncompressed = p256.getPublicKey(secret, false);
  const kemSuite = concat(utf8('KEM'), twoBytes(0x0010));
  const decapsulate = (enc: Uint8Array): Uint8Array => {
    const prk = labeledExtract(kemSuite, EMPTY, 'eae_prk', p256.getSharedSecret(secret, enc, true).subarray(1));
    return labeledExpand(kemSuite, prk, 'shared_secret', concat(enc, uncompressed), 32);
  };
  const identity = identityOf({ stanza: 'p256tag', kemId: 0x0010, info: utf8('age-encryption.org/p256tag'), tagged: compressed, decapsulate });
  return { recipient: bech32.encode('age1tag', bech32.toWords(compressed), false), identity };
}

/** An mlkem768p256tag key pair: ML-KEM-768's key and the uncompressed point; noble's MLKEM768-P256 (KEM 0x0050) decapsulates. */
function hybridPair(): TagKeyPair {
  const { secretKey, publicKey } = ml_kem768_p256.keygen(rand(32));
  assert.equal(publicKey.length, 1184 + 65);
  const identity = identityOf({
    stanza: 'mlkem768p256tag',
    kemId: 0x0050,
    info: utf8('age-encryption.org/mlkem768p256tag'),
    tagged: publicKey.subarray(1184),
    decapsulate: (enc) => ml_kem768_p256.decapsulate(enc, secretKey),
  });
  return { recipient: bech32.encode('age1tagpq', bech32.toWords(publicKey), false), identity };
}

/** The tag (filippo.io/age/tag): HKDF-Extract(salt = info, enc || SHA-256(P-256 key)[:4]), 4 bytes. */
const tagOf = (enc: Uint8Array, point: Uint8Array, info: Uint8Array): Uint8Array =>
  extract(sha256, concat(enc, sha256(point).subarray(0, 4)), info).subarray(0, 4);

/** `file` decrypted by typage with `identity`. */
async function typageOpens(file: Uint8Array, identity: Identity): Promise<Uint8Array> {
  const d = new Decrypter();
  d.addIdentity(identity);
  return d.decrypt(file);
}

// ---------------------------------------------------------------- the calls

forEachTier('tag recipients through every call', () => {
  for (const api of AGE_CALLS) {
    it(`${api.name}: p256tag and mlkem768p256tag files open in typage under an identity from the specs, each stanza's tag its key's`, {
      skip: api.skip || NO_WEBCRYPTO,
    }, async () => {
      const [a, b] = [classicPair(), classicPair()];
      const x25519 = age.generateIdentity();
      for (const size of [0, 1, CHUNK + 1]) {
        const data = rand(size);
        const file = await api.seal(data, { recipients: [a.recipient, age.identityToRecipient(x25519), b.recipient] });
        assertBytes(await typageOpens(file, a.identity), data, `${size} bytes, first key`);
        assertBytes(await typageOpens(file, b.identity), data, `${size} bytes, second key`);
        assertBytes(await api.open(file, { identities: [x25519] }), data, `${size} bytes, the X25519 identity beside them`);
      }
      const pq = hybridPair();
      const hybridIdentity = age.generateHybridIdentity();
      const data = rand(CHUNK);
      const file = await api.seal(data, { recipients: [pq.recipient, await age.identityToRecipient(hybridIdentity)] });
      assertBytes(await typageOpens(file, pq.identity), data, 'post-quantum tag');
      assertBytes(await api.open(file, { identities: [hybridIdentity] }), data, 'beside a post-quantum hybrid recipient');
      assert.equal(a.identity.opened + b.identity.opened + pq.identity.opened, 3 * 2 + 1);
    });
  }
});

describe('tag recipients refused, by name, before any output', () => {
  const refuses = async (recipients: string[], why: RegExp) => {
    const to = { recipients };
    await assert.rejects(age.encrypt(rand(1), to), why);
    await assert.rejects(parallelAge.encrypt(rand(1), to), why);
    if (!NO_BLOB) await assert.rejects(parallelAge.encryptFile(new Blob([new Uint8Array(1)]), undefined, to), why);
    if (typeof TransformStream === 'function') await assert.rejects(async () => through(age.encryptStream(to), rand(1), 1), why);
  };
  const encoded = (prefix: string, bytes: Uint8Array): string => bech32.encode(prefix, bech32.toWords(bytes), false);

  it('a point off the curve, the wrong form, a bad ML-KEM key, a bad checksum or length, upper case', async () => {
    const good = classicPair().recipient;
    const compressed = bech32.fromWords(bech32.decode(good as `${string}1${string}`, false).words);
    // x = 1 is no P-256 point's x-coordinate: 1 - 3 + b has no square root mod p.
    const offCurve = Uint8Array.of(2, ...new Array<number>(31).fill(0), 1);
    assert.throws(() => p256.Point.fromBytes(offCurve));
    await refuses(
      [encoded('age1tag', offCurve)],
      /^RangeError: recipients\[0\] is a malformed tag recipient \(age1tag1\.\.\.\): its 33 bytes are not a compressed P-256 point/,
    );
    await refuses([encoded('age1tag', Uint8Array.of(4, ...compressed.subarray(1)))], /its 33 bytes are not a compressed P-256 point/);
    await refuses(
      [encoded('age1tag', compressed.subarray(1))],
      /^RangeError: recipients\[0\] is a malformed tag recipient \(age1tag1\.\.\.\): it holds 32 bytes, not 33/,
    );
    await refuses([`${good.slice(0, -1)}${good.endsWith('q') ? 'p' : 'q'}`], /is a malformed tag recipient \(age1tag1\.\.\.\): its checksum does not verify/);
    await refuses([good.toUpperCase()], /^RangeError: recipients\[0\] is in upper case/);

    const hybrid = bech32.fromWords(bech32.decode(hybridPair().recipient as `${string}1${string}`, false).words);
    const badKem = hybrid.slice();
    badKem[0] = 0xff;
    badKem[1] |= 0x0f; // the first coefficient 0xfff, over q = 3329
    await refuses(
      [encoded('age1tagpq', badKem)],
      /^RangeError: recipients\[0\] is a malformed post-quantum tag recipient \(age1tagpq1\.\.\.\): its ML-KEM-768 key fails FIPS 203's check/,
    );
    const compressedTail = concat(hybrid.subarray(0, 1184), compressed, new Uint8Array(32));
    await refuses([encoded('age1tagpq', compressedTail)], /its last 65 bytes are not an uncompressed P-256 point/);
  });

  it('a post-quantum tag beside a classic recipient, as age refuses it', async () => {
    const why = /^RangeError: recipients mixes post-quantum \(age1pq1\.\.\., age1tagpq1\.\.\.\) and classic/;
    await refuses([hybridPair().recipient, classicPair().recipient], why);
    await refuses([hybridPair().recipient, age.identityToRecipient(age.generateIdentity())], why);
  });
});
