/**
 * libsodium-wrappers' constants for the calls fourfold/sodium provides,
 * with the values libsodium-wrappers-sumo 0.8.4 gives (test/sodium checks
 * each against it). Its _MESSAGEBYTES_MAX values are its own: sizes past
 * 2^31 read back from its 32-bit WebAssembly as negative numbers, and
 * fourfold gives the same numbers so that code comparing them behaves alike.
 */

// The AEADs, secretbox, secretstream, the stream ciphers and their cores, onetimeauth.
/** crypto_aead_chacha20poly1305: bytes a message grows by. */
export const crypto_aead_chacha20poly1305_ABYTES: number = 16;
/** crypto_aead_chacha20poly1305_ietf: bytes a message grows by. */
export const crypto_aead_chacha20poly1305_IETF_ABYTES: number = 16;
/** crypto_aead_chacha20poly1305_ietf: key bytes. */
export const crypto_aead_chacha20poly1305_IETF_KEYBYTES: number = 32;
/** crypto_aead_chacha20poly1305_ietf: the longest message, as libsodium-wrappers gives it. */
export const crypto_aead_chacha20poly1305_IETF_MESSAGEBYTES_MAX: number = -17;
/** crypto_aead_chacha20poly1305_ietf: public nonce bytes. */
export const crypto_aead_chacha20poly1305_IETF_NPUBBYTES: number = 12;
/** crypto_aead_chacha20poly1305_ietf: secret nonce bytes (none). */
export const crypto_aead_chacha20poly1305_IETF_NSECBYTES: number = 0;
/** crypto_aead_chacha20poly1305: key bytes. */
export const crypto_aead_chacha20poly1305_KEYBYTES: number = 32;
/** crypto_aead_chacha20poly1305: the longest message, as libsodium-wrappers gives it. */
export const crypto_aead_chacha20poly1305_MESSAGEBYTES_MAX: number = -17;
/** crypto_aead_chacha20poly1305: public nonce bytes. */
export const crypto_aead_chacha20poly1305_NPUBBYTES: number = 8;
/** crypto_aead_chacha20poly1305: secret nonce bytes (none). */
export const crypto_aead_chacha20poly1305_NSECBYTES: number = 0;
/** crypto_aead_chacha20poly1305_ietf: bytes a message grows by. */
export const crypto_aead_chacha20poly1305_ietf_ABYTES: number = 16;
/** crypto_aead_chacha20poly1305_ietf: key bytes. */
export const crypto_aead_chacha20poly1305_ietf_KEYBYTES: number = 32;
/** crypto_aead_chacha20poly1305_ietf: the longest message, as libsodium-wrappers gives it. */
export const crypto_aead_chacha20poly1305_ietf_MESSAGEBYTES_MAX: number = -17;
/** crypto_aead_chacha20poly1305_ietf: public nonce bytes. */
export const crypto_aead_chacha20poly1305_ietf_NPUBBYTES: number = 12;
/** crypto_aead_chacha20poly1305_ietf: secret nonce bytes (none). */
export const crypto_aead_chacha20poly1305_ietf_NSECBYTES: number = 0;
/** crypto_aead_xchacha20poly1305_ietf: bytes a message grows by. */
export const crypto_aead_xchacha20poly1305_IETF_ABYTES: number = 16;
/** crypto_aead_xchacha20poly1305_ietf: key bytes. */
export const crypto_aead_xchacha20poly1305_IETF_KEYBYTES: number = 32;
/** crypto_aead_xchacha20poly1305_ietf: the longest message, as libsodium-wrappers gives it. */
export const crypto_aead_xchacha20poly1305_IETF_MESSAGEBYTES_MAX: number = -17;
/** crypto_aead_xchacha20poly1305_ietf: public nonce bytes. */
export const crypto_aead_xchacha20poly1305_IETF_NPUBBYTES: number = 24;
/** crypto_aead_xchacha20poly1305_ietf: secret nonce bytes (none). */
export const crypto_aead_xchacha20poly1305_IETF_NSECBYTES: number = 0;
/** crypto_aead_xchacha20poly1305_ietf: bytes a message grows by. */
export const crypto_aead_xchacha20poly1305_ietf_ABYTES: number = 16;
/** crypto_aead_xchacha20poly1305_ietf: key bytes. */
export const crypto_aead_xchacha20poly1305_ietf_KEYBYTES: number = 32;
/** crypto_aead_xchacha20poly1305_ietf: the longest message, as libsodium-wrappers gives it. */
export const crypto_aead_xchacha20poly1305_ietf_MESSAGEBYTES_MAX: number = -17;
/** crypto_aead_xchacha20poly1305_ietf: public nonce bytes. */
export const crypto_aead_xchacha20poly1305_ietf_NPUBBYTES: number = 24;
/** crypto_aead_xchacha20poly1305_ietf: secret nonce bytes (none). */
export const crypto_aead_xchacha20poly1305_ietf_NSECBYTES: number = 0;
/** crypto_core_hchacha20: constant bytes. */
export const crypto_core_hchacha20_CONSTBYTES: number = 16;
/** crypto_core_hchacha20: input bytes. */
export const crypto_core_hchacha20_INPUTBYTES: number = 16;
/** crypto_core_hchacha20: key bytes. */
export const crypto_core_hchacha20_KEYBYTES: number = 32;
/** crypto_core_hchacha20: output bytes. */
export const crypto_core_hchacha20_OUTPUTBYTES: number = 32;
/** crypto_core_hsalsa20: constant bytes. */
export const crypto_core_hsalsa20_CONSTBYTES: number = 16;
/** crypto_core_hsalsa20: input bytes. */
export const crypto_core_hsalsa20_INPUTBYTES: number = 16;
/** crypto_core_hsalsa20: key bytes. */
export const crypto_core_hsalsa20_KEYBYTES: number = 32;
/** crypto_core_hsalsa20: output bytes. */
export const crypto_core_hsalsa20_OUTPUTBYTES: number = 32;
/** crypto_onetimeauth: output bytes. */
export const crypto_onetimeauth_BYTES: number = 16;
/** crypto_onetimeauth: key bytes. */
export const crypto_onetimeauth_KEYBYTES: number = 32;
/** crypto_onetimeauth_poly1305: output bytes. */
export const crypto_onetimeauth_poly1305_BYTES: number = 16;
/** crypto_onetimeauth_poly1305: key bytes. */
export const crypto_onetimeauth_poly1305_KEYBYTES: number = 32;
/** crypto_secretbox: key bytes. */
export const crypto_secretbox_KEYBYTES: number = 32;
/** crypto_secretbox: tag bytes. */
export const crypto_secretbox_MACBYTES: number = 16;
/** crypto_secretbox: the longest message, as libsodium-wrappers gives it. */
export const crypto_secretbox_MESSAGEBYTES_MAX: number = -17;
/** crypto_secretbox: nonce bytes. */
export const crypto_secretbox_NONCEBYTES: number = 24;
/** crypto_secretbox_xsalsa20poly1305: key bytes. */
export const crypto_secretbox_xsalsa20poly1305_KEYBYTES: number = 32;
/** crypto_secretbox_xsalsa20poly1305: tag bytes. */
export const crypto_secretbox_xsalsa20poly1305_MACBYTES: number = 16;
/** crypto_secretbox_xsalsa20poly1305: the longest message, as libsodium-wrappers gives it. */
export const crypto_secretbox_xsalsa20poly1305_MESSAGEBYTES_MAX: number = -17;
/** crypto_secretbox_xsalsa20poly1305: nonce bytes. */
export const crypto_secretbox_xsalsa20poly1305_NONCEBYTES: number = 24;
/** crypto_secretstream_xchacha20poly1305: bytes a message grows by. */
export const crypto_secretstream_xchacha20poly1305_ABYTES: number = 17;
/** crypto_secretstream_xchacha20poly1305: header bytes. */
export const crypto_secretstream_xchacha20poly1305_HEADERBYTES: number = 24;
/** crypto_secretstream_xchacha20poly1305: key bytes. */
export const crypto_secretstream_xchacha20poly1305_KEYBYTES: number = 32;
/** crypto_secretstream_xchacha20poly1305: the longest message, as libsodium-wrappers gives it. */
export const crypto_secretstream_xchacha20poly1305_MESSAGEBYTES_MAX: number = -18;
/** crypto_secretstream_xchacha20poly1305: a message tag. */
export const crypto_secretstream_xchacha20poly1305_TAG_FINAL: number = 3;
/** crypto_secretstream_xchacha20poly1305: a message tag. */
export const crypto_secretstream_xchacha20poly1305_TAG_MESSAGE: number = 0;
/** crypto_secretstream_xchacha20poly1305: a message tag. */
export const crypto_secretstream_xchacha20poly1305_TAG_PUSH: number = 1;
/** crypto_secretstream_xchacha20poly1305: a message tag. */
export const crypto_secretstream_xchacha20poly1305_TAG_REKEY: number = 2;
/** crypto_stream: key bytes. */
export const crypto_stream_KEYBYTES: number = 32;
/** crypto_stream: the longest message, as libsodium-wrappers gives it. */
export const crypto_stream_MESSAGEBYTES_MAX: number = -1;
/** crypto_stream: nonce bytes. */
export const crypto_stream_NONCEBYTES: number = 24;
/** crypto_stream_chacha20_ietf: key bytes. */
export const crypto_stream_chacha20_IETF_KEYBYTES: number = 32;
/** crypto_stream_chacha20_ietf: the longest message, as libsodium-wrappers gives it. */
export const crypto_stream_chacha20_IETF_MESSAGEBYTES_MAX: number = -1;
/** crypto_stream_chacha20_ietf: nonce bytes. */
export const crypto_stream_chacha20_IETF_NONCEBYTES: number = 12;
/** crypto_stream_chacha20: key bytes. */
export const crypto_stream_chacha20_KEYBYTES: number = 32;
/** crypto_stream_chacha20: the longest message, as libsodium-wrappers gives it. */
export const crypto_stream_chacha20_MESSAGEBYTES_MAX: number = -1;
/** crypto_stream_chacha20: nonce bytes. */
export const crypto_stream_chacha20_NONCEBYTES: number = 8;
/** crypto_stream_chacha20_ietf: key bytes. */
export const crypto_stream_chacha20_ietf_KEYBYTES: number = 32;
/** crypto_stream_chacha20_ietf: the longest message, as libsodium-wrappers gives it. */
export const crypto_stream_chacha20_ietf_MESSAGEBYTES_MAX: number = -1;
/** crypto_stream_chacha20_ietf: nonce bytes. */
export const crypto_stream_chacha20_ietf_NONCEBYTES: number = 12;
/** crypto_stream_salsa20: key bytes. */
export const crypto_stream_salsa20_KEYBYTES: number = 32;
/** crypto_stream_salsa20: the longest message, as libsodium-wrappers gives it. */
export const crypto_stream_salsa20_MESSAGEBYTES_MAX: number = -1;
/** crypto_stream_salsa20: nonce bytes. */
export const crypto_stream_salsa20_NONCEBYTES: number = 8;
/** crypto_stream_xchacha20: key bytes. */
export const crypto_stream_xchacha20_KEYBYTES: number = 32;
/** crypto_stream_xchacha20: the longest message, as libsodium-wrappers gives it. */
export const crypto_stream_xchacha20_MESSAGEBYTES_MAX: number = -1;
/** crypto_stream_xchacha20: nonce bytes. */
export const crypto_stream_xchacha20_NONCEBYTES: number = 24;
/** crypto_stream_xsalsa20: key bytes. */
export const crypto_stream_xsalsa20_KEYBYTES: number = 32;
/** crypto_stream_xsalsa20: the longest message, as libsodium-wrappers gives it. */
export const crypto_stream_xsalsa20_MESSAGEBYTES_MAX: number = -1;
/** crypto_stream_xsalsa20: nonce bytes. */
export const crypto_stream_xsalsa20_NONCEBYTES: number = 24;
