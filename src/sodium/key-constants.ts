/**
 * libsodium-wrappers' constants for fourfold/sodium's public-key calls (box,
 * box_seal, scalarmult, kx, sign, kem), with libsodium-wrappers-sumo 0.8.4's values
 * (test/sodium checks each against it; constants.ts says why some are negative).
 */

// Box, box_seal, scalarmult, kx, sign.
/** crypto_box: beforenmbytes. */
export const crypto_box_BEFORENMBYTES: number = 32;
/** crypto_box: tag bytes. */
export const crypto_box_MACBYTES: number = 16;
/** crypto_box: the longest message, as libsodium-wrappers gives it. */
export const crypto_box_MESSAGEBYTES_MAX: number = -17;
/** crypto_box: nonce bytes. */
export const crypto_box_NONCEBYTES: number = 24;
/** crypto_box: publickeybytes. */
export const crypto_box_PUBLICKEYBYTES: number = 32;
/** crypto_box: sealbytes. */
export const crypto_box_SEALBYTES: number = 48;
/** crypto_box: secretkeybytes. */
export const crypto_box_SECRETKEYBYTES: number = 32;
/** crypto_box: seedbytes. */
export const crypto_box_SEEDBYTES: number = 32;
/** crypto_box_curve25519xchacha20poly1305: beforenmbytes. */
export const crypto_box_curve25519xchacha20poly1305_BEFORENMBYTES: number = 32;
/** crypto_box_curve25519xchacha20poly1305: tag bytes. */
export const crypto_box_curve25519xchacha20poly1305_MACBYTES: number = 16;
/** crypto_box_curve25519xchacha20poly1305: the longest message, as libsodium-wrappers gives it. */
export const crypto_box_curve25519xchacha20poly1305_MESSAGEBYTES_MAX: number = -17;
/** crypto_box_curve25519xchacha20poly1305: nonce bytes. */
export const crypto_box_curve25519xchacha20poly1305_NONCEBYTES: number = 24;
/** crypto_box_curve25519xchacha20poly1305: publickeybytes. */
export const crypto_box_curve25519xchacha20poly1305_PUBLICKEYBYTES: number = 32;
/** crypto_box_curve25519xchacha20poly1305: sealbytes. */
export const crypto_box_curve25519xchacha20poly1305_SEALBYTES: number = 48;
/** crypto_box_curve25519xchacha20poly1305: secretkeybytes. */
export const crypto_box_curve25519xchacha20poly1305_SECRETKEYBYTES: number = 32;
/** crypto_box_curve25519xchacha20poly1305: seedbytes. */
export const crypto_box_curve25519xchacha20poly1305_SEEDBYTES: number = 32;
/** crypto_box_curve25519xsalsa20poly1305: beforenmbytes. */
export const crypto_box_curve25519xsalsa20poly1305_BEFORENMBYTES: number = 32;
/** crypto_box_curve25519xsalsa20poly1305: tag bytes. */
export const crypto_box_curve25519xsalsa20poly1305_MACBYTES: number = 16;
/** crypto_box_curve25519xsalsa20poly1305: the longest message, as libsodium-wrappers gives it. */
export const crypto_box_curve25519xsalsa20poly1305_MESSAGEBYTES_MAX: number = -17;
/** crypto_box_curve25519xsalsa20poly1305: nonce bytes. */
export const crypto_box_curve25519xsalsa20poly1305_NONCEBYTES: number = 24;
/** crypto_box_curve25519xsalsa20poly1305: publickeybytes. */
export const crypto_box_curve25519xsalsa20poly1305_PUBLICKEYBYTES: number = 32;
/** crypto_box_curve25519xsalsa20poly1305: secretkeybytes. */
export const crypto_box_curve25519xsalsa20poly1305_SECRETKEYBYTES: number = 32;
/** crypto_box_curve25519xsalsa20poly1305: seedbytes. */
export const crypto_box_curve25519xsalsa20poly1305_SEEDBYTES: number = 32;
/** crypto_kx: publickeybytes. */
export const crypto_kx_PUBLICKEYBYTES: number = 32;
/** crypto_kx: secretkeybytes. */
export const crypto_kx_SECRETKEYBYTES: number = 32;
/** crypto_kx: seedbytes. */
export const crypto_kx_SEEDBYTES: number = 32;
/** crypto_kx: sessionkeybytes. */
export const crypto_kx_SESSIONKEYBYTES: number = 32;
/** crypto_scalarmult: output bytes. */
export const crypto_scalarmult_BYTES: number = 32;
/** crypto_scalarmult: scalarbytes. */
export const crypto_scalarmult_SCALARBYTES: number = 32;
/** crypto_scalarmult_curve25519: output bytes. */
export const crypto_scalarmult_curve25519_BYTES: number = 32;
/** crypto_scalarmult_curve25519: scalarbytes. */
export const crypto_scalarmult_curve25519_SCALARBYTES: number = 32;
/** crypto_sign: output bytes. */
export const crypto_sign_BYTES: number = 64;
/** crypto_sign: the longest message, as libsodium-wrappers gives it. */
export const crypto_sign_MESSAGEBYTES_MAX: number = -65;
/** crypto_sign: publickeybytes. */
export const crypto_sign_PUBLICKEYBYTES: number = 32;
/** crypto_sign: secretkeybytes. */
export const crypto_sign_SECRETKEYBYTES: number = 64;
/** crypto_sign: seedbytes. */
export const crypto_sign_SEEDBYTES: number = 32;
/** crypto_sign_ed25519: output bytes. */
export const crypto_sign_ed25519_BYTES: number = 64;
/** crypto_sign_ed25519: the longest message, as libsodium-wrappers gives it. */
export const crypto_sign_ed25519_MESSAGEBYTES_MAX: number = -65;
/** crypto_sign_ed25519: publickeybytes. */
export const crypto_sign_ed25519_PUBLICKEYBYTES: number = 32;
/** crypto_sign_ed25519: secretkeybytes. */
export const crypto_sign_ed25519_SECRETKEYBYTES: number = 64;
/** crypto_sign_ed25519: seedbytes. */
export const crypto_sign_ed25519_SEEDBYTES: number = 32;

// Kem.
/** crypto_kem: ciphertextbytes. */
export const crypto_kem_CIPHERTEXTBYTES: number = 1120;
/** crypto_kem: primitive. */
export const crypto_kem_PRIMITIVE: string = 'xwing';
/** crypto_kem: publickeybytes. */
export const crypto_kem_PUBLICKEYBYTES: number = 1216;
/** crypto_kem: secretkeybytes. */
export const crypto_kem_SECRETKEYBYTES: number = 32;
/** crypto_kem: seedbytes. */
export const crypto_kem_SEEDBYTES: number = 32;
/** crypto_kem: sharedsecretbytes. */
export const crypto_kem_SHAREDSECRETBYTES: number = 32;
/** crypto_kem_mlkem768: ciphertextbytes. */
export const crypto_kem_mlkem768_CIPHERTEXTBYTES: number = 1088;
/** crypto_kem_mlkem768: publickeybytes. */
export const crypto_kem_mlkem768_PUBLICKEYBYTES: number = 1184;
/** crypto_kem_mlkem768: secretkeybytes. */
export const crypto_kem_mlkem768_SECRETKEYBYTES: number = 2400;
/** crypto_kem_mlkem768: seedbytes. */
export const crypto_kem_mlkem768_SEEDBYTES: number = 64;
/** crypto_kem_mlkem768: sharedsecretbytes. */
export const crypto_kem_mlkem768_SHAREDSECRETBYTES: number = 32;
/** crypto_kem_xwing: ciphertextbytes. */
export const crypto_kem_xwing_CIPHERTEXTBYTES: number = 1120;
/** crypto_kem_xwing: publickeybytes. */
export const crypto_kem_xwing_PUBLICKEYBYTES: number = 1216;
/** crypto_kem_xwing: secretkeybytes. */
export const crypto_kem_xwing_SECRETKEYBYTES: number = 32;
/** crypto_kem_xwing: seedbytes. */
export const crypto_kem_xwing_SEEDBYTES: number = 32;
/** crypto_kem_xwing: sharedsecretbytes. */
export const crypto_kem_xwing_SHAREDSECRETBYTES: number = 32;
