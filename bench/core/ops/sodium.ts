/**
 * fourfold/sodium against libsodium-wrappers-sumo, call for call: each op's
 * call is written once against a `sodium` object and bound to each library,
 * timed as a libsodium.js program makes it (argument checks, allocation,
 * result object). Opt-in (--profile=sodium), 'sizes' part only. A random
 * output (sealed box, stream header) is checked by what libsodium opens
 * from it; without libsodium these ops are left out.
 */
import type * as FourfoldSodium from 'fourfold/sodium';
import { bytes } from '../fixtures.js';
import { type Apis, NATIVE } from '../libraries.js';
import { dependencyEntries } from './sodium-dependencies.js';
import { messageOf } from './table.js';
import { defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

/** libsodium.js's API, as fourfold/sodium types it: libsodium-wrappers-sumo is used through the same names and shapes. */
type Sodium = typeof FourfoldSodium;

/**
 * An op's inputs: a 32-byte key (`key16` for SipHash), a 24-byte nonce (a
 * call takes its prefix), the message (none for a password hash), X25519
 * and Ed25519 key pairs from fixed seeds; `sealed` and `extra` are what the
 * row's `seal` made with libsodium.
 */
interface Inputs {
  readonly key: Uint8Array;
  readonly key16: Uint8Array;
  readonly nonce: Uint8Array;
  readonly message: Uint8Array;
  readonly size: number;
  readonly sender: { publicKey: Uint8Array; privateKey: Uint8Array };
  readonly recipient: { publicKey: Uint8Array; privateKey: Uint8Array };
  readonly signer: { publicKey: Uint8Array; privateKey: Uint8Array };
  readonly sealed: Uint8Array;
  /** A second field of it: a detached tag, a stream's header. */
  readonly extra: Uint8Array;
}

/** One row: the op, the call, and where it needs them the inputs libsodium seals, what is checked, the sizes it takes. */
interface Row {
  readonly op: string;
  /** The call to time for `s` (either library), made afresh each time; or `bind`. */
  readonly call?: (s: Sodium, i: Inputs) => Uint8Array;
  /**
   * The call to time, made once per bind: a call on a running state (a stream push), or one whose
   * function is found by a computed name (an AEAD's), found once here as a program names it in its
   * source: a lookup by a name built at each call cost both libraries about 0.2 us (the load megamorphic).
   */
  readonly bind?: (s: Sodium, i: Inputs) => () => Uint8Array;
  /** What libsodium makes for the call to open, verify or pull: `sealed` (and `extra`). */
  readonly seal?: (peer: Sodium, i: Inputs) => { sealed: Uint8Array; extra?: Uint8Array };
  /** For a random output: what is checked instead, the same for every correct library. Default: the output. */
  readonly checked?: (s: Sodium, peer: Sodium, i: Inputs) => Uint8Array;
  /** The sizes the call is defined at (default: every size). */
  readonly takesSize?: (size: number) => boolean;
  /** A password hash: the size is the memory one call works in. */
  readonly sizeIsMemory?: boolean;
}

const KiB = 1024;
const MiB = 1 << 20;
const HASH_BYTES = 32;
const MESSAGE_TAG = 0;

/** Two byte fields one after the other (a detached result, a session key pair), so one comparison checks both. */
function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The one size of a call with no message: its output's. */
const only = (fixed: number) => (size: number) => size === fixed;

function inputsOf(label: string, shape: Shape, peer: Sodium, sizeIsMemory: boolean): Omit<Inputs, 'sealed' | 'extra'> {
  const pair = (name: string) => peer.crypto_box_seed_keypair(bytes(`${label} ${name} seed`, 32));
  return {
    key: bytes(`${label} key`, 32),
    key16: bytes(`${label} key`, 16),
    nonce: bytes(`${label} nonce`, 24),
    message: sizeIsMemory ? new Uint8Array(0) : messageOf(`${label} message`, shape),
    size: shape.size,
    sender: pair('sender'),
    recipient: pair('recipient'),
    signer: peer.crypto_sign_seed_keypair(bytes(`${label} sign seed`, 32)),
  };
}

/** The three AEADs: the op's name, libsodium.js's, the nonce's bytes. */
const AEADS = [
  ['chacha20poly1305', 'chacha20poly1305', 8],
  ['chacha20poly1305-ietf', 'chacha20poly1305_ietf', 12],
  ['xchacha20poly1305-ietf', 'xchacha20poly1305_ietf', 24],
] as const;
type Aead = (typeof AEADS)[number][1];
const aead = <C extends 'encrypt' | 'encrypt_detached' | 'decrypt' | 'decrypt_detached'>(s: Sodium, name: Aead, call: C) =>
  s[`crypto_aead_${name}_${call}` as `crypto_aead_${Aead}_${C}`];

const aeadRows = AEADS.flatMap(([op, name, n]): Row[] => {
  return [
    {
      op: `sodium-aead-${op}-encrypt`,
      bind: (s, i) => {
        const encrypt = aead(s, name, 'encrypt');
        return () => encrypt(i.message, null, null, i.nonce.subarray(0, n), i.key);
      },
    },
    {
      op: `sodium-aead-${op}-encrypt-detached`,
      bind: (s, i) => {
        const encrypt = aead(s, name, 'encrypt_detached');
        return () => {
          const { ciphertext, mac } = encrypt(i.message, null, null, i.nonce.subarray(0, n), i.key);
          return joined(ciphertext, mac);
        };
      },
    },
    {
      op: `sodium-aead-${op}-decrypt`,
      seal: (peer, i) => ({ sealed: aead(peer, name, 'encrypt')(i.message, null, null, i.nonce.subarray(0, n), i.key) }),
      bind: (s, i) => {
        const decrypt = aead(s, name, 'decrypt');
        return () => decrypt(null, i.sealed, null, i.nonce.subarray(0, n), i.key);
      },
    },
    {
      op: `sodium-aead-${op}-decrypt-detached`,
      seal: (peer, i) => {
        const { ciphertext, mac } = aead(peer, name, 'encrypt_detached')(i.message, null, null, i.nonce.subarray(0, n), i.key);
        return { sealed: ciphertext, extra: mac };
      },
      bind: (s, i) => {
        const decrypt = aead(s, name, 'decrypt_detached');
        return () => decrypt(null, i.sealed, i.extra, null, i.nonce.subarray(0, n), i.key);
      },
    },
  ];
});

/** What libsodium pulls back of the first message `s` pushes onto a new stream: the message, for every correct library. */
function pulledBack(s: Sodium, peer: Sodium, { key, message }: Inputs): Uint8Array {
  const { state, header } = s.crypto_secretstream_xchacha20poly1305_init_push(key);
  const sealed = s.crypto_secretstream_xchacha20poly1305_push(state, message, null, MESSAGE_TAG);
  const pulled = peer.crypto_secretstream_xchacha20poly1305_pull(peer.crypto_secretstream_xchacha20poly1305_init_pull(header, key), sealed, null);
  return pulled === false || pulled.tag !== MESSAGE_TAG ? new Uint8Array(0) : pulled.message;
}

/** crypto_stream_*_xor: libsodium.js lacks the salsa20 ones (fourfold/sodium has them), so no peer here; the salsa ops compare them with @noble. */
const STREAMS = [
  ['chacha20', 8, (s: Sodium) => s.crypto_stream_chacha20_xor],
  ['chacha20-ietf', 12, (s: Sodium) => s.crypto_stream_chacha20_ietf_xor],
  ['xchacha20', 24, (s: Sodium) => s.crypto_stream_xchacha20_xor],
] as const;

/** The MACs: the op's name and the call. */
const MACS = [
  ['auth', (s: Sodium) => s.crypto_auth],
  ['auth-hmacsha256', (s: Sodium) => s.crypto_auth_hmacsha256],
  ['auth-hmacsha512', (s: Sodium) => s.crypto_auth_hmacsha512],
] as const;

/** The output of X25519 and of each session key: the size these ops are timed at. */
const SHARED_BYTES = 32;

const ROWS: readonly Row[] = [
  ...aeadRows,
  { op: 'sodium-secretbox-easy', call: (s, i) => s.crypto_secretbox_easy(i.message, i.nonce, i.key) },
  {
    op: 'sodium-secretbox-open-easy',
    seal: (peer, i) => ({ sealed: peer.crypto_secretbox_easy(i.message, i.nonce, i.key) }),
    call: (s, i) => s.crypto_secretbox_open_easy(i.sealed, i.nonce, i.key),
  },
  // secretstream as secretstream.ts times fourfold/secretstream: a push onto a running stream, an init_pull and one pull.
  {
    op: 'sodium-secretstream-push',
    bind: (s, { key, message }) => {
      const { state } = s.crypto_secretstream_xchacha20poly1305_init_push(key);
      return () => s.crypto_secretstream_xchacha20poly1305_push(state, message, null, MESSAGE_TAG);
    },
    checked: pulledBack,
  },
  {
    op: 'sodium-secretstream-pull',
    seal: (peer, i) => {
      const { state, header } = peer.crypto_secretstream_xchacha20poly1305_init_push(i.key);
      return { extra: header, sealed: peer.crypto_secretstream_xchacha20poly1305_push(state, i.message, null, MESSAGE_TAG) };
    },
    call: (s, i) => {
      const pulled = s.crypto_secretstream_xchacha20poly1305_pull(s.crypto_secretstream_xchacha20poly1305_init_pull(i.extra, i.key), i.sealed, null);
      if (pulled === false) throw new Error('secretstream: the pull failed');
      return pulled.message;
    },
  },
  ...STREAMS.map(
    ([name, n, xorOf]): Row => ({
      op: `sodium-stream-${name}-xor`,
      bind: (s, i) => {
        const xor = xorOf(s);
        return () => xor(i.message, i.nonce.subarray(0, n), i.key);
      },
    }),
  ),
  { op: 'sodium-onetimeauth', call: (s, i) => s.crypto_onetimeauth(i.message, i.key) },
  // crypto_generichash: a 32-byte hash, no key; incremental: init, one update of the whole message, final.
  { op: 'sodium-generichash', call: (s, i) => s.crypto_generichash(HASH_BYTES, i.message, null) },
  {
    op: 'sodium-generichash-incremental',
    call: (s, i) => {
      const state = s.crypto_generichash_init(null, HASH_BYTES);
      s.crypto_generichash_update(state, i.message);
      return s.crypto_generichash_final(state, HASH_BYTES);
    },
  },
  { op: 'sodium-kdf', call: (s, i) => s.crypto_kdf_derive_from_key(HASH_BYTES, 1, 'contexts', i.key), takesSize: only(HASH_BYTES) },
  { op: 'sodium-shorthash', call: (s, i) => s.crypto_shorthash(i.message, i.key16) },
  ...MACS.map(
    ([name, macOf]): Row => ({
      op: `sodium-${name}`,
      bind: (s, i) => {
        const mac = macOf(s);
        return () => mac(i.message, i.key);
      },
    }),
  ),
  { op: 'sodium-hash-sha256', call: (s, i) => s.crypto_hash_sha256(i.message) },
  { op: 'sodium-hash-sha512', call: (s, i) => s.crypto_hash_sha512(i.message) },
  // crypto_pwhash's Argon2id at OPSLIMIT_INTERACTIVE (t = 2) with the case's memory as memlimit (64 MiB is
  // MEMLIMIT_INTERACTIVE), in whole KiB from libsodium's least, 8 KiB; a 16-byte salt.
  {
    op: 'sodium-pwhash-argon2id',
    call: (s, i) => s.crypto_pwhash(HASH_BYTES, i.key16, i.nonce.subarray(0, 16), s.crypto_pwhash_OPSLIMIT_INTERACTIVE, i.size, s.crypto_pwhash_ALG_ARGON2ID13),
    takesSize: (size) => size >= 8 * KiB && size % KiB === 0,
    sizeIsMemory: true,
  },
  // scrypt with opslimit memlimit / 32, so that libsodium's choice of N takes the memory given (N = memlimit / 1 KiB,
  // r = 8, p = 1: 16 MiB is both INTERACTIVE limits); a power of two from 1 MiB, where opslimit is at least 32768; a 32-byte salt.
  {
    op: 'sodium-pwhash-scryptsalsa208sha256',
    call: (s, i) => s.crypto_pwhash_scryptsalsa208sha256(HASH_BYTES, i.key16, i.key, i.size / 32, i.size),
    takesSize: (size) => size >= MiB && (size & (size - 1)) === 0,
    sizeIsMemory: true,
  },
  // Box and sealed box (X25519, then XSalsa20-Poly1305) and a signature cost a curve operation and a pass over the message.
  { op: 'sodium-box-easy', call: (s, i) => s.crypto_box_easy(i.message, i.nonce, i.recipient.publicKey, i.sender.privateKey) },
  {
    op: 'sodium-box-open-easy',
    seal: (peer, i) => ({ sealed: peer.crypto_box_easy(i.message, i.nonce, i.recipient.publicKey, i.sender.privateKey) }),
    call: (s, i) => s.crypto_box_open_easy(i.sealed, i.nonce, i.sender.publicKey, i.recipient.privateKey),
  },
  {
    op: 'sodium-box-seal',
    call: (s, i) => s.crypto_box_seal(i.message, i.recipient.publicKey),
    checked: (s, peer, i) => peer.crypto_box_seal_open(s.crypto_box_seal(i.message, i.recipient.publicKey), i.recipient.publicKey, i.recipient.privateKey),
  },
  {
    op: 'sodium-box-seal-open',
    seal: (peer, i) => ({ sealed: peer.crypto_box_seal(i.message, i.recipient.publicKey) }),
    call: (s, i) => s.crypto_box_seal_open(i.sealed, i.recipient.publicKey, i.recipient.privateKey),
  },
  { op: 'sodium-scalarmult', call: (s, i) => s.crypto_scalarmult(i.sender.privateKey, i.recipient.publicKey), takesSize: only(SHARED_BYTES) },
  {
    op: 'sodium-kx-client-session-keys',
    call: (s, i) => {
      const { sharedRx, sharedTx } = s.crypto_kx_client_session_keys(i.sender.publicKey, i.sender.privateKey, i.recipient.publicKey);
      return joined(sharedRx, sharedTx);
    },
    takesSize: only(SHARED_BYTES),
  },
  // Ed25519: libsodium's signature is the one verified.
  { op: 'sodium-sign-detached', call: (s, i) => s.crypto_sign_detached(i.message, i.signer.privateKey) },
  {
    op: 'sodium-sign-verify-detached',
    seal: (peer, i) => ({ sealed: peer.crypto_sign_detached(i.message, i.signer.privateKey) }),
    call: (s, i) => Uint8Array.of(s.crypto_sign_verify_detached(i.sealed, i.message, i.signer.publicKey) ? 1 : 0),
  },
];

/**
 * The fourfold columns of these ops: both tiers, as fourfold/sodium's calls follow the global tier, and
 * ready() naming none (Node, Deno), where the curves and SHA-2 go to node:crypto: a program's default.
 */
const FOURFOLD_COLUMNS = ['fourfold', 'fourfold-js', NATIVE];

/** The op definitions of the rows, for the libraries loaded; none without libsodium. */
export function sodiumOps(apis: Apis): OpDefinition<unknown>[] {
  const peer = apis.sodium as unknown as Sodium | undefined;
  if (peer === undefined) return [];
  const ours = apis.fourfold?.sodium;
  return ROWS.map((row) => {
    const entry = (library: string, s: Sodium): OpEntry<Inputs> => ({
      library,
      bind: (i) => row.bind?.(s, i) ?? (() => row.call!(s, i)),
      ...(row.checked === undefined ? {} : { checkedOutput: (i: Inputs) => row.checked!(s, peer, i) }),
    });
    const label = row.op.replaceAll('-', ' ');
    return defineOp<Inputs>({
      op: row.op,
      inputs: (shape) => {
        const i = { sealed: new Uint8Array(0), extra: new Uint8Array(0), ...inputsOf(label, shape, peer, row.sizeIsMemory === true) };
        return { ...i, ...row.seal?.(peer, i) };
      },
      ...(row.takesSize === undefined ? {} : { takesSize: row.takesSize }),
      ...(row.sizeIsMemory === true ? { sizeIsMemory: true } : {}),
      sizesOnly: true,
      optIn: true,
      reference: 'sodium',
      entries: [
        ...(ours === undefined ? [] : FOURFOLD_COLUMNS.map((library) => entry(library, ours))),
        entry('sodium', peer),
        ...dependencyEntries(row.op, apis),
      ],
    });
  });
}
