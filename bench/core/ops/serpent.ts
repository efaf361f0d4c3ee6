/**
 * Serpent in NIST SP 800-38A's CTR, CBC and ECB, without padding (CBC and
 * ECB whole blocks only). The decrypt ops' inputs are fourfold's (mipher
 * would take minutes). mipher keeps the AES-submission code's byte order,
 * the reverse of NESSIE's that fourfold uses: its key, IV and every block
 * are reversed around the call (a fraction of a percent of its time), and
 * CTR at other lengths is zero-padded to a block and cut back.
 */
import type { Apis } from '../libraries.js';
import { aead, type Cipher, cipherOps, type Inputs, ours, pooled } from './table.js';
import type { OpDefinition, OpEntry } from './types.js';

/** mipher's cipher of a mode, taking (key, data, iv). */
interface Mipher {
  encrypt(key: Uint8Array, data: Uint8Array, iv?: Uint8Array): Uint8Array;
  decrypt(key: Uint8Array, data: Uint8Array, iv?: Uint8Array): Uint8Array;
}

/** Each 16-byte block of `b` reversed (the whole of a key or IV). */
function reverseBlocks(b: Uint8Array, size = 16): Uint8Array {
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i += size) for (let j = 0; j < size && i + j < b.length; j++) out[i + j] = b[Math.min(i + size, b.length) - 1 - j]!;
  return out;
}

/** mipher's entry for one direction, on the plaintext or the ciphertext. */
function mipherEntry(peer: Mipher, d: keyof Cipher): OpEntry<Inputs> {
  return {
    library: 'mipher',
    refuses: (shape) => (shape.size === 0 ? 'mipher takes no empty message' : undefined),
    bind: ({ key, nonce: iv, shape, message, sealed }) => {
      const data = sealed ?? message;
      const reversedKey = reverseBlocks(key, key.length);
      const reversedIv = reverseBlocks(iv);
      if (shape.size % 16 === 0) return () => reverseBlocks(peer[d](reversedKey, reverseBlocks(data), reversedIv));
      // Only CTR takes a partial block. It XORs a keystream: a zero-padded last block, cut back, gives any length.
      const padded = new Uint8Array(shape.size + 16 - (shape.size % 16));
      return () => {
        padded.set(data);
        return reverseBlocks(peer[d](reversedKey, reverseBlocks(padded), reversedIv)).subarray(0, shape.size);
      };
    },
  };
}

/** A mode of fourfold's (or fourfold/parallel's) serpent module: built for a key and IV, then one call, as an AEAD is (table.ts aead). */
type Mode = Parameters<typeof aead>[0];
const cipherOf = (mode: Mode | undefined): Cipher | undefined => mode && aead(mode);

export function serpentOps(apis: Apis): OpDefinition<unknown>[] {
  const s = apis.fourfold?.serpent;
  const p = apis.fourfold?.parallel?.serpent;
  const m = apis.mipher;
  const NOPAD = { disablePadding: true };
  // mipher's ECB is its bare block cipher, block by block.
  const blocks = (cipher: { encrypt(key: Uint8Array, block: Uint8Array): Uint8Array; decrypt(key: Uint8Array, block: Uint8Array): Uint8Array }): Mipher => {
    const each = (d: 'encrypt' | 'decrypt') => (key: Uint8Array, data: Uint8Array) => {
      const out = new Uint8Array(data.length);
      for (let i = 0; i < data.length; i += 16) out.set(cipher[d](key, data.subarray(i, i + 16)), i);
      return out;
    };
    return { encrypt: each('encrypt'), decrypt: each('decrypt') };
  };
  const modes = [
    ['ctr', s && ((key, iv) => s.ctr(key, iv)), p && ((key, iv) => p.ctr(key, iv)), m && new m.Serpent_CTR()],
    ['cbc', s && ((key, iv) => s.cbc(key, iv, NOPAD)), p && ((key, iv) => p.cbc(key, iv, NOPAD)), m && new m.Serpent_CBC()],
    ['ecb', s && ((key) => s.ecb(key, NOPAD)), p && ((key) => p.ecb(key, NOPAD)), m && blocks(new m.Serpent())],
  ] as const satisfies readonly (readonly [string, Mode | undefined, Mode | undefined, Mipher | undefined])[];
  return modes.flatMap(([name, ourMode, poolMode, peer]) => {
    const ourCipher = cipherOf(ourMode);
    return cipherOps(`serpent-${name}`, 16, ourCipher, [...ours(ourCipher), ...pooled(cipherOf(poolMode))], {
      label: 'serpent',
      overhead: 0,
      takesSize: (size) => name === 'ctr' || size % 16 === 0,
      encrypt: peer ? [mipherEntry(peer, 'encrypt')] : [],
      decrypt: peer ? [mipherEntry(peer, 'decrypt')] : [],
    });
  });
}
