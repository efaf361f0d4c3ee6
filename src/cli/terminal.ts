/**
 * The terminal, for the age command: whether a standard stream is one,
 * reading a secret from it with echo off (from /dev/tty, as age does, so
 * that standard input can carry the file), a line or a key typed there
 * (for a plugin's questions), and a progress line on
 * standard error that rewrites itself.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import type { ReadStream } from 'node:tty';
import { builtinModule } from '../runtime/host.js';

/** node:tty, loaded at the first terminal: net and its streams come with it, some 3 ms of a fresh process that writes only files. */
const tty = (): typeof import('node:tty') => builtinModule<typeof import('node:tty')>('node:tty')!;

/**
 * Linux's memory devices (major number 1: /dev/null, /dev/zero,
 * /dev/urandom...; the kernel's devices.txt): character devices that are
 * never terminals. A command's output sent to /dev/null is common.
 */
const LINUX_MEMORY_MAJOR = 1;

/** Whether descriptor `fd` is a terminal. Only a character device can be, and none of Linux's memory devices is, which fstat says without node:tty. */
export function isTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice()) return false;
    // Linux's dev_t: the major number in bits 8 to 19 (and 32 up, never set for these).
    if (process.platform === 'linux' && ((stat.rdev >> 8) & 0xfff) === LINUX_MEMORY_MAJOR) return false;
  } catch {
    return false;
  }
  return tty().isatty(fd);
}

/** A failure to read from the terminal: there is none (`absent`: a script, CI), or it closed. */
export class NoTerminal extends Error {
  constructor(
    message: string,
    readonly absent = false,
  ) {
    super(message);
  }
}

/** The terminal, opened at the first question and kept: what is typed ahead of a question waits for it. */
interface Terminal {
  fd: number;
  tty: ReadStream;
  /** Bytes typed and not yet taken by a question. */
  typed: number[];
  /** Wakes the question waiting for more typing. */
  waiting?: () => void;
  closed: boolean;
}

let terminal: Terminal | undefined;

function openTerminal(): Terminal {
  if (terminal !== undefined) return terminal;
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r+');
  } catch (e) {
    throw new NoTerminal(`standard input is not a terminal, and there is no terminal to read a passphrase from (${(e as Error).message})`, true);
  }
  const stream = new (tty().ReadStream)(fd);
  const t: Terminal = { fd, tty: stream, typed: [], closed: false };
  stream.on('data', (data: Buffer) => {
    t.typed.push(...data);
    t.waiting?.();
  });
  stream.on('close', () => {
    t.closed = true;
    t.waiting?.();
  });
  stream.pause();
  terminal = t;
  return t;
}

/**
 * A line typed at the terminal after `prompt`, not echoed: the terminal in
 * raw mode for the time of it. Ctrl-C and Ctrl-D stop it.
 */
export const readSecret = (prompt: string): Promise<string> => readTyped(prompt, true);

/** A line typed at the terminal after `prompt`, echoed and edited as the terminal does (an age plugin's request for a public value). */
export const readPublic = (prompt: string): Promise<string> => readTyped(prompt, false);

/** Waits for typing (or the terminal's end) while the terminal is resumed. */
async function typing(t: Terminal): Promise<void> {
  if (t.closed) throw new NoTerminal('the terminal closed');
  await new Promise<void>((resolve) => (t.waiting = resolve));
  t.waiting = undefined;
}

/** A line typed after `prompt`: raw and not echoed for a secret, the terminal's own line editing and echo otherwise. */
async function readTyped(prompt: string, secret: boolean): Promise<string> {
  const t = openTerminal();
  writeSync(t.fd, `${prompt} `);
  if (secret) t.tty.setRawMode(true);
  t.tty.resume();
  try {
    for (;;) {
      const end = t.typed.findIndex((b) => b === 0x0d || b === 0x0a || b === 0x03 || b === 0x04);
      if (end >= 0) {
        const line = t.typed.splice(0, end + 1);
        const stop = line.pop()!;
        if (stop === 0x03 || stop === 0x04) throw new NoTerminal('interrupted');
        // A CR LF pair ends one line.
        if (stop === 0x0d && t.typed[0] === 0x0a) t.typed.shift();
        const kept: number[] = [];
        for (const b of line)
          if (b === 0x7f || b === 0x08) kept.pop();
          else kept.push(b);
        const typed = new TextDecoder().decode(Uint8Array.from(kept));
        kept.fill(0);
        line.fill(0);
        return typed;
      }
      await typing(t);
    }
  } finally {
    if (secret) t.tty.setRawMode(false);
    t.tty.pause();
    if (secret) writeSync(t.fd, '\n');
  }
}

/** One key pressed at the terminal after `prompt` (raw mode, not echoed): its character; Ctrl-C and Ctrl-D stop it. */
export async function readKey(prompt: string): Promise<string> {
  const t = openTerminal();
  writeSync(t.fd, `${prompt} `);
  t.tty.setRawMode(true);
  t.tty.resume();
  try {
    while (t.typed.length === 0) await typing(t);
    const key = t.typed.shift()!;
    if (key === 0x03 || key === 0x04) throw new NoTerminal('interrupted');
    return String.fromCharCode(key);
  } finally {
    t.tty.setRawMode(false);
    t.tty.pause();
    writeSync(t.fd, '\n');
  }
}

/** Writes `line` to the terminal itself (/dev/tty), where a message meant for the user goes while standard streams carry data. */
export function toTerminal(line: string): void {
  try {
    const fd = openSync('/dev/tty', 'w');
    writeSync(fd, `${line}\n`);
    closeSync(fd);
  } catch {
    writeSync(2, `${line}\n`);
  }
}

/** Reads all of a descriptor (an identity or recipients file, standard input), up to `limit` bytes. */
export function readAll(fd: number, limit: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const buf = new Uint8Array(65536);
    const n = readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    parts.push(buf.subarray(0, n));
    total += n;
    if (total > limit) throw new Error('file too long');
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const human = (bytes: number): string =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(0)} kB`;

/** A progress line on standard error, rewritten at most five times a second, for an input of `total` bytes. */
export class Progress {
  private last = 0;
  private readonly start = performance.now();
  private shown = false;

  constructor(
    private readonly label: string,
    private readonly total: number,
  ) {}

  update(done: number): void {
    const now = performance.now();
    if (now - this.last < 200) return;
    this.last = now;
    const rate = done / ((now - this.start) / 1000);
    const percent = this.total > 0 ? Math.floor((100 * done) / this.total) : 100;
    writeSync(2, `\r${this.label}: ${percent}% of ${human(this.total)}, ${human(rate)}/s   `);
    this.shown = true;
  }

  end(): void {
    if (this.shown) writeSync(2, '\r\x1b[K');
  }
}
