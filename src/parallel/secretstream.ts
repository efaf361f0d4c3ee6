/**
 * fourfold/parallel's secretstream namespace: the root's (secretstream/
 * index.ts), with encryptStream and decryptStream taking the synchronous
 * ones' arguments and giving their bytes (secretstream/stream.ts), each
 * stream's state kept in one worker of the pool, which seals or opens its
 * messages while the calling thread moves data. A stream cannot be split:
 * every message's nonce takes the previous message's MAC (libsodium #719),
 * so a stream uses one worker, and several streams spread over the pool.
 *
 * Up to IN_FLIGHT messages are with the worker at once; a write waits
 * while more are, which is the streams' backpressure, and bounds memory.
 * Where no worker can start, the stream runs on the calling thread, the
 * same bytes.
 */
export {
  ABYTES,
  HEADER_BYTES,
  KEY_BYTES,
  MESSAGE_BYTES_MAX,
  TAG_FINAL,
  TAG_MESSAGE,
  TAG_PUSH,
  TAG_REKEY,
  initPull,
  initPush,
  type Pulled,
  type SecretstreamPull,
  type SecretstreamPush,
} from '../secretstream/index.js';
import { secretstreamJobs, type SecretstreamJobs } from '../secretstream/jobs.js';
import { engine } from '../secretstream/tiers.js';
import { ABYTES, HEADER_BYTES, KEY_BYTES, randomHeader, TAG_FINAL, TAG_MESSAGE } from '../secretstream/state.js';
import { chunkBytes, chunkSizeOf, firstMessageFailed, Records, type StreamChunk, type StreamOptions } from '../secretstream/stream.js';
import { WorkerLostError } from '../pool/job-handle.js';
import { stateWorker } from './workers.js';
import * as check from '../runtime/assert.js';
import { zeroize, type Bytes } from '../runtime/bytes.js';
import { transferablesOf } from '../pool/protocol.js';
import { AuthenticationError } from '../runtime/errors.js';
import { type Emit, needTransformStream, releasingStream } from '../runtime/releasing-stream.js';

export type { StreamChunk, StreamOptions };

/** Messages a stream has with its worker at once. */
const IN_FLIGHT = 4;

type Op = keyof SecretstreamJobs;

/** Where a stream's state lives: a worker, or this thread. */
interface Holder {
  run<K extends Op>(op: K, params: SecretstreamJobs[K]['params']): Promise<SecretstreamJobs[K]['result']>;
  /** The stream ended: its state is forgotten, unwaited (a worker's answer keeps no process alive), and the worker may be ended for idleness again. */
  close(stream: number): void;
}

let streams = 0;

/** The jobs run on this thread, for streams no worker holds: on the tier of this thread's engine at each message. */
let here: ReturnType<typeof secretstreamJobs> | undefined;

/**
 * A worker of the pool for a new stream (the one holding fewest streams;
 * a stream starts at most one), or this thread when none can start.
 */
async function holder(): Promise<Holder> {
  const w = stateWorker();
  if (w !== undefined && (await w.whenReady())) {
    w.pin();
    return {
      run: (op, params) =>
        w.call<SecretstreamJobs, typeof op>(op, params, transferablesOf(params)).catch((e: unknown) => {
          throw e instanceof WorkerLostError
            ? new WorkerLostError(`secretstream: the worker holding this stream's state is gone (${e.message}); the stream cannot go on`)
            : e;
        }),
      close: (stream) => {
        w.tell<SecretstreamJobs, 'secretstream.close'>('secretstream.close', { stream });
        w.unpin();
      },
    };
  }
  // The jobs themselves, here (the selector also brings the kernel's bytes); what the worker would zero
  // after a job is zeroed too.
  here ??= secretstreamJobs(engine);
  const jobs = here;
  const run: Holder['run'] = async (op, params) => {
    try {
      const handler = jobs[op] as (p: typeof params, data: { input: undefined; output: undefined; slot: undefined }) => SecretstreamJobs[typeof op]['result'];
      return handler(params, { input: undefined, output: undefined, slot: undefined });
    } finally {
      for (const value of Object.values(params)) if (value instanceof Uint8Array) zeroize(value);
    }
  };
  return { run, close: (stream) => void run('secretstream.close', { stream }).catch(() => {}) };
}

/** One stream's state in its holder. */
class Remote {
  private readonly id = streams++;
  private closed = false;

  private constructor(private readonly at: Holder) {}

  static async open(key: Uint8Array, header: Uint8Array): Promise<Remote> {
    const r = new Remote(await holder());
    try {
      await r.at.run('secretstream.open', { stream: r.id, key: key.slice(), header: header.slice() });
    } catch (e) {
      r.close();
      throw e;
    }
    return r;
  }

  push(message: Uint8Array, tag: number): Promise<Uint8Array | undefined> {
    return this.run('secretstream.push', { stream: this.id, message: message.slice(), tag });
  }

  pull(sealed: Uint8Array): Promise<Uint8Array | undefined> {
    return this.run('secretstream.pull', { stream: this.id, sealed: sealed.slice() });
  }

  private run<K extends 'secretstream.push' | 'secretstream.pull'>(op: K, params: SecretstreamJobs[K]['params']): Promise<Uint8Array | undefined> {
    if (this.closed) return Promise.reject(new Error('secretstream: the stream has ended'));
    return this.at.run(op, params);
  }

  /** Forgets the state (once; a stream that failed and is then cancelled closes twice). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.at.close(this.id);
  }
}

/**
 * A stream's Remote, opened at its first chunk (a stream made and never
 * used holds no worker) under a copy of the key, and closed once the
 * stream ends, also while it is still opening.
 */
class LazyRemote {
  private opening: Promise<Remote> | undefined;
  private released = false;

  constructor(private readonly key: Uint8Array) {}

  /** The stream's Remote, opened with `header` at the first call; the key is wiped once it went to the holder. */
  get(header: Uint8Array): Promise<Remote> {
    this.opening ??= Remote.open(this.key, header)
      .finally(() => this.key.fill(0))
      .then((r) => {
        if (!this.released) return r;
        r.close();
        throw new Error('secretstream: the stream ended while it was opening');
      });
    return this.opening;
  }

  release(): void {
    this.released = true;
    this.key.fill(0);
    this.opening?.then(
      (r) => r.close(),
      () => {},
    );
  }
}

/** Results in the order their messages were given, at most `IN_FLIGHT` waiting. */
class ResultQueue {
  private readonly queue: Promise<Uint8Array | undefined>[] = [];

  add(result: Promise<Uint8Array | undefined>): void {
    // Awaited in order by drain; until then a rejection is not "unhandled".
    result.catch(() => {});
    this.queue.push(result);
  }

  /** Hands the oldest results to `take` until at most `keep` wait. */
  async drain(keep: number, take: (result: Uint8Array | undefined) => void): Promise<void> {
    while (this.queue.length > keep) take(await this.queue.shift()!);
  }

  /** Wipes the results nobody will take (a stream that ended early), as they come. */
  discard(): void {
    for (const result of this.queue.splice(0))
      result.then(
        (bytes) => bytes?.fill(0),
        () => {},
      );
  }
}

/** A stream chunk's bytes, a few messages' worth at a time (records.write emits whole messages). */
async function eachStep(data: Uint8Array, step: number, write: (part: Uint8Array) => Promise<void>): Promise<void> {
  for (let at = 0; at < data.length; at += step) await write(data.subarray(at, at + step));
}

/**
 * fourfold's encryptStream with the messages sealed in a worker of the
 * pool while the calling thread moves data: the same format, with a new
 * random header. The worker is taken at the first chunk (or at the end,
 * for an empty stream) and let go however the stream ends.
 */
export function encryptStream(key: Uint8Array, options?: StreamOptions): TransformStream<StreamChunk, Bytes> {
  const chunkSize = chunkSizeOf(options);
  needTransformStream('secretstream: encryptStream', 'initPush / initPull directly');
  const held = new LazyRemote(check.bytes(key, 'key', KEY_BYTES).slice());
  const results = new ResultQueue();
  let remote: Remote | undefined;
  const records = new Records(chunkSize);
  const seal = (record: Uint8Array): void => results.add(remote!.push(record, TAG_MESSAGE));
  /** The stream's Remote; the header goes out once it is open. */
  const opened = async (emit: Emit): Promise<Remote> => {
    if (remote !== undefined) return remote;
    const header = randomHeader();
    remote = await held.get(header);
    emit(header);
    return remote;
  };
  return releasingStream({
    async transform(chunk, emit) {
      const data = chunkBytes(chunk);
      await opened(emit);
      await eachStep(data, chunkSize * IN_FLIGHT, async (part) => {
        records.write(part, seal);
        await results.drain(IN_FLIGHT, (sealed) => emit(sealed!));
      });
    },
    async flush(emit) {
      results.add((await opened(emit)).push(records.rest(), TAG_FINAL));
      records.wipe();
      await results.drain(0, (sealed) => emit(sealed!));
    },
    release() {
      records.wipe();
      results.discard();
      held.release();
    },
  });
}

/**
 * fourfold's decryptStream with the messages opened in a worker of the
 * pool: it errors with AuthenticationError, releasing no plaintext of the
 * failing message, when a message does not verify, when the stream ends
 * before its final message, or when data follows that message. The worker
 * is taken once the header has come, and let go however the stream ends.
 */
export function decryptStream(key: Uint8Array, options?: StreamOptions): TransformStream<StreamChunk, Bytes> {
  const chunkSize = chunkSizeOf(options);
  needTransformStream('secretstream: decryptStream', 'initPush / initPull directly');
  const held = new LazyRemote(check.bytes(key, 'key', KEY_BYTES).slice());
  const header = new Uint8Array(HEADER_BYTES);
  let headerFilled = 0;
  let remote: Remote | undefined;
  let finished = false;
  const results = new ResultQueue();
  const records = new Records(chunkSize + ABYTES);
  const open = (record: Uint8Array): void => results.add(remote!.pull(record));
  const fail = (reason: string | AuthenticationError): never => {
    throw typeof reason === 'string' ? new AuthenticationError(`secretstream: ${reason}`) : reason;
  };
  let verified = 0;
  /** One opened message (its plaintext and tag byte) out, in order: only once it verified, and never after the final one. */
  const deliver = (emit: Emit) => (opened: Uint8Array | undefined) => {
    if (opened === undefined)
      fail(verified === 0 ? firstMessageFailed(chunkSize) : 'the message was modified, reordered, dropped, or pushed under another key');
    verified++;
    if (finished) {
      opened!.fill(0);
      fail('data follows the final message');
    }
    const tag = opened![opened!.length - 1];
    if (tag === TAG_FINAL) finished = true;
    // Opened in a new array by its job.
    emit(opened!.subarray(0, opened!.length - 1));
  };
  return releasingStream({
    async transform(chunk, emit) {
      let data = chunkBytes(chunk);
      if (remote === undefined) {
        const take = Math.min(HEADER_BYTES - headerFilled, data.length);
        header.set(data.subarray(0, take), headerFilled);
        headerFilled += take;
        data = data.subarray(take);
        if (headerFilled < HEADER_BYTES) return;
        remote = await held.get(header);
      }
      await eachStep(data, (chunkSize + ABYTES) * IN_FLIGHT, async (part) => {
        records.write(part, open);
        await results.drain(IN_FLIGHT, deliver(emit));
      });
    },
    async flush(emit) {
      if (remote === undefined) fail('the stream ended inside its header (truncated)');
      await results.drain(0, deliver(emit));
      const rest = records.rest();
      if (rest.length > 0) {
        if (finished) fail('data follows the final message');
        if (rest.length < ABYTES) fail('the stream ends inside a message (truncated)');
        results.add(remote!.pull(rest));
        await results.drain(0, deliver(emit));
      }
      if (!finished) fail('the stream ended before its final message (truncated)');
    },
    release() {
      records.wipe();
      results.discard();
      held.release();
    },
  });
}
