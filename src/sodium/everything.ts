/**
 * fourfold/sodium's default export: every call and constant in one frozen
 * object, as `import sodium from 'libsodium-wrappers'` gives them. A module
 * of its own, which index.ts re-exports: the object names every call, so a
 * bundler keeps them all, and a page that imports names only, and not the
 * default, leaves this module and the calls it does not name out.
 *
 * The names are listed, not spread from each module's namespace (`import *
 * as aead` ... `{ ...aead }`): esbuild keeps a namespace that is spread as
 * an object of getters, one per export, private helpers included, on top of
 * the object itself; listed, each call is one `name: fn` in the object. A
 * page of the AEAD, secretbox, secretstream, generichash and pwhash through
 * the default export weighed 99,078 bytes of gzip with the spreads, 96,555
 * listed (bench/node/sodium-size.ts). test/sodium/api.test.ts checks that
 * the object holds every named export, so a call added to a module and not
 * here fails there.
 */
import { DEFAULT_CONSTANTS } from './default-constants.js';
import { ready } from './ready.js';
import { free } from './states.js';
// biome-ignore format: a few names a line, not one a line
import {
  from_base64, from_hex, from_string, output_formats, to_base64, to_hex, to_string,
} from './codecs.js';
// biome-ignore format: a few names a line, not one a line
import {
  add, compare, increment, is_zero, memcmp, memzero, pad, unpad,
} from './helpers.js';
// biome-ignore format: a few names a line, not one a line
import {
  randombytes_buf, randombytes_buf_deterministic, randombytes_random, randombytes_uniform,
} from './random.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_aead_chacha20poly1305_decrypt, crypto_aead_chacha20poly1305_decrypt_detached, crypto_aead_chacha20poly1305_encrypt,
  crypto_aead_chacha20poly1305_encrypt_detached, crypto_aead_chacha20poly1305_ietf_decrypt, crypto_aead_chacha20poly1305_ietf_decrypt_detached,
  crypto_aead_chacha20poly1305_ietf_encrypt, crypto_aead_chacha20poly1305_ietf_encrypt_detached, crypto_aead_chacha20poly1305_ietf_keygen,
  crypto_aead_chacha20poly1305_keygen, crypto_aead_xchacha20poly1305_ietf_decrypt, crypto_aead_xchacha20poly1305_ietf_decrypt_detached,
  crypto_aead_xchacha20poly1305_ietf_encrypt, crypto_aead_xchacha20poly1305_ietf_encrypt_detached, crypto_aead_xchacha20poly1305_ietf_keygen,
} from './aead.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_auth, crypto_auth_hmacsha256, crypto_auth_hmacsha256_final, crypto_auth_hmacsha256_init, crypto_auth_hmacsha256_keygen,
  crypto_auth_hmacsha256_update, crypto_auth_hmacsha256_verify, crypto_auth_hmacsha512, crypto_auth_hmacsha512256, crypto_auth_hmacsha512256_final,
  crypto_auth_hmacsha512256_init, crypto_auth_hmacsha512256_keygen, crypto_auth_hmacsha512256_update, crypto_auth_hmacsha512256_verify,
  crypto_auth_hmacsha512_final, crypto_auth_hmacsha512_init, crypto_auth_hmacsha512_keygen, crypto_auth_hmacsha512_update, crypto_auth_hmacsha512_verify,
  crypto_auth_keygen, crypto_auth_verify, crypto_hash, crypto_hash_sha256, crypto_hash_sha256_final, crypto_hash_sha256_init, crypto_hash_sha256_update,
  crypto_hash_sha512, crypto_hash_sha512_final, crypto_hash_sha512_init, crypto_hash_sha512_update,
} from './auth.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_generichash, crypto_generichash_blake2b_salt_personal, crypto_generichash_final, crypto_generichash_init, crypto_generichash_keygen,
  crypto_generichash_update, crypto_kdf_derive_from_key, crypto_kdf_keygen, crypto_shorthash, crypto_shorthash_keygen, crypto_shorthash_siphashx24,
} from './hashes.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_hash_sha3256, crypto_hash_sha3256_final, crypto_hash_sha3256_init, crypto_hash_sha3256_update, crypto_hash_sha3512, crypto_hash_sha3512_final,
  crypto_hash_sha3512_init, crypto_hash_sha3512_update, crypto_xof_shake128, crypto_xof_shake128_init, crypto_xof_shake128_init_with_domain,
  crypto_xof_shake128_squeeze, crypto_xof_shake128_update, crypto_xof_shake256, crypto_xof_shake256_init, crypto_xof_shake256_init_with_domain,
  crypto_xof_shake256_squeeze, crypto_xof_shake256_update, crypto_xof_turboshake128, crypto_xof_turboshake128_init,
  crypto_xof_turboshake128_init_with_domain, crypto_xof_turboshake128_squeeze, crypto_xof_turboshake128_update, crypto_xof_turboshake256,
  crypto_xof_turboshake256_init, crypto_xof_turboshake256_init_with_domain, crypto_xof_turboshake256_squeeze, crypto_xof_turboshake256_update,
} from './sha3.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_pwhash, crypto_pwhash_str, crypto_pwhash_str_needs_rehash, crypto_pwhash_str_verify,
} from './pwhash.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_pwhash_scryptsalsa208sha256, crypto_pwhash_scryptsalsa208sha256_ll, crypto_pwhash_scryptsalsa208sha256_str,
  crypto_pwhash_scryptsalsa208sha256_str_verify,
} from './scrypt.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_box_beforenm, crypto_box_detached, crypto_box_easy, crypto_box_easy_afternm, crypto_box_keypair, crypto_box_open_detached, crypto_box_open_easy,
  crypto_box_open_easy_afternm, crypto_box_seal, crypto_box_seal_open, crypto_box_seed_keypair, crypto_scalarmult, crypto_scalarmult_base,
} from './box.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_box_curve25519xchacha20poly1305_beforenm, crypto_box_curve25519xchacha20poly1305_detached, crypto_box_curve25519xchacha20poly1305_detached_afternm,
  crypto_box_curve25519xchacha20poly1305_easy, crypto_box_curve25519xchacha20poly1305_easy_afternm, crypto_box_curve25519xchacha20poly1305_keypair,
  crypto_box_curve25519xchacha20poly1305_open_detached, crypto_box_curve25519xchacha20poly1305_open_detached_afternm,
  crypto_box_curve25519xchacha20poly1305_open_easy, crypto_box_curve25519xchacha20poly1305_open_easy_afternm, crypto_box_curve25519xchacha20poly1305_seal,
  crypto_box_curve25519xchacha20poly1305_seal_open, crypto_box_curve25519xchacha20poly1305_seed_keypair,
} from './box-xchacha.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_kx_client_session_keys, crypto_kx_keypair, crypto_kx_seed_keypair, crypto_kx_server_session_keys,
} from './kx.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_kem_dec, crypto_kem_enc, crypto_kem_keypair, crypto_kem_mlkem768_dec, crypto_kem_mlkem768_enc, crypto_kem_mlkem768_enc_deterministic,
  crypto_kem_mlkem768_keypair, crypto_kem_mlkem768_seed_keypair, crypto_kem_primitive, crypto_kem_seed_keypair, crypto_kem_xwing_dec, crypto_kem_xwing_enc,
  crypto_kem_xwing_enc_deterministic, crypto_kem_xwing_keypair, crypto_kem_xwing_seed_keypair,
} from './kem.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_sign, crypto_sign_detached, crypto_sign_ed25519_pk_to_curve25519, crypto_sign_ed25519_sk_to_curve25519, crypto_sign_ed25519_sk_to_pk,
  crypto_sign_ed25519_sk_to_seed, crypto_sign_final_create, crypto_sign_final_verify, crypto_sign_init, crypto_sign_keypair, crypto_sign_open,
  crypto_sign_seed_keypair, crypto_sign_update, crypto_sign_verify_detached,
} from './sign.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_secretbox_detached, crypto_secretbox_easy, crypto_secretbox_keygen, crypto_secretbox_open_detached, crypto_secretbox_open_easy,
} from './secretbox.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_secretstream_xchacha20poly1305_init_pull, crypto_secretstream_xchacha20poly1305_init_push, crypto_secretstream_xchacha20poly1305_keygen,
  crypto_secretstream_xchacha20poly1305_pull, crypto_secretstream_xchacha20poly1305_push, crypto_secretstream_xchacha20poly1305_rekey,
} from './secretstream.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_core_hchacha20, crypto_core_hsalsa20, crypto_onetimeauth, crypto_onetimeauth_final, crypto_onetimeauth_init, crypto_onetimeauth_keygen,
  crypto_onetimeauth_update, crypto_onetimeauth_verify, crypto_stream_chacha20, crypto_stream_chacha20_ietf_xor, crypto_stream_chacha20_ietf_xor_ic,
  crypto_stream_chacha20_keygen, crypto_stream_chacha20_xor, crypto_stream_chacha20_xor_ic, crypto_stream_keygen, crypto_stream_salsa20_xor,
  crypto_stream_salsa20_xor_ic, crypto_stream_xchacha20_keygen, crypto_stream_xchacha20_xor, crypto_stream_xchacha20_xor_ic, crypto_stream_xsalsa20_xor,
  crypto_stream_xsalsa20_xor_ic,
} from './stream.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_core_ed25519_add, crypto_core_ed25519_from_hash, crypto_core_ed25519_from_uniform, crypto_core_ed25519_is_valid_point, crypto_core_ed25519_random,
  crypto_core_ed25519_scalar_add, crypto_core_ed25519_scalar_complement, crypto_core_ed25519_scalar_invert, crypto_core_ed25519_scalar_mul,
  crypto_core_ed25519_scalar_negate, crypto_core_ed25519_scalar_random, crypto_core_ed25519_scalar_reduce, crypto_core_ed25519_scalar_sub,
  crypto_core_ed25519_sub, crypto_scalarmult_ed25519, crypto_scalarmult_ed25519_base, crypto_scalarmult_ed25519_base_noclamp,
  crypto_scalarmult_ed25519_noclamp,
} from './ed25519-core.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_core_ristretto255_add, crypto_core_ristretto255_from_hash, crypto_core_ristretto255_is_valid_point, crypto_core_ristretto255_random,
  crypto_core_ristretto255_scalar_add, crypto_core_ristretto255_scalar_complement, crypto_core_ristretto255_scalar_invert,
  crypto_core_ristretto255_scalar_mul, crypto_core_ristretto255_scalar_negate, crypto_core_ristretto255_scalar_random,
  crypto_core_ristretto255_scalar_reduce, crypto_core_ristretto255_scalar_sub, crypto_core_ristretto255_sub, crypto_scalarmult_ristretto255,
  crypto_scalarmult_ristretto255_base,
} from './ristretto255.js';
// biome-ignore format: a few names a line, not one a line
import {
  crypto_kdf_hkdf_sha256_expand, crypto_kdf_hkdf_sha256_extract, crypto_kdf_hkdf_sha256_extract_final, crypto_kdf_hkdf_sha256_extract_init,
  crypto_kdf_hkdf_sha256_extract_update, crypto_kdf_hkdf_sha256_keygen, crypto_kdf_hkdf_sha512_expand, crypto_kdf_hkdf_sha512_extract,
  crypto_kdf_hkdf_sha512_extract_final, crypto_kdf_hkdf_sha512_extract_init, crypto_kdf_hkdf_sha512_extract_update, crypto_kdf_hkdf_sha512_keygen,
} from './hkdf.js';
import { randombytes_close, randombytes_stir, sodium_version_string } from './library.js';

/** Every call and constant, as libsodium-wrappers' default export holds them. */
// biome-ignore format: a few names a line, not one a line
const sodium = /*#__PURE__*/ Object.freeze({
  ready, free,
  ...DEFAULT_CONSTANTS,
  // codecs.ts
  from_base64, from_hex, from_string, output_formats, to_base64, to_hex, to_string,
  // helpers.ts
  add, compare, increment, is_zero, memcmp, memzero, pad, unpad,
  // random.ts
  randombytes_buf, randombytes_buf_deterministic, randombytes_random, randombytes_uniform,
  // aead.ts
  crypto_aead_chacha20poly1305_decrypt, crypto_aead_chacha20poly1305_decrypt_detached, crypto_aead_chacha20poly1305_encrypt,
  crypto_aead_chacha20poly1305_encrypt_detached, crypto_aead_chacha20poly1305_ietf_decrypt, crypto_aead_chacha20poly1305_ietf_decrypt_detached,
  crypto_aead_chacha20poly1305_ietf_encrypt, crypto_aead_chacha20poly1305_ietf_encrypt_detached, crypto_aead_chacha20poly1305_ietf_keygen,
  crypto_aead_chacha20poly1305_keygen, crypto_aead_xchacha20poly1305_ietf_decrypt, crypto_aead_xchacha20poly1305_ietf_decrypt_detached,
  crypto_aead_xchacha20poly1305_ietf_encrypt, crypto_aead_xchacha20poly1305_ietf_encrypt_detached, crypto_aead_xchacha20poly1305_ietf_keygen,
  // auth.ts
  crypto_auth, crypto_auth_hmacsha256, crypto_auth_hmacsha256_final, crypto_auth_hmacsha256_init, crypto_auth_hmacsha256_keygen,
  crypto_auth_hmacsha256_update, crypto_auth_hmacsha256_verify, crypto_auth_hmacsha512, crypto_auth_hmacsha512256, crypto_auth_hmacsha512256_final,
  crypto_auth_hmacsha512256_init, crypto_auth_hmacsha512256_keygen, crypto_auth_hmacsha512256_update, crypto_auth_hmacsha512256_verify,
  crypto_auth_hmacsha512_final, crypto_auth_hmacsha512_init, crypto_auth_hmacsha512_keygen, crypto_auth_hmacsha512_update, crypto_auth_hmacsha512_verify,
  crypto_auth_keygen, crypto_auth_verify, crypto_hash, crypto_hash_sha256, crypto_hash_sha256_final, crypto_hash_sha256_init, crypto_hash_sha256_update,
  crypto_hash_sha512, crypto_hash_sha512_final, crypto_hash_sha512_init, crypto_hash_sha512_update,
  // hashes.ts
  crypto_generichash, crypto_generichash_blake2b_salt_personal, crypto_generichash_final, crypto_generichash_init, crypto_generichash_keygen,
  crypto_generichash_update, crypto_kdf_derive_from_key, crypto_kdf_keygen, crypto_shorthash, crypto_shorthash_keygen, crypto_shorthash_siphashx24,
  // sha3.ts
  crypto_hash_sha3256, crypto_hash_sha3256_final, crypto_hash_sha3256_init, crypto_hash_sha3256_update, crypto_hash_sha3512, crypto_hash_sha3512_final,
  crypto_hash_sha3512_init, crypto_hash_sha3512_update, crypto_xof_shake128, crypto_xof_shake128_init, crypto_xof_shake128_init_with_domain,
  crypto_xof_shake128_squeeze, crypto_xof_shake128_update, crypto_xof_shake256, crypto_xof_shake256_init, crypto_xof_shake256_init_with_domain,
  crypto_xof_shake256_squeeze, crypto_xof_shake256_update, crypto_xof_turboshake128, crypto_xof_turboshake128_init,
  crypto_xof_turboshake128_init_with_domain, crypto_xof_turboshake128_squeeze, crypto_xof_turboshake128_update, crypto_xof_turboshake256,
  crypto_xof_turboshake256_init, crypto_xof_turboshake256_init_with_domain, crypto_xof_turboshake256_squeeze, crypto_xof_turboshake256_update,
  // pwhash.ts
  crypto_pwhash, crypto_pwhash_str, crypto_pwhash_str_needs_rehash, crypto_pwhash_str_verify,
  // scrypt.ts
  crypto_pwhash_scryptsalsa208sha256, crypto_pwhash_scryptsalsa208sha256_ll, crypto_pwhash_scryptsalsa208sha256_str,
  crypto_pwhash_scryptsalsa208sha256_str_verify,
  // box.ts
  crypto_box_beforenm, crypto_box_detached, crypto_box_easy, crypto_box_easy_afternm, crypto_box_keypair, crypto_box_open_detached, crypto_box_open_easy,
  crypto_box_open_easy_afternm, crypto_box_seal, crypto_box_seal_open, crypto_box_seed_keypair, crypto_scalarmult, crypto_scalarmult_base,
  // box-xchacha.ts
  crypto_box_curve25519xchacha20poly1305_beforenm, crypto_box_curve25519xchacha20poly1305_detached, crypto_box_curve25519xchacha20poly1305_detached_afternm,
  crypto_box_curve25519xchacha20poly1305_easy, crypto_box_curve25519xchacha20poly1305_easy_afternm, crypto_box_curve25519xchacha20poly1305_keypair,
  crypto_box_curve25519xchacha20poly1305_open_detached, crypto_box_curve25519xchacha20poly1305_open_detached_afternm,
  crypto_box_curve25519xchacha20poly1305_open_easy, crypto_box_curve25519xchacha20poly1305_open_easy_afternm, crypto_box_curve25519xchacha20poly1305_seal,
  crypto_box_curve25519xchacha20poly1305_seal_open, crypto_box_curve25519xchacha20poly1305_seed_keypair,
  // kx.ts
  crypto_kx_client_session_keys, crypto_kx_keypair, crypto_kx_seed_keypair, crypto_kx_server_session_keys,
  // kem.ts
  crypto_kem_dec, crypto_kem_enc, crypto_kem_keypair, crypto_kem_mlkem768_dec, crypto_kem_mlkem768_enc, crypto_kem_mlkem768_enc_deterministic,
  crypto_kem_mlkem768_keypair, crypto_kem_mlkem768_seed_keypair, crypto_kem_primitive, crypto_kem_seed_keypair, crypto_kem_xwing_dec, crypto_kem_xwing_enc,
  crypto_kem_xwing_enc_deterministic, crypto_kem_xwing_keypair, crypto_kem_xwing_seed_keypair,
  // sign.ts
  crypto_sign, crypto_sign_detached, crypto_sign_ed25519_pk_to_curve25519, crypto_sign_ed25519_sk_to_curve25519, crypto_sign_ed25519_sk_to_pk,
  crypto_sign_ed25519_sk_to_seed, crypto_sign_final_create, crypto_sign_final_verify, crypto_sign_init, crypto_sign_keypair, crypto_sign_open,
  crypto_sign_seed_keypair, crypto_sign_update, crypto_sign_verify_detached,
  // secretbox.ts
  crypto_secretbox_detached, crypto_secretbox_easy, crypto_secretbox_keygen, crypto_secretbox_open_detached, crypto_secretbox_open_easy,
  // secretstream.ts
  crypto_secretstream_xchacha20poly1305_init_pull, crypto_secretstream_xchacha20poly1305_init_push, crypto_secretstream_xchacha20poly1305_keygen,
  crypto_secretstream_xchacha20poly1305_pull, crypto_secretstream_xchacha20poly1305_push, crypto_secretstream_xchacha20poly1305_rekey,
  // stream.ts
  crypto_core_hchacha20, crypto_core_hsalsa20, crypto_onetimeauth, crypto_onetimeauth_final, crypto_onetimeauth_init, crypto_onetimeauth_keygen,
  crypto_onetimeauth_update, crypto_onetimeauth_verify, crypto_stream_chacha20, crypto_stream_chacha20_ietf_xor, crypto_stream_chacha20_ietf_xor_ic,
  crypto_stream_chacha20_keygen, crypto_stream_chacha20_xor, crypto_stream_chacha20_xor_ic, crypto_stream_keygen, crypto_stream_salsa20_xor,
  crypto_stream_salsa20_xor_ic, crypto_stream_xchacha20_keygen, crypto_stream_xchacha20_xor, crypto_stream_xchacha20_xor_ic, crypto_stream_xsalsa20_xor,
  crypto_stream_xsalsa20_xor_ic,
  // ed25519-core.ts
  crypto_core_ed25519_add, crypto_core_ed25519_from_hash, crypto_core_ed25519_from_uniform, crypto_core_ed25519_is_valid_point, crypto_core_ed25519_random,
  crypto_core_ed25519_scalar_add, crypto_core_ed25519_scalar_complement, crypto_core_ed25519_scalar_invert, crypto_core_ed25519_scalar_mul,
  crypto_core_ed25519_scalar_negate, crypto_core_ed25519_scalar_random, crypto_core_ed25519_scalar_reduce, crypto_core_ed25519_scalar_sub,
  crypto_core_ed25519_sub, crypto_scalarmult_ed25519, crypto_scalarmult_ed25519_base, crypto_scalarmult_ed25519_base_noclamp,
  crypto_scalarmult_ed25519_noclamp,
  // ristretto255.ts
  crypto_core_ristretto255_add, crypto_core_ristretto255_from_hash, crypto_core_ristretto255_is_valid_point, crypto_core_ristretto255_random,
  crypto_core_ristretto255_scalar_add, crypto_core_ristretto255_scalar_complement, crypto_core_ristretto255_scalar_invert,
  crypto_core_ristretto255_scalar_mul, crypto_core_ristretto255_scalar_negate, crypto_core_ristretto255_scalar_random,
  crypto_core_ristretto255_scalar_reduce, crypto_core_ristretto255_scalar_sub, crypto_core_ristretto255_sub, crypto_scalarmult_ristretto255,
  crypto_scalarmult_ristretto255_base,
  // hkdf.ts
  crypto_kdf_hkdf_sha256_expand, crypto_kdf_hkdf_sha256_extract, crypto_kdf_hkdf_sha256_extract_final, crypto_kdf_hkdf_sha256_extract_init,
  crypto_kdf_hkdf_sha256_extract_update, crypto_kdf_hkdf_sha256_keygen, crypto_kdf_hkdf_sha512_expand, crypto_kdf_hkdf_sha512_extract,
  crypto_kdf_hkdf_sha512_extract_final, crypto_kdf_hkdf_sha512_extract_init, crypto_kdf_hkdf_sha512_extract_update, crypto_kdf_hkdf_sha512_keygen,
  // library.ts
  randombytes_close, randombytes_stir, sodium_version_string,
});
export default sodium;
