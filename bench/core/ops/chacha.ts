/**
 * The ChaCha family: the bare stream ciphers and the two AEADs.
 *
 * Conventions shared by every entry, so the libraries do the same work:
 * - each timed call is one complete message, as an application would send
 *   it: an AEAD call builds the cipher for its key and nonce, then seals or
 *   opens; a node:crypto call creates its Cipher and finalizes it;
 * - outputs are allocated by the library, except in the '(output)' call
 *   styles, which write into one caller-supplied buffer, reused;
 * - no associated data;
 * - the throughput counts message bytes only: the tag a decrypt reads is
 *   not counted, nor the tag an encrypt writes;
 * - with n keys, call i uses key i mod n (and, to decrypt, the message
 *   sealed under it); the nonce stays the same.
 */
import { type Apis, NATIVE, NODE_JOINED, nodeHasCipher } from '../libraries.js';
import {
  type AeadFactory,
  addStreamEntries,
  type NonceInputs as Inputs,
  type SealedInputs,
  type StreamCipher,
  TAG,
  addAeadEntries,
  addParallelAeadEntries,
  nonceInputs,
  perKey,
  sealedInputs,
  streamEntries,
} from './shared.js';
import { defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

type SodiumStream = (message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array;
type SodiumSeal = (message: Uint8Array, ad: null, nsec: null, nonce: Uint8Array, key: Uint8Array) => Uint8Array;
type SodiumOpen = (nsec: null, sealed: Uint8Array, ad: null, nonce: Uint8Array, key: Uint8Array) => Uint8Array;

/** A built-in module of the engine running the bench (node:crypto's engines have process.getBuiltinModule). */
const builtin = <T>(id: string): T => (globalThis as unknown as { process: { getBuiltinModule(id: string): T } }).process.getBuiltinModule(id);

/** node:crypto's 'chacha20' takes one 16-byte IV: the 32-bit little-endian block counter (0 here), then the nonce. */
function nodeIv(nonce12: Uint8Array): Uint8Array {
  const iv = new Uint8Array(16);
  iv.set(nonce12, 4);
  return iv;
}

/** chacha20 (RFC 8439: 12-byte nonce, counter 0) and xchacha20 (24-byte nonce). */
function streamOps(apis: Apis): OpDefinition<unknown>[] {
  const { fourfold, noble, sodium, node } = apis;
  // crypto_stream_* exist only in the -sumo build of libsodium-wrappers.
  const sodiumStreams = (sodium ?? {}) as unknown as Record<string, SodiumStream | undefined>;
  const streams = [
    {
      op: 'chacha20',
      nonceLength: 12,
      fourfold: fourfold?.chacha?.chacha20,
      parallel: fourfold?.parallel?.chacha20,
      noble: noble.chacha.chacha20,
      sodium: sodiumStreams.crypto_stream_chacha20_ietf_xor,
    },
    {
      op: 'xchacha20',
      nonceLength: 24,
      fourfold: fourfold?.chacha?.xchacha20,
      parallel: fourfold?.parallel?.xchacha20,
      noble: noble.chacha.xchacha20,
      sodium: sodiumStreams.crypto_stream_xchacha20_xor,
    },
  ];

  return streams.map(({ op, nonceLength, ...library }) => {
    const entries = streamEntries(library.fourfold, library.noble as StreamCipher, library.sodium, library.parallel);
    if (library.fourfold !== undefined) addStreamEntries(entries, NATIVE, library.fourfold, false);
    // node:crypto has ChaCha20 (through OpenSSL) but no XChaCha20.
    if (node !== undefined && op === 'chacha20' && nodeHasCipher(node, 'chacha20')) {
      entries.push({
        library: 'node',
        bind: perKey(({ keys, nonce, message }) => {
          const iv = nodeIv(nonce);
          return (k) => {
            const cipher = node.createCipheriv('chacha20', keys[k]!, iv);
            const out = cipher.update(message);
            cipher.final(); // always empty for a stream cipher, but part of using the API
            return out;
          };
        }),
      });
    }
    return defineOp<Inputs>({ op, inputs: (shape) => nonceInputs(op, shape, nonceLength), entries });
  });
}

/** AEAD_CHACHA20_POLY1305 (RFC 8439) and AEAD_XChaCha20_Poly1305 (draft-irtf-cfrg-xchacha), each sealing and opening. */
function aeadOps(apis: Apis): OpDefinition<unknown>[] {
  const { fourfold, noble, sodium } = apis;
  const aeads = [
    {
      name: 'chacha20poly1305',
      nonceLength: 12,
      fourfold: fourfold?.chacha?.chacha20poly1305 as AeadFactory | undefined,
      parallel: fourfold?.parallel?.chacha20poly1305 as AeadFactory | undefined,
      noble: noble.chacha.chacha20poly1305 as AeadFactory,
      sodiumSeal: sodium?.crypto_aead_chacha20poly1305_ietf_encrypt as SodiumSeal | undefined,
      sodiumOpen: sodium?.crypto_aead_chacha20poly1305_ietf_decrypt as SodiumOpen | undefined,
    },
    {
      name: 'xchacha20poly1305',
      nonceLength: 24,
      fourfold: fourfold?.chacha?.xchacha20poly1305 as AeadFactory | undefined,
      parallel: fourfold?.parallel?.xchacha20poly1305 as AeadFactory | undefined,
      noble: noble.chacha.xchacha20poly1305 as AeadFactory,
      sodiumSeal: sodium?.crypto_aead_xchacha20poly1305_ietf_encrypt as SodiumSeal | undefined,
      sodiumOpen: sodium?.crypto_aead_xchacha20poly1305_ietf_decrypt as SodiumOpen | undefined,
    },
  ];

  const ops: OpDefinition<unknown>[] = [];
  for (const aead of aeads) {
    // Both directions use the same key, nonce and message streams.
    const plain = (shape: Shape) => nonceInputs(aead.name, shape, aead.nonceLength);
    // libsodium seals the decrypt inputs: it is trusted, and with a million
    // keys it is several times quicker than @noble/ciphers, which seals
    // them where libsodium cannot load.
    const { sodiumSeal, sodiumOpen } = aead;
    const sealer = (message: Uint8Array, nonce: Uint8Array, key: Uint8Array) =>
      sodiumSeal !== undefined ? sodiumSeal(message, null, null, nonce, key) : (aead.noble(key, nonce).encrypt(message) as Uint8Array);
    const sealedOf = (shape: Shape) => sealedInputs(plain(shape), sealer);

    const seal: OpEntry<Inputs>[] = [];
    const open: OpEntry<SealedInputs>[] = [];
    if (aead.fourfold !== undefined) {
      addAeadEntries(seal, open, 'fourfold', aead.fourfold, true);
      addAeadEntries(seal, open, 'fourfold-js', aead.fourfold, false);
      addAeadEntries(seal, open, NATIVE, aead.fourfold, false);
    }
    if (aead.parallel !== undefined) addParallelAeadEntries(seal, open, aead.parallel);
    addAeadEntries(seal, open, 'noble', aead.noble, true);
    if (sodiumSeal !== undefined && sodiumOpen !== undefined) {
      seal.push({
        library: 'sodium',
        bind: perKey(
          ({ keys, nonce, message }) =>
            (k) =>
              sodiumSeal(message, null, null, nonce, keys[k]!),
        ),
      });
      open.push({
        library: 'sodium',
        bind: perKey(
          ({ keys, nonce, sealed }) =>
            (k) =>
              sodiumOpen(null, sealed[k]!, null, nonce, keys[k]!),
        ),
      });
    }
    if (aead.name === 'chacha20poly1305') {
      const node = nodeAeadEntries(apis);
      if (node !== undefined) {
        seal.push(node.seal, node.sealJoined);
        open.push(node.open);
      }
    }
    ops.push(defineOp<Inputs>({ op: `${aead.name}-encrypt`, inputs: plain, entries: seal }));
    ops.push(defineOp<SealedInputs>({ op: `${aead.name}-decrypt`, inputs: sealedOf, entries: open }));
  }
  return ops;
}

/** node:crypto offers the IETF AEAD only, and keeps its tag apart from the ciphertext. */
function nodeAeadEntries({ node }: Apis): { seal: OpEntry<Inputs>; sealJoined: OpEntry<Inputs>; open: OpEntry<SealedInputs> } | undefined {
  if (node === undefined || !nodeHasCipher(node, 'chacha20-poly1305')) return undefined;
  const { Buffer } = builtin<{ Buffer: { concat(list: Uint8Array[]): Uint8Array } }>('node:buffer');
  // What fourfold's encrypt returns, one array, made the way node:crypto's users make it.
  const sealJoined = perKey(({ keys, nonce, message }: Inputs) => (k) => {
    const cipher = node.createCipheriv('chacha20-poly1305', keys[k]!, nonce, { authTagLength: TAG });
    return Buffer.concat([cipher.update(message), cipher.final(), cipher.getAuthTag()]);
  });
  const sealParts = perKey(({ keys, nonce, message }: Inputs) => (k) => {
    const cipher = node.createCipheriv('chacha20-poly1305', keys[k]!, nonce, { authTagLength: TAG });
    const ciphertext = cipher.update(message);
    cipher.final();
    // The timed call fetches the tag but does not join it to the
    // ciphertext: that copy is not one node's users need to make.
    cipher.getAuthTag();
    return ciphertext;
  });
  return {
    seal: {
      library: 'node',
      bind: sealParts,
      checkedOutput: ({ keys, nonce, message }) => {
        const cipher = node.createCipheriv('chacha20-poly1305', keys[0]!, nonce, { authTagLength: TAG });
        const ciphertext = cipher.update(message);
        cipher.final();
        const joined = new Uint8Array(ciphertext.length + TAG);
        joined.set(ciphertext);
        joined.set(cipher.getAuthTag(), ciphertext.length);
        return joined;
      },
    },
    sealJoined: { library: NODE_JOINED, bind: sealJoined },
    open: {
      library: 'node',
      bind: perKey(({ keys, nonce, sealed }) => {
        const bodies = sealed.map((s) => s.subarray(0, s.length - TAG));
        const tags = sealed.map((s) => s.subarray(s.length - TAG));
        return (k) => {
          const decipher = node.createDecipheriv('chacha20-poly1305', keys[k]!, nonce, { authTagLength: TAG });
          decipher.setAuthTag(tags[k]!);
          const plaintext = decipher.update(bodies[k]!);
          decipher.final(); // throws if the tag does not verify
          return plaintext;
        };
      }),
    },
  };
}

export function chachaOps(apis: Apis): OpDefinition<unknown>[] {
  return [...streamOps(apis), ...aeadOps(apis)];
}
