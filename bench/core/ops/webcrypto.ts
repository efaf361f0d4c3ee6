/**
 * The platform's own cryptography, as a reference line: WebCrypto's
 * AES-256-GCM sealing (NIST SP 800-38D; 12-byte IV, no associated data,
 * 16-byte tag) and SHA-256 (FIPS 180-4). Other algorithms than fourfold's,
 * so no fourfold column: they show what the engine gives for free, often
 * with the CPU's AES and SHA instructions behind it. WebCrypto's calls
 * return promises; each is awaited before the next, as for
 * fourfold/parallel. The key is imported once per key (a CryptoKey is
 * what an application keeps), not on every call. @noble/ciphers' gcm and
 * @noble/hashes' sha256 check the bytes and are timed beside them.
 *
 * Opt-in ops (OpDefinition.optIn): timed only when a run names them, as
 * the benchmark page does.
 */
import type { Apis } from '../libraries.js';
import { bytes } from '../fixtures.js';
import { keySet, messageOf, perKey } from './shared.js';
import { defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

interface Inputs {
  readonly keys: Uint8Array[];
  readonly iv: Uint8Array;
  readonly message: Uint8Array;
}

/** WebCrypto takes views of ArrayBuffers only; the inputs here are (fixtures.ts makes no shared memory). */
const plainView = (view: Uint8Array) => view as Uint8Array<ArrayBuffer>;

export function webcryptoOps(apis: Apis): OpDefinition<unknown>[] {
  const subtle = apis.webcrypto;
  const gcm: OpEntry<Inputs>[] = [
    {
      library: 'noble',
      bind: perKey(
        ({ keys, iv, message }) =>
          (k) =>
            apis.noble.aes.gcm(keys[k]!, iv).encrypt(message),
      ),
    },
  ];
  const sha: OpEntry<Inputs>[] = [];
  if (apis.nobleHashes !== undefined) {
    const sha256 = apis.nobleHashes.sha256;
    sha.push({
      library: 'noble-hashes',
      bind:
        ({ message }) =>
        () =>
          sha256(message),
    });
  }
  if (subtle !== undefined) {
    gcm.push({
      library: 'webcrypto',
      bind: perKey(({ keys, iv, message }) => {
        const imported = keys.map((key) => subtle.importKey('raw', plainView(key), 'AES-GCM', false, ['encrypt']));
        return async (k) => new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv: plainView(iv) }, await imported[k]!, plainView(message)));
      }),
    });
    sha.push({
      library: 'webcrypto',
      bind:
        ({ message }) =>
        async () =>
          new Uint8Array(await subtle.digest('SHA-256', plainView(message))),
    });
  }
  const inputs =
    (label: string) =>
    (shape: Shape): Inputs => ({ keys: keySet(`${label} key`, shape.keys), iv: bytes(`${label} iv`, 12), message: messageOf(`${label} message`, shape) });
  return [
    defineOp<Inputs>({ op: 'aes-256-gcm-encrypt', inputs: inputs('aes-256-gcm'), entries: gcm, optIn: true }),
    defineOp<Inputs>({ op: 'sha-256', inputs: inputs('sha-256'), entries: sha, optIn: true }),
  ];
}
