/**
 * age files (C2SP age v1) to one X25519 recipient, one-shot, streamed in
 * 64 KiB pieces, armored and file to file (paths where the engine has a file
 * system, age-cli.ts, else Blobs), and to a passphrase at scrypt work factor
 * 10 and 18; ops and columns: docs/contributing/benchmarks.md, "age".
 * Encryption is random, so an encrypt entry's checked output is its file
 * decrypted (by typage where it loaded, else fourfold/age); the decrypt
 * ops' file is made once per shape and every column must return the plaintext.
 */
import type { AgeFrom, AgeTo } from 'fourfold/age';
import { BENCH_IDENTITY, BENCH_RECIPIENT, type FileSpace } from '../age-cli.js';
import { bytes } from '../fixtures.js';
import { type Apis, PARALLEL, TYPAGE_API } from '../libraries.js';
import { piecesOf } from './table.js';
import { defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

/** The passphrase of the scrypt ops, and their work factors (log2 of N): age's default, 18, and 10, where the payload's cost shows. */
const PASSPHRASE = 'fourfold bench passphrase';
const WORK_FACTORS = [10, 18] as const;
/** What a timed call gives the harness where its output is a file. */
const EMPTY = new Uint8Array(0);

type Stream = ReadableStream<Uint8Array>;
type FourfoldAge = NonNullable<NonNullable<Apis['fourfold']>['age']>;

/** One library's age, as the ops call it; the armor as ASCII bytes. */
interface AgeLibrary {
  encrypt(plain: Uint8Array): Promise<Uint8Array>;
  decrypt(file: Uint8Array): Promise<Uint8Array>;
  encryptStream(source: Stream): Stream | Promise<Stream>;
  decryptStream(source: Stream): Stream | Promise<Stream>;
  encryptArmored(plain: Uint8Array): Promise<Uint8Array>;
  decryptArmored(text: Uint8Array): Promise<Uint8Array>;
}

interface Inputs {
  readonly plain: Uint8Array;
  /** The decrypt ops' file, and the armored one, made once per shape (awaited by the first call, the reference's). */
  readonly file: Promise<Uint8Array>;
  readonly armoredFile: Promise<Uint8Array>;
  readonly size: number;
}

/** Reads a stream to its end into one buffer (for a check, not timed). */
const gather = async (stream: Stream): Promise<Uint8Array> => new Uint8Array(await new Response(stream).arrayBuffer());

/** Reads a stream to its end, dropping each chunk; resolves to an array of one byte per MiB it gave (what the harness keeps of a call). */
async function drain(stream: Stream): Promise<Uint8Array> {
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return new Uint8Array(Math.ceil(total / (1 << 20)));
    total += value.length;
  }
}

/** typage's API, as the ops call it: typage itself, or fourfold/age/typage, which must be usable in its place. */
type Typage = typeof import('age-encryption');
export type TypageApi = {
  readonly Encrypter: new () => Pick<InstanceType<Typage['Encrypter']>, 'addRecipient' | 'setPassphrase' | 'setScryptWorkFactor' | 'encrypt'>;
  readonly Decrypter: new () => Pick<InstanceType<Typage['Decrypter']>, 'addIdentity' | 'addPassphrase' | 'decrypt'>;
  readonly armor: Typage['armor'];
};

/** typage's Encrypter and Decrypter to the bench's X25519 key, or to the passphrase at `workFactor`. */
export function typageKeys(typage: TypageApi, workFactor?: number) {
  return {
    encrypter() {
      const e = new typage.Encrypter();
      if (workFactor === undefined) e.addRecipient(BENCH_RECIPIENT);
      else {
        e.setPassphrase(PASSPHRASE);
        e.setScryptWorkFactor(workFactor);
      }
      return e;
    },
    decrypter() {
      const d = new typage.Decrypter();
      if (workFactor === undefined) d.addIdentity(BENCH_IDENTITY);
      else d.addPassphrase(PASSPHRASE);
      return d;
    },
  };
}

/** The age libraries loaded here, by column (the CLIs apart), to the bench's X25519 key, or to a passphrase at `workFactor`. */
function libraries(apis: Apis, workFactor?: number): [string, AgeLibrary][] {
  const to: AgeTo = workFactor === undefined ? { recipients: [BENCH_RECIPIENT] } : { passphrase: PASSPHRASE, workFactor };
  const from: AgeFrom = workFactor === undefined ? { identities: [BENCH_IDENTITY] } : { passphrase: PASSPHRASE };
  const fourfold = (age: FourfoldAge): AgeLibrary => ({
    encrypt: (plain) => age.encrypt(plain, to),
    decrypt: (file) => age.decrypt(file, from),
    encryptStream: (source) => source.pipeThrough(age.encryptStream(to)),
    decryptStream: (source) => source.pipeThrough(age.decryptStream(from)),
    encryptArmored: (plain) => age.encrypt(plain, to, { armor: true }),
    decryptArmored: (text) => age.decrypt(text, from),
  });
  const typageApi = (typage: TypageApi): AgeLibrary => {
    const { encrypter, decrypter } = typageKeys(typage, workFactor);
    return {
      encrypt: (plain) => encrypter().encrypt(plain),
      decrypt: (file) => decrypter().decrypt(file),
      encryptStream: (source) => encrypter().encrypt(source),
      decryptStream: (source) => decrypter().decrypt(source),
      encryptArmored: async (plain) => new TextEncoder().encode(typage.armor.encode(await encrypter().encrypt(plain))),
      decryptArmored: (text) => decrypter().decrypt(typage.armor.decode(new TextDecoder().decode(text))),
    };
  };
  const { age: ours, parallel } = apis.fourfold ?? {};
  // One module, two columns: the harness selects the tier before each (libraries.ts). typage's API on fourfold's one-core column times these calls too.
  const columns: [string, AgeLibrary | undefined][] = [
    ['fourfold', ours && fourfold(ours)],
    ['fourfold-js', ours && fourfold(ours)],
    [PARALLEL, parallel?.age && fourfold(parallel.age)],
    ['typage', apis.typage && typageApi(apis.typage)],
    [TYPAGE_API, apis.fourfold?.['age/typage'] && typageApi(apis.fourfold['age/typage'])],
  ];
  return columns.filter((c): c is [string, AgeLibrary] => c[1] !== undefined);
}

/** The entries of one key's ops, by way, and the library that checks encryptions (typage where loaded, else fourfold). */
function keyEntries(libs: [string, AgeLibrary][]) {
  const checker = libs.find(([name]) => name === 'typage')?.[1] ?? libs.find(([name]) => name === 'fourfold')?.[1];
  const maker = libs.find(([name]) => name === 'fourfold')?.[1] ?? checker;
  if (checker === undefined || maker === undefined) return undefined;
  const inputs = (shape: Shape): Inputs => {
    const plain = bytes('age plaintext', shape.size);
    // Made lazily: only the decrypt ops await them.
    let file: Promise<Uint8Array> | undefined;
    let armoredFile: Promise<Uint8Array> | undefined;
    return {
      plain,
      size: shape.size,
      get file() {
        file ??= maker.encrypt(plain);
        return file;
      },
      get armoredFile() {
        armoredFile ??= maker.encryptArmored(plain);
        return armoredFile;
      },
    };
  };
  /** An encrypt entry: its calls' last file, opened by the checker, is what is checked. */
  const encrypting = (library: string, encrypt: (i: Inputs) => Promise<Uint8Array>, open: (file: Uint8Array) => Promise<Uint8Array>): OpEntry<Inputs> => {
    let last: Promise<Uint8Array> | undefined;
    return { library, bind: (i) => () => (last = encrypt(i)), checkedOutput: async () => open(await last!) };
  };
  const each = (entry: (library: string, age: AgeLibrary) => OpEntry<Inputs>) => libs.map(([library, age]) => entry(library, age));
  return {
    checker,
    inputs,
    encrypt: each((library, age) => encrypting(library, (i) => age.encrypt(i.plain), checker.decrypt)),
    decrypt: each((library, age) => ({ library, bind: (i) => async () => age.decrypt(await i.file) })),
    // A timed stream's output is read and dropped, as a file written elsewhere would be; one more call, gathered, is checked.
    'encrypt-stream': each((library, age) => ({
      library,
      bind: (i) => async () => drain(await age.encryptStream(piecesOf(i.plain))),
      checkedOutput: async (i) => checker.decrypt(await gather(await age.encryptStream(piecesOf(i.plain)))),
    })),
    'decrypt-stream': each((library, age) => ({
      library,
      bind: (i) => async () => drain(await age.decryptStream(piecesOf(await i.file))),
      checkedOutput: async (i) => gather(await age.decryptStream(piecesOf(await i.file))),
    })),
    'encrypt-armored': each((library, age) => encrypting(library, (i) => age.encryptArmored(i.plain), checker.decryptArmored)),
    'decrypt-armored': each((library, age) => ({ library, bind: (i) => async () => age.decryptArmored(await i.armoredFile) })),
  };
}

/** A column working file to file (a path, or a Blob where the engine has no file system): its output file. */
interface FileWay<F> {
  encrypt(input: F, armor?: boolean): Promise<F>;
  decrypt(input: F): Promise<F>;
}

/** The file ops' files: paths in the harness's directory (an output beside its input, named by column), else Blobs. */
interface Files<F> {
  stage(bytes: Uint8Array): F;
  read(file: F): Promise<Uint8Array>;
  /** `input` through `transform` into a new file, `name` the output's, for typage's column (its web streams). */
  through(input: F, name: string, transform: (s: Stream) => Promise<Stream>): Promise<F>;
  /** fourfold's encryptFile or decryptFile, writing beside the input (paths) or resolving to a Blob. */
  fourfold(call: FourfoldAge['encryptFile'] | FourfoldAge['decryptFile'], input: F, name: string, key: AgeTo | AgeFrom): Promise<F>;
}

function pathFiles(space: FileSpace): Files<string> {
  return {
    stage: (data) => space.stage(data),
    read: async (path) => space.read(path),
    async through(input, name, transform) {
      await (await transform(space.readable(input))).pipeTo(space.writable(`${input}.${name}`));
      return `${input}.${name}`;
    },
    async fourfold(call, input, name, key) {
      await (call as (i: string, o: string, k: unknown) => Promise<void>)(input, `${input}.${name}`, key);
      return `${input}.${name}`;
    },
  };
}

function blobFiles(): Files<Blob> {
  const staged = new WeakMap<Uint8Array, Blob>();
  return {
    stage(data) {
      let blob = staged.get(data);
      if (blob === undefined) staged.set(data, (blob = new Blob([data as Uint8Array<ArrayBuffer>])));
      return blob;
    },
    read: async (blob) => new Uint8Array(await blob.arrayBuffer()),
    async through(input, _name, transform) {
      const parts: Uint8Array[] = [];
      await (await transform(input.stream() as Stream)).pipeTo(new WritableStream({ write: (chunk) => void parts.push(chunk) }));
      return new Blob(parts as Uint8Array<ArrayBuffer>[]);
    },
    fourfold: (call, input, _name, key) => (call as (i: Blob, o: undefined, k: unknown) => Promise<Blob>)(input, undefined, key),
  };
}

/** The age commands (Go's, rage, fourfold's), file to file (paths only): each call writes its output beside its input. */
function cliWays(apis: Apis): [string, FileWay<string>][] {
  return Object.entries(apis.clis).map(([library, cli]) => {
    const run = async (input: string, suffix: string, call: (output: string) => Promise<void>) => {
      await call(`${input}.${library}${suffix}`);
      return `${input}.${library}${suffix}`;
    };
    return [
      library,
      {
        encrypt: (input, armor) => run(input, armor === true ? '.age.txt' : '.age', (output) => cli.encrypt(input, output, armor)),
        decrypt: (input) => run(input, '.out', (output) => cli.decrypt(input, output)),
      },
    ];
  });
}

/** The file ops' columns on files of kind F: fourfold's file calls, typage's streams over the files, and the CLIs where files are paths. */
function fileWays<F>(apis: Apis, files: Files<F>, clis: [string, FileWay<F>][]): [string, FileWay<F>][] {
  const fourfold = (library: string, age: FourfoldAge): FileWay<F> => ({
    encrypt: (input) => files.fourfold(age.encryptFile, input, `${library}.age`, { recipients: [BENCH_RECIPIENT] }),
    decrypt: (input) => files.fourfold(age.decryptFile, input, `${library}.out`, { identities: [BENCH_IDENTITY] }),
  });
  const ways: [string, FileWay<F> | undefined][] = [['fourfold', apis.fourfold?.age && fourfold('fourfold', apis.fourfold.age)]];
  ways.push([PARALLEL, apis.fourfold?.parallel?.age && fourfold(PARALLEL, apis.fourfold.parallel.age)]);
  if (apis.typage !== undefined) {
    const { encrypter, decrypter } = typageKeys(apis.typage);
    ways.push([
      'typage',
      {
        encrypt: (input) => files.through(input, 'typage.age', async (s) => (await encrypter().encrypt(s)) as Stream),
        decrypt: (input) => files.through(input, 'typage.out', async (s) => (await decrypter().decrypt(s)) as Stream),
      },
    ]);
  }
  return [...ways.filter((w): w is [string, FileWay<F>] => w[1] !== undefined), ...clis];
}

/** A file column's entries: encrypting (opened by `open` to check) and decrypting the file `fileOf` gives. */
function fileEntries<F>(files: Files<F>, [library, way]: [string, FileWay<F>]) {
  return {
    encrypt(open: (file: Uint8Array) => Promise<Uint8Array>, armor?: boolean): OpEntry<Inputs> {
      let last: Promise<F> | undefined;
      return {
        library,
        bind: (i) => {
          const input = files.stage(i.plain);
          return async () => {
            await (last = way.encrypt(input, armor));
            return EMPTY;
          };
        },
        checkedOutput: async () => open(await files.read(await last!)),
      };
    },
    decrypt(fileOf: (i: Inputs) => Promise<Uint8Array>): OpEntry<Inputs> {
      let last: Promise<F> | undefined;
      return {
        library,
        bind: (i) => async () => {
          await (last = way.decrypt(files.stage(await fileOf(i))));
          return EMPTY;
        },
        checkedOutput: async () => files.read(await last!),
      };
    },
  };
}

/** 'age-encrypt-file' and 'age-decrypt-file' (none where the engine has neither a file system nor Blobs). */
function fileOps<F>(apis: Apis, files: Files<F> | undefined, clis: [string, FileWay<F>][], checker: AgeLibrary): [OpEntry<Inputs>[], OpEntry<Inputs>[]] {
  if (files === undefined) return [[], []];
  const entries = fileWays(apis, files, clis).map((way) => fileEntries(files, way));
  return [entries.map((e) => e.encrypt(checker.decrypt)), entries.map((e) => e.decrypt((i) => i.file))];
}

export function ageOps(apis: Apis): OpDefinition<unknown>[] {
  const x25519 = keyEntries(libraries(apis));
  if (x25519 === undefined) return [];
  const { checker, inputs } = x25519;
  // The CLIs file to file in the one-shot and armored ops too: a process per call, as a script runs them.
  const paths = apis.files && pathFiles(apis.files);
  const clis = paths === undefined ? [] : cliWays(apis).map((way) => fileEntries(paths, way));
  for (const cli of clis) {
    x25519.encrypt.push(cli.encrypt(checker.decrypt));
    x25519.decrypt.push(cli.decrypt((i) => i.file));
    x25519['encrypt-armored'].push(cli.encrypt(checker.decryptArmored, true));
    x25519['decrypt-armored'].push(cli.decrypt((i) => i.armoredFile));
  }
  const [encryptFile, decryptFile] =
    paths !== undefined ? fileOps(apis, paths, cliWays(apis), checker) : fileOps<Blob>(apis, typeof Blob === 'function' ? blobFiles() : undefined, [], checker);
  const op = (name: string, entries: OpEntry<Inputs>[], of = inputs) =>
    defineOp<Inputs>({ op: name, inputs: of, reference: 'typage', sizesOnly: true, entries });
  const ways = ['encrypt', 'decrypt', 'encrypt-stream', 'decrypt-stream'] as const;
  return [
    ...ways.map((way) => op(`age-${way}`, x25519[way])),
    op('age-encrypt-armored', x25519['encrypt-armored']),
    op('age-decrypt-armored', x25519['decrypt-armored']),
    op('age-encrypt-file', encryptFile),
    op('age-decrypt-file', decryptFile),
    // A passphrase's files, whole and streamed: 'age-scrypt10-encrypt' and so on, every column at the same work factor.
    ...WORK_FACTORS.flatMap((workFactor) => {
      const key = keyEntries(libraries(apis, workFactor))!;
      return ways.map((way) => op(`age-scrypt${workFactor}-${way}`, key[way], key.inputs));
    }),
  ];
}
