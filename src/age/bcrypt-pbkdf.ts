/**
 * bcrypt_pbkdf, the KDF of OpenSSH's passphrase-protected keys (OpenBSD
 * bcrypt_pbkdf.c; PROTOCOL.key): PBKDF2's structure with a bcrypt-like
 * hash of SHA-512(passphrase) and SHA-512(salt || counter), each output
 * byte spread across the key with a stride. The hash is Blowfish set up
 * with EksBlowfish's expensive key schedule (src/bcrypt/blowfish.ts) and
 * run over "OxychromaticBlowfishSwatDynamite". SHA-512 is the platform's
 * (WebCrypto).
 */
import { blowfishEncrypt, blowfishExpand, initialState, streamWord } from '../bcrypt/blowfish.js';

const MAGIC = new TextEncoder().encode('OxychromaticBlowfishSwatDynamite');

/** bcrypt_hash: 32 bytes from SHA-512 digests of the passphrase and the salt. */
function bcryptHash(sha2pass: Uint8Array, sha2salt: Uint8Array): Uint8Array {
  const s = initialState();
  blowfishExpand(s, sha2pass, sha2salt);
  for (let i = 0; i < 64; i++) {
    blowfishExpand(s, sha2salt);
    blowfishExpand(s, sha2pass);
  }
  const data = new Uint32Array(8);
  const at = { i: 0 };
  for (let i = 0; i < 8; i++) data[i] = streamWord(MAGIC, at);
  for (let round = 0; round < 64; round++) for (let i = 0; i < 8; i += 2) blowfishEncrypt(s, data, i);
  s.fill(0);
  // Each word written little-endian, as OpenBSD's bcrypt_hash does.
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) view.setUint32(4 * i, data[i]!, true);
  data.fill(0);
  return out;
}

/** SHA-512 on the platform (WebCrypto), of a copy it may keep (wiped after). */
async function sha512(bytes: Uint8Array): Promise<Uint8Array> {
  const copy = bytes.slice();
  try {
    return new Uint8Array(await crypto.subtle.digest('SHA-512', copy));
  } finally {
    copy.fill(0);
  }
}

/** The largest rounds count a key file may ask for: 128 times ssh-keygen's default of 16, a few seconds. */
export const MAX_ROUNDS = 2048;

/**
 * `length` bytes of bcrypt_pbkdf(passphrase, salt, rounds): each 32-byte
 * block is `rounds` chained bcrypt hashes xored together, and output byte
 * i of block `count` lands at i * stride + count - 1.
 */
export async function bcryptPbkdf(passphrase: Uint8Array, salt: Uint8Array, rounds: number, length: number): Promise<Uint8Array> {
  const sha2pass = await sha512(passphrase);
  const stride = Math.ceil(length / 32);
  const perBlock = Math.ceil(length / stride);
  const key = new Uint8Array(length);
  const countSalt = new Uint8Array(salt.length + 4);
  countSalt.set(salt);
  try {
    for (let count = 1; count <= stride; count++) {
      new DataView(countSalt.buffer).setUint32(salt.length, count);
      let hashed = bcryptHash(sha2pass, await sha512(countSalt));
      const block = hashed.slice();
      for (let r = 1; r < rounds; r++) {
        const next = bcryptHash(sha2pass, await sha512(hashed));
        hashed.fill(0);
        hashed = next;
        for (let i = 0; i < 32; i++) block[i]! ^= hashed[i]!;
      }
      hashed.fill(0);
      for (let i = 0; i < perBlock; i++) {
        const at = i * stride + count - 1;
        if (at >= length) break;
        key[at] = block[i]!;
      }
      block.fill(0);
    }
    return key;
  } finally {
    sha2pass.fill(0);
  }
}
