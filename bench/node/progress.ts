/**
 * The progress bar on stderr. On a terminal it redraws one line; in a log
 * (stderr not a TTY) it prints a line when a new task starts, at most
 * every few seconds, so a log stays readable.
 */
const WIDTH = 24;

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export class ProgressBar {
  private readonly tty = process.stderr.isTTY === true;
  private readonly started = performance.now();
  private lastTask = '';
  private lastLogged = -Infinity;

  constructor(private readonly prefix: string) {}

  update(fraction: number, label: string): void {
    const elapsed = (performance.now() - this.started) / 1000;
    const left = fraction > 0.02 ? ` · ~${clock((elapsed * (1 - fraction)) / fraction)} left` : '';
    const filled = Math.round(fraction * WIDTH);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
    const line = `[${this.prefix}] ${bar} ${(fraction * 100).toFixed(0).padStart(3)}% ${label} · ${clock(elapsed)}${left}`;
    if (this.tty) {
      process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns ?? 120) - 1)}`);
      return;
    }
    // In a log: the first words name the task ('sweep chacha20', 'sizes poly1305 64 B').
    const task = label.split(' ').slice(0, 2).join(' ');
    if (task !== this.lastTask && elapsed - this.lastLogged >= 3) {
      this.lastTask = task;
      this.lastLogged = elapsed;
      process.stderr.write(`${line}\n`);
    }
  }

  /** Ends the bar's line, so warnings and the summary start on a clean one. */
  finish(message: string): void {
    process.stderr.write(`${this.tty ? '\r\x1b[K' : ''}[${this.prefix}] ${message} in ${clock((performance.now() - this.started) / 1000)}\n`);
  }
}
