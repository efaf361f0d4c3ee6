/**
 * Signals for the command line: dying by one as a C or Go program does
 * (the shell then sees the signal, not an exit code), by SIGPIPE when
 * standard output's reader is gone, and a file that must not outlive the
 * process removed when SIGINT, SIGTERM or SIGHUP ends it.
 */
import { unlinkSync } from 'node:fs';
import { constants } from 'node:os';

const ENDING: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Ends the process by `signal`'s default action. Node ignores SIGPIPE
 * and catches the signals it has listeners for; a listener added and
 * removed sets the default back (libuv restores SIG_DFL when it stops
 * watching a signal). Should the signal not end the process at once, the
 * exit code is the one a shell gives a process it killed, 128 + its
 * number.
 */
export function dieBy(signal: NodeJS.Signals): never {
  const none = (): void => {};
  process.on(signal, none);
  process.off(signal, none);
  process.kill(process.pid, signal);
  process.exit(128 + constants.signals[signal]);
}

/**
 * A write to standard output or error that failed because its reader is
 * gone (`| head`) ends the process by SIGPIPE, as the kernel ends a C
 * program and as Go's runtime ends age for these two descriptors (for
 * others, it is an error). Node ignores SIGPIPE, so its writes fail with
 * EPIPE instead, which the command would report and exit 1 on; or with
 * ECONNRESET where the descriptor is a socket whose reader closed with
 * bytes unread (the stdio of a process Node started, which Node makes
 * socket pairs).
 */
export function dieOnBrokenPipe(fd: number, e: unknown): void {
  const code = (e as { code?: unknown }).code;
  if ((fd === 1 || fd === 2) && (code === 'EPIPE' || code === 'ECONNRESET')) dieBy('SIGPIPE');
}

/**
 * dieOnBrokenPipe for the writes through process.stdout and
 * process.stderr, which fail asynchronously: its handler is added to each
 * stream as Node makes it, at its first use (by the command, or by Node),
 * not before: a stream on a pipe or a terminal loads net, some 4 ms of a
 * fresh process, which a command that writes through descriptors alone
 * (age, b3sum) does not spend.
 */
export function dieOnBrokenStdio(): void {
  for (const [fd, name] of [
    [1, 'stdout'],
    [2, 'stderr'],
  ] as const) {
    const onError = (e: Error): void => {
      dieOnBrokenPipe(fd, e);
      throw e;
    };
    const made = Object.getOwnPropertyDescriptor(process, name);
    if (made?.get === undefined || made.configurable !== true) {
      process[name].on('error', onError);
      continue;
    }
    let handled = false;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: made.enumerable,
      get() {
        const stream = made.get!.call(process) as NodeJS.WriteStream;
        if (!handled) stream.on('error', onError);
        handled = true;
        return stream;
      },
    });
  }
}

/** The files to remove if a signal ends the process: one listener for all, so that each is removed before the process dies. */
const toRemove = new Set<string>();
let listening = false;

function removeAllAndDie(signal: NodeJS.Signals): void {
  for (const s of ENDING) process.off(s, removeAllAndDie);
  for (const path of toRemove) {
    try {
      unlinkSync(path);
    } catch {
      // Already gone: nothing to remove.
    }
  }
  dieBy(signal);
}

/**
 * Removes `path` if SIGINT, SIGTERM or SIGHUP ends the process before the
 * returned function is called. The listener, added with the first path,
 * stays (with no path left it only dies by the signal): libuv drops a
 * signal it caught for a handle closed before the event loop handed it on,
 * so a listener removed as one file gives way to the next (-o's probe,
 * then its temporary file) would lose a signal sent in between.
 */
export function removeOnSignal(path: string): () => void {
  if (!listening) for (const signal of ENDING) process.on(signal, removeAllAndDie);
  listening = true;
  toRemove.add(path);
  return () => {
    toRemove.delete(path);
  };
}
