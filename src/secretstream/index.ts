/**
 * libsodium's crypto_secretstream_xchacha20poly1305, byte for byte: a
 * sequence of authenticated messages under one key, each tagged, in an
 * order that cannot be changed without detection, and WHATWG
 * TransformStreams that encrypt and decrypt a byte stream of any length
 * with it.
 *
 * Streams interoperate with libsodium (and its bindings: libsodium-wrappers,
 * PyNaCl, sodiumoxide, ...) in both directions.
 */
export { ABYTES, HEADER_BYTES, KEY_BYTES, TAG_FINAL, TAG_MESSAGE, TAG_PUSH, TAG_REKEY } from './state.js';
export { initPull, initPush, MESSAGE_BYTES_MAX, type SecretstreamPull, type SecretstreamPush } from './messages.js';
export { decryptStream, encryptStream, type StreamChunk, type StreamOptions } from './stream.js';
export type { Pulled } from './engine.js';
