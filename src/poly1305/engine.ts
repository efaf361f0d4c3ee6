/** An incremental Poly1305 (RFC 8439 §2.5) of one tier. */
export interface Poly1305State {
  /** Absorbs any number of bytes; may be called any number of times with any split. */
  update(data: Uint8Array): void;
  /** Writes the 16-byte tag into `out` and wipes the state; the object is unusable afterwards. */
  digestInto(out: Uint8Array): void;
  /**
   * Writes the polynomial without s, h = sum of m_i * r^(n - i + 1) over
   * the n blocks absorbed (a partial last one padded as for the tag), fully
   * reduced mod 2^130 - 5, as 17 little-endian bytes into `out`, and wipes
   * the state: the part of a tag that pieces of one message, hashed apart,
   * combine into (combine.ts).
   */
  polynomialInto(out: Uint8Array): void;
  /** Wipes the state without producing a tag. */
  destroy(): void;
}

export interface Poly1305Engine {
  /** A new state for the 32-byte one-time key r || s (r is clamped inside). */
  create(key: Uint8Array): Poly1305State;
  /** The tag of a whole message in one call. */
  mac(message: Uint8Array, key: Uint8Array): Uint8Array;
}
