/**
 * fourfold/sodium: libsodium-wrappers' API (names, argument order, types,
 * output formats, errors) on fourfold's kernels, so that a libsodium.js
 * program switches by changing its import. Named exports, so that a
 * bundler keeps only the calls a page uses, and a default export object
 * with all of them, as `import sodium from 'libsodium-wrappers'` gives.
 * What it leaves out (AEGIS, AES-256-GCM, ipcrypt, Ristretto255, ...) is
 * listed in docs/api.md, "From libsodium".
 */
import * as aead from './aead.js';
import * as auth from './auth.js';
import * as box from './box.js';
import * as boxXchacha from './box-xchacha.js';
import * as codecs from './codecs.js';
import * as constants from './constants.js';
import * as hashConstants from './hash-constants.js';
import * as hashes from './hashes.js';
import * as helpers from './helpers.js';
import * as kem from './kem.js';
import * as keyConstants from './key-constants.js';
import * as kx from './kx.js';
import * as pwhash from './pwhash.js';
import * as random from './random.js';
import * as scrypt from './scrypt.js';
import * as secretbox from './secretbox.js';
import * as secretstream from './secretstream.js';
import * as sha3 from './sha3.js';
import * as sign from './sign.js';
import * as stream from './stream.js';

export type { Detached, Input, Out, OutObject, OutputFormat, SecretboxDetached, StringOutputFormat } from './codecs.js';
export type { OnetimeauthState } from './stream.js';
export * from './aead.js';
export * from './auth.js';
export type { HashState } from './auth.js';
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
export { base64_variants, from_base64, from_hex, from_string, output_formats, to_base64, to_hex, to_string } from './codecs.js';
export * from './constants.js';
export * from './hash-constants.js';
export * from './hashes.js';
export * from './helpers.js';
export * from './kem.js';
export * from './key-constants.js';
export * from './kx.js';
export * from './pwhash.js';
export * from './random.js';
export * from './scrypt.js';
export {
  crypto_secretbox_detached,
  crypto_secretbox_easy,
  crypto_secretbox_keygen,
  crypto_secretbox_open_detached,
  crypto_secretbox_open_easy,
} from './secretbox.js';
export * from './secretstream.js';
export type { Sha3State } from './sha3.js';
export * from './sha3.js';
export * from './sign.js';
export type { KeyPair } from './x25519.js';
export * from './stream.js';

/**
 * Resolved: fourfold's calls work at once (each kernel compiles in the
 * background on first use, the calls running in JavaScript meanwhile).
 * `await sodium.ready` as with libsodium-wrappers.
 */
export const ready: Promise<void> = /*#__PURE__*/ Promise.resolve();

const { input: _i, optional: _o, sized: _s, unsigned: _u, formatOf: _f, format: _fo, formatObject: _fob, ...publicCodecs } = codecs;
const { seal: _se, open: _op, joinDetached: _j, ...publicSecretbox } = secretbox;
const { sealNonce: _sn, sealTo: _st, openSealed: _os, ...publicBox } = box;

/** Every call and constant, as libsodium-wrappers' default export holds them. */
const sodium = /*#__PURE__*/ Object.freeze({
  ready,
  ...publicCodecs,
  ...constants,
  ...hashConstants,
  ...helpers,
  ...random,
  ...aead,
  ...auth,
  ...hashes,
  ...sha3,
  ...pwhash,
  ...scrypt,
  ...keyConstants,
  ...publicBox,
  ...boxXchacha,
  ...kx,
  ...kem,
  ...sign,
  ...publicSecretbox,
  ...secretstream,
  ...stream,
});
export default sodium;
