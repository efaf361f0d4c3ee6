/**
 * libsodium-wrappers' constants for fourfold/sodium's hashes, MACs, KDFs and
 * password hashes, with libsodium-wrappers-sumo 0.8.4's values (test/sodium
 * checks each against it; constants.ts says why some are negative).
 */

// Generichash, shorthash, kdf, auth, hash, pwhash.
/** crypto_auth: output bytes. */
export const crypto_auth_BYTES: number = 32;
/** crypto_auth: key bytes. */
export const crypto_auth_KEYBYTES: number = 32;
/** crypto_auth_hmacsha256: output bytes. */
export const crypto_auth_hmacsha256_BYTES: number = 32;
/** crypto_auth_hmacsha256: key bytes. */
export const crypto_auth_hmacsha256_KEYBYTES: number = 32;
/** crypto_auth_hmacsha512256: output bytes. */
export const crypto_auth_hmacsha512256_BYTES: number = 32;
/** crypto_auth_hmacsha512256: key bytes. */
export const crypto_auth_hmacsha512256_KEYBYTES: number = 32;
/** crypto_auth_hmacsha512: output bytes. */
export const crypto_auth_hmacsha512_BYTES: number = 64;
/** crypto_auth_hmacsha512: key bytes. */
export const crypto_auth_hmacsha512_KEYBYTES: number = 32;
/** crypto_generichash: output bytes. */
export const crypto_generichash_BYTES: number = 32;
/** crypto_generichash: the most accepted. */
export const crypto_generichash_BYTES_MAX: number = 64;
/** crypto_generichash: the least accepted. */
export const crypto_generichash_BYTES_MIN: number = 16;
/** crypto_generichash: key bytes. */
export const crypto_generichash_KEYBYTES: number = 32;
/** crypto_generichash: the most accepted. */
export const crypto_generichash_KEYBYTES_MAX: number = 64;
/** crypto_generichash: the least accepted. */
export const crypto_generichash_KEYBYTES_MIN: number = 16;
/** crypto_generichash_blake2b: output bytes. */
export const crypto_generichash_blake2b_BYTES: number = 32;
/** crypto_generichash_blake2b: the most accepted. */
export const crypto_generichash_blake2b_BYTES_MAX: number = 64;
/** crypto_generichash_blake2b: the least accepted. */
export const crypto_generichash_blake2b_BYTES_MIN: number = 16;
/** crypto_generichash_blake2b: key bytes. */
export const crypto_generichash_blake2b_KEYBYTES: number = 32;
/** crypto_generichash_blake2b: the most accepted. */
export const crypto_generichash_blake2b_KEYBYTES_MAX: number = 64;
/** crypto_generichash_blake2b: the least accepted. */
export const crypto_generichash_blake2b_KEYBYTES_MIN: number = 16;
/** crypto_generichash_blake2b: personalbytes. */
export const crypto_generichash_blake2b_PERSONALBYTES: number = 16;
/** crypto_generichash_blake2b: saltbytes. */
export const crypto_generichash_blake2b_SALTBYTES: number = 16;
/** crypto_hash: output bytes. */
export const crypto_hash_BYTES: number = 64;
/** crypto_hash_sha256: output bytes. */
export const crypto_hash_sha256_BYTES: number = 32;
/** crypto_hash_sha512: output bytes. */
export const crypto_hash_sha512_BYTES: number = 64;
/** crypto_kdf: the most accepted. */
export const crypto_kdf_BYTES_MAX: number = 64;
/** crypto_kdf: the least accepted. */
export const crypto_kdf_BYTES_MIN: number = 16;
/** crypto_kdf: contextbytes. */
export const crypto_kdf_CONTEXTBYTES: number = 8;
/** crypto_kdf: key bytes. */
export const crypto_kdf_KEYBYTES: number = 32;
/** crypto_kdf_blake2b: the most accepted. */
export const crypto_kdf_blake2b_BYTES_MAX: number = 64;
/** crypto_kdf_blake2b: the least accepted. */
export const crypto_kdf_blake2b_BYTES_MIN: number = 16;
/** crypto_kdf_blake2b: contextbytes. */
export const crypto_kdf_blake2b_CONTEXTBYTES: number = 8;
/** crypto_kdf_blake2b: key bytes. */
export const crypto_kdf_blake2b_KEYBYTES: number = 32;
/** crypto_pwhash: alg argon2i13. */
export const crypto_pwhash_ALG_ARGON2I13: number = 1;
/** crypto_pwhash: alg argon2id13. */
export const crypto_pwhash_ALG_ARGON2ID13: number = 2;
/** crypto_pwhash: alg default. */
export const crypto_pwhash_ALG_DEFAULT: number = 2;
/** crypto_pwhash: the most accepted. */
export const crypto_pwhash_BYTES_MAX: number = -1;
/** crypto_pwhash: the least accepted. */
export const crypto_pwhash_BYTES_MIN: number = 16;
/** crypto_pwhash: memlimit interactive. */
export const crypto_pwhash_MEMLIMIT_INTERACTIVE: number = 67108864;
/** crypto_pwhash: the most accepted. */
export const crypto_pwhash_MEMLIMIT_MAX: number = -2147483648;
/** crypto_pwhash: the least accepted. */
export const crypto_pwhash_MEMLIMIT_MIN: number = 8192;
/** crypto_pwhash: memlimit moderate. */
export const crypto_pwhash_MEMLIMIT_MODERATE: number = 268435456;
/** crypto_pwhash: memlimit sensitive. */
export const crypto_pwhash_MEMLIMIT_SENSITIVE: number = 1073741824;
/** crypto_pwhash: opslimit interactive. */
export const crypto_pwhash_OPSLIMIT_INTERACTIVE: number = 2;
/** crypto_pwhash: the most accepted. */
export const crypto_pwhash_OPSLIMIT_MAX: number = -1;
/** crypto_pwhash: the least accepted. */
export const crypto_pwhash_OPSLIMIT_MIN: number = 1;
/** crypto_pwhash: opslimit moderate. */
export const crypto_pwhash_OPSLIMIT_MODERATE: number = 3;
/** crypto_pwhash: opslimit sensitive. */
export const crypto_pwhash_OPSLIMIT_SENSITIVE: number = 4;
/** crypto_pwhash: the most accepted. */
export const crypto_pwhash_PASSWD_MAX: number = -1;
/** crypto_pwhash: the least accepted. */
export const crypto_pwhash_PASSWD_MIN: number = 0;
/** crypto_pwhash: saltbytes. */
export const crypto_pwhash_SALTBYTES: number = 16;
/** crypto_pwhash: strbytes. */
export const crypto_pwhash_STRBYTES: number = 128;
/** crypto_pwhash: strprefix. */
export const crypto_pwhash_STRPREFIX: string = '$argon2id$';
/** crypto_pwhash_argon2i: the most accepted. */
export const crypto_pwhash_argon2i_BYTES_MAX: number = -1;
/** crypto_pwhash_argon2i: the least accepted. */
export const crypto_pwhash_argon2i_BYTES_MIN: number = 16;
/** crypto_pwhash_argon2i: memlimit interactive. */
export const crypto_pwhash_argon2i_MEMLIMIT_INTERACTIVE: number = 33554432;
/** crypto_pwhash_argon2i: the most accepted. */
export const crypto_pwhash_argon2i_MEMLIMIT_MAX: number = -2147483648;
/** crypto_pwhash_argon2i: the least accepted. */
export const crypto_pwhash_argon2i_MEMLIMIT_MIN: number = 8192;
/** crypto_pwhash_argon2i: memlimit moderate. */
export const crypto_pwhash_argon2i_MEMLIMIT_MODERATE: number = 134217728;
/** crypto_pwhash_argon2i: memlimit sensitive. */
export const crypto_pwhash_argon2i_MEMLIMIT_SENSITIVE: number = 536870912;
/** crypto_pwhash_argon2i: opslimit interactive. */
export const crypto_pwhash_argon2i_OPSLIMIT_INTERACTIVE: number = 4;
/** crypto_pwhash_argon2i: the most accepted. */
export const crypto_pwhash_argon2i_OPSLIMIT_MAX: number = -1;
/** crypto_pwhash_argon2i: the least accepted. */
export const crypto_pwhash_argon2i_OPSLIMIT_MIN: number = 3;
/** crypto_pwhash_argon2i: opslimit moderate. */
export const crypto_pwhash_argon2i_OPSLIMIT_MODERATE: number = 6;
/** crypto_pwhash_argon2i: opslimit sensitive. */
export const crypto_pwhash_argon2i_OPSLIMIT_SENSITIVE: number = 8;
/** crypto_pwhash_argon2i: the most accepted. */
export const crypto_pwhash_argon2i_PASSWD_MAX: number = -1;
/** crypto_pwhash_argon2i: the least accepted. */
export const crypto_pwhash_argon2i_PASSWD_MIN: number = 0;
/** crypto_pwhash_argon2i: saltbytes. */
export const crypto_pwhash_argon2i_SALTBYTES: number = 16;
/** crypto_pwhash_argon2i: strbytes. */
export const crypto_pwhash_argon2i_STRBYTES: number = 128;
/** crypto_pwhash_argon2i: strprefix. */
export const crypto_pwhash_argon2i_STRPREFIX: string = '$argon2i$';
/** crypto_pwhash_argon2id: the most accepted. */
export const crypto_pwhash_argon2id_BYTES_MAX: number = -1;
/** crypto_pwhash_argon2id: the least accepted. */
export const crypto_pwhash_argon2id_BYTES_MIN: number = 16;
/** crypto_pwhash_argon2id: memlimit interactive. */
export const crypto_pwhash_argon2id_MEMLIMIT_INTERACTIVE: number = 67108864;
/** crypto_pwhash_argon2id: the most accepted. */
export const crypto_pwhash_argon2id_MEMLIMIT_MAX: number = -2147483648;
/** crypto_pwhash_argon2id: the least accepted. */
export const crypto_pwhash_argon2id_MEMLIMIT_MIN: number = 8192;
/** crypto_pwhash_argon2id: memlimit moderate. */
export const crypto_pwhash_argon2id_MEMLIMIT_MODERATE: number = 268435456;
/** crypto_pwhash_argon2id: memlimit sensitive. */
export const crypto_pwhash_argon2id_MEMLIMIT_SENSITIVE: number = 1073741824;
/** crypto_pwhash_argon2id: opslimit interactive. */
export const crypto_pwhash_argon2id_OPSLIMIT_INTERACTIVE: number = 2;
/** crypto_pwhash_argon2id: the most accepted. */
export const crypto_pwhash_argon2id_OPSLIMIT_MAX: number = -1;
/** crypto_pwhash_argon2id: the least accepted. */
export const crypto_pwhash_argon2id_OPSLIMIT_MIN: number = 1;
/** crypto_pwhash_argon2id: opslimit moderate. */
export const crypto_pwhash_argon2id_OPSLIMIT_MODERATE: number = 3;
/** crypto_pwhash_argon2id: opslimit sensitive. */
export const crypto_pwhash_argon2id_OPSLIMIT_SENSITIVE: number = 4;
/** crypto_pwhash_argon2id: the most accepted. */
export const crypto_pwhash_argon2id_PASSWD_MAX: number = -1;
/** crypto_pwhash_argon2id: the least accepted. */
export const crypto_pwhash_argon2id_PASSWD_MIN: number = 0;
/** crypto_pwhash_argon2id: saltbytes. */
export const crypto_pwhash_argon2id_SALTBYTES: number = 16;
/** crypto_pwhash_argon2id: strbytes. */
export const crypto_pwhash_argon2id_STRBYTES: number = 128;
/** crypto_pwhash_argon2id: strprefix. */
export const crypto_pwhash_argon2id_STRPREFIX: string = '$argon2id$';
/** crypto_pwhash_scryptsalsa208sha256: the most accepted. */
export const crypto_pwhash_scryptsalsa208sha256_BYTES_MAX: number = -1;
/** crypto_pwhash_scryptsalsa208sha256: the least accepted. */
export const crypto_pwhash_scryptsalsa208sha256_BYTES_MIN: number = 16;
/** crypto_pwhash_scryptsalsa208sha256: memlimit interactive. */
export const crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_INTERACTIVE: number = 16777216;
/** crypto_pwhash_scryptsalsa208sha256: the most accepted. */
export const crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MAX: number = -1;
/** crypto_pwhash_scryptsalsa208sha256: the least accepted. */
export const crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MIN: number = 16777216;
/** crypto_pwhash_scryptsalsa208sha256: memlimit sensitive. */
export const crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_SENSITIVE: number = 1073741824;
/** crypto_pwhash_scryptsalsa208sha256: opslimit interactive. */
export const crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_INTERACTIVE: number = 524288;
/** crypto_pwhash_scryptsalsa208sha256: the most accepted. */
export const crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MAX: number = -1;
/** crypto_pwhash_scryptsalsa208sha256: the least accepted. */
export const crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MIN: number = 32768;
/** crypto_pwhash_scryptsalsa208sha256: opslimit sensitive. */
export const crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_SENSITIVE: number = 33554432;
/** crypto_pwhash_scryptsalsa208sha256: the most accepted. */
export const crypto_pwhash_scryptsalsa208sha256_PASSWD_MAX: number = -1;
/** crypto_pwhash_scryptsalsa208sha256: the least accepted. */
export const crypto_pwhash_scryptsalsa208sha256_PASSWD_MIN: number = 0;
/** crypto_pwhash_scryptsalsa208sha256: saltbytes. */
export const crypto_pwhash_scryptsalsa208sha256_SALTBYTES: number = 32;
/** crypto_pwhash_scryptsalsa208sha256: strbytes. */
export const crypto_pwhash_scryptsalsa208sha256_STRBYTES: number = 102;
/** crypto_pwhash_scryptsalsa208sha256: strprefix. */
export const crypto_pwhash_scryptsalsa208sha256_STRPREFIX: string = '$7$';
/** crypto_shorthash: output bytes. */
export const crypto_shorthash_BYTES: number = 8;
/** crypto_shorthash: key bytes. */
export const crypto_shorthash_KEYBYTES: number = 16;
/** crypto_shorthash_siphash24: output bytes. */
export const crypto_shorthash_siphash24_BYTES: number = 8;
/** crypto_shorthash_siphash24: key bytes. */
export const crypto_shorthash_siphash24_KEYBYTES: number = 16;
/** crypto_shorthash_siphashx24: output bytes. */
export const crypto_shorthash_siphashx24_BYTES: number = 16;
/** crypto_shorthash_siphashx24: key bytes. */
export const crypto_shorthash_siphashx24_KEYBYTES: number = 16;
