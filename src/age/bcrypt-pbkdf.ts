/**
 * bcrypt_pbkdf, the KDF of OpenSSH's passphrase-protected keys (OpenBSD
 * bcrypt_pbkdf.c; PROTOCOL.key): PBKDF2's structure with a bcrypt-like
 * hash of SHA-512(passphrase) and SHA-512(salt || counter), each output
 * byte spread across the key with a stride. The hash is Blowfish
 * (Schneier, 1993) set up with EksBlowfish's expensive key schedule and
 * run over "OxychromaticBlowfishSwatDynamite".
 *
 * Blowfish's initial P-array and S-boxes are the hexadecimal digits of
 * pi's fractional part, computed here once (Machin's formula in BigInt)
 * rather than written out as 1,042 constants. SHA-512 is the platform's
 * (WebCrypto). Blowfish indexes its S-boxes by key-dependent bytes: a
 * passphrase is not constant-time here, as in every bcrypt; the work
 * factor is what protects it.
 */

/** Words of Blowfish's state: the P-array (18) and four S-boxes (256 each). */
const P_WORDS = 18;
const STATE_WORDS = P_WORDS + 4 * 256;

let piWords: Uint32Array | undefined;

/** arctan(1/x) scaled by 2^bits, its series summed until its terms vanish. */
function arctanInverse(x: bigint, bits: bigint): bigint {
  const x2 = x * x;
  let power = (1n << bits) / x;
  let sum = 0n;
  for (let k = 1n; power !== 0n; k += 2n) {
    sum += (k & 2n ? -power : power) / k;
    power /= x2;
  }
  return sum;
}

/** The first `words` 32-bit words of pi's fractional part (0x243f6a88, 0x85a308d3, ...): Blowfish's initial state. */
function piFraction(words: number): Uint32Array {
  const guard = 64n;
  const bits = BigInt(words * 32) + guard;
  // Machin: pi = 16 arctan(1/5) - 4 arctan(1/239).
  const pi = 16n * arctanInverse(5n, bits) - 4n * arctanInverse(239n, bits);
  let fraction = (pi >> guard) & ((1n << BigInt(words * 32)) - 1n);
  const out = new Uint32Array(words);
  for (let i = words - 1; i >= 0; i--) {
    out[i] = Number(fraction & 0xffffffffn);
    fraction >>= 32n;
  }
  return out;
}

/** Blowfish's state: P in words 0..17, the S-boxes after. */
type BlowfishState = Uint32Array;

function initialState(): BlowfishState {
  piWords ??= piFraction(STATE_WORDS);
  return piWords.slice();
}

/** Blowfish's F: ((S0[a] + S1[b]) ^ S2[c]) + S3[d] over the bytes of x, high first. */
function f(s: BlowfishState, x: number): number {
  // constant-time exception (secret-index) for x: Blowfish's S-boxes are looked up by the bytes of x, as in every bcrypt (see above).
  const a = s[P_WORDS + (x >>> 24)]!;
  const b = s[P_WORDS + 256 + ((x >>> 16) & 0xff)]!;
  const c = s[P_WORDS + 512 + ((x >>> 8) & 0xff)]!;
  const d = s[P_WORDS + 768 + (x & 0xff)]!;
  return ((((a + b) | 0) ^ c) + d) | 0;
}

/** Encrypts the block (block[i], block[i + 1]) in place: 16 Feistel rounds. */
function blowfishEncrypt(s: BlowfishState, block: Uint32Array, i: number): void {
  let l = block[i]! ^ s[0]!;
  let r = block[i + 1]!;
  for (let n = 1; n <= 16; n += 2) {
    r ^= f(s, l) ^ s[n]!;
    l ^= f(s, r) ^ s[n + 1]!;
  }
  block[i] = r ^ s[17]!;
  block[i + 1] = l;
}

/** The next big-endian 32-bit word of `data`, read cyclically from `at.i` (Blowfish_stream2word). */
function streamWord(data: Uint8Array, at: { i: number }): number {
  let word = 0;
  for (let k = 0; k < 4; k++) {
    word = (word << 8) | data[at.i]!;
    at.i = (at.i + 1) % data.length;
  }
  return word;
}

/**
 * Blowfish_expandstate (with `data`) and Blowfish_expand0state (without):
 * P xored with the key's words, then every word of the state replaced by
 * a chain of encryptions, each block first xored with `data`'s next words.
 */
function blowfishExpand(s: BlowfishState, key: Uint8Array, data?: Uint8Array): void {
  const keyAt = { i: 0 };
  for (let n = 0; n < P_WORDS; n++) s[n] = s[n]! ^ streamWord(key, keyAt);
  const dataAt = { i: 0 };
  const block = new Uint32Array(2);
  for (let n = 0; n < STATE_WORDS; n += 2) {
    if (data !== undefined) {
      block[0] = block[0]! ^ streamWord(data, dataAt);
      block[1] = block[1]! ^ streamWord(data, dataAt);
    }
    blowfishEncrypt(s, block, 0);
    s[n] = block[0]!;
    s[n + 1] = block[1]!;
  }
}

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
