/**
 * What the tests against typage (npm `age-encryption`) share: where
 * typage can run here, identities and encryptions it can use on a
 * platform whose WebCrypto refuses some X25519 scalars, and a stream's
 * bytes.
 */
import type { Encrypter } from 'age-encryption';
import { concat, ENGINE_HAS_WASM, rand } from '../helpers.js';
import { identityKey, PKCS8_PREFIX } from '../internal.js';

/** typage derives X25519 keys through WebCrypto where it can, and needs crypto.subtle to be there. */
export const NO_WEBCRYPTO = typeof globalThis.crypto?.subtle === 'object' ? false : 'not applicable: typage needs WebCrypto (crypto.subtle)';
/** typage reads files through Response, which Node builds on undici, which needs WebAssembly (node --jitless has none). */
export const NO_TYPAGE_FILES: false | string =
  NO_WEBCRYPTO || (ENGINE_HAS_WASM ? false : "not applicable: typage reads files through Response, and this engine's needs WebAssembly (undici)");
/** All of a stream's bytes. */
export async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const reader = stream.getReader(); ; ) {
    const { done, value } = await reader.read();
    if (done) return concat(...parts);
    parts.push(value);
  }
}

/** A small scrypt work factor for passphrase files: the format is what is tested, not the cost. */
export const WORK_FACTOR = 10;

let refusal: Promise<boolean> | undefined;
/**
 * Whether this platform's WebCrypto refuses X25519 private keys whose
 * first byte is 0, valid scalars (RFC 7748 §5), one random key in 256:
 * WebKitGTK does (DataError). typage imports every scalar it meets there
 * (its ephemeral keys, the identities it is given) and throws; fourfold
 * falls back to @noble/curves (test/age/x25519.test.ts covers such keys).
 */
function refusesLeadingZero(): Promise<boolean> {
  refusal ??= (async () => {
    const pkcs8 = Uint8Array.of(...PKCS8_PREFIX, 0, ...rand(31));
    try {
      await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'X25519' }, false, ['deriveBits']);
      return false;
    } catch {
      return true;
    }
  })();
  return refusal;
}

/** An identity from `generate` that typage can use here: where the platform refuses leading zero bytes, one whose scalar has none. */
export async function forTypage(generate: () => string | Promise<string>): Promise<string> {
  for (;;) {
    const identity = await generate();
    if (identityKey(identity, 'identity').bytes[0] !== 0 || !(await refusesLeadingZero())) return identity;
  }
}

/**
 * typage's encryption, which draws a random ephemeral scalar: drawn again
 * where the platform refused it for its leading zero byte (a DataError
 * there), at most four times; any other error, or anywhere else, fails.
 */
export async function typageEncrypt(e: Encrypter, data: Uint8Array): Promise<Uint8Array> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await e.encrypt(data);
    } catch (error) {
      if (attempt === 4 || (error as Error).name !== 'DataError' || !(await refusesLeadingZero())) throw error;
    }
  }
}

/** `bytes` as a stream of `piece`-byte chunks, as a page's fetch or file would give them. */
export function streamOf(bytes: Uint8Array, piece = 1000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}
