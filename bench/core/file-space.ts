/**
 * The harness's files, where the engine has a file system (Node, Deno,
 * Bun): inputs staged once per array in a temporary directory, removed
 * when the process exits, and read back; web streams over them for the
 * columns that read and write files as streams (typage). Undefined in a
 * browser, where the file ops work on Blobs instead (ops/age.ts).
 */

type Fs = typeof import('node:fs');
type Stream = typeof import('node:stream');

/** Imports a node: module past bundlers (a browser bundle never reaches here). */
export const nodeModule = <T>(name: string): Promise<T> => import(/* @vite-ignore */ `node:${name}`) as Promise<T>;

export interface FileSpace {
  /** The directory the files are in. */
  readonly dir: string;
  /** The path of a file holding `bytes`, written at the first call for this array. */
  stage(bytes: Uint8Array): string;
  read(path: string): Uint8Array;
  /** The file at `path` as a web stream. */
  readable(path: string): ReadableStream<Uint8Array>;
  /** A web stream into a new file at `path`. */
  writable(path: string): WritableStream<Uint8Array>;
}

let space: Promise<FileSpace | undefined> | undefined;

/** The process's file space (one directory), or undefined where there is no file system. */
export function loadFileSpace(): Promise<FileSpace | undefined> {
  space ??= makeFileSpace();
  return space;
}

async function makeFileSpace(): Promise<FileSpace | undefined> {
  const process = (globalThis as { process?: { versions?: unknown; on?: (e: string, f: () => void) => void } }).process;
  if (typeof process?.versions !== 'object') return undefined;
  let fs: Fs;
  let path: typeof import('node:path');
  let os: typeof import('node:os');
  let stream: Stream;
  try {
    [fs, path, os, stream] = await Promise.all([
      nodeModule<Fs>('fs'),
      nodeModule<typeof path>('path'),
      nodeModule<typeof os>('os'),
      nodeModule<Stream>('stream'),
    ]);
  } catch {
    return undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fourfold-bench-files-'));
  process.on?.('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const staged = new WeakMap<Uint8Array, string>();
  let files = 0;
  return {
    dir,
    stage(bytes) {
      let file = staged.get(bytes);
      if (file === undefined) {
        file = path.join(dir, `input-${files++}`);
        fs.writeFileSync(file, bytes);
        staged.set(bytes, file);
      }
      return file;
    },
    read: (file) => new Uint8Array(fs.readFileSync(file)),
    readable: (file) => stream.Readable.toWeb(fs.createReadStream(file)) as unknown as ReadableStream<Uint8Array>,
    writable: (file) => stream.Writable.toWeb(fs.createWriteStream(file)) as WritableStream<Uint8Array>,
  };
}
