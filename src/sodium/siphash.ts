/**
 * SipHash-2-4 (crypto_shorthash: a 64-bit tag) and libsodium's 128-bit
 * variant (crypto_shorthash_siphashx24), over 64-bit words held as 32-bit
 * halves: no branch, table or BigInt on the key or the data.
 */

/** The four 64-bit state words, each as [low, high] halves in one array: v0 = s[0..1], v1 = s[2..3], ... */
type State = Uint32Array;

const word = (b: Uint8Array, i: number): number => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);

/** Eight zero bytes: absorbing them is `rounds` SipRounds alone (v3 ^= 0, v0 ^= 0), as the finalization takes. */
const NO_WORD = /*#__PURE__*/ new Uint8Array(8);

/**
 * Absorbs the 64-bit words of m[from..to) (to - from a multiple of 8):
 * for each word m, v3 ^= m, SipRound `rounds` times, v0 ^= m. A SipRound
 * is v0 += v1, v1 <<<= 13, v1 ^= v0, v0 <<<= 32; v2 += v3, v3 <<<= 16,
 * v3 ^= v2; v0 += v3, v3 <<<= 21, v3 ^= v0; v2 += v1, v1 <<<= 17,
 * v1 ^= v2, v2 <<<= 32. A 64-bit sum takes the carry out of the low
 * halves from their top bits (no comparison); a rotation by 32 swaps the
 * halves. The state stays in locals for the whole range, not in an
 * array touched by a call per step, which cost several times the time.
 */
function absorb(s: State, m: Uint8Array, from: number, to: number, rounds: number): void {
  let v0l = s[0] | 0;
  let v0h = s[1] | 0;
  let v1l = s[2] | 0;
  let v1h = s[3] | 0;
  let v2l = s[4] | 0;
  let v2h = s[5] | 0;
  let v3l = s[6] | 0;
  let v3h = s[7] | 0;
  for (let i = from; i < to; i += 8) {
    const ml = word(m, i);
    const mh = word(m, i + 4);
    v3l ^= ml;
    v3h ^= mh;
    for (let r = 0; r < rounds; r++) {
      let lo = (v0l + v1l) | 0;
      v0h = (v0h + v1h + (((v0l & v1l) | ((v0l | v1l) & ~lo)) >>> 31)) | 0;
      v0l = lo;
      let t = v1l;
      v1l = ((t << 13) | (v1h >>> 19)) ^ v0l;
      v1h = ((v1h << 13) | (t >>> 19)) ^ v0h;
      t = v0l;
      v0l = v0h;
      v0h = t;
      lo = (v2l + v3l) | 0;
      v2h = (v2h + v3h + (((v2l & v3l) | ((v2l | v3l) & ~lo)) >>> 31)) | 0;
      v2l = lo;
      t = v3l;
      v3l = ((t << 16) | (v3h >>> 16)) ^ v2l;
      v3h = ((v3h << 16) | (t >>> 16)) ^ v2h;
      lo = (v0l + v3l) | 0;
      v0h = (v0h + v3h + (((v0l & v3l) | ((v0l | v3l) & ~lo)) >>> 31)) | 0;
      v0l = lo;
      t = v3l;
      v3l = ((t << 21) | (v3h >>> 11)) ^ v0l;
      v3h = ((v3h << 21) | (t >>> 11)) ^ v0h;
      lo = (v2l + v1l) | 0;
      v2h = (v2h + v1h + (((v2l & v1l) | ((v2l | v1l) & ~lo)) >>> 31)) | 0;
      v2l = lo;
      t = v1l;
      v1l = ((t << 17) | (v1h >>> 15)) ^ v2l;
      v1h = ((v1h << 17) | (t >>> 15)) ^ v2h;
      t = v2l;
      v2l = v2h;
      v2h = t;
    }
    v0l ^= ml;
    v0h ^= mh;
  }
  s[0] = v0l;
  s[1] = v0h;
  s[2] = v1l;
  s[3] = v1h;
  s[4] = v2l;
  s[5] = v2h;
  s[6] = v3l;
  s[7] = v3h;
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
  absorb(s, message, 0, whole, 2);
  // The last word: the remaining bytes, and the length's low byte at the top.
  const last = new Uint8Array(8);
  last.set(message.subarray(whole));
  last[7] = message.length & 0xff;
  absorb(s, last, 0, 8, 2);
  last.fill(0);
  const out = new Uint8Array(wide ? 16 : 8);
  s[4] ^= wide ? 0xee : 0xff;
  absorb(s, NO_WORD, 0, 8, 4);
  emit(s, out, 0);
  if (wide) {
    s[2] ^= 0xdd;
    absorb(s, NO_WORD, 0, 8, 4);
    emit(s, out, 8);
  }
  s.fill(0);
  return out;
}
