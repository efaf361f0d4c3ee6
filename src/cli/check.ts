/**
 * b3sum --check: each line of a checkfile is `<hex hash>  <name>` or the
 * --tag form `BLAKE3 (<name>) = <hex hash>`, a leading backslash meaning
 * the name is escaped. Lines b3sum cannot parse are reported on standard
 * error; the others print `<name>: OK`, `<name>: FAILED` or
 * `<name>: FAILED (<error>)`, the name as written in the line. Hashes
 * are compared in constant time.
 */
import { closeSync, openSync } from 'node:fs';
import { hashPath, outputBytes, STDIN, type Run } from './hash.js';
import { ioErrorText, Fatal, readFull } from './io.js';
import { equalBytes } from '../runtime/bytes.js';

/** The lines of a file with their line endings, as Rust's read_line gives them; invalid UTF-8 ends the run. */
function* lines(fd: number): Generator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const buf = new Uint8Array(65536);
  let pending = new Uint8Array(0);
  const decode = (bytes: Uint8Array) => {
    try {
      return decoder.decode(bytes);
    } catch {
      throw new Fatal('stream did not contain valid UTF-8');
    }
  };
  for (;;) {
    const n = readFull(fd, buf);
    const joined = new Uint8Array(pending.length + n);
    joined.set(pending);
    joined.set(buf.subarray(0, n), pending.length);
    let start = 0;
    for (let i = 0; i < joined.length; i++) {
      if (joined[i] === 10) {
        yield decode(joined.subarray(start, i + 1));
        start = i + 1;
      }
    }
    pending = joined.slice(start);
    if (n < buf.length) break;
  }
  if (pending.length > 0) yield decode(pending);
}

interface Parsed {
  /** The name as the line writes it (with the leading backslash when escaped). */
  shown: string;
  path: string;
  expected: Uint8Array;
}

function unescapeName(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    if (name[i] !== '\\') {
      out += name[i];
      continue;
    }
    const next = name[++i];
    if (next === 'n') out += '\n';
    else if (next === 'r') out += '\r';
    else if (next === '\\') out += '\\';
    else throw new Error('Invalid backslash escape');
  }
  return out;
}

/** A check line, or the message b3sum prints for it. */
function parseLine(raw: string): Parsed {
  const line = raw.replace(/[\r\n]+$/, '');
  if (line === '') throw new Error('Empty line');
  const escaped = line.startsWith('\\');
  const rest = escaped ? line.slice(1) : line;
  let hash: string;
  let name: string;
  const gap = rest.indexOf('  ');
  if (gap >= 0) {
    hash = rest.slice(0, gap);
    name = rest.slice(gap + 2);
  } else if (rest.startsWith('BLAKE3 (') && rest.lastIndexOf(') = ') >= 8) {
    const at = rest.lastIndexOf(') = ');
    name = rest.slice(8, at);
    hash = rest.slice(at + 4);
  } else {
    throw new Error('Invalid check line format');
  }
  if (new TextEncoder().encode(hash).length !== 64) throw new Error('Invalid hash length');
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error('Invalid hex');
  const expected = new Uint8Array(32);
  for (let i = 0; i < 32; i++) expected[i] = parseInt(hash.slice(2 * i, 2 * i + 2), 16);
  const path = escaped ? unescapeName(name) : name;
  if (path === '') throw new Error('empty file path');
  if (path.includes('\0')) throw new Error('Null character in path');
  if (path.includes('\uFFFD')) throw new Error('Unicode replacement character in path');
  return { shown: (escaped ? '\\' : '') + name, path, expected };
}

async function checkLine(run: Run, raw: string): Promise<boolean> {
  let parsed: Parsed;
  try {
    parsed = parseLine(raw);
  } catch (e) {
    run.out.flush();
    run.err.write(`b3sum: ${(e as Error).message}\n`);
    run.err.flush();
    return false;
  }
  let found: Uint8Array;
  try {
    const root = await hashPath(run, parsed.path);
    found = outputBytes(root, run.args.seek, 32n).next().value!.slice();
    root.fill(0);
  } catch (e) {
    run.out.write(`${parsed.shown}: FAILED (${ioErrorText(e)})\n`);
    return false;
  }
  const ok = equalBytes(found, 0, parsed.expected, 0, 32);
  found.fill(0);
  if (!ok) run.out.write(`${parsed.shown}: FAILED\n`);
  else if (!run.args.quiet) run.out.write(`${parsed.shown}: OK\n`);
  return ok;
}

/** Checks every line of the checkfile at `path` (`-`: standard input); returns the failures. */
export async function checkFile(run: Run, path: string): Promise<number> {
  const fd = path === '-' ? STDIN : openSync(path, 'r');
  let failed = 0;
  try {
    for (const line of lines(fd)) if (!(await checkLine(run, line))) failed++;
  } finally {
    if (fd !== STDIN) closeSync(fd);
  }
  return failed;
}
