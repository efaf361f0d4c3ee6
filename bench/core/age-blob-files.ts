/**
 * age's file calls on a File in a browser (bench/age-blob-files.ts runs
 * it, in any engine): a File encrypted to a Blob and that Blob decrypted
 * to a Blob, by fourfold/age's encryptFile / decryptFile (one thread),
 * fourfold/parallel's (every core) and typage's streams piped into a Blob,
 * the calls interleaved round by round. Each call is timed with the
 * calling thread's longest block (core/parallel.ts longestTask), against
 * the browsers' long-task mark of 50 ms; every output is checked once
 * against the others (each decrypts every other's file). Beside them, the
 * platform's ceiling: the same Blob work with no cryptography (the File
 * read a piece at a time and a Blob made of each piece) on this thread,
 * on one Web Worker and on two, so that every core's speed over one
 * thread reads against what the browser's Blobs allow.
 *
 * No Node API, as everything under core/.
 */
import { longestTask } from './parallel.js';
import { describeError } from './errors.js';
import { median } from './stats.js';

export interface BlobFilesOptions {
  /** The File's size, in MiB. */
  readonly mib: number;
  /** Rounds of every call, after one round that warms up. */
  readonly rounds: number;
  /**
   * The ceiling instead of the decryptions: the Blob work alone beside the
   * encryptions, in a page of its own (the Chromium of scripts/engines
   * stops reading a File made in memory once a page has made a few
   * hundred MiB of Blobs: NotReadableError).
   */
  readonly ceiling?: boolean;
}

/** One function's calls, per round. */
export interface BlobFileCalls {
  readonly name: string;
  readonly callMs: number[];
  readonly longestMs: number[];
  /** Jobs the pool's workers completed during each call (fourfold/parallel only). */
  readonly jobs?: number[];
  error?: string;
}

export interface BlobFilesResult {
  readonly mib: number;
  readonly tier: string;
  readonly pool: { readonly workers: number; readonly ready: number };
  readonly results: readonly BlobFileCalls[];
}

/** '1.23 s a call (1.20 .. 1.31), longest block 4.1 ms' for a function's calls. */
export function describeBlobCalls(c: BlobFileCalls): string {
  if (c.error !== undefined) return `${c.name}: ${c.error}`;
  const s = (ms: number) => (ms / 1000).toFixed(2);
  const jobs = c.jobs === undefined ? '' : `, worker jobs ${c.jobs.join(', ')}`;
  return (
    `${c.name}: ${s(median(c.callMs))} s a call (${s(Math.min(...c.callMs))} .. ${s(Math.max(...c.callMs))}), ` +
    `longest block ${median(c.longestMs).toFixed(1)} ms median (max ${Math.max(...c.longestMs).toFixed(1)})${jobs}`
  );
}

type Keys = { to: { recipients: string[] }; from: { identities: string[] } };
type Direction = { name: string; call: (input: Blob) => Promise<Blob> };

/** typage's encrypter and decrypter over a File's stream, collected into a Blob. */
async function typageCalls(identity: string, recipient: string): Promise<{ encrypt: Direction; decrypt: Direction } | undefined> {
  const typage = await import('age-encryption').catch(() => undefined);
  if (typage === undefined) return undefined;
  const toBlob = async (stream: ReadableStream<Uint8Array>) => {
    const parts: Uint8Array[] = [];
    await stream.pipeTo(new WritableStream({ write: (chunk) => void parts.push(chunk) }));
    return new Blob(parts as Uint8Array<ArrayBuffer>[]);
  };
  return {
    encrypt: {
      name: 'typage Encrypter (stream)',
      call: async (input) => {
        const e = new typage.Encrypter();
        e.addRecipient(recipient);
        return toBlob((await e.encrypt(input.stream())) as ReadableStream<Uint8Array>);
      },
    },
    decrypt: {
      name: 'typage Decrypter (stream)',
      call: async (input) => {
        const d = new typage.Decrypter();
        d.addIdentity(identity);
        return toBlob((await d.decrypt(input.stream())) as ReadableStream<Uint8Array>);
      },
    },
  };
}

/** Bytes of a file call's piece in a browser (file-pieces.ts BLOB_PIECE_CHUNKS: 60 chunks). */
const BLOB_PIECE = 60 * 65536;

/**
 * A Web Worker's script, served beside the measurement's bundle
 * (bench/age-blob-files.ts writes it there): a piece of a Blob read
 * (FileReaderSync) and made a Blob of its own, as a file call's piece is,
 * with no cryptography. From the page's own origin, as the pool's
 * workers are: not a blob: URL.
 */
export const COPIER = {
  file: 'blob-copier.js',
  text: `onmessage = ({ data: { blob, start, end, i } }) => {
  postMessage({ i, part: new Blob([new FileReaderSync().readAsArrayBuffer(blob.slice(start, end))]) });
};
`,
};

/** `n` Web Workers running COPIER, and a function that ends them. */
function startCopiers(n: number): { workers: Worker[]; end(): void } {
  const workers = Array.from({ length: n }, () => new Worker(new URL(`./${COPIER.file}`, import.meta.url)));
  return {
    workers,
    end() {
      for (const w of workers) w.terminate();
    },
  };
}

/**
 * `input` copied into a Blob of parts a piece at a time: on this thread
 * (no workers), or on `workers`, each kept two pieces ahead, as the pool
 * keeps its workers; the parts joined in order.
 */
async function copyBlob(input: Blob, workers: readonly Worker[]): Promise<Blob> {
  const count = Math.ceil(input.size / BLOB_PIECE);
  const parts: Blob[] = new Array(count);
  if (workers.length === 0) {
    for (let i = 0; i < count; i++) parts[i] = new Blob([await input.slice(i * BLOB_PIECE, (i + 1) * BLOB_PIECE).arrayBuffer()]);
    return new Blob(parts);
  }
  let next = 0;
  const run = (w: Worker) =>
    new Promise<void>((resolve, reject) => {
      let out = 0;
      const give = () => {
        if (next >= count) return;
        const i = next++;
        out++;
        w.postMessage({ blob: input, start: i * BLOB_PIECE, end: (i + 1) * BLOB_PIECE, i });
      };
      w.onmessage = ({ data }: MessageEvent<{ i: number; part: Blob }>) => {
        parts[data.i] = data.part;
        out--;
        give();
        if (out === 0) resolve();
      };
      w.onerror = (e) => reject(new Error(`a copier worker failed: ${e.message}`));
      give();
      give();
      if (out === 0) resolve();
    });
  await Promise.all(workers.map(run));
  return new Blob(parts);
}

const same = async (a: Blob, b: Uint8Array): Promise<boolean> => {
  const x = new Uint8Array(await a.arrayBuffer());
  return x.length === b.length && x.every((v, i) => v === b[i]);
};

export async function measureBlobFiles(options: BlobFilesOptions, progress: (message: string) => void = () => {}): Promise<BlobFilesResult> {
  const { ready } = await import('fourfold');
  const age = await import('fourfold/age');
  const parallel = await import('fourfold/parallel');
  const tier = await ready();
  const identity = age.generateIdentity();
  const keys: Keys = { to: { recipients: [age.identityToRecipient(identity)] }, from: { identities: [identity] } };
  const data = new Uint8Array(options.mib << 20);
  for (let at = 0; at < data.length; at += 65536) crypto.getRandomValues(data.subarray(at, at + 65536));
  const file = new File([data], 'input.bin');
  const sealed = await age.encryptFile(file, undefined, keys.to);

  const encrypts: Direction[] = [
    { name: 'fourfold/age encryptFile', call: (input) => age.encryptFile(input, undefined, keys.to) },
    { name: 'fourfold/parallel encryptFile', call: (input) => parallel.age.encryptFile(input, undefined, keys.to) },
  ];
  const decrypts: Direction[] = [
    { name: 'fourfold/age decryptFile', call: (input) => age.decryptFile(input, undefined, keys.from) },
    { name: 'fourfold/parallel decryptFile', call: (input) => parallel.age.decryptFile(input, undefined, keys.from) },
  ];
  const typage = await typageCalls(identity, keys.to.recipients[0]!);
  if (typage !== undefined) {
    encrypts.push(typage.encrypt);
    decrypts.push(typage.decrypt);
  }
  // The ceiling: the same Blob work, no cryptography (checked: the same bytes as the File).
  const copiers = startCopiers(options.ceiling === true ? 2 : 0);
  const ceilings: Direction[] = [
    { name: 'Blob pieces alone, this thread', call: (input) => copyBlob(input, []) },
    { name: 'Blob pieces alone, 1 worker', call: (input) => copyBlob(input, copiers.workers.slice(0, 1)) },
    { name: 'Blob pieces alone, 2 workers', call: (input) => copyBlob(input, copiers.workers) },
  ];
  const calls: { d: Direction; input: Blob; copy?: boolean }[] = [
    ...encrypts.map((d) => ({ d, input: file as Blob })),
    ...(options.ceiling === true ? ceilings.map((d) => ({ d, input: file as Blob, copy: true })) : decrypts.map((d) => ({ d, input: sealed }))),
  ];
  const results: BlobFileCalls[] = calls.map(({ d }) => ({
    name: d.name,
    callMs: [],
    longestMs: [],
    ...(d.name.startsWith('fourfold/parallel') ? { jobs: [] } : {}),
  }));

  // Every output checked once: each encryption read back by fourfold/age, each decryption against the data.
  for (const [i, { d, input, copy }] of calls.entries()) {
    progress(`${d.name}: checked`);
    try {
      const out = await d.call(input);
      const plain = input === file && copy !== true ? await age.decryptFile(out, undefined, keys.from) : out;
      if (!(await same(plain, data))) results[i]!.error = 'wrong bytes';
    } catch (cause) {
      results[i]!.error = describeError(cause);
    }
  }
  for (let round = 0; round < options.rounds; round++) {
    progress(`round ${round + 1} of ${options.rounds}`);
    for (const [i, { d, input }] of calls.entries()) {
      const r = results[i]!;
      if (r.error !== undefined) continue;
      const before = parallel.status().jobs;
      let taken: { callMs: number; longestMs: number };
      try {
        taken = await longestTask(() => d.call(input));
      } catch (cause) {
        r.error = `round ${round + 1}: ${describeError(cause)}`;
        continue;
      }
      r.callMs.push(taken.callMs);
      r.longestMs.push(taken.longestMs);
      r.jobs?.push(parallel.status().jobs - before);
    }
  }
  const { workers, ready: started } = parallel.status();
  parallel.terminate();
  copiers.end();
  return { mib: options.mib, tier, pool: { workers, ready: started }, results };
}
