/**
 * The writers of the class test of outputs (output-kinds.ts has its
 * kinds): the library's file calls, run here or in a child without root's
 * capabilities; a FIFO's reader; each case's folder with its inputs; and
 * the checks of what was written and that no temporary file was left.
 */
import assert from 'node:assert/strict';
import * as age from 'fourfold/age';
import { assertBytes } from '../helpers.js';
import { APIS, from, fs, inDirectory, read, to } from './file-fixture.js';
import { child, IS_ROOT, PLAIN, type Path, ROOT, UNPRIVILEGED } from './output-kinds.js';

/** What a writer does: encrypts PLAIN or decrypts its age file, into the output. */
export interface Writer {
  readonly name: string;
  readonly encrypting: boolean;
}

/** The output's expected bytes: an age file of PLAIN (checked by decrypting it), or PLAIN. */
export async function checkWritten(w: Writer, bytes: Uint8Array, what: string): Promise<Uint8Array> {
  if (w.encrypting) assertBytes(await age.decrypt(bytes, from), PLAIN, `${what}: the output decrypts`);
  else assertBytes(bytes, PLAIN, `${what}: the plaintext`);
  return bytes;
}

/**
 * Reads a FIFO into a file, in a process of its own (the test's event
 * loop may be blocked by a synchronous run meanwhile); `release()` ends a
 * read no writer came to, by opening the FIFO for writing once the
 * reader has it open, and resolves to what it read.
 */
export function readFifo(fifo: string, into: string): { done: Promise<Uint8Array>; release(): Promise<Uint8Array> } {
  const reader = child!.spawn('sh', ['-c', 'exec cat "$0" > "$1"', fifo, into], { stdio: 'ignore' });
  const done = new Promise<Uint8Array>((resolve, reject) => {
    reader.on('error', reject);
    reader.on('exit', (code) => (code === 0 ? resolve(read(into)) : reject(new Error(`the FIFO's reader exited ${code}`))));
  });
  const release = async (): Promise<Uint8Array> => {
    // Opening for writing without blocking succeeds once a reader has the FIFO open (ENXIO before).
    for (;;) {
      try {
        fs!.closeSync(fs!.openSync(fifo, fs!.constants.O_WRONLY | fs!.constants.O_NONBLOCK));
        return done;
      } catch (e) {
        if ((e as { code?: string }).code !== 'ENXIO') throw e;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  };
  return { done, release };
}

/** The library's writers: both file calls of both modules. */
export const LIBRARY: (Writer & { readonly api: (typeof APIS)[number][1] })[] = APIS.flatMap(([name, api]) => [
  { name: `${name} encryptFile`, encrypting: true, api },
  { name: `${name} decryptFile`, encrypting: false, api },
]);

/** Runs a library writer into `output`, here or, for what only modes forbid, in a child without root's capabilities; the error it rejected with. */
export async function runLibrary(
  w: (typeof LIBRARY)[number],
  path: Path,
  output: string,
  unprivileged: boolean,
): Promise<{ message: string; name: string } | undefined> {
  const input = w.encrypting ? path('plain') : path('file.age');
  if (unprivileged && IS_ROOT) return inChild(w, input, output);
  try {
    if (w.encrypting) await w.api.encryptFile(input, output, to);
    else await w.api.decryptFile(input, output, from);
    return undefined;
  } catch (e) {
    return { message: (e as Error).message, name: (e as Error).name };
  }
}

/** What the child does: one call, and the error it rejected with, as JSON. */
const CHILD = `
import * as age from 'fourfold/age';
import { age as all, terminate } from 'fourfold/parallel';
const [module, way, input, output, identity] = process.argv.slice(1);
const api = module === 'fourfold/age' ? age : all;
let error = null;
try {
  if (way === 'encrypt') await api.encryptFile(input, output, { recipients: [age.identityToRecipient(identity)] });
  else await api.decryptFile(input, output, { identities: [identity] });
} catch (e) {
  error = { message: e.message, name: e.name };
}
await terminate();
console.log(JSON.stringify(error));
`;

function inChild(w: (typeof LIBRARY)[number], input: string, output: string): { message: string; name: string } | undefined {
  const [module] = w.name.split(' ');
  const args = [
    ...UNPRIVILEGED,
    process.execPath,
    '--input-type=module',
    '-e',
    CHILD,
    module!,
    w.encrypting ? 'encrypt' : 'decrypt',
    input,
    output,
    from.identities[0]!,
  ];
  const r = child!.spawnSync(args[0]!, args.slice(1), { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `the child failed: ${r.stderr}`);
  return JSON.parse(r.stdout) ?? undefined;
}

/** Every case's folder holds the inputs, and after the call only what the kind made and the call wrote: no temporary file. */
export async function inCase(f: (path: Path) => Promise<void>): Promise<void> {
  await inDirectory(async (path) => {
    fs!.writeFileSync(path('plain'), PLAIN);
    fs!.writeFileSync(path('file.age'), FILE);
    try {
      await f(path);
    } finally {
      // A folder root's child may not write is made writable again, so the case's folder can be removed.
      if (fs!.existsSync(path('locked'))) fs!.chmodSync(path('locked'), 0o755);
    }
  });
}

let FILE: Uint8Array;
/** The age file of PLAIN each case's folder holds: call in a before() hook, ahead of the first case. */
export async function encryptPlain(): Promise<void> {
  FILE = await age.encrypt(PLAIN, to);
}
/** No temporary file is left anywhere in the case's folder, its subfolders included (links are not followed). */
export const noTemporary = (path: Path, what: string) =>
  assert.deepEqual(
    (fs!.readdirSync(path(''), { recursive: true }) as string[]).filter((n) => n.includes('fourfold-')),
    [],
    `${what}: no temporary file is left`,
  );
