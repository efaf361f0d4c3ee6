/**
 * SipHash-2-4 (crypto_shorthash: a 64-bit tag) and libsodium's 128-bit
 * variant (crypto_shorthash_siphashx24), over 64-bit words held as 32-bit
 * halves: no branch, table or BigInt on the key or the data.
 */

/** The four 64-bit state words, each as [low, high] halves in one array: v0 = s[0..1], v1 = s[2..3], ... */
type State = Uint32Array;

/** s[a] += s[b] (64-bit, halves at a and a + 1). */
function add(s: State, a: number, b: number): void {
  const x = s[a];
  const y = s[b];
  const lo = (x + y) >>> 0;
  // The carry out of the low halves, from their top bits: no comparison.
  const carry = ((x & y) | ((x | y) & ~lo)) >>> 31;
  s[a + 1] = (s[a + 1] + s[b + 1] + carry) >>> 0;
  s[a] = lo;
}

/** s[a] = rotl64(s[a], n), for 0 < n < 32, or 32 (a swap of the halves). */
function rotl(s: State, a: number, n: number): void {
  const lo = s[a];
  const hi = s[a + 1];
  if (n === 32) {
    s[a] = hi;
    s[a + 1] = lo;
  } else {
    s[a] = ((lo << n) | (hi >>> (32 - n))) >>> 0;
    s[a + 1] = ((hi << n) | (lo >>> (32 - n))) >>> 0;
  }
}

/** s[a] ^= s[b]. */
function xor(s: State, a: number, b: number): void {
  s[a] ^= s[b];
  s[a + 1] ^= s[b + 1];
}

/** SipRound, `rounds` times. */
function sipRounds(s: State, rounds: number): void {
  for (let r = 0; r < rounds; r++) {
    add(s, 0, 2);
    rotl(s, 2, 13);
    xor(s, 2, 0);
    rotl(s, 0, 32);
    add(s, 4, 6);
    rotl(s, 6, 16);
    xor(s, 6, 4);
    add(s, 0, 6);
    rotl(s, 6, 21);
    xor(s, 6, 0);
    add(s, 4, 2);
    rotl(s, 2, 17);
    xor(s, 2, 4);
    rotl(s, 4, 32);
  }
}

const word = (b: Uint8Array, i: number): number => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;

/** One message word m = (lo, hi): v3 ^= m, two rounds, v0 ^= m. */
function absorb(s: State, lo: number, hi: number): void {
  s[6] ^= lo;
  s[7] ^= hi;
  sipRounds(s, 2);
  s[0] ^= lo;
  s[1] ^= hi;
}

/** v0 ^ v1 ^ v2 ^ v3 into `out` at `at`, little-endian. */
function emit(s: State, out: Uint8Array, at: number): void {
  const lo = s[0] ^ s[2] ^ s[4] ^ s[6];
  const hi = s[1] ^ s[3] ^ s[5] ^ s[7];
  for (let i = 0; i < 4; i++) {
    out[at + i] = lo >>> (8 * i);
    out[at + 4 + i] = hi >>> (8 * i);
  }
}

/** SipHash-2-4 of `message` under the 16-byte `key`: 8 bytes, or 16 for `wide` (SipHash-2-4 with 128-bit output). */
export function siphash24(message: Uint8Array, key: Uint8Array, wide: boolean): Uint8Array {
  const k0lo = word(key, 0);
  const k0hi = word(key, 4);
  const k1lo = word(key, 8);
  const k1hi = word(key, 12);
  // "somepseudorandomlygeneratedbytes"
  const s: State = new Uint32Array([
    k0lo ^ 0x70736575,
    k0hi ^ 0x736f6d65,
    k1lo ^ 0x6e646f6d,
    k1hi ^ 0x646f7261,
    k0lo ^ 0x6e657261,
    k0hi ^ 0x6c796765,
    k1lo ^ 0x79746573,
    k1hi ^ 0x74656462,
  ]);
  if (wide) s[2] ^= 0xee;
  const whole = message.length - (message.length % 8);
  for (let i = 0; i < whole; i += 8) absorb(s, word(message, i), word(message, i + 4));
  // The last word: the remaining bytes, and the length's low byte at the top.
  const last = new Uint8Array(8);
  last.set(message.subarray(whole));
  last[7] = message.length & 0xff;
  absorb(s, word(last, 0), word(last, 4));
  last.fill(0);
  const out = new Uint8Array(wide ? 16 : 8);
  s[4] ^= wide ? 0xee : 0xff;
  sipRounds(s, 4);
  emit(s, out, 0);
  if (wide) {
    s[2] ^= 0xdd;
    sipRounds(s, 4);
    emit(s, out, 8);
  }
  s.fill(0);
  return out;
}
