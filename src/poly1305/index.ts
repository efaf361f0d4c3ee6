/**
 * Poly1305 one-time authenticator (RFC 8439 §2.5). A key must authenticate
 * one message only; the AEADs in fourfold/chacha derive a fresh one per nonce.
 */
import type { Poly1305State } from './engine.js';
import { engine } from './tiers.js';
import { bytes } from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';

/**
 * An incremental Poly1305 (as @noble/hashes' `poly1305.create`): update
 * any number of times with any split, then digest once. One key, one
 * message.
 */
export class Poly1305 {
  readonly #state: Poly1305State;

  /** A MAC under the 32-byte one-time `key` (copied). */
  constructor(key: Uint8Array) {
    this.#state = engine().create(bytes(key, 'key', 32));
  }

  /** Adds `data` to the message; returns this hasher, for chained calls. */
  update(data: Uint8Array): this {
    this.#state.update(bytes(data, 'data'));
    return this;
  }

  /** The 16-byte tag; the state is wiped and cannot be used again. */
  digest(): Bytes {
    const out = new Uint8Array(16);
    this.#state.digestInto(out);
    return out;
  }

  /** The 16-byte tag, into `out` (16 bytes), which is returned; the state is wiped. */
  digestInto<T extends Uint8Array>(out: T): T {
    this.#state.digestInto(bytes(out, 'output', 16));
    return out;
  }

  /** Wipes the state without producing a tag. */
  destroy(): void {
    this.#state.destroy();
  }
}

/**
 * The 16-byte Poly1305 tag (RFC 8439 §2.5) of `message` under a 32-byte
 * one-time `key`: a key must authenticate one message only (the AEADs
 * derive a fresh one per nonce). `poly1305.create(key)` is the incremental
 * form.
 *
 * @example
 * ```ts
 * import { poly1305 } from 'fourfold/poly1305';
 * const oneTimeKey = crypto.getRandomValues(new Uint8Array(32));
 * const tag = poly1305(new TextEncoder().encode('message'), oneTimeKey); // 16 bytes
 * ```
 */
export const poly1305: ((message: Uint8Array, key: Uint8Array) => Bytes) & {
  /** An incremental Poly1305 under the 32-byte one-time `key`: update(), then digest(). */
  create(key: Uint8Array): Poly1305;
} = Object.assign((message: Uint8Array, key: Uint8Array): Bytes => engine().mac(bytes(message, 'message'), bytes(key, 'key', 32)) as Bytes, {
  create: (key: Uint8Array): Poly1305 => new Poly1305(key),
});
