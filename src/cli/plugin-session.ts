/**
 * A session with an age plugin's process (C2SP age-plugin): the program
 * age-plugin-NAME from PATH (its absolute folders: pluginProgram) started
 * in the temporary folder, the stanzas
 * it writes to standard output read in order as lines come, bounded, and
 * what it wrote to standard error kept for the message of a failure. The
 * session is over when the process exits, whoever else holds its pipes,
 * as age's: age-plugin.ts runs the state machines over it.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { Failure } from './age-io.js';
import { AgeFormatError } from '../age/errors.js';
import { bodyLine, MAX_HEADER, type OpenStanza, type Stanza, stanzaStart, stanzaText } from '../age/header.js';
import { builtinModule } from '../runtime/host.js';

/** node:child_process, loaded with the first plugin: net and its streams come with it, some 3 ms of a fresh process that runs none. */
const childProcess = (): typeof import('node:child_process') => builtinModule<typeof import('node:child_process')>('node:child_process')!;

/** The most a plugin may send in one session: twice the largest header age reads, enough for its stanzas and a few questions. */
const MAX_SESSION_BYTES = 2 * MAX_HEADER;
/** The end of what a plugin wrote to standard error that a failure shows. */
const STDERR_KEPT = 2048;
/** How long a plugin is waited for before the user is told (age's 5 seconds), and given to exit once its session is over. */
const WAIT_NOTICE_MS = 5000;
const EXIT_GRACE_MS = 5000;

/** A plugin process and the stanzas it sends, read in order as its standard output brings them. */
export class Session {
  private readonly child: ChildProcessWithoutNullStreams;
  /** Bytes of standard output not yet read as lines. */
  private pending = '';
  private received = 0;
  private readonly lines: string[] = [];
  private ended = false;
  private failed: Failure | undefined;
  private wake: (() => void) | undefined;
  private stderr = '';
  /** The plugin's exit status (null: a signal's, or it never started), once its process is gone; not its pipes' end, which a process it started may hold. */
  private readonly exited: Promise<number | null>;
  /** Standard error read to its end. */
  private readonly stderrEnded: Promise<void>;

  constructor(
    readonly name: string,
    stateMachine: string,
  ) {
    const program = pluginProgram(`age-plugin-${name}`);
    if (program === undefined) throw startFailure(name, Object.assign(new Error('not found'), { code: 'ENOENT' }));
    this.child = childProcess().spawn(program, [`--age-plugin=${stateMachine}`], { cwd: tmpdir(), stdio: 'pipe' });
    this.child.stdout.setEncoding('latin1');
    this.child.stdout.on('data', (text: string) => this.take(text));
    this.child.stdout.on('end', () => this.stop());
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-STDERR_KEPT)));
    this.stderrEnded = new Promise((resolve) => this.child.stderr.on('close', resolve));
    // A write to a plugin that has exited fails (EPIPE): the read that follows reports the exit.
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      // 'exit', not 'close', as age waits: a process the plugin started may keep its pipes open for ever.
      this.child.on('exit', (code) => resolve(code));
      // A plugin that did not start has no 'exit' to wait for.
      this.child.on('error', (e: NodeJS.ErrnoException) => {
        this.stop(startFailure(name, e));
        resolve(null);
      });
    });
  }

  private take(text: string): void {
    this.received += text.length;
    if (this.received > MAX_SESSION_BYTES) {
      this.stop(this.broken(`sent more than ${MAX_SESSION_BYTES} bytes`));
      return;
    }
    const parts = (this.pending + text).split('\n');
    this.pending = parts.pop()!;
    this.lines.push(...parts);
    this.wake?.();
  }

  private stop(failure?: Failure): void {
    this.failed ??= failure;
    this.ended = true;
    this.wake?.();
  }

  /** A Failure for a plugin that broke the protocol: `what` it did, and the end of its standard error. */
  broken(what: string): Failure {
    return new Failure(`${this.name} plugin: ${what}`, this.stderrHint());
  }

  private stderrHint(): string[] {
    const said = this.stderr.trim();
    return said === '' ? [] : [`age-plugin-${this.name} said: ${said}`];
  }

  send(type: string, args: readonly string[] = [], body: Uint8Array = new Uint8Array(0)): void {
    this.child.stdin.write(stanzaText({ type, args, body }));
  }

  /** The next stanza the plugin sends; a Failure when it exits first or sends what is no stanza. */
  async next(): Promise<Stanza> {
    let open: OpenStanza | undefined;
    for (;;) {
      const line = await this.line();
      try {
        if (open === undefined) open = stanzaStart(line);
        else {
          const done = bodyLine(open, line);
          if (done !== undefined) return done;
        }
      } catch (e) {
        if (e instanceof AgeFormatError) throw this.broken(`sent a malformed stanza: ${e.message}`);
        throw e;
      }
    }
  }

  private async line(): Promise<string> {
    const notice = setTimeout(() => writeSync(2, `fourfold age: waiting on ${this.name} plugin...\n`), WAIT_NOTICE_MS);
    notice.unref();
    try {
      for (;;) {
        if (this.failed !== undefined) throw this.failed;
        if (this.lines.length > 0) return this.lines.shift()!;
        if (this.ended) {
          const code = await this.exited;
          await this.lastWords();
          throw new Failure(`${this.name} plugin: exited${code === null ? '' : ` with status ${code}`} before finishing the protocol`, this.stderrHint());
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    } finally {
      clearTimeout(notice);
    }
  }

  /** What the plugin wrote to standard error before it exited: read to the end, or for EXIT_GRACE_MS where a process it started holds the pipe. */
  private async lastWords(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.stderrEnded, new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_GRACE_MS)))]);
    clearTimeout(timer);
  }

  /**
   * Ends the session: standard input closed, SIGINT sent (as age does),
   * and the process waited for, killed if it lingers; its pipes are then
   * closed here, whoever else holds them.
   */
  async close(): Promise<void> {
    this.child.stdin.end();
    this.child.stdout.destroy();
    this.child.kill('SIGINT');
    const linger = setTimeout(() => this.child.kill('SIGKILL'), EXIT_GRACE_MS);
    await this.exited;
    clearTimeout(linger);
    this.child.stderr.destroy();
  }
}

/**
 * The plugin's program: `file` in the first absolute folder of PATH that
 * holds it as an executable file, found here, as Go's exec.LookPath finds
 * it for age; undefined where none does. The plugin runs in the temporary
 * folder (as age's), which every user can write: a search by the child,
 * made there, would take an empty or relative entry of PATH (`PATH=/bin:`
 * names the current folder) in that folder and run a program another user
 * put there. Such entries are skipped, as Go refuses what they find
 * (exec.ErrDot). Windows searches by the name.
 */
function pluginProgram(file: string): string | undefined {
  if (process.platform === 'win32') return file;
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (!isAbsolute(folder)) continue;
    const path = join(folder, file);
    try {
      if (!statSync(path).isFile()) continue;
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Not there, or not executable by this user: the next folder.
    }
  }
  return undefined;
}

/** Why a plugin did not start: not in PATH (with age's hints), or the system's reason. */
function startFailure(name: string, e: NodeJS.ErrnoException): Failure {
  if (e.code === 'ENOENT') {
    return new Failure(`"${name}" plugin not found: there is no age-plugin-${name} in PATH`, [
      `you might want to install the "${name}" plugin`,
      'visit https://age-encryption.org/awesome#plugins for a list of available plugins',
    ]);
  }
  return new Failure(`${name} plugin: couldn't start plugin: ${e.message}`);
}
