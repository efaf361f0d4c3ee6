/**
 * fourfold/sodium's public-key calls against libsodium's (sodium-calls.ts):
 * crypto_box_easy and _open_easy (X25519, then XSalsa20-Poly1305),
 * crypto_box_seal and _seal_open, crypto_scalarmult, crypto_kx's client
 * session keys, crypto_sign_detached and _verify_detached (Ed25519). Key
 * pairs come from libsodium's seed_keypair calls on fixed seeds; boxes and
 * signatures to open or verify are libsodium's. A sealed box's ephemeral
 * key is random: what is checked is the message libsodium opens from it.
 * A box, a sealed box and a signature cost a curve operation and a pass
 * over the message, so they are timed at the message sizes; a scalar
 * multiplication and a key exchange have no message, and are timed at
 * their output's size.
 */
import { bytes } from '../fixtures.js';
import type { Apis } from '../libraries.js';
import { each, only, joined, type Sodium, sodiumCall, sodiumOps, verdict } from './sodium-calls.js';
import { messageOf } from './shared.js';
import type { OpDefinition, Shape } from './types.js';

interface KeyPair {
  readonly publicKey: Uint8Array;
  readonly privateKey: Uint8Array;
}

interface Parties {
  readonly sender: KeyPair;
  readonly recipient: KeyPair;
  readonly nonce: Uint8Array;
  readonly message: Uint8Array;
}

interface Sealed extends Parties {
  readonly sealed: Uint8Array;
}

/** Two X25519 key pairs (crypto_box_seed_keypair), a nonce and the shape's message, from `label`'s streams. */
function parties(label: string, shape: Shape, peer: Sodium): Parties {
  const pair = (name: string) => peer.crypto_box_seed_keypair(bytes(`${label} ${name} seed`, 32));
  return { sender: pair('sender'), recipient: pair('recipient'), nonce: bytes(`${label} nonce`, 24), message: messageOf(`${label} message`, shape) };
}

const BOX = 'sodium box';
const SEAL = 'sodium box seal';

const boxCalls = [
  sodiumCall<Parties>({
    op: 'sodium-box-easy',
    inputs: (shape, peer) => parties(BOX, shape, peer),
    bind: each((s, i) => s.crypto_box_easy(i.message, i.nonce, i.recipient.publicKey, i.sender.privateKey)),
  }),
  sodiumCall<Sealed>({
    op: 'sodium-box-open-easy',
    inputs: (shape, peer) => {
      const i = parties(BOX, shape, peer);
      return { ...i, sealed: peer.crypto_box_easy(i.message, i.nonce, i.recipient.publicKey, i.sender.privateKey) };
    },
    bind: each((s, i) => s.crypto_box_open_easy(i.sealed, i.nonce, i.sender.publicKey, i.recipient.privateKey)),
  }),
  sodiumCall<Parties>({
    op: 'sodium-box-seal',
    inputs: (shape, peer) => parties(SEAL, shape, peer),
    bind: each((s, i) => s.crypto_box_seal(i.message, i.recipient.publicKey)),
    checked: (s, peer, i) => peer.crypto_box_seal_open(s.crypto_box_seal(i.message, i.recipient.publicKey), i.recipient.publicKey, i.recipient.privateKey),
  }),
  sodiumCall<Sealed>({
    op: 'sodium-box-seal-open',
    inputs: (shape, peer) => {
      const i = parties(SEAL, shape, peer);
      return { ...i, sealed: peer.crypto_box_seal(i.message, i.recipient.publicKey) };
    },
    bind: each((s, i) => s.crypto_box_seal_open(i.sealed, i.recipient.publicKey, i.recipient.privateKey)),
  }),
];

/** The output of X25519 and of each session key: the size these ops are timed at. */
const SHARED_BYTES = 32;

const exchangeCalls = [
  sodiumCall<Parties>({
    op: 'sodium-scalarmult',
    inputs: (shape, peer) => parties('sodium scalarmult', shape, peer),
    bind: each((s, i) => s.crypto_scalarmult(i.sender.privateKey, i.recipient.publicKey)),
    takesSize: only(SHARED_BYTES),
  }),
  sodiumCall<Parties>({
    op: 'sodium-kx-client-session-keys',
    inputs: (shape, peer) => parties('sodium kx', shape, peer),
    bind: each((s, i) => {
      const { sharedRx, sharedTx } = s.crypto_kx_client_session_keys(i.sender.publicKey, i.sender.privateKey, i.recipient.publicKey);
      return joined(sharedRx, sharedTx);
    }),
    takesSize: only(SHARED_BYTES),
  }),
];

interface Signing {
  readonly keys: KeyPair;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
}

const signing = (shape: Shape, peer: Sodium): Signing => {
  const keys = peer.crypto_sign_seed_keypair(bytes('sodium sign seed', 32));
  const message = messageOf('sodium sign message', shape);
  return { keys, message, signature: peer.crypto_sign_detached(message, keys.privateKey) };
};

const signCalls = [
  sodiumCall<Signing>({
    op: 'sodium-sign-detached',
    inputs: signing,
    bind: each((s, i) => s.crypto_sign_detached(i.message, i.keys.privateKey)),
  }),
  sodiumCall<Signing>({
    op: 'sodium-sign-verify-detached',
    inputs: signing,
    bind: each((s, i) => verdict(s.crypto_sign_verify_detached(i.signature, i.message, i.keys.publicKey))),
  }),
];

export function sodiumPublicOps(apis: Apis): OpDefinition<unknown>[] {
  return sodiumOps(apis, [...boxCalls, ...exchangeCalls, ...signCalls]);
}
