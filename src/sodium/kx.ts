/**
 * crypto_kx (key exchange: keypair, seed_keypair, client_session_keys,
 * server_session_keys) in libsodium-wrappers' shape: X25519, then
 * BLAKE2b-512 of the shared secret and both public keys, cut into the
 * two session keys.
 */
import { hashBlake2b } from './blake2b.js';
import { formatObject, formatOf, type OutObject, sized, type OutputFormat } from './codecs.js';
import { dh, type KeyPair, x25519Pair } from './x25519.js';

/** A client's or a server's session keys. */
export interface SessionKeys {
  /** The key to receive (decrypt) with. */
  sharedRx: Uint8Array;
  /** The key to transmit (encrypt) with. */
  sharedTx: Uint8Array;
}

/** A new random key pair (keyType 'x25519'). */
export function crypto_kx_keypair<F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): OutObject<KeyPair, F> {
  formatOf(outputFormat);
  return x25519Pair('x25519', outputFormat);
}

/** The key pair of a 32-byte seed: the private key is BLAKE2b-256 of it. */
export function crypto_kx_seed_keypair<F extends OutputFormat | null = 'uint8array'>(seed: Uint8Array, outputFormat?: F): OutObject<KeyPair, F> {
  formatOf(outputFormat);
  return x25519Pair('x25519', outputFormat, hashBlake2b(sized(seed, 'seed', 32), { dkLen: 32 }));
}

/** BLAKE2b-512(X25519(sk, peer) || client's public key || server's): rx and tx, in the client's order. */
function sessionKeys(sk: Uint8Array, peer: Uint8Array, clientPk: Uint8Array, serverPk: Uint8Array): Uint8Array {
  const q = dh(sk, peer);
  if (q === undefined) throw new Error('invalid usage');
  const input = new Uint8Array(96);
  input.set(q);
  input.set(clientPk, 32);
  input.set(serverPk, 64);
  const keys = hashBlake2b(input, { dkLen: 64 });
  q.fill(0);
  input.fill(0);
  return keys;
}

/** The client's session keys: sharedRx from the server, sharedTx to it. */
export function crypto_kx_client_session_keys<F extends OutputFormat | null = 'uint8array'>(
  clientPublicKey: Uint8Array,
  clientSecretKey: Uint8Array,
  serverPublicKey: Uint8Array,
  outputFormat?: F,
): OutObject<SessionKeys, F> {
  formatOf(outputFormat);
  const cpk = sized(clientPublicKey, 'clientPublicKey', 32);
  const csk = sized(clientSecretKey, 'clientSecretKey', 32);
  const spk = sized(serverPublicKey, 'serverPublicKey', 32);
  const keys = sessionKeys(csk, spk, cpk, spk);
  return formatObject({ sharedRx: keys.slice(0, 32), sharedTx: keys.slice(32) }, outputFormat);
}

/** The server's session keys: sharedRx from the client, sharedTx to it. */
export function crypto_kx_server_session_keys<F extends OutputFormat | null = 'uint8array'>(
  serverPublicKey: Uint8Array,
  serverSecretKey: Uint8Array,
  clientPublicKey: Uint8Array,
  outputFormat?: F,
): OutObject<SessionKeys, F> {
  formatOf(outputFormat);
  const spk = sized(serverPublicKey, 'serverPublicKey', 32);
  const ssk = sized(serverSecretKey, 'serverSecretKey', 32);
  const cpk = sized(clientPublicKey, 'clientPublicKey', 32);
  const keys = sessionKeys(ssk, cpk, cpk, spk);
  return formatObject({ sharedRx: keys.slice(32), sharedTx: keys.slice(0, 32) }, outputFormat);
}
