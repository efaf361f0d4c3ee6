/**
 * Blowfish (Schneier, 1993) with EksBlowfish's expandable key schedule
 * (Provos and Mazieres, "A Future-Adaptable Password Scheme", 1999): what
 * bcrypt (bcrypt.ts) and OpenSSH's bcrypt_pbkdf (src/age/bcrypt-pbkdf.ts)
 * are made of, as OpenBSD's blowfish.c computes them.
 *
 * Blowfish's initial P-array and S-boxes are the hexadecimal digits of
 * pi's fractional part, computed here once (Machin's formula in BigInt)
 * rather than written out as 1,042 constants. Blowfish indexes its
 * S-boxes by key-dependent bytes: a password is not constant-time here,
 * as in every bcrypt; the work factor is what protects it.
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

/** Blowfish's state: P in words 0..17, the S-boxes after; signed words, which V8 keeps as small integers (unsigned ones above 2^31 are doubles). */
export type BlowfishState = Int32Array;

/** A fresh state: the digits of pi (computed on first use). */
export function initialState(): BlowfishState {
  piWords ??= piFraction(STATE_WORDS);
  return new Int32Array(piWords);
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
export function blowfishEncrypt(s: BlowfishState, block: Int32Array | Uint32Array, i: number): void {
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
export function streamWord(data: Uint8Array, at: { i: number }): number {
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
export function blowfishExpand(s: BlowfishState, key: Uint8Array, data?: Uint8Array): void {
  const keyAt = { i: 0 };
  for (let n = 0; n < P_WORDS; n++) s[n] = s[n]! ^ streamWord(key, keyAt);
  const dataAt = { i: 0 };
  let l = 0;
  let r = 0;
  for (let n = 0; n < STATE_WORDS; n += 2) {
    if (data !== undefined) {
      l ^= streamWord(data, dataAt);
      r ^= streamWord(data, dataAt);
    }
    // blowfishEncrypt on (l, r), in locals: this loop is bcrypt's time.
    l ^= s[0]!;
    for (let k = 1; k <= 16; k += 2) {
      r ^= f(s, l) ^ s[k]!;
      l ^= f(s, r) ^ s[k + 1]!;
    }
    const last = r ^ s[17]!;
    r = l;
    l = last;
    s[n] = l;
    s[n + 1] = r;
  }
}
