/**
 * crypto_kem (X-Wing, libsodium's default), crypto_kem_xwing_* and
 * crypto_kem_mlkem768_* (keypair, seed_keypair, enc, enc_deterministic,
 * dec) in libsodium-wrappers' shape, on @noble/post-quantum's ML-KEM-768
 * and X-Wing.
 */
import { ml_kem768_x25519 } from '@noble/post-quantum/hybrid.js';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { format, formatObject, formatOf, type Out, type OutObject, sized, type OutputFormat } from './codecs.js';
import type { KeyPair } from './x25519.js';

/** What an encapsulation gives. */
export interface Encapsulated {
  /** The ciphertext, for the holder of the private key. */
  ciphertext: Uint8Array;
  /** The 32-byte shared secret. */
  sharedSecret: Uint8Array;
}

/** A KEM as libsodium describes it: its sizes, its name for key pairs, and the noble KEM behind it. */
interface Kem {
  readonly keyType: 'xwing' | 'ml-kem-768';
  readonly publicKeyBytes: number;
  readonly secretKeyBytes: number;
  readonly ciphertextBytes: number;
  readonly seedBytes: number;
  /** The bytes of enc_deterministic's seed (the encapsulation's randomness). */
  readonly encSeedBytes: number;
  readonly kem: typeof ml_kem768;
}

const MLKEM768: Kem = {
  keyType: 'ml-kem-768',
  publicKeyBytes: 1184,
  secretKeyBytes: 2400,
  ciphertextBytes: 1088,
  seedBytes: 64,
  encSeedBytes: 32,
  kem: ml_kem768,
};
const XWING: Kem = {
  keyType: 'xwing',
  publicKeyBytes: 1216,
  secretKeyBytes: 32,
  ciphertextBytes: 1120,
  seedBytes: 32,
  encSeedBytes: 64,
  kem: ml_kem768_x25519 as unknown as typeof ml_kem768,
};

/** The five calls of one KEM. */
function kemCalls(k: Kem) {
  const seedKeypair = <F extends OutputFormat | null = 'uint8array'>(seed: Uint8Array, outputFormat?: F): OutObject<KeyPair, F> => {
    formatOf(outputFormat);
    const { publicKey, secretKey } = k.kem.keygen(sized(seed, 'seed', k.seedBytes));
    return formatObject({ publicKey, privateKey: secretKey, keyType: k.keyType }, outputFormat);
  };
  const keypair = <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): OutObject<KeyPair, F> => {
    formatOf(outputFormat);
    const seed = crypto.getRandomValues(new Uint8Array(k.seedBytes));
    const pair = seedKeypair(seed, outputFormat);
    seed.fill(0);
    return pair;
  };
  const encapsulate = <F>(publicKey: Uint8Array, randomness: Uint8Array, outputFormat: F | undefined): OutObject<Encapsulated, F> => {
    let out: { cipherText: Uint8Array; sharedSecret: Uint8Array };
    try {
      out = k.kem.encapsulate(publicKey, randomness);
    } catch {
      // FIPS 203's check of the encapsulation key (its coefficients reduced): libsodium refuses such a key alike.
      throw new Error('invalid usage');
    }
    return formatObject({ ciphertext: out.cipherText, sharedSecret: out.sharedSecret }, outputFormat);
  };
  const encDeterministic = <F extends OutputFormat | null = 'uint8array'>(
    publicKey: Uint8Array,
    seed: Uint8Array,
    outputFormat?: F,
  ): OutObject<Encapsulated, F> => {
    formatOf(outputFormat);
    const pk = sized(publicKey, 'publicKey', k.publicKeyBytes);
    return encapsulate(pk, sized(seed, 'seed', k.encSeedBytes), outputFormat);
  };
  const enc = <F extends OutputFormat | null = 'uint8array'>(publicKey: Uint8Array, outputFormat?: F): OutObject<Encapsulated, F> => {
    formatOf(outputFormat);
    const pk = sized(publicKey, 'publicKey', k.publicKeyBytes);
    const randomness = crypto.getRandomValues(new Uint8Array(k.encSeedBytes));
    try {
      return encapsulate(pk, randomness, outputFormat);
    } finally {
      randomness.fill(0);
    }
  };
  const dec = <F extends OutputFormat | null = 'uint8array'>(ciphertext: Uint8Array, privateKey: Uint8Array, outputFormat?: F): Out<F> => {
    formatOf(outputFormat);
    const c = sized(ciphertext, 'ciphertext', k.ciphertextBytes);
    const sk = sized(privateKey, 'privateKey', k.secretKeyBytes);
    // A changed ciphertext gives another secret (implicit rejection), as in libsodium: no error.
    return format(k.kem.decapsulate(c, sk), outputFormat);
  };
  return { keypair, seedKeypair, enc, encDeterministic, dec };
}

const mlkem = /*#__PURE__*/ kemCalls(MLKEM768);
const xwing = /*#__PURE__*/ kemCalls(XWING);

/** A new ML-KEM-768 key pair (keyType 'ml-kem-768'; the private key in FIPS 203's 2400-byte form). */
export const crypto_kem_mlkem768_keypair = mlkem.keypair;
/** The ML-KEM-768 key pair of a 64-byte seed (d || z). */
export const crypto_kem_mlkem768_seed_keypair = mlkem.seedKeypair;
/** A ciphertext and a shared secret for an ML-KEM-768 public key. */
export const crypto_kem_mlkem768_enc = mlkem.enc;
/** The same from a 32-byte seed (FIPS 203's m): for tests and known answers. */
export const crypto_kem_mlkem768_enc_deterministic = mlkem.encDeterministic;
/** The shared secret of an ML-KEM-768 ciphertext. */
export const crypto_kem_mlkem768_dec = mlkem.dec;
/** A new X-Wing key pair (keyType 'xwing'; the private key is its 32-byte seed). */
export const crypto_kem_xwing_keypair = xwing.keypair;
/** The X-Wing key pair of a 32-byte seed. */
export const crypto_kem_xwing_seed_keypair = xwing.seedKeypair;
/** A ciphertext and a shared secret for an X-Wing public key. */
export const crypto_kem_xwing_enc = xwing.enc;
/** The same from a 64-byte seed (the ML-KEM and X25519 randomness): for tests and known answers. */
export const crypto_kem_xwing_enc_deterministic = xwing.encDeterministic;
/** The shared secret of an X-Wing ciphertext. */
export const crypto_kem_xwing_dec = xwing.dec;
/** crypto_kem: X-Wing, libsodium's default. A new key pair. */
export const crypto_kem_keypair = xwing.keypair;
/** crypto_kem: X-Wing's key pair of a 32-byte seed. */
export const crypto_kem_seed_keypair = xwing.seedKeypair;
/** crypto_kem: X-Wing's ciphertext and shared secret for a public key. */
export const crypto_kem_enc = xwing.enc;
/** crypto_kem: X-Wing's shared secret of a ciphertext. */
export const crypto_kem_dec = xwing.dec;
/** The default KEM's name: 'xwing'. */
export const crypto_kem_primitive = (): string => 'xwing';
