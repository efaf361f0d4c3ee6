/**
 * Serpent in the modes of NIST SP 800-38A: CTR (any length), CBC and ECB
 * encryption and decryption, without padding (so CBC and ECB take whole
 * blocks only: takesSize leaves other sizes out).
 *
 * Conventions, as for the other families: each timed call is one complete
 * message and builds the cipher for its key (and IV), as an application
 * would; with n keys, call i uses key i mod n (and, to decrypt, the
 * message encrypted under it); the IV stays the same.
 *
 * The peer is mipher (pure JavaScript, from npm), whose Serpent keeps the
 * AES-submission reference code's byte order, the reverse of NESSIE's that
 * fourfold uses: its key, IV and every 16-byte block are reversed around
 * the call (for CTR too: its little-endian counter on reversed blocks is
 * SP 800-38A's big-endian one), so the outputs compare byte for byte. The
 * reversals cost a fraction of a percent of its time. It encrypts only
 * whole blocks; for CTR at other lengths its input is zero-padded to a
 * whole block and its output cut back.
 */
import { PARALLEL, PARALLEL_REUSED, PARALLEL_SHARED, type Apis } from '../libraries.js';
import {
  type NonceInputs as Inputs,
  type SealedInputs as EncryptedInputs,
  hasSharedMemory,
  nonceInputs,
  outputBuffer,
  perKey,
  reusedBuffer,
  sealedInputs,
  sharedBuffer,
} from './shared.js';
import { defineOp, type Call, type OpDefinition, type OpEntry, type Shape } from './types.js';

interface Cipher<R = Uint8Array> {
  encrypt(data: Uint8Array, output?: Uint8Array): R;
  decrypt(data: Uint8Array, output?: Uint8Array): R;
}

/** A mode: how fourfold (and fourfold/parallel) builds its cipher, and mipher's matching class (taking key, data, iv). */
interface Mode {
  readonly name: 'ctr' | 'cbc' | 'ecb';
  readonly fourfold?: (key: Uint8Array, iv: Uint8Array) => Cipher;
  readonly parallel?: (key: Uint8Array, iv: Uint8Array) => Cipher<Promise<Uint8Array>>;
  readonly mipher?: {
    encrypt(key: Uint8Array, data: Uint8Array, iv?: Uint8Array): Uint8Array;
    decrypt(key: Uint8Array, data: Uint8Array, iv?: Uint8Array): Uint8Array;
  };
}

/** Each 16-byte block of `b` reversed (the whole of a key or IV). */
function reverseBlocks(b: Uint8Array, size = 16): Uint8Array {
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i += size) for (let j = 0; j < size && i + j < b.length; j++) out[i + j] = b[Math.min(i + size, b.length) - 1 - j]!;
  return out;
}

function modes(apis: Apis): Mode[] {
  const s = apis.fourfold?.serpent;
  const p = apis.fourfold?.parallel?.serpent;
  const m = apis.mipher;
  const NOPAD = { disablePadding: true };
  // mipher's ECB is its bare block cipher, block by block.
  const mipherEcb = m && {
    cipher: new m.Serpent(),
    encrypt(key: Uint8Array, data: Uint8Array) {
      const out = new Uint8Array(data.length);
      for (let i = 0; i < data.length; i += 16) out.set(this.cipher.encrypt(key, data.subarray(i, i + 16)), i);
      return out;
    },
    decrypt(key: Uint8Array, data: Uint8Array) {
      const out = new Uint8Array(data.length);
      for (let i = 0; i < data.length; i += 16) out.set(this.cipher.decrypt(key, data.subarray(i, i + 16)), i);
      return out;
    },
  };
  return [
    { name: 'ctr', fourfold: s && ((key, iv) => s.ctr(key, iv)), parallel: p && ((key, iv) => p.ctr(key, iv)), mipher: m && new m.Serpent_CTR() },
    { name: 'cbc', fourfold: s && ((key, iv) => s.cbc(key, iv, NOPAD)), parallel: p && ((key, iv) => p.cbc(key, iv, NOPAD)), mipher: m && new m.Serpent_CBC() },
    { name: 'ecb', fourfold: s && ((key) => s.ecb(key, NOPAD)), parallel: p && ((key) => p.ecb(key, NOPAD)), mipher: mipherEcb },
  ];
}

export function serpentOps(apis: Apis): OpDefinition<unknown>[] {
  const ops: OpDefinition<unknown>[] = [];
  for (const mode of modes(apis)) {
    // The nonce inputs of the AEADs, with the IV as the nonce.
    const plain = (shape: Shape): Inputs => nonceInputs('serpent', shape, 16);
    const takesSize = (size: number) => mode.name === 'ctr' || size % 16 === 0;
    // Encrypted by fourfold (mipher would take minutes for a million keys); the
    // cross-check of the encrypt op compares the two. Without fourfold, the
    // plaintext stands in: the decrypt op then has no reference to differ from.
    const make = mode.fourfold;
    const encryptedInputs = (shape: Shape): EncryptedInputs =>
      sealedInputs(plain(shape), (message, iv, key) => (make !== undefined ? make(key, iv).encrypt(message) : message), 0);

    const encrypt: OpEntry<Inputs>[] = [];
    const decrypt: OpEntry<EncryptedInputs>[] = [];
    /**
     * One library's entries in both directions: `bind(inputs, messages)`
     * returns the call for key k on messages[k] (the plaintext for every
     * key to encrypt; the per-key ciphertexts to decrypt).
     */
    const both = (
      library: string,
      bind: (i: Inputs, messages: (k: number) => Uint8Array, direction: 'encrypt' | 'decrypt') => (k: number) => ReturnType<Call>,
      refuses?: (shape: Shape) => string | undefined,
    ) => {
      encrypt.push({ library, refuses, bind: perKey((i: Inputs) => bind(i, () => i.message, 'encrypt')) });
      decrypt.push({ library, refuses, bind: perKey((i: EncryptedInputs) => bind(i, (k) => i.sealed[k]!, 'decrypt')) });
    };
    if (make !== undefined) {
      for (const library of ['fourfold', 'fourfold-js'])
        both(
          library,
          ({ keys, nonce: iv }, m, d) =>
            (k) =>
              make(keys[k]!, iv)[d](m(k)),
        );
      both('fourfold (output)', ({ keys, nonce: iv, shape }, m, d) => {
        const out = outputBuffer(shape.size, shape);
        return (k) => make(keys[k]!, iv)[d](m(k), out);
      });
    }
    const parallel = mode.parallel;
    if (parallel !== undefined) {
      both(
        PARALLEL,
        ({ keys, nonce: iv }, m, d) =>
          (k) =>
            parallel(keys[k]!, iv)[d](m(k)),
      );
      both(PARALLEL_REUSED, ({ keys, nonce: iv, shape }, m, d) => {
        const out = reusedBuffer(shape.size, shape);
        return (k) => parallel(keys[k]!, iv)[d](m(k), out);
      });
      if (hasSharedMemory()) {
        both(PARALLEL_SHARED, ({ keys, nonce: iv, shape }, m, d) => {
          const inputs = keys.map((_, k) => sharedBuffer(shape.size, shape, m(k)));
          const out = sharedBuffer(shape.size, shape);
          return (k) => parallel(keys[k]!, iv)[d](inputs[k]!, out);
        });
      }
    }
    const peer = mode.mipher;
    if (peer !== undefined) {
      const bind = ({ keys, nonce: iv, shape }: Inputs, m: (k: number) => Uint8Array, d: 'encrypt' | 'decrypt') => {
        const reversedKeys = keys.map((key) => reverseBlocks(key, key.length));
        const reversedIv = reverseBlocks(iv);
        if (shape.size % 16 === 0) return (k: number) => reverseBlocks(peer[d](reversedKeys[k]!, reverseBlocks(m(k)), reversedIv));
        // Only CTR takes a partial block. It XORs a keystream: a zero-padded
        // last block, cut back, gives any length.
        const padded = new Uint8Array(shape.size + 16 - (shape.size % 16));
        return (k: number) => {
          padded.set(m(k));
          return reverseBlocks(peer[d](reversedKeys[k]!, reverseBlocks(padded), reversedIv)).subarray(0, shape.size);
        };
      };
      both('mipher', bind, (shape) => (shape.size === 0 ? 'mipher takes no empty message' : undefined));
    }
    ops.push(defineOp<Inputs>({ op: `serpent-${mode.name}-encrypt`, inputs: plain, takesSize, entries: encrypt }));
    ops.push(defineOp<EncryptedInputs>({ op: `serpent-${mode.name}-decrypt`, inputs: encryptedInputs, takesSize, entries: decrypt }));
  }
  return ops;
}
