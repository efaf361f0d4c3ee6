/**
 * The ChaCha family: the bare stream ciphers and the two AEADs.
 *
 * Conventions shared by every entry, so the libraries do the same work:
 * - each timed call is one complete message, as an application would send
 *   it: an AEAD call builds the cipher for its key and nonce, then seals or
 *   opens; a node:crypto call creates its Cipher and finalizes it;
 * - outputs are allocated by the library (the form every API offers);
 * - no associated data;
 * - the throughput counts message bytes only: the tag a decrypt reads is
 *   not counted, nor the tag an encrypt writes.
 */
import { bytes } from '../fixtures.js';
import type { BenchEntry } from '../harness.js';
import type { Apis } from '../libraries.js';

/** Both fourfold tiers run the same code; libraries.ts selects the tier before each batch. */
const fourfoldTiers = ['fourfold', 'fourfold-js'];

type Stream = (key: Uint8Array, nonce: Uint8Array, message: Uint8Array) => Uint8Array;
type Aead = (key: Uint8Array, nonce: Uint8Array) => { encrypt(m: Uint8Array): Uint8Array; decrypt(c: Uint8Array): Uint8Array };
type SodiumSeal = (message: Uint8Array, ad: null, nsec: null, nonce: Uint8Array, key: Uint8Array) => Uint8Array;
type SodiumOpen = (nsec: null, sealed: Uint8Array, ad: null, nonce: Uint8Array, key: Uint8Array) => Uint8Array;

interface Inputs {
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  readonly message: Uint8Array;
}

/** The same inputs for every library of a case; fresh buffers for each. */
function inputs(op: string, size: number, nonceLength: number): Inputs {
  return {
    key: bytes(`${op} key`, 32),
    nonce: bytes(`${op} nonce`, nonceLength),
    message: bytes(`${op} message ${size}`, size),
  };
}

/** What decrypt entries open: the message sealed by @noble/ciphers, with its 16-byte tag. */
function sealedInputs(aead: Aead, op: string, size: number, nonceLength: number): Inputs & { readonly sealed: Uint8Array } {
  const i = inputs(op, size, nonceLength);
  return { ...i, sealed: aead(i.key, i.nonce).encrypt(i.message) };
}

/** node:crypto's 'chacha20' takes one 16-byte IV: the 32-bit little-endian block counter (0 here), then the nonce. */
function nodeIv(nonce12: Uint8Array): Uint8Array {
  const iv = new Uint8Array(16);
  iv.set(nonce12, 4);
  return iv;
}

/** chacha20 (RFC 8439: 12-byte nonce, counter 0) and xchacha20 (24-byte nonce). */
function streamEntries(apis: Apis): BenchEntry[] {
  const { fourfold, noble, sodium, node } = apis;
  // crypto_stream_* exist only in the -sumo build of libsodium-wrappers.
  const sodiumStreams = sodium as unknown as Record<string, Stream | undefined>;
  const streams = [
    {
      op: 'chacha20',
      nonceLength: 12,
      fourfold: fourfold?.chacha?.chacha20,
      noble: noble.chacha.chacha20,
      sodium: sodiumStreams.crypto_stream_chacha20_ietf_xor,
    },
    {
      op: 'xchacha20',
      nonceLength: 24,
      fourfold: fourfold?.chacha?.xchacha20,
      noble: noble.chacha.xchacha20,
      sodium: sodiumStreams.crypto_stream_xchacha20_xor,
    },
  ];

  const entries: BenchEntry[] = [];
  for (const { op, nonceLength, ...libraries } of streams) {
    // Every library but sodium takes (key, nonce, message); sodium takes (message, nonce, key).
    const add = (library: string, stream: Stream) =>
      entries.push({
        op,
        library,
        prepare: (size) => {
          const { key, nonce, message } = inputs(op, size, nonceLength);
          return () => stream(key, nonce, message);
        },
      });
    const fourfoldStream = libraries.fourfold;
    if (fourfoldStream !== undefined) for (const tier of fourfoldTiers) add(tier, (k, n, m) => fourfoldStream(k, n, m));
    add('noble', (k, n, m) => libraries.noble(k, n, m));
    const sodiumStream = libraries.sodium;
    if (sodiumStream !== undefined) add('sodium', (k, n, m) => sodiumStream(m, n, k));
  }

  // node:crypto has ChaCha20 (through OpenSSL) but no XChaCha20.
  entries.push({
    op: 'chacha20',
    library: 'node',
    prepare: (size) => {
      const { key, nonce, message } = inputs('chacha20', size, 12);
      const iv = nodeIv(nonce);
      return () => {
        const cipher = node.createCipheriv('chacha20', key, iv);
        const out = cipher.update(message);
        cipher.final(); // always empty for a stream cipher, but part of using the API
        return out;
      };
    },
  });
  return entries;
}

/** AEAD_CHACHA20_POLY1305 (RFC 8439) and AEAD_XChaCha20_Poly1305 (draft-irtf-cfrg-xchacha), each sealing and opening. */
function aeadEntries(apis: Apis): BenchEntry[] {
  const { fourfold, noble, sodium } = apis;
  const aeads = [
    {
      name: 'chacha20poly1305',
      nonceLength: 12,
      fourfold: fourfold?.chacha?.chacha20poly1305 as Aead | undefined,
      noble: noble.chacha.chacha20poly1305 as Aead,
      sodiumSeal: sodium.crypto_aead_chacha20poly1305_ietf_encrypt as SodiumSeal,
      sodiumOpen: sodium.crypto_aead_chacha20poly1305_ietf_decrypt as SodiumOpen,
    },
    {
      name: 'xchacha20poly1305',
      nonceLength: 24,
      fourfold: fourfold?.chacha?.xchacha20poly1305 as Aead | undefined,
      noble: noble.chacha.xchacha20poly1305 as Aead,
      sodiumSeal: sodium.crypto_aead_xchacha20poly1305_ietf_encrypt as SodiumSeal,
      sodiumOpen: sodium.crypto_aead_xchacha20poly1305_ietf_decrypt as SodiumOpen,
    },
  ];

  const entries: BenchEntry[] = [];
  for (const aead of aeads) {
    const encrypt = `${aead.name}-encrypt`;
    const decrypt = `${aead.name}-decrypt`;
    const addSeal = (library: string, seal: (key: Uint8Array, nonce: Uint8Array, message: Uint8Array) => Uint8Array) =>
      entries.push({
        op: encrypt,
        library,
        prepare: (size) => {
          const { key, nonce, message } = inputs(encrypt, size, aead.nonceLength);
          return () => seal(key, nonce, message);
        },
      });
    const addOpen = (library: string, open: (key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array) => Uint8Array) =>
      entries.push({
        op: decrypt,
        library,
        prepare: (size) => {
          const { key, nonce, sealed } = sealedInputs(aead.noble, decrypt, size, aead.nonceLength);
          return () => open(key, nonce, sealed);
        },
      });

    const fourfoldAead = aead.fourfold;
    if (fourfoldAead !== undefined) {
      for (const tier of fourfoldTiers) {
        addSeal(tier, (k, n, m) => fourfoldAead(k, n).encrypt(m));
        addOpen(tier, (k, n, c) => fourfoldAead(k, n).decrypt(c));
      }
    }
    addSeal('noble', (k, n, m) => aead.noble(k, n).encrypt(m));
    addOpen('noble', (k, n, c) => aead.noble(k, n).decrypt(c));
    addSeal('sodium', (k, n, m) => aead.sodiumSeal(m, null, null, n, k));
    addOpen('sodium', (k, n, c) => aead.sodiumOpen(null, c, null, n, k));
  }
  return [...entries, ...nodeAeadEntries(apis)];
}

/** node:crypto offers the IETF AEAD only, and keeps its tag apart from the ciphertext. */
function nodeAeadEntries({ node, noble }: Apis): BenchEntry[] {
  const seal = (size: number) => {
    const { key, nonce, message } = inputs('chacha20poly1305-encrypt', size, 12);
    return () => {
      const cipher = node.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
      const ciphertext = cipher.update(message);
      cipher.final();
      return { ciphertext, tag: cipher.getAuthTag() };
    };
  };
  const encrypt: BenchEntry = {
    op: 'chacha20poly1305-encrypt',
    library: 'node',
    // Joining tag and ciphertext would charge node for a copy its users
    // need not make, so the timed call only fetches the tag, and the
    // joined form is built for the cross-check alone.
    prepare: (size) => {
      const call = seal(size);
      return () => call().ciphertext;
    },
    checkedOutput: (size) => {
      const { ciphertext, tag } = seal(size)();
      return Buffer.concat([ciphertext, tag]);
    },
  };
  const decrypt: BenchEntry = {
    op: 'chacha20poly1305-decrypt',
    library: 'node',
    prepare: (size) => {
      const { key, nonce, sealed } = sealedInputs(noble.chacha.chacha20poly1305, 'chacha20poly1305-decrypt', size, 12);
      const ciphertext = sealed.subarray(0, sealed.length - 16);
      const tag = sealed.subarray(sealed.length - 16);
      return () => {
        const decipher = node.createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
        decipher.setAuthTag(tag);
        const plaintext = decipher.update(ciphertext);
        decipher.final(); // throws if the tag does not verify
        return plaintext;
      };
    },
  };
  return [encrypt, decrypt];
}

export function chachaEntries(apis: Apis): BenchEntry[] {
  return [...streamEntries(apis), ...aeadEntries(apis)];
}
