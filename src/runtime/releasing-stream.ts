/**
 * A TransformStream that lets go of what its work holds (a key, a buffer,
 * a worker keeping the stream's state) however the stream ends: finished,
 * errored by its source or by a chunk its work refuses, cancelled or
 * aborted at any moment (before its first chunk, mid-way, while it
 * flushes), or because the sink it is piped to failed.
 *
 * When its work fails after emitting (a decryption releases the chunks
 * that verified, then throws for the one that did not), the error waits
 * until the reader has taken what was emitted: an errored stream drops
 * the chunks still queued on its readable side.
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
import { now } from './host.js';

/** Hands an output chunk on: a stream's, or a codec's (age's Encryptor and Decryptor). */
export type Emit = (out: Uint8Array) => void;

/** Engines without web streams (React Native) are told what to use instead, before any key is taken: `what` names the call ("age: encryptStream"). */
export function needTransformStream(what: string, instead: string): void {
  if (typeof TransformStream !== 'function')
    throw new TypeError(`${what} returns a TransformStream (web streams), which this engine does not have; use ${instead}`);
}

/** What a releasing stream does; `emit` hands an output chunk on (and throws once there is nobody to take it). */
export interface ReleasingTransformer<I> {
  transform(chunk: I, emit: Emit): void | Promise<void>;
  flush(emit: Emit): void | Promise<void>;
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
  /** After `step` threw `e`: ends the stream, and rethrows (once the reader took what was emitted) unless the stream had already ended (its own error stands). */
  const failed = async (e: unknown, controller: TransformStreamDefaultController<O>): Promise<void> => {
    const quietly = ended || e === GONE;
    if (!quietly) await taken(controller);
    end();
    if (!quietly) throw e;
  };
  /** Runs `step`, sync or async, with `failed` on a throw, and `after` once it has settled either way. */
  const guard = (controller: TransformStreamDefaultController<O>, step: () => void | Promise<void>, after?: () => void): void | Promise<void> => {
    let result: void | Promise<void>;
    try {
      result = step();
    } catch (e) {
      result = failed(e, controller);
      return after === undefined ? result : result.finally(after);
    }
    if (result === undefined) {
      after?.();
      return;
    }
    const settled = result.catch((e: unknown) => failed(e, controller));
    return after === undefined ? settled : settled.finally(after);
  };
  return new TransformStream<I, O>({
    transform: (chunk, controller) => guard(controller, () => transformer.transform(chunk, emitTo(controller))),
    flush: (controller) => guard(controller, () => transformer.flush(emitTo(controller)), end),
    // Transformer.cancel (streams spec 2023) is not in TypeScript's DOM types yet; engines without it end the work at its next emit.
    ...{ cancel: end },
  });
}

/** How long an error waits for a reader that takes nothing more: then it errors the stream anyway, dropping what is queued. */
const PATIENCE_MS = 1000;

/**
 * Resolves once the readable side holds nothing queued (its reader took
 * every chunk, or it is gone), or once its reader has taken nothing for
 * PATIENCE_MS (one that stopped reading must not hold the stream, or a
 * process, forever). The streams API has no event for a read: it looks
 * again after a few microtasks (an in-memory pipe reads in them), then
 * each turn of the event loop.
 */
async function taken(controller: TransformStreamDefaultController<Uint8Array>): Promise<void> {
  let queued = controller.desiredSize ?? 0;
  let since = now();
  for (let look = 0; queued < 0; look++) {
    await (look < 64 ? Promise.resolve() : new Promise<void>((resolve) => setTimeout(resolve, 1)));
    const size = controller.desiredSize ?? 0;
    if (size !== queued) since = now();
    else if (now() - since > PATIENCE_MS) return;
    queued = size;
  }
}
