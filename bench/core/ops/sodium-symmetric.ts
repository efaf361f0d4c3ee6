/**
 * fourfold/sodium's symmetric calls against libsodium's (sodium-calls.ts):
 * the three AEADs combined and detached, secretbox, secretstream's push
 * and pull, the crypto_stream_*_xor ciphers and crypto_onetimeauth. A
 * decryption's inputs are sealed by libsodium; a detached call's output is
 * checked as ciphertext || tag. secretstream is timed as
 * secretstream.ts times fourfold/secretstream: a push onto a running
 * stream (its random header checked by libsodium pulling the message
 * back), an init_pull and one pull.
 */
import { bytes } from '../fixtures.js';
import type { Apis } from '../libraries.js';
import { each, joined, type Sodium, type SodiumCall, sodiumCall, sodiumOps } from './sodium-calls.js';
import { messageOf } from './shared.js';
import type { OpDefinition, Shape } from './types.js';

interface Sealing {
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  readonly message: Uint8Array;
}

interface Sealed extends Sealing {
  readonly sealed: Uint8Array;
}

interface Opening extends Sealed {
  readonly ciphertext: Uint8Array;
  readonly mac: Uint8Array;
}

const sealing = (label: string, shape: Shape, nonceBytes: number): Sealing => ({
  key: bytes(`${label} key`, 32),
  nonce: bytes(`${label} nonce`, nonceBytes),
  message: messageOf(`${label} message`, shape),
});

/** The four calls of one AEAD of libsodium.js, by its name in the calls' names ('xchacha20poly1305_ietf'). */
interface AeadCalls {
  encrypt: Sodium['crypto_aead_xchacha20poly1305_ietf_encrypt'];
  encryptDetached: Sodium['crypto_aead_xchacha20poly1305_ietf_encrypt_detached'];
  decrypt: Sodium['crypto_aead_xchacha20poly1305_ietf_decrypt'];
  decryptDetached: Sodium['crypto_aead_xchacha20poly1305_ietf_decrypt_detached'];
}

const AEADS: readonly { name: string; nonceBytes: number; calls: (s: Sodium) => AeadCalls }[] = [
  {
    name: 'chacha20poly1305',
    nonceBytes: 8,
    calls: (s) => ({
      encrypt: s.crypto_aead_chacha20poly1305_encrypt,
      encryptDetached: s.crypto_aead_chacha20poly1305_encrypt_detached,
      decrypt: s.crypto_aead_chacha20poly1305_decrypt,
      decryptDetached: s.crypto_aead_chacha20poly1305_decrypt_detached,
    }),
  },
  {
    name: 'chacha20poly1305-ietf',
    nonceBytes: 12,
    calls: (s) => ({
      encrypt: s.crypto_aead_chacha20poly1305_ietf_encrypt,
      encryptDetached: s.crypto_aead_chacha20poly1305_ietf_encrypt_detached,
      decrypt: s.crypto_aead_chacha20poly1305_ietf_decrypt,
      decryptDetached: s.crypto_aead_chacha20poly1305_ietf_decrypt_detached,
    }),
  },
  {
    name: 'xchacha20poly1305-ietf',
    nonceBytes: 24,
    calls: (s) => ({
      encrypt: s.crypto_aead_xchacha20poly1305_ietf_encrypt,
      encryptDetached: s.crypto_aead_xchacha20poly1305_ietf_encrypt_detached,
      decrypt: s.crypto_aead_xchacha20poly1305_ietf_decrypt,
      decryptDetached: s.crypto_aead_xchacha20poly1305_ietf_decrypt_detached,
    }),
  },
];

function aeadCalls(): SodiumCall<unknown>[] {
  return AEADS.flatMap(({ name, nonceBytes, calls }) => {
    const label = `sodium aead ${name}`;
    const opening = (shape: Shape, peer: Sodium): Opening => {
      const i = sealing(label, shape, nonceBytes);
      const sealed = calls(peer).encrypt(i.message, null, null, i.nonce, i.key);
      return { ...i, sealed, ciphertext: sealed.subarray(0, i.message.length), mac: sealed.subarray(i.message.length) };
    };
    return [
      sodiumCall<Sealing>({
        op: `sodium-aead-${name}-encrypt`,
        inputs: (shape) => sealing(label, shape, nonceBytes),
        bind: each((s, i) => calls(s).encrypt(i.message, null, null, i.nonce, i.key)),
      }),
      sodiumCall<Sealing>({
        op: `sodium-aead-${name}-encrypt-detached`,
        inputs: (shape) => sealing(label, shape, nonceBytes),
        bind: each((s, i) => {
          const { ciphertext, mac } = calls(s).encryptDetached(i.message, null, null, i.nonce, i.key);
          return joined(ciphertext, mac);
        }),
      }),
      sodiumCall<Opening>({
        op: `sodium-aead-${name}-decrypt`,
        inputs: opening,
        bind: each((s, i) => calls(s).decrypt(null, i.sealed, null, i.nonce, i.key)),
      }),
      sodiumCall<Opening>({
        op: `sodium-aead-${name}-decrypt-detached`,
        inputs: opening,
        bind: each((s, i) => calls(s).decryptDetached(null, i.ciphertext, i.mac, null, i.nonce, i.key)),
      }),
    ];
  });
}

const SECRETBOX = 'sodium secretbox';

const secretboxCalls = [
  sodiumCall<Sealing>({
    op: 'sodium-secretbox-easy',
    inputs: (shape) => sealing(SECRETBOX, shape, 24),
    bind: each((s, i) => s.crypto_secretbox_easy(i.message, i.nonce, i.key)),
  }),
  sodiumCall<Sealed>({
    op: 'sodium-secretbox-open-easy',
    inputs: (shape, peer) => {
      const i = sealing(SECRETBOX, shape, 24);
      return { ...i, sealed: peer.crypto_secretbox_easy(i.message, i.nonce, i.key) };
    },
    bind: each((s, i) => s.crypto_secretbox_open_easy(i.sealed, i.nonce, i.key)),
  }),
];

const MESSAGE_TAG = 0;
const STREAM = 'sodium secretstream';

/** What libsodium pulls back of the first message `s` pushes onto a new stream: the message, for every correct library. */
function pulledBack(s: Sodium, peer: Sodium, { key, message }: Sealing): Uint8Array {
  const { state, header } = s.crypto_secretstream_xchacha20poly1305_init_push(key);
  const sealed = s.crypto_secretstream_xchacha20poly1305_push(state, message, null, MESSAGE_TAG);
  const pulled = peer.crypto_secretstream_xchacha20poly1305_pull(peer.crypto_secretstream_xchacha20poly1305_init_pull(header, key), sealed, null);
  return pulled === false || pulled.tag !== MESSAGE_TAG ? new Uint8Array(0) : pulled.message;
}

interface Pulling extends Sealed {
  readonly header: Uint8Array;
}

const secretstreamCalls = [
  sodiumCall<Sealing>({
    op: 'sodium-secretstream-push',
    inputs: (shape) => sealing(STREAM, shape, 0),
    bind: (s, { key, message }) => {
      const { state } = s.crypto_secretstream_xchacha20poly1305_init_push(key);
      return () => s.crypto_secretstream_xchacha20poly1305_push(state, message, null, MESSAGE_TAG);
    },
    checked: pulledBack,
  }),
  sodiumCall<Pulling>({
    op: 'sodium-secretstream-pull',
    inputs: (shape, peer) => {
      const i = sealing(STREAM, shape, 0);
      const { state, header } = peer.crypto_secretstream_xchacha20poly1305_init_push(i.key);
      return { ...i, header, sealed: peer.crypto_secretstream_xchacha20poly1305_push(state, i.message, null, MESSAGE_TAG) };
    },
    bind: each((s, i) => {
      const pulled = s.crypto_secretstream_xchacha20poly1305_pull(s.crypto_secretstream_xchacha20poly1305_init_pull(i.header, i.key), i.sealed, null);
      if (pulled === false) throw new Error('secretstream: the pull failed');
      return pulled.message;
    }),
  }),
];

/**
 * crypto_stream_*_xor: the cipher's name in the op, its nonce, and the
 * call. libsodium.js has no _salsa20_xor or _xsalsa20_xor (fourfold/sodium
 * has them), so they have no peer here; the salsa ops time fourfold's
 * against @noble's.
 */
const STREAMS: readonly { name: string; nonceBytes: number; xor: (s: Sodium) => Sodium['crypto_stream_xchacha20_xor'] }[] = [
  { name: 'chacha20', nonceBytes: 8, xor: (s) => s.crypto_stream_chacha20_xor },
  { name: 'chacha20-ietf', nonceBytes: 12, xor: (s) => s.crypto_stream_chacha20_ietf_xor },
  { name: 'xchacha20', nonceBytes: 24, xor: (s) => s.crypto_stream_xchacha20_xor },
];

const streamCalls = STREAMS.map(({ name, nonceBytes, xor }) =>
  sodiumCall<Sealing>({
    op: `sodium-stream-${name}-xor`,
    inputs: (shape) => sealing(`sodium stream ${name}`, shape, nonceBytes),
    bind: each((s, i) => xor(s)(i.message, i.nonce, i.key)),
  }),
);

const onetimeauth = sodiumCall<Sealing>({
  op: 'sodium-onetimeauth',
  inputs: (shape) => sealing('sodium onetimeauth', shape, 0),
  bind: each((s, i) => s.crypto_onetimeauth(i.message, i.key)),
});

export function sodiumSymmetricOps(apis: Apis): OpDefinition<unknown>[] {
  return sodiumOps(apis, [...aeadCalls(), ...secretboxCalls, ...secretstreamCalls, ...streamCalls, onetimeauth]);
}
