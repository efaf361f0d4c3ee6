/**
 * A TypeScript program written against libsodium-wrappers' typings (its
 * own since 0.8, @types/libsodium-wrappers before) type-checks with only
 * its import changed: the type names they export, and StateAddress as one
 * type for every state, a field that holds any _init's state and goes to
 * any call. npm test's `tsc -p tsconfig.json` checks this file's types;
 * the tests check that the values have the shapes the names say, against
 * libsodium-wrappers-sumo.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import sodium, {
  base64_variants,
  type CryptoBox,
  type CryptoKX,
  type KeyPair,
  type KeyType,
  type MessageTag,
  type SecretBox,
  type StateAddress,
  type StringCryptoBox,
  type StringCryptoKX,
  type StringKeyPair,
  type StringMessageTag,
  type StringOutputFormat,
  type StringSecretBox,
  type Uint8ArrayOutputFormat,
} from 'fourfold/sodium';
import { NO_SODIUM, rand } from '../helpers.js';
import { loadSumo, peer } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
/** libsodium-wrappers-sumo, called with the same arguments. */
const lib = () => peer() as unknown as typeof sodium;

/** A receiver as such programs keep one: its state in a field declared StateAddress. */
class Receiver {
  private state: StateAddress;
  constructor(header: Uint8Array, key: Uint8Array) {
    this.state = sodium.crypto_secretstream_xchacha20poly1305_init_pull(header, key);
  }
  pull(chunk: Uint8Array): MessageTag | false {
    return sodium.crypto_secretstream_xchacha20poly1305_pull(this.state, chunk, null);
  }
}

it('a StateAddress field holds any family state and goes to its calls; another family refuses it', opts, () => {
  const key = rand(32);
  const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
  const pushed: StateAddress = state;
  const chunk = sodium.crypto_secretstream_xchacha20poly1305_push(pushed, 'a message', null, sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL);
  const pulled = new Receiver(header, key).pull(chunk);
  assert.ok(pulled !== false);
  assert.equal(sodium.to_string(pulled.message), 'a message');
  assert.equal(pulled.tag, sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL);

  const hashing: StateAddress = sodium.crypto_generichash_init(null, 32);
  sodium.crypto_generichash_update(hashing, 'abc');
  assert.equal(sodium.crypto_generichash_final(hashing, 32, 'hex'), lib().crypto_generichash(32, 'abc', null, 'hex'));
  const mac: StateAddress = sodium.crypto_onetimeauth_init(key);
  assert.throws(() => sodium.crypto_generichash_update(mac, 'abc'), { message: 'invalid usage' });
  const signing: StateAddress = sodium.crypto_sign_init();
  sodium.crypto_sign_update(signing, 'abc');
  assert.equal(sodium.crypto_sign_final_create(signing, sodium.crypto_sign_seed_keypair(key).privateKey).length, 64);
});

it("the result types' names: bytes by default, strings in a string output format", opts, () => {
  const bytes: Uint8ArrayOutputFormat = 'uint8array';
  const hex: StringOutputFormat = 'hex';
  const pair: KeyPair = sodium.crypto_box_keypair(bytes);
  const type: KeyType = pair.keyType;
  const signing: StringKeyPair = sodium.crypto_sign_keypair(hex);
  assert.equal(type, 'x25519');
  assert.equal(signing.keyType, 'ed25519');
  assert.match(signing.publicKey, /^[0-9a-f]{64}$/);

  const nonce = rand(24);
  const box: CryptoBox = sodium.crypto_box_detached('m', nonce, pair.publicKey, pair.privateKey);
  const boxText: StringCryptoBox = sodium.crypto_box_detached('m', nonce, pair.publicKey, pair.privateKey, hex);
  assert.equal(sodium.to_hex(box.ciphertext), boxText.ciphertext);
  assert.equal(sodium.to_hex(box.mac), boxText.mac);

  const key = rand(32);
  const secret: SecretBox = sodium.crypto_secretbox_detached('m', nonce, key);
  const secretText: StringSecretBox = sodium.crypto_secretbox_detached('m', nonce, key, hex);
  assert.equal(sodium.to_hex(secret.cipher), secretText.cipher);
  assert.equal(secretText.mac, lib().crypto_secretbox_detached('m', nonce, key, 'hex').mac);

  const server = sodium.crypto_kx_keypair();
  const client = sodium.crypto_kx_keypair();
  const keys: CryptoKX = sodium.crypto_kx_client_session_keys(client.publicKey, client.privateKey, server.publicKey);
  const serverKeys: StringCryptoKX = sodium.crypto_kx_server_session_keys(server.publicKey, server.privateKey, client.publicKey, hex);
  assert.equal(sodium.to_hex(keys.sharedRx), serverKeys.sharedTx);

  const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
  const chunk = sodium.crypto_secretstream_xchacha20poly1305_push(state, 'text', null, 0);
  const text: StringMessageTag | false = sodium.crypto_secretstream_xchacha20poly1305_pull(
    sodium.crypto_secretstream_xchacha20poly1305_init_pull(header, key),
    chunk,
    null,
    'text',
  );
  assert.ok(text !== false);
  assert.equal(text.message, 'text');

  const variant: base64_variants = base64_variants.ORIGINAL;
  assert.equal(sodium.to_base64('hi', variant), lib().to_base64('hi', lib().base64_variants.ORIGINAL));
});
