/**
 * crypto_auth (HMAC-SHA-512-256), crypto_auth_hmacsha256 and _hmacsha512
 * (one-shot, verify, init/update/final), crypto_hash (SHA-512) and
 * crypto_hash_sha256 / _sha512 (one-shot and init/update/final) in
 * libsodium-wrappers' shape, on node:crypto or @noble/hashes (sha2.ts).
 */
import { equalBytes } from '../runtime/bytes.js';
import { format, formatOf, type Input, input, once, optional, type Out, sized, sizedOnce, type OutputFormat } from './codecs.js';
import { endState, openState, type State, liveState } from './states.js';
import { randombytes_buf } from './random.js';
import { hash as hashOf, hmac, type Incremental, type Sha2, start as startHash } from './sha2.js';

/** A state of an _init call: pass it to _update and _final. */
export type HashState = State;

const start = (kind: string, hasher: Incremental): HashState => openState(kind, hasher);
const live = (state: HashState, kind: string): Incremental => liveState<Incremental>(state, kind);

function finish<F>(state: HashState, kind: string, bytes: number, outputFormat: F | undefined): Out<F> {
  formatOf(outputFormat);
  const digest = live(state, kind).digest();
  endState(state);
  return format(digest.length === bytes ? digest : digest.slice(0, bytes), outputFormat);
}

/** The calls of one HMAC: its hash, and its tag's length (HMAC-SHA-512-256: SHA-512's cut to 32 bytes). */
function hmacCalls(kind: string, hash: Sha2, bytes: number) {
  const tagOf = (message: Uint8Array, key: Uint8Array): Uint8Array => {
    const tag = hmac(hash, key, message);
    return tag.length === bytes ? tag : tag.slice(0, bytes);
  };
  return {
    auth: <F extends OutputFormat | null = 'uint8array'>(message: Input, key: Uint8Array, outputFormat?: F): Out<F> => {
      formatOf(outputFormat);
      // Computing a tag reads each input once.
      const m = once(message, 'message');
      return format(tagOf(m, sizedOnce(key, 'key', 32)), outputFormat);
    },
    verify: (tag: Uint8Array, message: Input, key: Uint8Array): boolean => {
      const t = sized(tag, 'tag', bytes);
      const m = input(message, 'message');
      return equalBytes(tagOf(m, sized(key, 'key', 32)), 0, t, 0, bytes);
    },
    init: (key: Input | null, outputFormat?: OutputFormat | null): HashState => {
      formatOf(outputFormat);
      return start(kind, startHash(hash, optional(key, 'key') ?? new Uint8Array(0)));
    },
    update: (state_address: HashState, message_chunk: Input, outputFormat?: OutputFormat | null): void => {
      formatOf(outputFormat);
      live(state_address, kind).update(once(message_chunk, 'message_chunk'));
    },
    final: <F extends OutputFormat | null = 'uint8array'>(state_address: HashState, outputFormat?: F): Out<F> =>
      finish(state_address, kind, bytes, outputFormat),
    keygen: <F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> => randombytes_buf(32, outputFormat),
  };
}

const hmac512256 = /*#__PURE__*/ hmacCalls('crypto_auth_hmacsha512256', 'sha512', 32);
const hmac256 = /*#__PURE__*/ hmacCalls('crypto_auth_hmacsha256', 'sha256', 32);
const hmac512 = /*#__PURE__*/ hmacCalls('crypto_auth_hmacsha512', 'sha512', 64);

/** HMAC-SHA-512-256 (the first 32 bytes of HMAC-SHA-512) of `message` under a 32-byte key. */
export const crypto_auth = hmac512256.auth;
/** Whether `tag` is crypto_auth's of `message` under `key` (compared in constant time). */
export const crypto_auth_verify = hmac512256.verify;
/** A random 32-byte key for crypto_auth. */
export const crypto_auth_keygen = hmac512256.keygen;
/** HMAC-SHA-512-256 of `message` under a 32-byte key (crypto_auth's primitive). */
export const crypto_auth_hmacsha512256 = hmac512256.auth;
/** Whether `tag` is HMAC-SHA-512-256's of `message` under `key`. */
export const crypto_auth_hmacsha512256_verify = hmac512256.verify;
/** Starts an incremental HMAC-SHA-512-256 under `key` (any length). */
export const crypto_auth_hmacsha512256_init = hmac512256.init;
/** Adds `message_chunk` to the message. */
export const crypto_auth_hmacsha512256_update = hmac512256.update;
/** The 32-byte tag; the state ends here. */
export const crypto_auth_hmacsha512256_final = hmac512256.final;
/** A random 32-byte key. */
export const crypto_auth_hmacsha512256_keygen = hmac512256.keygen;
/** HMAC-SHA-256 of `message` under a 32-byte key. */
export const crypto_auth_hmacsha256 = hmac256.auth;
/** Whether `tag` is HMAC-SHA-256's of `message` under `key`. */
export const crypto_auth_hmacsha256_verify = hmac256.verify;
/** Starts an incremental HMAC-SHA-256 under `key` (any length). */
export const crypto_auth_hmacsha256_init = hmac256.init;
/** Adds `message_chunk` to the message. */
export const crypto_auth_hmacsha256_update = hmac256.update;
/** The 32-byte tag; the state ends here. */
export const crypto_auth_hmacsha256_final = hmac256.final;
/** A random 32-byte key. */
export const crypto_auth_hmacsha256_keygen = hmac256.keygen;
/** HMAC-SHA-512 of `message` under a 32-byte key. */
export const crypto_auth_hmacsha512 = hmac512.auth;
/** Whether `tag` is HMAC-SHA-512's of `message` under `key`. */
export const crypto_auth_hmacsha512_verify = hmac512.verify;
/** Starts an incremental HMAC-SHA-512 under `key` (any length). */
export const crypto_auth_hmacsha512_init = hmac512.init;
/** Adds `message_chunk` to the message. */
export const crypto_auth_hmacsha512_update = hmac512.update;
/** The 64-byte tag; the state ends here. */
export const crypto_auth_hmacsha512_final = hmac512.final;
/** A random 32-byte key. */
export const crypto_auth_hmacsha512_keygen = hmac512.keygen;

/** The calls of one hash. */
function hashCalls(kind: string, hash: Sha2, outputLen: number) {
  return {
    hash: <F extends OutputFormat | null = 'uint8array'>(message: Input, outputFormat?: F): Out<F> => {
      formatOf(outputFormat);
      return format(hashOf(hash, once(message, 'message')), outputFormat);
    },
    init: (outputFormat?: OutputFormat | null): HashState => {
      formatOf(outputFormat);
      return start(kind, startHash(hash));
    },
    update: (state_address: HashState, message_chunk: Input, outputFormat?: OutputFormat | null): void => {
      formatOf(outputFormat);
      live(state_address, kind).update(once(message_chunk, 'message_chunk'));
    },
    final: <F extends OutputFormat | null = 'uint8array'>(state_address: HashState, outputFormat?: F): Out<F> =>
      finish(state_address, kind, outputLen, outputFormat),
  };
}

const sha256Calls = /*#__PURE__*/ hashCalls('crypto_hash_sha256', 'sha256', 32);
const sha512Calls = /*#__PURE__*/ hashCalls('crypto_hash_sha512', 'sha512', 64);

/** SHA-512 of `message` (libsodium's crypto_hash). */
export const crypto_hash = sha512Calls.hash;
/** SHA-256 of `message`. */
export const crypto_hash_sha256 = sha256Calls.hash;
/** Starts an incremental SHA-256. */
export const crypto_hash_sha256_init = sha256Calls.init;
/** Adds `message_chunk` to the message. */
export const crypto_hash_sha256_update = sha256Calls.update;
/** The 32-byte hash; the state ends here. */
export const crypto_hash_sha256_final = sha256Calls.final;
/** SHA-512 of `message`. */
export const crypto_hash_sha512 = sha512Calls.hash;
/** Starts an incremental SHA-512. */
export const crypto_hash_sha512_init = sha512Calls.init;
/** Adds `message_chunk` to the message. */
export const crypto_hash_sha512_update = sha512Calls.update;
/** The 64-byte hash; the state ends here. */
export const crypto_hash_sha512_final = sha512Calls.final;
