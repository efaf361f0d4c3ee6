/**
 * The payload of an age file on a server, in blocks that are its sealed
 * chunks (C2SP age, "Payload": 64 KiB of plaintext and a 16-byte tag
 * each, from the end of the payload nonce), for httpRangeSource
 * (http-source.ts): a bounded cache of the blocks fetched (least recently
 * used out first), the blocks in flight, each in one request of a run of
 * them, and the policy: a read fetches the blocks it lacks and the
 * `readAhead` after them in one request, fetches ahead again when fewer
 * than half of those are left, and aborts every request no read waits on
 * when it needs a block nobody has asked for (it moved elsewhere).
 */
import { type Requester, streamRange } from './http-fetch.js';
import { SEALED_CHUNK } from './payload.js';
import * as check from '../runtime/assert.js';

/** Where the blocks are: the file's size and the offset of the payload's first chunk. */
export interface Geometry {
  readonly size: number;
  readonly payloadAt: number;
}

/** A block's bytes and where they are in the file. */
export interface Block {
  readonly at: number;
  readonly bytes: Uint8Array;
}

/** One request in flight: a run of blocks, and how many reads wait on one of them. */
interface Flight {
  readonly controller: AbortController;
  waiting: number;
}

/** A block in flight: its request and the promise its bytes settle. */
interface Pending {
  readonly flight: Flight;
  readonly promise: Promise<Uint8Array>;
  readonly resolve: (bytes: Uint8Array) => void;
  readonly reject: (reason: unknown) => void;
}

/** Why a request that only fetched ahead was aborted. */
const movedOn = () => new DOMException('a read moved elsewhere: the chunks fetched ahead were not needed', 'AbortError');

/** The blocks of a file: cache, requests in flight, read-ahead. */
export class Blocks {
  /** Fetched blocks, least recently used first (a Map keeps insertion order). */
  private readonly cache = new Map<number, Uint8Array>();
  private readonly pending = new Map<number, Pending>();
  private readonly flights = new Set<Flight>();
  /** Blocks in the payload. */
  readonly count: number;

  constructor(
    readonly geometry: Geometry,
    private readonly requester: Requester,
    /** Aborts every request (the source's close() or its signal). */
    private readonly lifetime: AbortSignal,
    private readonly readAhead: number,
    private readonly capacity: number,
  ) {
    const payload = geometry.size - geometry.payloadAt;
    this.count = payload > 0 ? Math.ceil(payload / SEALED_CHUNK) : 0;
  }

  private atOf(i: number): number {
    return this.geometry.payloadAt + i * SEALED_CHUNK;
  }

  private lengthOf(i: number): number {
    return Math.min(SEALED_CHUNK, this.geometry.size - this.atOf(i));
  }

  private indexOf(offset: number): number {
    return Math.floor((offset - this.geometry.payloadAt) / SEALED_CHUNK);
  }

  /** Keeps the whole blocks inside `bytes` (the file's bytes from `at`): what the first request brought of the payload. */
  offer(bytes: Uint8Array, at: number): void {
    for (let i = Math.max(0, this.indexOf(at)); i < this.count && this.atOf(i) + this.lengthOf(i) <= at + bytes.length; i++) {
      if (this.atOf(i) >= at) this.keep(i, bytes.slice(this.atOf(i) - at, this.atOf(i) - at + this.lengthOf(i)));
    }
  }

  /** The blocks holding bytes [from, end) of the file (from at or past the payload's start), in order. */
  read(from: number, end: number): Promise<Block[]> {
    check.throwIfAborted(this.lifetime);
    const first = this.indexOf(from);
    const last = this.indexOf(end - 1);
    const got: (Uint8Array | Promise<Uint8Array>)[] = [];
    const missing: number[] = [];
    // What is here or in flight first, each waited on, so that the aborts below spare it.
    for (let i = first; i <= last; i++) {
      const bytes = this.cached(i);
      if (bytes !== undefined) got.push(bytes);
      else if (this.pending.has(i)) got.push(this.wait(i));
      else {
        got.push(undefined as never);
        missing.push(i);
      }
    }
    if (missing.length > 0) this.abortIdle();
    this.fetch([...missing, ...this.ahead(last)]);
    for (const i of missing) got[i - first] = this.wait(i);
    return Promise.all(got).then((blocks) => blocks.map((bytes, k) => ({ at: this.atOf(first + k), bytes })));
  }

  /** A block from the cache, made the most recently used; undefined where it is not there. */
  private cached(i: number): Uint8Array | undefined {
    const bytes = this.cache.get(i);
    if (bytes !== undefined) {
      this.cache.delete(i);
      this.cache.set(i, bytes);
    }
    return bytes;
  }

  /** Block i's bytes, once its request brings them; its request counts the wait. */
  private wait(i: number): Promise<Uint8Array> {
    const p = this.pending.get(i)!;
    p.flight.waiting++;
    const done = () => p.flight.waiting--;
    return p.promise.then(
      (bytes) => {
        done();
        return bytes;
      },
      (e: unknown) => {
        done();
        throw e;
      },
    );
  }

  /**
   * The blocks to fetch ahead of a read that ended in block `last`: none
   * while at least half of the `readAhead` after it are here or in flight,
   * else the run of those missing from the first missing one.
   */
  private ahead(last: number): number[] {
    const end = Math.min(this.count - 1, last + this.readAhead);
    let i = last + 1;
    while (i <= end && (this.cache.has(i) || this.pending.has(i))) i++;
    if (i > end || i - last - 1 >= Math.ceil(this.readAhead / 2)) return [];
    const run: number[] = [];
    for (; i <= end && !this.cache.has(i) && !this.pending.has(i); i++) run.push(i);
    return run;
  }

  /** Aborts each request no read waits on: they only fetched ahead of a read that has moved elsewhere. */
  private abortIdle(): void {
    for (const flight of this.flights) {
      if (flight.waiting > 0) continue;
      this.flights.delete(flight);
      flight.controller.abort(movedOn());
      for (const [i, p] of this.pending) {
        if (p.flight !== flight) continue;
        this.pending.delete(i);
        p.reject(flight.controller.signal.reason);
      }
    }
  }

  /** Fetches `blocks` (ascending), a request per run of consecutive ones. */
  private fetch(blocks: readonly number[]): void {
    for (let k = 0; k < blocks.length; ) {
      let j = k;
      while (j + 1 < blocks.length && blocks[j + 1] === blocks[j]! + 1) j++;
      this.start(blocks[k]!, blocks[j]!);
      k = j + 1;
    }
  }

  /** One request for blocks first..last, each kept and handed on as soon as its last byte arrives. */
  private start(first: number, last: number): void {
    const flight: Flight = { controller: new AbortController(), waiting: 0 };
    const stop = () => flight.controller.abort(this.lifetime.reason);
    this.lifetime.addEventListener('abort', stop, { once: true });
    this.flights.add(flight);
    for (let i = first; i <= last; i++) {
      let resolve!: (bytes: Uint8Array) => void;
      let reject!: (reason: unknown) => void;
      const promise = new Promise<Uint8Array>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => {}); // a block fetched ahead that no read waits on may fail unseen
      this.pending.set(i, { flight, promise, resolve, reject });
    }
    let i = first;
    let block = new Uint8Array(this.lengthOf(i));
    let filled = 0;
    const take = (piece: Uint8Array): void => {
      for (let used = 0; used < piece.length; ) {
        const n = Math.min(piece.length - used, block.length - filled);
        block.set(piece.subarray(used, used + n), filled);
        used += n;
        filled += n;
        if (filled < block.length) continue;
        this.arrive(i++, flight, block);
        if (i <= last) block = new Uint8Array(this.lengthOf(i));
        filled = 0;
      }
    };
    const end = this.atOf(last) + this.lengthOf(last);
    streamRange(this.requester, this.atOf(first), end, this.geometry.size, flight.controller.signal, take)
      .catch((e: unknown) => {
        for (let j = i; j <= last; j++) {
          const p = this.pending.get(j);
          if (p?.flight !== flight) continue;
          this.pending.delete(j);
          p.reject(e);
        }
      })
      .finally(() => {
        this.flights.delete(flight);
        this.lifetime.removeEventListener('abort', stop);
      });
  }

  /** Block i has arrived: kept, and given to whoever waits. */
  private arrive(i: number, flight: Flight, bytes: Uint8Array): void {
    const p = this.pending.get(i);
    if (p?.flight === flight) this.pending.delete(i);
    this.keep(i, bytes);
    if (p?.flight === flight) p.resolve(bytes);
  }

  /** Keeps block i, the least recently used ones out past the capacity. */
  private keep(i: number, bytes: Uint8Array): void {
    this.cache.delete(i);
    this.cache.set(i, bytes);
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= this.capacity) break;
      this.cache.delete(oldest);
    }
  }
}
