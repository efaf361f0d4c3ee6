/**
 * fourfold/sodium: libsodium-wrappers' API (names, argument order, types,
 * output formats, errors) on fourfold's kernels, so that a libsodium.js
 * program switches by changing its import. Named exports, so that a
 * bundler keeps only the calls a page uses, and a default export object
 * with all of them, as `import sodium from 'libsodium-wrappers'` gives.
 * What it leaves out (AEGIS, AES-256-GCM, ipcrypt, ...) is
 * listed in docs/api.md, "From libsodium".
 */

export type { Detached, Input, Out, OutObject, OutputFormat, SecretboxDetached, StringOutputFormat } from './codecs.js';
export type { OnetimeauthState } from './stream.js';
export type { HashState } from './auth.js';
export type { Sha3State } from './sha3.js';
export type { KeyPair } from './x25519.js';
export type { State } from './states.js';
export type { HkdfState } from './hkdf.js';
export type * from './wrapper-types.js';

// Calls that carry no kernel first, then those that do: a bundle lays out
// modules in this order, so the code stays together ahead of the kernels'
// bytes (each family's tiers.ts imports its kernel last for the same
// reason: gzip finds repeats within 32 KiB). The default-export page of
// the AEAD, secretbox, secretstream, generichash and pwhash weighs 533
// bytes of gzip less than with these in alphabetical order.
export * from './auth.js';
export { base64_variants, from_base64, from_hex, from_string, output_formats, to_base64, to_hex, to_string } from './codecs.js';
export * from './constants.js';
export * from './hash-constants.js';
export * from './helpers.js';
export * from './kem.js';
export * from './key-constants.js';
export * from './sha3.js';
export * from './sign.js';
export { free } from './states.js';
export * from './ed25519-core.js';
export * from './ristretto255.js';
export * from './hkdf.js';
export * from './library.js';
export * from './kx.js';
export {
  crypto_box_beforenm,
  crypto_box_detached,
  crypto_box_easy,
  crypto_box_easy_afternm,
  crypto_box_keypair,
  crypto_box_open_detached,
  crypto_box_open_easy,
  crypto_box_open_easy_afternm,
  crypto_box_seal,
  crypto_box_seal_open,
  crypto_box_seed_keypair,
  crypto_scalarmult,
  crypto_scalarmult_base,
} from './box.js';
export * from './box-xchacha.js';
export * from './random.js';
export * from './hashes.js';
export * from './aead.js';
export {
  crypto_secretbox_detached,
  crypto_secretbox_easy,
  crypto_secretbox_keygen,
  crypto_secretbox_open_detached,
  crypto_secretbox_open_easy,
} from './secretbox.js';
export * from './secretstream.js';
export * from './stream.js';
export * from './pwhash.js';
export * from './scrypt.js';

export { default } from './everything.js';
export { ready } from './ready.js';
