/** The op table's types: an op builds a shape's inputs once, each entry binds them, so a case's libraries read the same bytes. */

/**
 * One timed call, returning its output so it stays alive; an asynchronous
 * one (a pool's) is awaited before the next, so a batch measures latency.
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
   * Why the library cannot take a shape (mipher: no empty message): its column
   * reports it instead of a time; a refusing reference leaves outputs unchecked.
   */
  refuses?(shape: Shape): string | undefined;
  /** Returns the call to time, for a shape the library does not refuse. */
  bind(inputs: I): Call;
  /**
   * The first call's complete output, where the call returns part of it
   * (node:crypto's AEAD tag apart); asked after that call settled (ops/age.ts).
   */
  checkedOutput?(inputs: I): Uint8Array | Promise<Uint8Array>;
}

export interface OpDefinition<I = never> {
  /** What is measured, e.g. 'chacha20poly1305-encrypt'. */
  readonly op: string;
  /** Builds the inputs of one shape. */
  inputs(shape: Shape): I;
  /** Whether the op takes messages of `size` bytes (Serpent's ECB and CBC: whole blocks); default every size. */
  takesSize?(size: number): boolean;
  /**
   * Whether a shape's size is the memory of a call, not a message (scrypt's
   * lane): 'sizes' part only, and no message-size threshold (Library.pooledFrom).
   */
  readonly sizeIsMemory?: boolean;
  /** 'sizes' part only: a file format (age), its cost below a few chunks its header's. */
  readonly sizesOnly?: boolean;
  /** The reference the others must reproduce, unless the run names its own; default: the first in column order. */
  readonly reference?: string;
  /** In any order; the harness sorts them by library. */
  readonly entries: readonly OpEntry<I>[];
  /** Timed only when BenchConfig.ops names it: the platform's reference lines (WebCrypto), shown for scale. */
  readonly optIn?: boolean;
}

/** Erases an op's input type for the table: inputs only ever flow from its own inputs() to its own entries. */
export function defineOp<I>(definition: OpDefinition<I>): OpDefinition<unknown> {
  return definition as unknown as OpDefinition<unknown>;
}
