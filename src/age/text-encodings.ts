/**
 * The two text encodings of age: Bech32 (BIP 173) for its keys, with no
 * length limit (age's post-quantum keys are 1,900 characters and more),
 * and canonical unpadded base64 (RFC 4648 §4 and §3.5) for its header's
 * stanzas. fourfold's own, in @scure/base's call shapes (bech32.decode,
 * encode, toWords, fromWords; base64nopad), which age's code used: that
 * module builds every codec it has as it loads, some 5 ms of CPU time of
 * each `fourfold age` run (Node 20). test/age/text-encodings.test.ts
 * holds the two to the same answers.
 *
 * Neither is constant-time, as @scure/base's is not: a key's characters
 * index tables here as there.
 */

/** Bech32's 32 characters, by value (BIP 173). */
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
/** BIP 173's generator of the checksum's BCH code. */
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const;
/** A character's value by its code (below 128), or -1. */
const VALUE_OF: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let v = 0; v < 32; v++) table[CHARSET.charCodeAt(v)] = v;
  return table;
})();

/** One step of BIP 173's polymod: the checksum state `chk` after value `v`. */
function step(chk: number, v: number): number {
  const top = chk >>> 25;
  let next = ((chk & 0x1ffffff) << 5) ^ v;
  for (let i = 0; i < 5; i++) if ((top >>> i) & 1) next ^= GENERATOR[i]!;
  return next;
}

/** The six checksum characters of `prefix` (lower case) and `words` (BIP 173: the prefix's high bits, 0, its low bits, the words, six zeros; xor 1). */
function checksum(prefix: string, words: readonly number[]): string {
  let chk = 1;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    if (c < 33 || c > 126) throw new Error('a Bech32 prefix is printable ASCII');
    chk = step(chk, c >> 5);
  }
  chk = step(chk, 0);
  for (let i = 0; i < prefix.length; i++) chk = step(chk, prefix.charCodeAt(i) & 31);
  for (const w of words) chk = step(chk, w);
  for (let i = 0; i < 6; i++) chk = step(chk, 0);
  chk ^= 1;
  let text = '';
  for (let i = 0; i < 6; i++) text += CHARSET[(chk >>> (5 * (5 - i))) & 31];
  return text;
}

/** `bits`-bit groups of `from`'s `fromBits`-bit values, high bits first; the last group padded with zeros, or (strict) refused when its padding is a whole input value or not zeros. */
function regroup(from: ArrayLike<number>, fromBits: number, bits: number, strict: boolean): number[] {
  const out: number[] = [];
  const mask = (1 << bits) - 1;
  let carry = 0;
  let held = 0;
  for (let i = 0; i < from.length; i++) {
    const v = from[i]!;
    if (!Number.isInteger(v) || v < 0 || v >> fromBits !== 0) throw new Error(`not a ${fromBits}-bit value: ${v}`);
    carry = ((carry << fromBits) | v) & 0xffff;
    held += fromBits;
    for (; held >= bits; held -= bits) out.push((carry >> (held - bits)) & mask);
  }
  if (!strict) {
    if (held > 0) out.push((carry << (bits - held)) & mask);
    return out;
  }
  if (held >= fromBits) throw new Error('excess padding');
  if (((carry << (bits - held)) & mask) !== 0) throw new Error('non-zero padding');
  return out;
}

/** Bech32 as age writes its keys. */
export const bech32 = {
  /** `prefix` and `words` (5-bit values) as Bech32, in lower case. `_limit`: none (false, as age's keys are longer than BIP 173's 90). */
  encode(prefix: string, words: readonly number[], _limit: false): string {
    if (prefix.length === 0) throw new Error('a Bech32 prefix is not empty');
    const lower = prefix.toLowerCase();
    regroup(words, 5, 5, false);
    return `${lower}1${words.map((w) => CHARSET[w]).join('')}${checksum(lower, words)}`;
  },
  /**
   * The prefix (lower case) and the words of Bech32 `text`, in one case
   * (upper or lower), its checksum verified; else an Error. `_limit`: none.
   */
  decode(text: string, _limit: false): { prefix: string; words: number[] } {
    if (typeof text !== 'string' || text.length < 8) throw new Error('too short for Bech32');
    // Printable ASCII only, before any change of case: U+212A (the Kelvin sign) is a 'k' in lower case.
    if (!/^[\x21-\x7e]*$/.test(text)) throw new Error('Bech32 is printable ASCII');
    const lower = text.toLowerCase();
    if (text !== lower && text !== text.toUpperCase()) throw new Error('Bech32 is in one case');
    const separator = lower.lastIndexOf('1');
    if (separator < 1 || lower.length - separator - 1 < 6) throw new Error('no Bech32 separator before a checksum');
    const prefix = lower.slice(0, separator);
    const values: number[] = [];
    for (let i = separator + 1; i < lower.length; i++) {
      const c = lower.charCodeAt(i);
      const v = c < 128 ? VALUE_OF[c]! : -1;
      if (v < 0) throw new Error('not a Bech32 character');
      values.push(v);
    }
    const words = values.slice(0, -6);
    if (checksum(prefix, words) !== lower.slice(-6)) throw new Error('the Bech32 checksum does not verify');
    return { prefix, words };
  },
  /** Bytes as 5-bit words, the last padded with zeros. */
  toWords: (bytes: Uint8Array): number[] => regroup(bytes, 8, 5, false),
  /** 5-bit words as bytes, refusing padding of a whole word or of bits that are not zeros. */
  fromWords: (words: readonly number[]): Uint8Array => Uint8Array.from(regroup(words, 5, 8, true)),
};

/** The 64 characters of base64, by value (RFC 4648 §4). */
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let v = 0; v < 64; v++) table[BASE64.charCodeAt(v)] = v;
  return table;
})();

/** Canonical base64 without padding: encoded so, and decoded only so (no '=', no other character, no length of 4n + 1, the unused bits zeros). */
export const base64nopad = {
  encode(bytes: Uint8Array): string {
    let text = '';
    for (const v of regroup(bytes, 8, 6, false)) text += BASE64[v];
    return text;
  },
  decode(text: string): Uint8Array {
    const values = new Array<number>(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const v = c < 128 ? BASE64_VALUE[c]! : -1;
      if (v < 0) throw new Error('not a base64 character');
      values[i] = v;
    }
    return Uint8Array.from(regroup(values, 6, 8, true));
  },
};
