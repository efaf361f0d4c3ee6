/**
 * A TransformStream that lets go of what its work holds (a key, a buffer,
 * a worker keeping the stream's state) however the stream ends: finished,
 * errored by its source or by a chunk its work refuses, cancelled or
 * aborted at any moment (before its first chunk, mid-way, while it
 * flushes), or because the sink it is piped to failed.
 *
 * The streams spec calls a transformer's cancel() for most of these, but
 * not all: a stream cancelled while its flush() runs gets no cancel(), and
 * its flush finds the readable side gone when it enqueues (which throws,
 * in words that differ per engine). Here what is emitted after the
 * readable side is gone is wiped, and the work is ended quietly, so that
 * the error a caller sees is the one that ended the stream (the sink's,
 * say), not the stream's internal state.
 */
import { zeroize } from './bytes.js';

/** What a releasing stream does; `emit` hands an output chunk on (and throws once there is nobody to take it). */
export interface ReleasingTransformer<I> {
  transform(chunk: I, emit: (out: Uint8Array) => void): void | Promise<void>;
  flush(emit: (out: Uint8Array) => void): void | Promise<void>;
  /** Lets go of what the stream holds: called once, whichever way it ends, after its work or while it is pending. */
  release(): void;
}

/** Thrown by `emit` once the readable side is gone: the work stops, and the stream's own error stands. */
const GONE = Symbol('the readable side is gone');

/** `transformer` as a TransformStream (see the module comment). */
export function releasingStream<I, O extends Uint8Array>(transformer: ReleasingTransformer<I>): TransformStream<I, O> {
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    transformer.release();
  };
  const emitTo =
    (controller: TransformStreamDefaultController<O>) =>
    (out: Uint8Array): void => {
      if (!ended) {
        try {
          controller.enqueue(out as O);
          return;
        } catch {
          // The readable side was cancelled or errored meanwhile.
        }
      }
      zeroize(out);
      throw GONE;
    };
  /** After `step` threw `e`: ends the stream, and rethrows unless the stream had already ended (its own error stands). */
  const failed = (e: unknown): void => {
    const quietly = ended || e === GONE;
    end();
    if (!quietly) throw e;
  };
  /** Runs `step`, sync or async, with `failed` on a throw, and `after` once it has settled either way. */
  const guard = (step: () => void | Promise<void>, after?: () => void): void | Promise<void> => {
    let result: void | Promise<void>;
    try {
      result = step();
    } catch (e) {
      try {
        failed(e);
      } finally {
        after?.();
      }
      return;
    }
    if (result === undefined) {
      after?.();
      return;
    }
    return result.then(after, (e: unknown) => {
      try {
        failed(e);
      } finally {
        after?.();
      }
    });
  };
  return new TransformStream<I, O>({
    transform: (chunk, controller) => guard(() => transformer.transform(chunk, emitTo(controller))),
    flush: (controller) => guard(() => transformer.flush(emitTo(controller)), end),
    // Transformer.cancel (streams spec 2023) is not in TypeScript's DOM types yet; engines without it end the work at its next emit.
    ...{ cancel: end },
  });
}
