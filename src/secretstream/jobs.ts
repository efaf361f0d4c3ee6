/**
 * secretstream's jobs for the pool's workers (parallel/worker.ts and
 * worker-js.ts serve them): a stream of fourfold/parallel keeps its state
 * (state.ts) in one worker, which seals or opens its messages one after
 * another, in the order they come. Where no worker can start, the stream's
 * calling thread runs the same jobs (parallel/secretstream.ts).
 */
import type { SecretstreamEngine } from './engine.js';
import { StreamState } from './state.js';
import type { Handlers, JobType } from '../pool/protocol.js';
import { EMPTY } from '../runtime/bytes.js';

export type SecretstreamJobs = {
  /** The state of a new stream (either side), under the number its caller gave it. */
  readonly 'secretstream.open': JobType<{ stream: number; key: Uint8Array; header: Uint8Array }, undefined>;
  /** The sealed message (libsodium's push). */
  readonly 'secretstream.push': JobType<{ stream: number; message: Uint8Array; tag: number }, Uint8Array>;
  /** The message followed by its tag byte, or nothing when it does not verify (the stream is then closed). */
  readonly 'secretstream.pull': JobType<{ stream: number; sealed: Uint8Array }, Uint8Array | undefined>;
  /** Wipes and forgets the stream's state. */
  readonly 'secretstream.close': JobType<{ stream: number }, undefined>;
};

/**
 * The jobs, with the streams they hold, on the engine `engine()` gives at
 * each job: a worker's tier, or the calling thread's, which may change
 * between two messages (a stream's state is the same on both tiers).
 */
export function secretstreamJobs(engine: () => SecretstreamEngine): Handlers<SecretstreamJobs> {
  /** The streams held here, by the number their caller gave them. */
  const streams = new Map<number, StreamState>();

  function stream(id: number): StreamState {
    const s = streams.get(id);
    if (s === undefined) throw new Error('secretstream: no such stream in this worker');
    return s;
  }

  function close(id: number): void {
    streams.get(id)?.wipe();
    streams.delete(id);
  }

  return {
    'secretstream.open': (p) => {
      streams.set(p.stream, new StreamState(engine().chacha, p.key, p.header));
      return undefined;
    },
    'secretstream.push': (p) => {
      const s = stream(p.stream);
      const e = engine();
      const tag = p.tag;
      const sealed = e.push(s.key, s.nonce, tag, EMPTY, p.message);
      s.advance(e.chacha, sealed.subarray(sealed.length - 16), tag);
      return sealed;
    },
    'secretstream.pull': (p) => {
      const s = stream(p.stream);
      const e = engine();
      const sealed = p.sealed;
      const pulled = e.pull(s.key, s.nonce, EMPTY, sealed);
      if (pulled === undefined) {
        close(p.stream);
        return undefined;
      }
      s.advance(e.chacha, pulled.mac, pulled.tag);
      const out = new Uint8Array(pulled.message.length + 1);
      out.set(pulled.message);
      out[pulled.message.length] = pulled.tag;
      pulled.message.fill(0);
      return out;
    },
    'secretstream.close': (p) => {
      close(p.stream);
      return undefined;
    },
  };
}
