/**
 * An independent Serpent for differential tests: mipher's block cipher
 * (a different implementation, from npm) under the modes written here
 * straight from NIST SP 800-38A, with a BigInt counter for CTR and
 * PKCS#7 padding from RFC 5652 §6.3.
 *
 * mipher keeps the AES-submission reference code's byte order, the
 * reverse of NESSIE's (which fourfold uses): key, block in and block out
 * are reversed around it. The NESSIE vectors check that this adapter is
 * right (vectors.test.ts).
 */
import { Serpent } from 'mipher';

const cipher = new Serpent();
const reversed = (b: Uint8Array): Uint8Array => Uint8Array.from(b).reverse();

export function refEncryptBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  return reversed(cipher.encrypt(reversed(key), reversed(block)));
}

export function refDecryptBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  return reversed(cipher.decrypt(reversed(key), reversed(block)));
}

export function pkcs7(data: Uint8Array): Uint8Array {
  const pad = 16 - (data.length % 16);
  const out = new Uint8Array(data.length + pad).fill(pad);
  out.set(data);
  return out;
}

const xor16 = (a: Uint8Array, b: Uint8Array): Uint8Array => a.map((v, i) => v ^ b[i]!);

/** ECB or, with an IV, CBC encryption of whole blocks (pad first with pkcs7 for padded modes). */
export function refEncrypt(key: Uint8Array, iv: Uint8Array | undefined, blocks: Uint8Array): Uint8Array {
  const out = new Uint8Array(blocks.length);
  let chain = iv;
  for (let i = 0; i < blocks.length; i += 16) {
    const p = blocks.subarray(i, i + 16);
    const c = refEncryptBlock(key, chain === undefined ? p : xor16(p, chain));
    out.set(c, i);
    if (chain !== undefined) chain = c;
  }
  return out;
}

export function refDecrypt(key: Uint8Array, iv: Uint8Array | undefined, blocks: Uint8Array): Uint8Array {
  const out = new Uint8Array(blocks.length);
  let chain = iv;
  for (let i = 0; i < blocks.length; i += 16) {
    const c = blocks.subarray(i, i + 16);
    const d = refDecryptBlock(key, c);
    out.set(chain === undefined ? d : xor16(d, chain), i);
    if (chain !== undefined) chain = c.slice();
  }
  return out;
}

export const TWO128 = 1n << 128n;

export function counterBlock(n: bigint): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 15, v = n; i >= 0; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

export function counterValue(block: Uint8Array): bigint {
  let n = 0n;
  for (const b of block) n = (n << 8n) | BigInt(b);
  return n;
}

/** CTR (SP 800-38A §6.5, §B.1): the IV block a 128-bit big-endian counter, wrapping at 2^128. */
export function refCtr(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  let n = counterValue(iv);
  for (let i = 0; i < data.length; i += 16) {
    const ks = refEncryptBlock(key, counterBlock(n));
    for (let j = 0; j < 16 && i + j < data.length; j++) out[i + j] = data[i + j]! ^ ks[j]!;
    n = (n + 1n) % TWO128;
  }
  return out;
}
