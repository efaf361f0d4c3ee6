/**
 * The op table's types. An op definition builds the inputs of one shape
 * (size, byteOffset, number of keys) once, and each library's entry binds
 * them into the call the harness times, so every library of a case reads
 * the very same bytes.
 */

/**
 * One timed call. It returns its output so the harness can keep it alive.
 * An asynchronous call (a worker pool's) returns a promise of it; the
 * harness awaits each call before the next, so a batch measures latency,
 * and finds out which kind a call is from its first result.
 */
export type Call = () => Uint8Array | Promise<Uint8Array>;

export interface Shape {
  /** Message bytes per call (what the throughput counts); the memory of one lane for an op whose size is memory (OpDefinition.sizeIsMemory). */
  readonly size: number;
  /** byteOffset of the input, and of a caller-supplied output, within its buffer: 0 (cases.ts shapeOf). */
  readonly offset: number;
  /** Distinct keys the calls cycle through: 1 (cases.ts shapeOf). */
  readonly keys: number;
}

export interface OpEntry<I> {
  /** Who is measured; must name a loaded Library. */
  readonly library: string;
  /**
   * Why the library cannot take a shape the op has (mipher: no empty
   * message), if it cannot: its column then reports that instead of a time,
   * and a reference that refuses leaves the shape's outputs unchecked.
   * Default: it takes every shape.
   */
  refuses?(shape: Shape): string | undefined;
  /** Returns the call to time, for a shape the library does not refuse. */
  bind(inputs: I): Call;
  /**
   * The complete output of the first call, for a call that returns only
   * part of it (node:crypto keeps an AEAD tag apart from the ciphertext).
   * Without it, the output of the bound call is checked. Asked after the
   * first call settled, so it may look at what that call left (an age
   * file, decrypted: ops/age.ts).
   */
  checkedOutput?(inputs: I): Uint8Array | Promise<Uint8Array>;
}

export interface OpDefinition<I = never> {
  /** What is measured, e.g. 'chacha20poly1305-encrypt'. */
  readonly op: string;
  /** Builds the inputs of one shape. */
  inputs(shape: Shape): I;
  /**
   * Whether the op is defined for messages of `size` bytes (default: every
   * size); other sizes are not measured. Serpent's ECB and CBC without
   * padding take whole blocks only.
   */
  takesSize?(size: number): boolean;
  /**
   * Whether a shape's size is the memory one call works in rather than a
   * message (scrypt: 128 * r * N bytes a lane). Such an op is timed in the
   * 'sizes' part only (the sweep is about messages), and a column's
   * message-size threshold (Library.pooledFrom: fourfold/parallel's inline
   * calls) does not apply to it.
   */
  readonly sizeIsMemory?: boolean;
  /**
   * Timed in the 'sizes' part only, as an op whose size is memory: a
   * file's format (age), whose cost per call below a few chunks is its
   * header's, and whose large sizes are what it is for.
   */
  readonly sizesOnly?: boolean;
  /**
   * The reference whose output the others must reproduce, where loaded and
   * unless the run names its own (BenchConfig.references); default: the
   * first reference in column order.
   */
  readonly reference?: string;
  /** In any order; the harness sorts them by library. */
  readonly entries: readonly OpEntry<I>[];
  /**
   * Timed only when BenchConfig.ops names it (a run without ops leaves it
   * out): the platform's reference lines, other algorithms than fourfold's
   * (WebCrypto's AES-GCM and SHA-256), which the benchmark page shows for
   * scale.
   */
  readonly optIn?: boolean;
}

/** Erases an op's input type for the table: inputs only ever flow from its own inputs() to its own entries. */
export function defineOp<I>(definition: OpDefinition<I>): OpDefinition<unknown> {
  return definition as unknown as OpDefinition<unknown>;
}
