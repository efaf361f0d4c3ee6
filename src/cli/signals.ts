/**
 * Signals for the command line: dying by one as a C or Go program does
 * (the shell then sees the signal, not an exit code), and a file that
 * must not outlive the process removed when SIGINT, SIGTERM or SIGHUP
 * ends it.
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

/** Removes `path` if SIGINT, SIGTERM or SIGHUP ends the process before the returned function is called. */
export function removeOnSignal(path: string): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    stop();
    try {
      unlinkSync(path);
    } catch {
      // Already gone: nothing to remove.
    }
    dieBy(signal);
  };
  const stop = (): void => {
    for (const signal of ENDING) process.off(signal, onSignal);
  };
  for (const signal of ENDING) process.on(signal, onSignal);
  return stop;
}
