/**
 * Poly1305 one-time authenticator (RFC 8439 §2.5). A key must authenticate
 * one message only; the AEADs in fourfold/chacha derive a fresh one per nonce.
 */
import type { Poly1305State } from './engine.js';
import { engine } from './tiers.js';
import { bytes } from '../runtime/assert.js';

/** An incremental Poly1305: update any number of times, then digest once. */
export class Poly1305 {
  private readonly state: Poly1305State;

  constructor(key: Uint8Array) {
    this.state = engine().create(bytes(key, 'key', 32));
  }

  update(data: Uint8Array): this {
    this.state.update(bytes(data, 'data'));
    return this;
  }

  /** The 16-byte tag; the state is wiped and cannot be used again. */
  digest(): Uint8Array {
    const out = new Uint8Array(16);
    this.state.digestInto(out);
    return out;
  }

  digestInto(out: Uint8Array): Uint8Array {
    this.state.digestInto(bytes(out, 'output', 16));
    return out;
  }

  /** Wipes the state without producing a tag. */
  destroy(): void {
    this.state.destroy();
  }
}

/** The 16-byte Poly1305 tag of `message` under the 32-byte one-time `key`. */
export const poly1305 = Object.assign(
  (message: Uint8Array, key: Uint8Array): Uint8Array => engine().mac(bytes(message, 'message'), bytes(key, 'key', 32)),
  { create: (key: Uint8Array): Poly1305 => new Poly1305(key) },
);
