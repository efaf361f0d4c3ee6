/**
 * Poly1305 (RFC 8439 §2.5) as a one-shot MAC over a whole message.
 * node:crypto offers no Poly1305 of its own (only inside the AEAD), and
 * libsodium-wrappers has crypto_onetimeauth only in its -sumo build, so
 * the sodium entry is registered only when the function exists.
 */
import { bytes } from '../fixtures.js';
import type { BenchEntry, Call } from '../harness.js';
import type { Apis } from '../libraries.js';

function inputs(size: number): { key: Uint8Array; message: Uint8Array } {
  return { key: bytes('poly1305 key', 32), message: bytes(`poly1305 message ${size}`, size) };
}

export function poly1305Entries(apis: Apis): BenchEntry[] {
  const entries: BenchEntry[] = [];
  const add = (library: string, prepare: (size: number) => Call) => entries.push({ op: 'poly1305', library, prepare });

  const fourfold = apis.fourfold?.poly1305;
  if (fourfold !== undefined) {
    for (const library of ['fourfold', 'fourfold-js']) {
      add(library, (size) => {
        const { key, message } = inputs(size);
        return () => fourfold.poly1305(message, key);
      });
    }
  }
  add('noble', (size) => {
    const { key, message } = inputs(size);
    return () => apis.noble.poly1305.poly1305(message, key);
  });
  const onetimeauth = (apis.sodium as unknown as { crypto_onetimeauth?: (m: Uint8Array, k: Uint8Array) => Uint8Array })
    .crypto_onetimeauth;
  if (onetimeauth !== undefined) {
    add('sodium', (size) => {
      const { key, message } = inputs(size);
      return () => onetimeauth(message, key);
    });
  }
  return entries;
}
