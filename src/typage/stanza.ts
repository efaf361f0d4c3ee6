/**
 * The low-level shapes of typage's API (npm `age-encryption`): a stanza
 * as a custom recipient or identity sees it (its arguments, the type
 * first, and its body), the Recipient and Identity interfaces such code
 * implements, and a stream that tells its output's size. fourfold/age
 * takes such objects (src/age/custom-keys.ts checks and copies what
 * they give).
 */
/**
 * A stanza of an age header (C2SP age, "Header"): its arguments, the
 * first of them its type ("X25519", "scrypt", "example.com/..."), and its
 * body, written in the header as base64 lines.
 */
export class Stanza {
  /** The arguments of the stanza's first line, the type first: each one or more visible ASCII characters, no spaces. */
  readonly args: string[];
  /** The body's bytes (base64 in the header, wrapped at 64 columns). */
  readonly body: Uint8Array;

  /** A stanza of these arguments (the type first) and body, kept as given: the Encrypter checks and copies them when it writes a header. */
  constructor(args: string[], body: Uint8Array) {
    this.args = args;
    this.body = body;
  }
}

/**
 * A recipient of a type of your own (a plugin, a remote key): wraps each
 * file's new 16-byte file key into stanzas for the header. Strings
 * ("age1...") are simpler: Encrypter.addRecipient takes them.
 */
export interface Recipient {
  /** The stanzas that carry `fileKey` for this recipient, once for each file; its Identity must know them again. */
  wrapFileKey(fileKey: Uint8Array): Stanza[] | Promise<Stanza[]>;
}

/**
 * An identity of a type of your own: finds its stanzas among a header's
 * and unwraps the file key from them. Strings ("AGE-SECRET-KEY-1...") are
 * simpler: Decrypter.addIdentity takes them.
 */
export interface Identity {
  /**
   * The file key, or null when no stanza is this identity's. Throws only
   * for a stanza that is its own and malformed, or a failure outside the
   * file (a network error): a file for another key gives null.
   */
  unwrapFileKey(stanzas: Stanza[]): Uint8Array | null | Promise<Uint8Array | null>;
}

/** A stream of an encrypted or decrypted file that tells its size from its input's. */
export interface ReadableStreamWithSize extends ReadableStream<Uint8Array> {
  /**
   * The output's size for an input of `sourceSize` bytes: the
   * ciphertext's for a plaintext, the plaintext's for a ciphertext (which
   * throws where no age file has that size).
   */
  size(sourceSize: number): number;
}

/** Whether `value` is a ReadableStream (by its shape: a stream of another realm counts). */
export const isReadableStream = (value: unknown): value is ReadableStream<Uint8Array> => typeof (value as ReadableStream | undefined)?.getReader === 'function';
