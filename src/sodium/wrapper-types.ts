/**
 * The type names libsodium-wrappers' typings give a TypeScript program
 * (its own since 0.8: StateAddress, Uint8ArrayOutputFormat; those of
 * @types/libsodium-wrappers before: KeyType, StringKeyPair, CryptoBox,
 * SecretBox, CryptoKX, MessageTag and their string forms), so that its type imports
 * switch with its import. Types only: nothing here reaches a bundle.
 */
import type { Detached, OutObject, SecretboxDetached } from './codecs.js';
import type { SessionKeys } from './kx.js';
import type { SecretstreamMessage } from './secretstream.js';
import type { State } from './states.js';
import type { KeyPair } from './x25519.js';

/**
 * A state, whatever its family: one type for all, as libsodium-wrappers
 * has it, so that a field or variable declared with it takes any _init's
 * state and goes to any call (one of another family's throws "invalid
 * usage", as there).
 */
export type StateAddress = State;
/** The output format that gives bytes, the default. */
export type Uint8ArrayOutputFormat = 'uint8array';
/** A key pair's keyType, as libsodium-wrappers names them. */
export type KeyType = KeyPair['keyType'];
/** A key pair in a string output format. */
export type StringKeyPair = OutObject<KeyPair, 'hex'>;
/** crypto_box_detached's result. */
export type CryptoBox = Detached;
/** crypto_box_detached's result in a string output format. */
export type StringCryptoBox = OutObject<Detached, 'hex'>;
/** crypto_secretbox_detached's result. */
export type SecretBox = SecretboxDetached;
/** crypto_secretbox_detached's result in a string output format. */
export type StringSecretBox = OutObject<SecretboxDetached, 'hex'>;
/** crypto_kx's session keys. */
export type CryptoKX = SessionKeys;
/** crypto_kx's session keys in a string output format. */
export type StringCryptoKX = OutObject<SessionKeys, 'hex'>;
/** A pulled secretstream message and its tag. */
export type MessageTag = SecretstreamMessage;
/** A pulled secretstream message as text (`outputFormat` 'text'), and its tag. */
export type StringMessageTag = OutObject<SecretstreamMessage, 'text'>;
