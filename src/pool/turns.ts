/**
 * Rule 2 of the scheduling contract (docs/parallel.md, "Short turns"): the
 * calling thread works in pieces of about HERE_MS at its measured speed
 * (HereClock) and lets the event loop run between them (Ticker), so that
 * workers' answers come in and a page stays responsive; about ALONE_MS
 * when no job is in flight and none will be given.
 */
import { hostFailure, MESSAGES_BEFORE_TIMERS, now, timeout } from '../runtime/host.js';

/** Time the calling thread spends on one piece before it lets the event loop run, while workers may answer. */
export const HERE_MS = 0.5;
/**
 * The same when no job is in flight and none will be given: no answer can
 * come, and a turn of the event loop costs tens of microseconds in a
 * browser. Still far from the 50 ms that browsers count as a long task.
 */
export const ALONE_MS = 4;
/** The calling thread's first piece, before it has timed any. */
const FIRST_HERE = 64 * 1024;

/** Turns of the event loop for one call: tick() lets the workers' messages in; close() when the call is done (a tick still awaited then resolves). */
export interface Ticker {
  tick(): Promise<void>;
  close(): void;
}

/**
 * The channels of calls in progress. A channel reachable only from its
 * own handler (and the call waiting on it) may be garbage collected with
 * its message in flight, which Firefox does (it closes a collected port's
 * other end): the call would then wait for that message forever. Held
 * here, a channel lives until its call closes it.
 */
const liveChannels = new Set<MessageChannel>();

/**
 * How long a turn may wait for its message before it is taken as lost. A
 * call must not wait forever on one message the engine dropped (a Firefox
 * page hung at its first parallel call for reasons never found, and the
 * channel is what such a call waits on besides timers): the waiting turns
 * end, and later turns go through a new channel.
 */
const LOST_TURN_MS = 100;

/** Takes back a turn not yet given (its callback then never runs), so that nothing of it is left pending. */
type TakeBack = () => void;

/** setImmediate(f), and the clearImmediate that takes it back where the host has one. */
function immediateTurn(f: () => void): TakeBack {
  const handle = setImmediate(f);
  return () => {
    if (typeof clearImmediate === 'function') clearImmediate(handle);
  };
}

/**
 * Where turns come from: setImmediate where the engine has it, else a
 * MessageChannel, else setTimeout(0); setTimeout(0) also where a channel's
 * messages would run ahead of every timer (workerd, which does not clamp
 * it: 12 us a turn). An object, so that tests can replace them (WebKit's
 * hot code kept seeing a global constructor the test had replaced).
 */
export const turnSources: { immediate?: (f: () => void) => TakeBack | undefined; channel?: () => MessageChannel } = {
  immediate: typeof setImmediate === 'function' ? immediateTurn : undefined,
  channel: typeof MessageChannel === 'function' && !MESSAGES_BEFORE_TIMERS ? () => new MessageChannel() : undefined,
};

/**
 * The sources that threw at their first use, and those that worked. A
 * host may define one as a function that throws (Next.js's edge runtime:
 * setImmediate, "not supported in the Edge Runtime"): the turns then come
 * from the next source, as where it is not defined. One that worked and
 * throws later fails the turn, naming it (hostFailure).
 */
const refused = new WeakSet<object>();
const worked = new WeakSet<object>();

/** A turn by `schedule`, which gives `source`'s turn to its argument; undefined where `source` threw at its first use (it is passed over from then on). */
function turnFrom(source: object, primitive: string, schedule: (resolve: () => void) => void): Promise<void> | undefined {
  let give!: () => void;
  const turn = new Promise<void>((resolve) => (give = resolve));
  try {
    schedule(give);
  } catch (e) {
    if (worked.has(source)) return Promise.reject(hostFailure(primitive, e));
    refused.add(source);
    return undefined;
  }
  worked.add(source);
  return turn;
}

/** A turn by setTimeout(0), the last resort: where it throws, the turn fails, naming it. */
const byTimer = (): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    try {
      setTimeout(resolve, 0);
    } catch (e) {
      reject(hostFailure('setTimeout', e));
    }
  });

/**
 * Turns as messages to oneself on a channel made once per call (see
 * ticker): post() throws what the host's channel throws.
 */
function channelTurns(makeChannel: () => MessageChannel): { post(resolve: () => void): void; close(): void } {
  let channel: MessageChannel | undefined;
  const waiting: (() => void)[] = [];
  /** Messages that came; the timer that checks they still come while turns wait. */
  let arrived = 0;
  let guard: ReturnType<typeof setTimeout> | undefined;
  const drop = (): void => {
    if (channel === undefined) return;
    channel.port1.close();
    liveChannels.delete(channel);
    channel = undefined;
  };
  const watch = (): void => {
    if (guard !== undefined) return;
    const seen = arrived;
    try {
      guard = setTimeout(() => {
        guard = undefined;
        if (waiting.length === 0) return;
        if (arrived !== seen) return watch();
        drop();
        for (const resolve of waiting.splice(0)) resolve();
      }, LOST_TURN_MS);
    } catch {
      // A host whose setTimeout throws: turns go on unguarded, as nothing could end a lost one.
    }
  };
  return {
    post: (resolve) => {
      if (channel === undefined) {
        const created = makeChannel();
        created.port1.onmessage = () => {
          if (channel !== created) return;
          arrived++;
          waiting.shift()?.();
        };
        liveChannels.add(created);
        channel = created;
      }
      channel.port2.postMessage(null);
      waiting.push(resolve);
      watch();
    },
    close: () => {
      if (guard !== undefined) clearTimeout(guard);
      guard = undefined;
      drop();
      // A turn awaited when the call ended (a stream abandoned mid-write) is given now: its message will not come.
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

/**
 * Turns by setImmediate (or what replaces it): those not yet given when
 * the call ends are given then, their immediates taken back, so that none
 * outlives its call (it would keep the process alive one more turn).
 */
function immediateTurns(immediate: (f: () => void) => TakeBack | undefined): { post(resolve: () => void): void; close(): void } {
  const pending = new Map<() => void, TakeBack | undefined>();
  return {
    post: (resolve) => {
      const takeBack = immediate(() => {
        pending.delete(resolve);
        resolve();
      });
      pending.set(resolve, takeBack);
    },
    close: () => {
      for (const [resolve, takeBack] of pending) {
        takeBack?.();
        resolve();
      }
      pending.clear();
    },
  };
}

/**
 * A macrotask turn (a resolved promise would not let messages in).
 * setImmediate where there is one; else a message to oneself on a channel
 * made once per call (browsers clamp nested setTimeout(0) to 4 ms, and
 * making a channel costs more than a message: Chromium opens a pipe per
 * channel), closed at the call's end so that it keeps no process alive;
 * else setTimeout(0). A source that throws at its first use is passed
 * over; where setTimeout throws too, the turn fails, naming it.
 */
export function ticker(): Ticker {
  const { immediate, channel: makeChannel } = turnSources;
  const byImmediate = immediate === undefined ? undefined : immediateTurns(immediate);
  const channel = makeChannel === undefined ? undefined : channelTurns(makeChannel);
  return {
    tick: () =>
      (immediate !== undefined && !refused.has(immediate) ? turnFrom(immediate, 'setImmediate', byImmediate!.post) : undefined) ??
      (makeChannel !== undefined && !refused.has(makeChannel) ? turnFrom(makeChannel, 'MessageChannel', channel!.post) : undefined) ??
      byTimer(),
    close: () => {
      byImmediate?.close();
      channel?.close();
    },
  };
}

/** What sharedTicker knows of a call: the milliseconds of its pieces so far (counted from a start, below), and when its last turn was given. */
interface Sharer {
  work: number;
  given: number | undefined;
}

/** A call's turn waiting in sharedTicker's queue: whose, what gives it, and what fails it. */
interface Waiter {
  call: Sharer;
  go: () => void;
  fail: (e: unknown) => void;
}

/** The turns the calls working alone on this thread wait for; the ticker that paces them while any waits. */
const queue: Waiter[] = [];
let pump: Ticker | undefined;
/** The work of the call given the last turn: where a new call's count starts. */
let served = 0;

/**
 * Gives one turn a turn of the event loop, the call that has worked least
 * first (the first that asked among equals), until none waits (then one
 * more turn, in case its call goes on; stopPump() ends that one when a
 * call ends with none waiting).
 */
async function pumpTurns(): Promise<void> {
  const turns = (pump = ticker());
  try {
    for (;;) {
      await turns.tick();
      if (queue.length === 0 || pump !== turns) break;
      let least = 0;
      for (let i = 1; i < queue.length; i++) if (queue[i]!.call.work < queue[least]!.call.work) least = i;
      const w = queue.splice(least, 1)[0]!;
      served = w.call.work;
      w.go();
    }
  } catch (e) {
    // The turns failed (hostFailure: a primitive they need threw): every call waiting for one fails with it, not waits forever.
    for (const w of queue.splice(0)) w.fail(e);
  } finally {
    turns.close();
    if (pump === turns) pump = undefined;
  }
}

/**
 * Ends the pump's turn when no call waits for one: the turn kept in case
 * the last call served goes on, which would otherwise outlive that call
 * (and keep a process alive past it). A call that does go on starts a
 * pump of its own.
 */
function stopPump(): void {
  const stopped = pump;
  if (stopped === undefined || queue.length > 0) return;
  pump = undefined;
  stopped.close();
}

/**
 * Turns shared by the calls that work alone on the calling thread, in
 * pieces of milliseconds (argon2idAsync and its siblings, scryptAsync,
 * bcrypt): one piece a turn of the event loop, whoever's it is. With a
 * ticker each, N calls at once ran N pieces back to back between two
 * turns (Node runs every immediate queued before the check phase in it):
 * a burst of 32 logins held the loop 32 pieces long.
 *
 * Whose piece: the call that has worked least (fair queuing), its work
 * timed from the turn it was given to its next request, a new call's
 * counted from the work of the call last served (so that it shares with
 * the calls under way rather than shut them out until it has caught up
 * with them). Calls at once thus get about equal time on the thread, and
 * a call's wait grows with the number of calls at once, not with their
 * size: with the oldest call first, a 4 ms argon2Verify waited out the
 * whole of an older bcrypt of cost 13 (0.4 s here), and round robin
 * still made it wait a bcrypt piece (8 ms) for each of its own (0.5 ms).
 * `signal` gives a waiting turn at once when it aborts, for the call to
 * see it. In workerd each call keeps a ticker of its own.
 */
export function sharedTicker(signal?: AbortSignal): Ticker {
  // workerd drops a request's timers once it has answered: a queue paced by one request's timers would leave the
  // next request's calls waiting for good. There each call keeps its own turns.
  if (MESSAGES_BEFORE_TIMERS) return ticker();
  const call: Sharer = { work: served, given: undefined };
  const mine = new Set<Waiter>();
  const give = (w: Waiter): void => {
    mine.delete(w);
    const at = queue.indexOf(w);
    if (at >= 0) queue.splice(at, 1);
    w.go();
  };
  return {
    tick: () =>
      new Promise<void>((resolve, reject) => {
        if (call.given !== undefined) call.work += now() - call.given;
        call.given = undefined;
        const w: Waiter = { call, go: resolve, fail: reject };
        if (signal?.aborted) return resolve();
        const onAbort = (): void => give(w);
        signal?.addEventListener('abort', onAbort, { once: true });
        w.go = () => {
          signal?.removeEventListener('abort', onAbort);
          mine.delete(w);
          call.given = now();
          resolve();
        };
        w.fail = (e) => {
          signal?.removeEventListener('abort', onAbort);
          mine.delete(w);
          reject(e);
        };
        mine.add(w);
        queue.push(w);
        if (pump === undefined) void pumpTurns();
      }),
    close: () => {
      for (const w of [...mine]) give(w);
      stopPump();
    },
  };
}

/** The calling thread's speed so far, for the size of its next piece. */
export class HereClock {
  private bytes = 0;
  private ms = 0;

  time(bytes: number, f: () => void): void {
    const t0 = now();
    f();
    this.ms += now() - t0;
    this.bytes += bytes;
  }

  /** Milliseconds per byte so far (undefined before the first piece). */
  get rate(): number | undefined {
    return this.ms > 0 ? this.ms / this.bytes : undefined;
  }

  /** Bytes the calling thread does in about `ms` at its speed so far. */
  piece(ms: number): number {
    return this.ms > 0 ? (this.bytes / this.ms) * ms : FIRST_HERE;
  }
}

/** A wait for the next answer (ring()) or a time, whichever comes first: what a scheduler does when no piece is its to do. */
export class Alarm {
  private ringing: (() => void) | undefined;

  /**
   * Resolves at ring(), or at `until` (now()'s clock; Infinity: at ring()
   * only). A wait still pending ends first: one that lost a race (a worker
   * got ready meanwhile) would otherwise keep its timer, and with it the
   * process, alive until `until`.
   */
  wait(until: number): Promise<void> {
    this.ring();
    return new Promise<void>((resolve) => {
      const timer = Number.isFinite(until) ? timeout(() => resolve(), Math.max(0, until - now())) : undefined;
      this.ringing = () => {
        // Hermes's clearTimeout throws on undefined (no timer when waiting for an answer only).
        if (timer !== undefined) clearTimeout(timer);
        this.ringing = undefined;
        resolve();
      };
    });
  }

  /** Ends the wait, if any. */
  ring(): void {
    this.ringing?.();
  }
}
