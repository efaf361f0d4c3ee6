/**
 * libsodium-wrappers' random bytes for fourfold/sodium: randombytes_buf,
 * randombytes_random,
 * randombytes_uniform (rejection sampling, as libsodium) and
 * randombytes_buf_deterministic (ChaCha20 under the seed, as libsodium).
 */
import { chacha20 } from '../chacha/index.js';
import { format, formatOf, type Out, sized, unsigned, type OutputFormat } from './codecs.js';

const random = (n: number): Uint8Array => {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
};

/** `length` random bytes (crypto.getRandomValues). */
export function randombytes_buf<F extends OutputFormat | null = 'uint8array'>(length: number, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return format(random(unsigned(length, 'length')), outputFormat);
}

/** A uniformly random 32-bit unsigned integer. */
export function randombytes_random(outputFormat?: OutputFormat | null): number {
  formatOf(outputFormat);
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** A uniformly random integer below `upper_bound` (0 for a bound below 2), by rejection sampling. */
export function randombytes_uniform(upper_bound: number, outputFormat?: OutputFormat | null): number {
  formatOf(outputFormat);
  const bound = unsigned(upper_bound, 'upper_bound');
  if (bound < 2) return 0;
  const min = 2 ** 32 % bound;
  const word = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(word);
    if (word[0] >= min) return word[0] % bound;
  }
}

/** The nonce of libsodium's deterministic generator: "LibsodiumDRG". */
const DRG_NONCE = /*#__PURE__*/ new TextEncoder().encode('LibsodiumDRG');

/** `length` bytes determined by the 32-byte `seed` (libsodium's: the ChaCha20 (RFC 8439) keystream under the seed and "LibsodiumDRG"). */
export function randombytes_buf_deterministic<F extends OutputFormat | null = 'uint8array'>(length: number, seed: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const n = unsigned(length, 'length');
  const s = sized(seed, 'seed', 32);
  return format(chacha20(s, DRG_NONCE, new Uint8Array(n)), outputFormat);
}
