/**
 * age files (C2SP age v1) to one X25519 recipient: 'age-encrypt' and
 * 'age-decrypt' one-shot (bytes to bytes), 'age-encrypt-stream' and
 * 'age-decrypt-stream' through each library's stream form, fed 64 KiB
 * pieces (as a file's stream comes), its output read and dropped (a
 * gathered call of each is what is checked), 'age-encrypt-armored'
 * and 'age-decrypt-armored' one-shot to and from the ASCII armor, and
 * 'age-encrypt-file' and 'age-decrypt-file' file to file: paths where
 * the engine has a file system (file-space.ts), else a Blob to a Blob
 * (fourfold's encryptFile / decryptFile, typage's streams over the files).
 * 'age-scrypt10-*' and 'age-scrypt18-*': the one-shot and stream ops to
 * a passphrase, at scrypt work factor 10 (the payload's cost shows) and
 * 18 (age's default). A shape's size is the plaintext's; the ops are
 * timed in the 'sizes' part only (OpDefinition.sizesOnly).
 *
 * Columns: fourfold/age (one thread, each tier; the file ops on the
 * default tier only), fourfold/parallel's age (every core), typage (npm
 * age-encryption, on @noble: the reference), typage's API on fourfold
 * (fourfold/age/typage, with the pool and with none) and, in Node, Deno and Bun
 * where they are installed, the Go age CLI and rage as processes, file to
 * file (age-cli.ts), for scale.
 *
 * Encryption is random (file key, nonce, ephemeral share), so an encrypt
 * entry's checked output is its file decrypted: by typage where it
 * loaded, else by fourfold/age, whose files the tests read with age and
 * rage. The decrypt ops' file is encrypted once per shape by fourfold/age
 * (else typage), and every column must give back the plaintext.
 */
import type { AgeFrom, AgeTo } from 'fourfold/age';
import { PARALLEL, TYPAGE_API, type Apis } from '../libraries.js';
import type { FileSpace } from '../file-space.js';
import { BENCH_IDENTITY, BENCH_RECIPIENT } from '../age-cli.js';
import { bytes } from '../fixtures.js';
import { defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

/** The pieces a stream is fed, as a file's ReadableStream comes in Node (64 KiB). */
const PIECE = 64 << 10;

/** One library's age, as the ops call it. */
export interface AgeLibrary {
  encrypt(plain: Uint8Array): Promise<Uint8Array>;
  decrypt(file: Uint8Array): Promise<Uint8Array>;
  encryptStream?(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>>;
  decryptStream?(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>>;
  /** The armored file of `plain`, as ASCII bytes. */
  encryptArmored(plain: Uint8Array): Promise<Uint8Array>;
  /** The plaintext of an armored file given as ASCII bytes. */
  decryptArmored(text: Uint8Array): Promise<Uint8Array>;
}

interface Inputs {
  readonly plain: Uint8Array;
  /** The decrypt ops' file, made once per shape (awaited by the first call, the reference's). */
  readonly file: Promise<Uint8Array>;
  /** The same plaintext's armored file, for 'age-decrypt-armored'. */
  readonly armoredFile: Promise<Uint8Array>;
  readonly size: number;
}

/** `source` as a stream of PIECE-byte views. */
export function piecesOf(source: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= source.length) return controller.close();
      const end = Math.min(at + PIECE, source.length);
      controller.enqueue(source.subarray(at, end));
      at = end;
    },
  });
}

/** Reads a stream to its end into one buffer (grown by doubling from `hint` bytes). */
async function gather(stream: ReadableStream<Uint8Array>, hint: number): Promise<Uint8Array> {
  let out = new Uint8Array(Math.max(hint, 1024));
  let fill = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out.subarray(0, fill);
    if (fill + value.length > out.length) {
      const grown = new Uint8Array(Math.max(2 * out.length, fill + value.length));
      grown.set(out.subarray(0, fill));
      out = grown;
    }
    out.set(value, fill);
    fill += value.length;
  }
}

/** Reads a stream to its end, dropping each chunk; resolves to an array of one byte per MiB it gave (what the harness keeps of a call). */
export async function drain(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return new Uint8Array(Math.ceil(total / (1 << 20)));
    total += value.length;
  }
}

/** The file's length, about: the payload's tags and a header of a few hundred bytes. */
const fileHint = (size: number) => size + 16 * Math.ceil((size + 1) / PIECE) + 512;

/** The passphrase of the scrypt ops, and their work factors (log2 of N): age's default, 18, and 10, where the payload's cost shows. */
const PASSPHRASE = 'fourfold bench passphrase';
const WORK_FACTORS = [10, 18] as const;

/** typage's API, as the ops call it: typage itself, or fourfold/age/typage, which must be usable in its place. */
type Typage = typeof import('age-encryption');
export type TypageApi = {
  readonly Encrypter: new () => Pick<InstanceType<Typage['Encrypter']>, 'addRecipient' | 'setPassphrase' | 'setScryptWorkFactor' | 'encrypt'>;
  readonly Decrypter: new () => Pick<InstanceType<Typage['Decrypter']>, 'addIdentity' | 'addPassphrase' | 'decrypt'>;
  readonly armor: Typage['armor'];
};

/** The age libraries loaded here, by column (the Go CLI apart), to the bench's X25519 key, or to a passphrase at `workFactor`. */
function libraries(apis: Apis, workFactor?: number): [string, AgeLibrary][] {
  const out: [string, AgeLibrary][] = [];
  const to: AgeTo = workFactor === undefined ? { recipients: [BENCH_RECIPIENT] } : { passphrase: PASSPHRASE, workFactor };
  const from: AgeFrom = workFactor === undefined ? { identities: [BENCH_IDENTITY] } : { passphrase: PASSPHRASE };
  const fourfold = (age: NonNullable<NonNullable<Apis['fourfold']>['age']>): AgeLibrary => ({
    encrypt: (plain) => age.encrypt(plain, to),
    decrypt: (file) => age.decrypt(file, from),
    encryptStream: (source) => source.pipeThrough(age.encryptStream(to)),
    decryptStream: (source) => source.pipeThrough(age.decryptStream(from)),
    encryptArmored: (plain) => age.encrypt(plain, to, { armor: true }),
    decryptArmored: (text) => age.decrypt(text, from),
  });
  // One module, two columns: the harness selects the tier before each (libraries.ts).
  if (apis.fourfold?.age !== undefined) out.push(['fourfold', fourfold(apis.fourfold.age)], ['fourfold-js', fourfold(apis.fourfold.age)]);
  if (apis.fourfold?.parallel?.age !== undefined) out.push([PARALLEL, fourfold(apis.fourfold.parallel.age)]);
  const typageApi = (typage: TypageApi): AgeLibrary => {
    const encrypter = () => {
      const e = new typage.Encrypter();
      if (workFactor === undefined) e.addRecipient(BENCH_RECIPIENT);
      else {
        e.setPassphrase(PASSPHRASE);
        e.setScryptWorkFactor(workFactor);
      }
      return e;
    };
    const decrypter = () => {
      const d = new typage.Decrypter();
      if (workFactor === undefined) d.addIdentity(BENCH_IDENTITY);
      else d.addPassphrase(PASSPHRASE);
      return d;
    };
    return {
      encrypt: (plain) => encrypter().encrypt(plain),
      decrypt: (file) => decrypter().decrypt(file),
      encryptStream: (source) => encrypter().encrypt(source),
      decryptStream: (source) => decrypter().decrypt(source),
      encryptArmored: async (plain) => new TextEncoder().encode(typage.armor.encode(await encrypter().encrypt(plain))),
      decryptArmored: (text) => decrypter().decrypt(typage.armor.decode(new TextDecoder().decode(text))),
    };
  };
  if (apis.typage !== undefined) out.push(['typage', typageApi(apis.typage)]);
  // Its one-core column times these calls too (libraries.ts TYPAGE_API_ONE_CORE).
  if (apis.fourfold?.['age/typage'] !== undefined) out.push([TYPAGE_API, typageApi(apis.fourfold['age/typage'])]);
  return out;
}

/** The columns of one key, whole and streamed: the entries of encrypt, decrypt, encrypt-stream and decrypt-stream, and what checks them. */
function keyEntries(libs: [string, AgeLibrary][]) {
  // The checker of encryptions, and the maker of the decrypt ops' files.
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
  /** An encrypt entry: its calls' last file, decrypted (by `open`: the checker's binary or armored decrypt), is what is checked. */
  const encrypting = (library: string, encrypt: (i: Inputs) => Promise<Uint8Array>, open = checker.decrypt): OpEntry<Inputs> => {
    let last: Promise<Uint8Array> | undefined;
    return {
      library,
      bind: (i) => () => (last = encrypt(i)),
      checkedOutput: async () => open(await last!),
    };
  };
  const streaming = libs.filter(([, age]) => age.encryptStream !== undefined && age.decryptStream !== undefined);
  return {
    checker,
    inputs,
    encrypting,
    encrypt: libs.map(([library, age]) => encrypting(library, (i) => age.encrypt(i.plain))),
    decrypt: libs.map(([library, age]): OpEntry<Inputs> => ({ library, bind: (i) => async () => age.decrypt(await i.file) })),
    // A timed stream's output is read and dropped, as a file written elsewhere would be; one more call, gathered, is checked.
    encryptStream: streaming.map(
      ([library, age]): OpEntry<Inputs> => ({
        library,
        bind: (i) => async () => drain(await age.encryptStream!(piecesOf(i.plain))),
        checkedOutput: async (i) => checker.decrypt(await gather(await age.encryptStream!(piecesOf(i.plain)), fileHint(i.size))),
      }),
    ),
    decryptStream: streaming.map(
      ([library, age]): OpEntry<Inputs> => ({
        library,
        bind: (i) => async () => drain(await age.decryptStream!(piecesOf(await i.file))),
        checkedOutput: async (i) => gather(await age.decryptStream!(piecesOf(await i.file)), i.size),
      }),
    ),
  };
}

export function ageOps(apis: Apis): OpDefinition<unknown>[] {
  const libs = libraries(apis);
  const x25519 = keyEntries(libs);
  if (x25519 === undefined) return [];
  const { checker, inputs, encrypting, encrypt: encryptEntries, decrypt: decryptEntries } = x25519;
  const encryptArmoredEntries: OpEntry<Inputs>[] = libs.map(([library, age]) =>
    encrypting(library, (i) => age.encryptArmored(i.plain), checker.decryptArmored),
  );
  const decryptArmoredEntries: OpEntry<Inputs>[] = libs.map(([library, age]) => ({
    library,
    bind: (i) => async () => age.decryptArmored(await i.armoredFile),
  }));
  const clis = [
    ['age-cli', apis.ageCli],
    ['rage-cli', apis.rageCli],
  ] as const;
  for (const [library, cli] of clis) {
    if (cli === undefined) continue;
    // File to file: each call writes its output next to its input, which is staged once.
    const cliEncrypt = (armor: boolean): OpEntry<Inputs> => {
      const suffix = `.${library}${armor ? '.age.txt' : '.age'}`;
      return {
        library,
        bind: (i) => {
          const input = cli.stage(i.plain);
          return async () => {
            await cli.encrypt(input, `${input}${suffix}`, armor);
            return EMPTY;
          };
        },
        checkedOutput: async (i) => {
          const file = cli.read(`${cli.stage(i.plain)}${suffix}`);
          return armor ? checker.decryptArmored(file) : checker.decrypt(file);
        },
      };
    };
    const cliDecrypt = (file: (i: Inputs) => Promise<Uint8Array>): OpEntry<Inputs> => ({
      library,
      bind: (i) => async () => {
        const input = cli.stage(await file(i));
        await cli.decrypt(input, `${input}.${library}.out`);
        return EMPTY;
      },
      checkedOutput: async (i) => cli.read(`${cli.stage(await file(i))}.${library}.out`),
    });
    encryptEntries.push(cliEncrypt(false));
    decryptEntries.push(cliDecrypt((i) => i.file));
    encryptArmoredEntries.push(cliEncrypt(true));
    decryptArmoredEntries.push(cliDecrypt((i) => i.armoredFile));
  }
  const [encryptFileEntries, decryptFileEntries] = fileEntries(apis, checker);
  const op = (name: string, entries: OpEntry<Inputs>[], of = inputs) =>
    defineOp<Inputs>({ op: name, inputs: of, reference: 'typage', sizesOnly: true, entries });
  // A passphrase's files, whole and streamed: 'age-scrypt10-encrypt' and so on, every column at the same work factor.
  const passphraseOps = WORK_FACTORS.flatMap((workFactor) => {
    const key = keyEntries(libraries(apis, workFactor))!;
    const ways = { encrypt: key.encrypt, decrypt: key.decrypt, 'encrypt-stream': key.encryptStream, 'decrypt-stream': key.decryptStream };
    return Object.entries(ways).map(([way, entries]) => op(`age-scrypt${workFactor}-${way}`, entries, key.inputs));
  });
  return [
    op('age-encrypt', encryptEntries),
    op('age-decrypt', decryptEntries),
    op('age-encrypt-stream', x25519.encryptStream),
    op('age-decrypt-stream', x25519.decryptStream),
    op('age-encrypt-armored', encryptArmoredEntries),
    op('age-decrypt-armored', decryptArmoredEntries),
    op('age-encrypt-file', encryptFileEntries),
    op('age-decrypt-file', decryptFileEntries),
    ...passphraseOps,
  ];
}

/** What a timed call gives the harness where its output is a file. */
const EMPTY = new Uint8Array(0);

/** A file op's column: a file in, its output file out. */
interface FileColumn<F> {
  encrypt(input: F): Promise<F>;
  decrypt(input: F): Promise<F>;
}

/** The file ops' files: paths in the harness's directory (the output beside the input, named by column), else Blobs. */
interface Files<F> {
  /** Whether the files are paths (else Blobs). */
  readonly paths: boolean;
  stage(bytes: Uint8Array): F;
  read(file: F): Promise<Uint8Array>;
  /** A web stream of a file, and one written to a new file (the output of `input` for `column`), for typage's column. */
  through(input: F, column: string, transform: (s: ReadableStream<Uint8Array>) => Promise<ReadableStream<Uint8Array>>): Promise<F>;
}

function pathFiles(space: FileSpace): Files<string> {
  return {
    paths: true,
    stage: (data) => space.stage(data),
    read: async (path) => space.read(path),
    async through(input, column, transform) {
      const output = `${input}.${column}`;
      await (await transform(space.readable(input))).pipeTo(space.writable(output));
      return output;
    },
  };
}

function blobFiles(): Files<Blob> {
  const staged = new WeakMap<Uint8Array, Blob>();
  return {
    paths: false,
    stage(data) {
      let blob = staged.get(data);
      if (blob === undefined) staged.set(data, (blob = new Blob([data as Uint8Array<ArrayBuffer>])));
      return blob;
    },
    read: async (blob) => new Uint8Array(await blob.arrayBuffer()),
    async through(input, _column, transform) {
      const parts: Uint8Array[] = [];
      await (await transform(input.stream() as ReadableStream<Uint8Array>)).pipeTo(new WritableStream({ write: (chunk) => void parts.push(chunk) }));
      return new Blob(parts as Uint8Array<ArrayBuffer>[]);
    },
  };
}

/** The file ops' columns on files of kind F. */
function fileColumns<F extends string | Blob>(apis: Apis, files: Files<F>): [string, FileColumn<F>][] {
  const to = { recipients: [BENCH_RECIPIENT] };
  const from = { identities: [BENCH_IDENTITY] };
  const columns: [string, FileColumn<F>][] = [];
  const { paths } = files;
  const fourfold = (library: string, age: NonNullable<NonNullable<Apis['fourfold']>['age']>): FileColumn<F> => ({
    async encrypt(input) {
      if (!paths) return (await age.encryptFile(input as Blob, undefined, to)) as F;
      await age.encryptFile(input as string, `${input}.${library}.age`, to);
      return `${input}.${library}.age` as F;
    },
    async decrypt(input) {
      if (!paths) return (await age.decryptFile(input as Blob, undefined, from)) as F;
      await age.decryptFile(input as string, `${input}.${library}.out`, from);
      return `${input}.${library}.out` as F;
    },
  });
  if (apis.fourfold?.age !== undefined) columns.push(['fourfold', fourfold('fourfold', apis.fourfold.age)]);
  if (apis.fourfold?.parallel?.age !== undefined) columns.push([PARALLEL, fourfold(PARALLEL, apis.fourfold.parallel.age)]);
  const typage = apis.typage;
  if (typage !== undefined) {
    columns.push([
      'typage',
      {
        encrypt: (input) =>
          files.through(input, 'typage.age', async (s) => {
            const e = new typage.Encrypter();
            e.addRecipient(BENCH_RECIPIENT);
            return (await e.encrypt(s)) as ReadableStream<Uint8Array>;
          }),
        decrypt: (input) =>
          files.through(input, 'typage.out', async (s) => {
            const d = new typage.Decrypter();
            d.addIdentity(BENCH_IDENTITY);
            return (await d.decrypt(s)) as ReadableStream<Uint8Array>;
          }),
      },
    ]);
  }
  if (paths) {
    for (const [library, cli] of [
      ['age-cli', apis.ageCli],
      ['rage-cli', apis.rageCli],
    ] as const) {
      if (cli === undefined) continue;
      columns.push([
        library,
        {
          async encrypt(input) {
            const output = `${input}.${library}.age`;
            await cli.encrypt(input as string, output);
            return output as F;
          },
          async decrypt(input) {
            const output = `${input}.${library}.out`;
            await cli.decrypt(input as string, output);
            return output as F;
          },
        },
      ]);
    }
  }
  return columns;
}

/** The entries of 'age-encrypt-file' and 'age-decrypt-file' (none where the engine has neither a file system nor Blobs). */
function fileEntries(apis: Apis, checker: AgeLibrary): [OpEntry<Inputs>[], OpEntry<Inputs>[]] {
  if (apis.files !== undefined) return entriesOn(apis, pathFiles(apis.files), checker);
  if (typeof Blob === 'function') return entriesOn(apis, blobFiles(), checker);
  return [[], []];
}

function entriesOn<F extends string | Blob>(apis: Apis, files: Files<F>, checker: AgeLibrary): [OpEntry<Inputs>[], OpEntry<Inputs>[]] {
  const columns = fileColumns(apis, files);
  const encrypt = columns.map(([library, column]): OpEntry<Inputs> => {
    let last: Promise<F> | undefined;
    return {
      library,
      bind: (i) => {
        const input = files.stage(i.plain);
        return async () => {
          await (last = column.encrypt(input));
          return EMPTY;
        };
      },
      checkedOutput: async () => checker.decrypt(await files.read(await last!)),
    };
  });
  const decrypt = columns.map(([library, column]): OpEntry<Inputs> => {
    let last: Promise<F> | undefined;
    return {
      library,
      bind: (i) => async () => {
        await (last = column.decrypt(files.stage(await i.file)));
        return EMPTY;
      },
      checkedOutput: async () => files.read(await last!),
    };
  });
  return [encrypt, decrypt];
}
