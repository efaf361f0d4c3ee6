/**
 * The platform's own cryptography as a reference line: WebCrypto's
 * AES-256-GCM (NIST SP 800-38D; 12-byte IV, 16-byte tag) and SHA-256
 * (FIPS 180-4), other algorithms than fourfold's (no fourfold column), each
 * promise awaited, the key imported once as an application keeps it;
 * @noble checks the bytes. Opt-in (OpDefinition.optIn), as the page names them.
 */
import type { Apis } from '../libraries.js';
import { bytes } from '../fixtures.js';
import { type Inputs, inputsOf } from './table.js';
import { defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

/** WebCrypto takes views of ArrayBuffers only; the inputs here are (fixtures.ts makes no shared memory). */
const plainView = (view: Uint8Array) => view as Uint8Array<ArrayBuffer>;

export function webcryptoOps({ webcrypto: subtle, noble, nobleHashes }: Apis): OpDefinition<unknown>[] {
  const gcm: OpEntry<Inputs>[] = [{ library: 'noble', bind: (i) => () => noble.aes.gcm(i.key, i.nonce).encrypt(i.message) }];
  const sha: OpEntry<Inputs>[] = nobleHashes ? [{ library: 'noble-hashes', bind: (i) => () => nobleHashes.sha256(i.message) }] : [];
  if (subtle !== undefined) {
    gcm.push({
      library: 'webcrypto',
      bind: ({ key, nonce, message }) => {
        const imported = subtle.importKey('raw', plainView(key), 'AES-GCM', false, ['encrypt']);
        return async () => new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv: plainView(nonce) }, await imported, plainView(message)));
      },
    });
    sha.push({ library: 'webcrypto', bind: (i) => async () => new Uint8Array(await subtle.digest('SHA-256', plainView(i.message))) });
  }
  const inputs = (label: string) => (shape: Shape) => ({ ...inputsOf(label, shape, 0), nonce: bytes(`${label} iv`, 12) });
  return [
    defineOp<Inputs>({ op: 'aes-256-gcm-encrypt', inputs: inputs('aes-256-gcm'), entries: gcm, optIn: true }),
    defineOp<Inputs>({ op: 'sha-256', inputs: inputs('sha-256'), entries: sha, optIn: true }),
  ];
}
