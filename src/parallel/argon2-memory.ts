/**
 * The shared memories of fourfold/parallel's Argon2 calls (argon2.ts):
 * how many calls hold one at once, the wiped ones kept for the calls
 * after them, and a call's blocks in one (SharedBlocks). A burst of
 * logins (tens of calls at once) then runs a few calls a worker, the
 * rest waiting their turn in the order they came, on memories the calls
 * before them touched: a worker's first touch of 19 MiB of fresh pages
 * took as long as filling them, and a memory a call would take 19 MiB
 * times the burst.
 */
import type { Argon2Memory } from '../argon2/engine.js';
import { BLOCK, LAYOUT, type Shape } from '../argon2/layout.js';
import { Written } from '../argon2/written.js';
import { backgroundTimer } from '../runtime/host.js';

/** How long touched memories are kept, wiped, after their last call: as long as the simd tier's (argon2/simd.ts). */
const RELEASE_MS = 10_000;

/** A call waiting for its turn: it goes while fewer than `bound` calls hold a memory. */
interface Waiting {
  bound: number;
  go(): void;
}

/** Memories lent to calls, at most a bound at once, and those kept, wiped, for the next ones. */
export class MemoryTurns {
  /** Kept memories, the largest first. */
  private readonly spares: WebAssembly.Memory[] = [];
  private releaseTimer: ReturnType<typeof setTimeout> | undefined;
  /** Calls holding a turn now. */
  private holders = 0;
  private readonly waiting: Waiting[] = [];

  /**
   * Resolves once the call may hold a memory: fewer than `bound` calls
   * hold one and none came before it; rejects with the signal's reason if
   * it aborts first. Each turn taken ends with leave().
   */
  enter(bound: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.waiting.length === 0 && this.holders < bound) {
      this.holders++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiting.splice(this.waiting.indexOf(entry), 1);
        reject(signal!.reason);
      };
      const entry: Waiting = {
        bound,
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          this.holders++;
          resolve();
        },
      };
      this.waiting.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A turn ends: the calls waiting first go, while their bound allows. */
  leave(): void {
    this.holders--;
    while (this.waiting.length > 0 && this.holders < this.waiting[0]!.bound) this.waiting.shift()!.go();
  }

  /** A memory of at least `bytes`: the smallest kept one that is large enough, else a new one (undefined where the engine refuses it). */
  take(bytes: number): WebAssembly.Memory | undefined {
    for (let i = this.spares.length - 1; i >= 0; i--) {
      if (this.spares[i]!.buffer.byteLength >= bytes) return this.spares.splice(i, 1)[0];
    }
    const pages = Math.ceil(bytes / 65536);
    try {
      return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
    } catch {
      return undefined;
    }
  }

  /** `memory`, wiped, kept for the next calls, the largest `most` of those at hand, until RELEASE_MS pass without another kept. */
  keep(memory: WebAssembly.Memory, most: number): void {
    this.spares.push(memory);
    this.spares.sort((a, b) => b.buffer.byteLength - a.buffer.byteLength);
    this.spares.length = Math.min(this.spares.length, most);
    if (this.releaseTimer !== undefined) clearTimeout(this.releaseTimer);
    this.releaseTimer = backgroundTimer(() => {
      this.spares.length = 0;
      this.releaseTimer = undefined;
    }, RELEASE_MS);
  }

  /** Test-only: the kept memories, the largest first. */
  kept(): readonly WebAssembly.Memory[] {
    return this.spares;
  }
}

/**
 * The blocks in a shared memory, as fill.ts's ends (first blocks, tag) see
 * them; its segments are filled elsewhere, each said first (reach). Wiped
 * by the kernel's memory.fill where this thread runs the simd tier (a
 * typed array's fill on shared memory is several times slower in V8),
 * else by that fill: the scratches and each lane's columns written
 * (written.ts).
 */
export class SharedBlocks implements Argon2Memory {
  private readonly view: Uint8Array;
  private readonly written: Written;

  constructor(
    readonly memory: WebAssembly.Memory,
    private readonly wiper: (from: number, count: number) => void,
    shape: Shape,
  ) {
    this.view = new Uint8Array(memory.buffer);
    this.written = new Written(shape, BLOCK, LAYOUT.BASE, LAYOUT.BASE);
  }

  setBlock(index: number, block: Uint8Array): void {
    this.written.reachBlock(index);
    this.view.set(block, LAYOUT.BASE + index * BLOCK);
  }

  /** Segment (pass, slice)'s blocks before `end` may be written in `lanes` from now on (by a worker or this thread). */
  reachSegment(pass: number, slice: number, end: number, lanes: Iterable<number>): void {
    this.written.reachSegment(pass, slice, end, lanes);
  }

  xorBlock(index: number, into: Uint8Array): void {
    const at = LAYOUT.BASE + index * BLOCK;
    for (let i = 0; i < BLOCK; i++) into[i] ^= this.view[at + i];
  }

  fill(): void {
    throw new Error('argon2: a shared memory is filled by its fillers');
  }

  /** Wipes up to `bytes` more of what was written; true once all of it is wiped. */
  wipe(bytes: number): boolean {
    return this.written.wipe(bytes, (from, count) => {
      // The kernel's count is an i32: 4 GiB would wrap to 0.
      for (let at = 0; at < count; at += 2 ** 30) this.wiper(from + at, Math.min(2 ** 30, count - at));
    });
  }

  abandon(): void {
    while (!this.wipe(Number.POSITIVE_INFINITY));
  }

  /** Wipes every byte the call uses again: a lost worker may have written after the first wipe. */
  wipeAgain(): void {
    this.written.again();
    this.abandon();
  }
}
