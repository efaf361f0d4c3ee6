/**
 * What the JavaScript engine running fourfold offers, detected in one
 * place: its byte order, whether it may compile a kernel synchronously,
 * its built-in modules (Node, Bun and Deno), its logical cores and its
 * clock.
 */

interface HostGlobal {
  Deno?: unknown;
  Bun?: unknown;
  process?: { versions?: { node?: string }; getBuiltinModule?: (id: string) => unknown; cpuUsage?: () => { user: number; system: number } };
  WorkerGlobalScope?: abstract new () => unknown;
  navigator?: { hardwareConcurrency?: number; userAgent?: string };
}

const host = globalThis as HostGlobal;

/** Whether the host stores words little-endian, as WebAssembly memory always does: the js tiers then read words in place. */
export const HOST_LE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Where a kernel may be compiled synchronously on first use: server
 * runtimes and workers. A page's main thread compiles in the background
 * instead: compiling there blocks the page, and Chromium before 114 refused
 * synchronous compiles of modules over 4 KB on it.
 */
export const MAY_COMPILE_SYNCHRONOUSLY = ((): boolean => {
  if (host.Deno !== undefined || host.Bun !== undefined || host.process?.versions?.node !== undefined) return true;
  return typeof host.WorkerGlobalScope === 'function' && globalThis instanceof host.WorkerGlobalScope;
})();

/**
 * Whether a MessageChannel's messages run ahead of every timer: in workerd
 * (Cloudflare Workers), known by its navigator.userAgent, as Cloudflare's
 * documentation tells Workers apart, a timer set before 200 messages to
 * oneself had not fired after them.
 */
export const MESSAGES_BEFORE_TIMERS = host.navigator?.userAgent === 'Cloudflare-Workers';

/**
 * A built-in module (`node:os`, `node:worker_threads`) where the runtime
 * has one (process.getBuiltinModule: Node 20.16+, Bun, Deno), without an
 * import a bundler would follow; undefined elsewhere.
 */
export function builtinModule<T>(id: string): T | undefined {
  const p = host.process;
  if (typeof p?.getBuiltinModule !== 'function') return undefined;
  try {
    return p.getBuiltinModule(id) as T | undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a file descriptor of this thread is one of its workers' too: a
 * process's, in Node and Bun; in Deno a descriptor is a resource id of the
 * thread that opened it.
 */
export const WORKERS_SHARE_DESCRIPTORS = host.Deno === undefined;

let logicalCores: number | undefined;

/**
 * Logical cores: navigator.hardwareConcurrency, or os.availableParallelism()
 * in Node 20 (which has no navigator); asked once (a stream asks at every
 * piece, and node:os's answer costs microseconds).
 */
export function cores(): number {
  if (logicalCores !== undefined) return logicalCores;
  const n = host.navigator?.hardwareConcurrency;
  if (typeof n === 'number' && n > 0) return (logicalCores = n);
  const os = builtinModule<typeof import('node:os')>('node:os');
  return (logicalCores = os?.availableParallelism?.() ?? os?.cpus().length ?? 1);
}

/**
 * What a call rejects with when a primitive of the host it needs (a
 * timer, a channel) throws, where it has no other way: the primitive's
 * name in the message, the host's error as its cause. Some hosts define
 * what they do not support as a function that throws (Next.js's edge
 * runtime: setImmediate); a call must then fail, saying why, not wait.
 */
export function hostFailure(primitive: string, cause: unknown): Error {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new Error(`fourfold: this host's ${primitive} threw (${why}), and the call needs it`, { cause });
}

/** setTimeout(f, ms), its throw (hostFailure) naming it. */
export function timeout(f: () => void, ms: number): ReturnType<typeof setTimeout> {
  try {
    return setTimeout(f, ms);
  } catch (e) {
    throw hostFailure('setTimeout', e);
  }
}

/** The clock now() reads, chosen at its first use. */
let clock: (() => number) | undefined;

/**
 * performance.now() where the engine has it (Hermes has not) and it works
 * when first tried (a host may define it as a function that throws), else
 * Date.now().
 */
function chooseClock(): () => number {
  const p = (globalThis as { performance?: { now?: () => number } }).performance;
  if (typeof p?.now === 'function') {
    try {
      p.now();
      return () => p.now!();
    } catch {
      // Date.now, below.
    }
  }
  return () => Date.now();
}

/** Milliseconds, for timing: performance.now() where it works, else Date.now(). */
export const now = (): number => (clock ??= chooseClock())();

/**
 * The CPU time this process has used, in ms, all its threads together
 * (process.cpuUsage: Node, Bun, Deno); undefined where the engine does not
 * say (browsers).
 */
export const cpuTime: () => number | undefined =
  typeof host.process?.cpuUsage === 'function'
    ? () => {
        const { user, system } = host.process!.cpuUsage!();
        return (user + system) / 1000;
      }
    : () => undefined;

/** Deno's call that lets a timer not keep the process alive. */
export interface DenoTimers {
  unrefTimer(id: number): void;
}

/**
 * setTimeout(f, ms) that does not keep a Node, Bun or Deno process alive
 * (unref(); Deno.unrefTimer): for work that only matters while the
 * program runs anyway, such as letting go of memory kept for reuse.
 * Where setTimeout throws, f runs now and undefined is returned: what is
 * let go later is let go at once, as nothing could let it go later.
 */
export function backgroundTimer(f: () => void, ms: number): ReturnType<typeof setTimeout> | undefined {
  let timer: ReturnType<typeof setTimeout>;
  try {
    timer = setTimeout(f, ms);
  } catch {
    f();
    return undefined;
  }
  (timer as { unref?: () => void }).unref?.();
  (host as { Deno?: DenoTimers }).Deno?.unrefTimer(timer as unknown as number);
  return timer;
}
