/**
 * The shared memories of fourfold/parallel's Argon2 calls (argon2.ts):
 * how many calls hold one at once, and the wiped ones kept for the calls
 * after them. A burst of logins (tens of calls at once) then runs a few
 * calls a worker, the rest waiting their turn in the order they came, on
 * memories the calls before them touched: a worker's first touch of
 * 19 MiB of fresh pages took as long as filling them, and a memory a
 * call would take 19 MiB times the burst.
 */
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
