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
import { BLOCK, LAYOUT } from '../argon2/layout.js';
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
 * them; its segments are filled elsewhere. Wiped by the kernel's
 * memory.fill where this thread runs the simd tier (a typed array's fill
 * on shared memory is several times slower in V8), else by that fill.
 */
export class SharedBlocks implements Argon2Memory {
  private readonly view: Uint8Array;
  /** Bytes the call uses (a spare memory may be larger, and is already wiped), and how many of them are wiped. */
  private readonly used: number;
  private wiped = 0;
  /** Bytes from here on were never written (the scratches before LAYOUT.BASE always are): a call stopped in its first blocks wipes no more. */
  private reached: number = LAYOUT.BASE;

  constructor(
    readonly memory: WebAssembly.Memory,
    private readonly wiper: (from: number, count: number) => void,
    blocks: number,
  ) {
    this.view = new Uint8Array(memory.buffer);
    this.used = LAYOUT.BASE + blocks * BLOCK;
  }

  setBlock(index: number, block: Uint8Array): void {
    this.view.set(block, LAYOUT.BASE + index * BLOCK);
    this.reached = Math.max(this.reached, LAYOUT.BASE + (index + 1) * BLOCK);
  }

  /** Segments go to the fillers from now on: any block may be written. */
  reachAll(): void {
    this.reached = this.used;
  }

  xorBlock(index: number, into: Uint8Array): void {
    const at = LAYOUT.BASE + index * BLOCK;
    for (let i = 0; i < BLOCK; i++) into[i] ^= this.view[at + i];
  }

  fill(): void {
    throw new Error('argon2: a shared memory is filled by its fillers');
  }

  /** Wipes up to `bytes` more (at most 1 GiB at once: the kernel's count is an i32); true once all that was written is wiped. */
  wipe(bytes: number): boolean {
    const count = Math.min(bytes, this.reached - this.wiped, 2 ** 30);
    if (count > 0) this.wiper(this.wiped, count);
    this.wiped += count;
    return this.wiped === this.reached;
  }

  abandon(): void {
    while (!this.wipe(Number.POSITIVE_INFINITY));
  }

  /** Wipes every byte the call uses again: a lost worker may have written after the first wipe. */
  wipeAgain(): void {
    this.wiped = 0;
    this.reached = this.used;
    this.abandon();
  }
}
