/**
 * fourfold/sodium's default export: every call and constant in one frozen
 * object, as `import sodium from 'libsodium-wrappers'` gives them. A module
 * of its own, which index.ts re-exports: building the object reads every
 * module (spreads and destructuring, which a bundler must keep), so a page
 * that imports names only, and not the default, leaves this module and
 * the calls it does not name out of its bundle.
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
import { ready } from './ready.js';
import { free } from './states.js';
import * as ed25519Core from './ed25519-core.js';
import * as ristretto255 from './ristretto255.js';
import * as hkdf from './hkdf.js';
import * as library from './library.js';

const {
  input: _i,
  optional: _o,
  sized: _s,
  unsigned: _u,
  unsigned64: _u64,
  ranged: _r,
  formatOf: _f,
  format: _fo,
  formatObject: _fob,
  ...publicCodecs
} = codecs;
const { seal: _se, open: _op, joinDetached: _j, ...publicSecretbox } = secretbox;
const { sealNonce: _sn, sealTo: _st, openSealed: _os, ...publicBox } = box;

/** Every call and constant, as libsodium-wrappers' default export holds them. */
const sodium = /*#__PURE__*/ Object.freeze({
  ready,
  free,
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
  ...ed25519Core,
  ...ristretto255,
  ...hkdf,
  ...library,
});
export default sodium;
