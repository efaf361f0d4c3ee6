/**
 * secretstream's jobs for the pool's workers (parallel/jobs.ts): a stream
 * of fourfold/parallel keeps its state (state.ts) in one worker, which
 * seals or opens its messages one after another, in the order they come.
 */
import { StreamState } from './state.js';
import { engine } from './tiers.js';
import type { JobHandler } from '../runtime/protocol.js';

const EMPTY = new Uint8Array(0);

/** The streams this worker holds, by the number their caller gave them. */
const streams = new Map<number, StreamState>();

function stream(id: unknown): StreamState {
  const s = streams.get(id as number);
  if (s === undefined) throw new Error('secretstream: no such stream in this worker');
  return s;
}

function close(id: number): void {
  streams.get(id)?.wipe();
  streams.delete(id);
}

export const secretstreamJobs: Record<string, JobHandler> = {
  /** params: stream (a number), key, header: the state of a new stream (either side). */
  'secretstream.open': (tier, p) => {
    streams.set(p.stream as number, new StreamState(engine.of(tier).chacha, p.key as Uint8Array, p.header as Uint8Array));
    return undefined;
  },
  /** params: stream, message, tag; result: the sealed message (libsodium's push). */
  'secretstream.push': (tier, p) => {
    const s = stream(p.stream);
    const e = engine.of(tier);
    const tag = p.tag as number;
    const sealed = e.push(s.key, s.nonce, tag, EMPTY, p.message as Uint8Array);
    s.advance(e.chacha, sealed.subarray(sealed.length - 16), tag);
    return sealed;
  },
  /**
   * params: stream, sealed; result: the message followed by its tag byte,
   * or nothing when it does not verify (the stream is then closed).
   */
  'secretstream.pull': (tier, p) => {
    const s = stream(p.stream);
    const e = engine.of(tier);
    const sealed = p.sealed as Uint8Array;
    const pulled = e.pull(s.key, s.nonce, EMPTY, sealed);
    if (pulled === undefined) {
      close(p.stream as number);
      return undefined;
    }
    s.advance(e.chacha, sealed.subarray(sealed.length - 16), pulled.tag);
    const out = new Uint8Array(pulled.message.length + 1);
    out.set(pulled.message);
    out[pulled.message.length] = pulled.tag;
    pulled.message.fill(0);
    return out;
  },
  /** params: stream: wipes and forgets its state. */
  'secretstream.close': (_, p) => {
    close(p.stream as number);
    return undefined;
  },
};
