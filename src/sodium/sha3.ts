/**
 * crypto_hash_sha3256 and _sha3512 (FIPS 202), and the XOFs crypto_xof_shake128,
 * _shake256 (FIPS 202) and _turboshake128, _turboshake256 (RFC 9861): one-shot,
 * and init (or init_with_domain), update, squeeze, in libsodium-wrappers'
 * shape. Keccak is @noble/hashes' (no kernel of fourfold's computes it).
 */
import { Keccak, sha3_256, sha3_512 } from '@noble/hashes/sha3.js';
import { format, formatOf, type Input, input, type Out, ranged, unsigned, type OutputFormat } from './codecs.js';
import { endState, openState, type State, liveState } from './states.js';

/** libsodium's error for arguments outside what the primitive takes. */
const invalidUsage = (): Error => new Error('invalid usage');

/** crypto_hash_sha3256: output bytes. */
export const crypto_hash_sha3256_BYTES: number = 32;
/** crypto_hash_sha3512: output bytes. */
export const crypto_hash_sha3512_BYTES: number = 64;
/** crypto_xof_shake128: the rate, bytes absorbed per permutation. */
export const crypto_xof_shake128_BLOCKBYTES: number = 168;
/** crypto_xof_shake128: libsodium's state size. */
export const crypto_xof_shake128_STATEBYTES: number = 256;
/** crypto_xof_shake256: the rate, bytes absorbed per permutation. */
export const crypto_xof_shake256_BLOCKBYTES: number = 136;
/** crypto_xof_shake256: libsodium's state size. */
export const crypto_xof_shake256_STATEBYTES: number = 256;
/** crypto_xof_turboshake128: the rate, bytes absorbed per permutation. */
export const crypto_xof_turboshake128_BLOCKBYTES: number = 168;
/** crypto_xof_turboshake128: libsodium's state size. */
export const crypto_xof_turboshake128_STATEBYTES: number = 256;
/** crypto_xof_turboshake256: the rate, bytes absorbed per permutation. */
export const crypto_xof_turboshake256_BLOCKBYTES: number = 136;
/** crypto_xof_turboshake256: libsodium's state size. */
export const crypto_xof_turboshake256_STATEBYTES: number = 256;

/** An incremental SHA-3 or XOF's state, as the _init calls give it: only the calls of its own primitive take it. */
export type Sha3State = State;

interface Sponge {
  hash: Keccak;
  squeezing: boolean;
  destroy(): void;
}

const live = (state: unknown, kind: string): Sponge => liveState<Sponge>(state, kind);

function start(kind: string, hash: Keccak): Sha3State {
  return openState(kind, { hash, squeezing: false, destroy: () => hash.destroy() });
}

/**
 * A domain separation byte, 0 to 255, as libsodium's C calls take any
 * unsigned char and libsodium.js checks the range (a TypeError) after its
 * 0.8.4 release (0.8.4 wraps 256 to 0). FIPS 202's and RFC 9861's
 * suffixes are 0x01 to 0x7f; Keccak's padding takes any byte.
 */
const domainOf = (value: unknown): number => ranged(value, 'domain', 0, 255);

/** One SHA-3 variant's calls. */
function sha3(kind: string, hash: typeof sha3_256) {
  return {
    oneShot: <F>(message: Input, outputFormat?: F): Out<F> => {
      formatOf(outputFormat);
      return format(hash(input(message, 'message')), outputFormat);
    },
    init: (outputFormat?: OutputFormat | null): Sha3State => {
      formatOf(outputFormat);
      return start(kind, hash.create() as Keccak);
    },
    update: (state: Sha3State, chunk: Input, outputFormat?: OutputFormat | null): void => {
      formatOf(outputFormat);
      live(state, kind).hash.update(input(chunk, 'message_chunk'));
    },
    final: <F>(state: Sha3State, outputFormat?: F): Out<F> => {
      formatOf(outputFormat);
      const s = live(state, kind);
      const digest = s.hash.digest();
      endState(state);
      return format(digest, outputFormat);
    },
  };
}

const sha256 = /*#__PURE__*/ sha3('crypto_hash_sha3256', sha3_256);
const sha512 = /*#__PURE__*/ sha3('crypto_hash_sha3512', sha3_512);

/** SHA3-256 of `message`: 32 bytes. */
export const crypto_hash_sha3256 = <F extends OutputFormat | null = 'uint8array'>(message: Input, outputFormat?: F): Out<F> =>
  sha256.oneShot(message, outputFormat);
/** Starts an incremental SHA3-256. */
export const crypto_hash_sha3256_init = (outputFormat?: OutputFormat | null): Sha3State => sha256.init(outputFormat);
/** Adds `message_chunk` to the message. */
export const crypto_hash_sha3256_update = (state_address: Sha3State, message_chunk: Input, outputFormat?: OutputFormat | null): void =>
  sha256.update(state_address, message_chunk, outputFormat);
/** The hash; the state ends here. */
export const crypto_hash_sha3256_final = <F extends OutputFormat | null = 'uint8array'>(state_address: Sha3State, outputFormat?: F): Out<F> =>
  sha256.final(state_address, outputFormat);
/** SHA3-512 of `message`: 64 bytes. */
export const crypto_hash_sha3512 = <F extends OutputFormat | null = 'uint8array'>(message: Input, outputFormat?: F): Out<F> =>
  sha512.oneShot(message, outputFormat);
/** Starts an incremental SHA3-512. */
export const crypto_hash_sha3512_init = (outputFormat?: OutputFormat | null): Sha3State => sha512.init(outputFormat);
/** Adds `message_chunk` to the message. */
export const crypto_hash_sha3512_update = (state_address: Sha3State, message_chunk: Input, outputFormat?: OutputFormat | null): void =>
  sha512.update(state_address, message_chunk, outputFormat);
/** The hash; the state ends here. */
export const crypto_hash_sha3512_final = <F extends OutputFormat | null = 'uint8array'>(state_address: Sha3State, outputFormat?: F): Out<F> =>
  sha512.final(state_address, outputFormat);

/** One XOF's calls; `make(domain)` is its Keccak with that suffix (the standard one where undefined). */
function xof(kind: string, make: (domain?: number) => Keccak) {
  return {
    oneShot: <F>(outLength: number, message: Input, outputFormat?: F): Out<F> => {
      formatOf(outputFormat);
      const n = unsigned(outLength, 'out_length');
      return format(make().update(input(message, 'message')).xof(n), outputFormat);
    },
    init: (outputFormat?: OutputFormat | null): Sha3State => {
      formatOf(outputFormat);
      return start(kind, make());
    },
    /** init_with_domain: the domain is required (null or undefined throws, as in libsodium-wrappers). */
    initWithDomain: (domain: unknown, outputFormat?: OutputFormat | null): Sha3State => {
      formatOf(outputFormat);
      return start(kind, make(domainOf(domain)));
    },
    update: (state: Sha3State, chunk: Input, outputFormat?: OutputFormat | null): void => {
      formatOf(outputFormat);
      const s = live(state, kind);
      const bytes = input(chunk, 'message_chunk');
      // Absorbing after squeezing has begun is outside the XOF's definition: libsodium refuses it too (after the chunk's checks).
      if (s.squeezing) throw invalidUsage();
      s.hash.update(bytes);
    },
    squeeze: <F>(state: Sha3State, outLength: number, outputFormat?: F): Out<F> => {
      formatOf(outputFormat);
      const s = live(state, kind);
      s.squeezing = true;
      return format(s.hash.xof(unsigned(outLength, 'out_length')), outputFormat);
    },
  };
}

/**
 * A Keccak XOF with 0x1F as its suffix by default (FIPS 202's SHAKE, RFC
 * 9861's TurboSHAKE); rate in bytes; 24 rounds (SHAKE) or 12 (TurboSHAKE,
 * RFC 9861 §2.2). Keccak itself, not noble's turboshake, which refuses a D
 * outside 0x01..0x7f that libsodium takes.
 */
const keccakXof = (rate: number, rounds: number) => (domain?: number) => new Keccak(rate, domain ?? 0x1f, 0, true, rounds);
const s128 = /*#__PURE__*/ xof('crypto_xof_shake128', keccakXof(168, 24));
const s256 = /*#__PURE__*/ xof('crypto_xof_shake256', keccakXof(136, 24));
const t128 = /*#__PURE__*/ xof('crypto_xof_turboshake128', keccakXof(168, 12));
const t256 = /*#__PURE__*/ xof('crypto_xof_turboshake256', keccakXof(136, 12));

/** `out_length` bytes of SHAKE128 of `message`. */
export const crypto_xof_shake128 = <F extends OutputFormat | null = 'uint8array'>(out_length: number, message: Input, outputFormat?: F): Out<F> =>
  s128.oneShot(out_length, message, outputFormat);
/** Starts an incremental SHAKE128. */
export const crypto_xof_shake128_init = (outputFormat?: OutputFormat | null): Sha3State => s128.init(outputFormat);
/** Starts an incremental SHAKE128 with its own domain separation byte (0 to 255). */
export const crypto_xof_shake128_init_with_domain = (domain: number, outputFormat?: OutputFormat | null): Sha3State =>
  s128.initWithDomain(domain, outputFormat);
/** Adds `message_chunk` to the message (before the first squeeze). */
export const crypto_xof_shake128_update = (state_address: Sha3State, message_chunk: Input, outputFormat?: OutputFormat | null): void =>
  s128.update(state_address, message_chunk, outputFormat);
/** The next `out_length` bytes of output. */
export const crypto_xof_shake128_squeeze = <F extends OutputFormat | null = 'uint8array'>(
  state_address: Sha3State,
  out_length: number,
  outputFormat?: F,
): Out<F> => s128.squeeze(state_address, out_length, outputFormat);
/** `out_length` bytes of SHAKE256 of `message`. */
export const crypto_xof_shake256 = <F extends OutputFormat | null = 'uint8array'>(out_length: number, message: Input, outputFormat?: F): Out<F> =>
  s256.oneShot(out_length, message, outputFormat);
/** Starts an incremental SHAKE256. */
export const crypto_xof_shake256_init = (outputFormat?: OutputFormat | null): Sha3State => s256.init(outputFormat);
/** Starts an incremental SHAKE256 with its own domain separation byte (0 to 255). */
export const crypto_xof_shake256_init_with_domain = (domain: number, outputFormat?: OutputFormat | null): Sha3State =>
  s256.initWithDomain(domain, outputFormat);
/** Adds `message_chunk` to the message (before the first squeeze). */
export const crypto_xof_shake256_update = (state_address: Sha3State, message_chunk: Input, outputFormat?: OutputFormat | null): void =>
  s256.update(state_address, message_chunk, outputFormat);
/** The next `out_length` bytes of output. */
export const crypto_xof_shake256_squeeze = <F extends OutputFormat | null = 'uint8array'>(
  state_address: Sha3State,
  out_length: number,
  outputFormat?: F,
): Out<F> => s256.squeeze(state_address, out_length, outputFormat);
/** `out_length` bytes of TurboSHAKE128 of `message`. */
export const crypto_xof_turboshake128 = <F extends OutputFormat | null = 'uint8array'>(out_length: number, message: Input, outputFormat?: F): Out<F> =>
  t128.oneShot(out_length, message, outputFormat);
/** Starts an incremental TurboSHAKE128. */
export const crypto_xof_turboshake128_init = (outputFormat?: OutputFormat | null): Sha3State => t128.init(outputFormat);
/** Starts an incremental TurboSHAKE128 with its own domain separation byte (0 to 255). */
export const crypto_xof_turboshake128_init_with_domain = (domain: number, outputFormat?: OutputFormat | null): Sha3State =>
  t128.initWithDomain(domain, outputFormat);
/** Adds `message_chunk` to the message (before the first squeeze). */
export const crypto_xof_turboshake128_update = (state_address: Sha3State, message_chunk: Input, outputFormat?: OutputFormat | null): void =>
  t128.update(state_address, message_chunk, outputFormat);
/** The next `out_length` bytes of output. */
export const crypto_xof_turboshake128_squeeze = <F extends OutputFormat | null = 'uint8array'>(
  state_address: Sha3State,
  out_length: number,
  outputFormat?: F,
): Out<F> => t128.squeeze(state_address, out_length, outputFormat);
/** `out_length` bytes of TurboSHAKE256 of `message`. */
export const crypto_xof_turboshake256 = <F extends OutputFormat | null = 'uint8array'>(out_length: number, message: Input, outputFormat?: F): Out<F> =>
  t256.oneShot(out_length, message, outputFormat);
/** Starts an incremental TurboSHAKE256. */
export const crypto_xof_turboshake256_init = (outputFormat?: OutputFormat | null): Sha3State => t256.init(outputFormat);
/** Starts an incremental TurboSHAKE256 with its own domain separation byte (0 to 255). */
export const crypto_xof_turboshake256_init_with_domain = (domain: number, outputFormat?: OutputFormat | null): Sha3State =>
  t256.initWithDomain(domain, outputFormat);
/** Adds `message_chunk` to the message (before the first squeeze). */
export const crypto_xof_turboshake256_update = (state_address: Sha3State, message_chunk: Input, outputFormat?: OutputFormat | null): void =>
  t256.update(state_address, message_chunk, outputFormat);
/** The next `out_length` bytes of output. */
export const crypto_xof_turboshake256_squeeze = <F extends OutputFormat | null = 'uint8array'>(
  state_address: Sha3State,
  out_length: number,
  outputFormat?: F,
): Out<F> => t256.squeeze(state_address, out_length, outputFormat);
