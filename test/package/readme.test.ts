/**
 * The README's code runs, so it cannot drift from the package: it opens
 * with a 30-second start (the install, then a program that encrypts,
 * decrypts and refuses a changed message, printing what it says) within
 * its first 40 lines; every JavaScript block is written out as a module
 * (`fourfold` imports pointed at this build) and imported, and the
 * recipes it names as modules are
 * exercised: the browser's file-crypto.js (with Node's File, Blob and
 * Response) and Node's file-crypto.mjs on files (age files, to keys and a
 * passphrase, that fourfold/age opens), keys.mjs (Argon2id against
 * @noble/hashes, messages stored with their nonce), each round trip, and a
 * changed file or a wrong key or password refused with
 * AuthenticationError; a missing input file leaves no output behind,
 * and a stored message too short to hold its nonce and tag is an
 * AuthenticationError. The modules for Node load where a user saves
 * them: in a CommonJS project, as `npm init -y` makes one. The page
 * parts (download(), the HTML) run in Chromium in the package check's
 * built pages, and the programs and recipes in a new user's project in
 * Node and Deno. Node only.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { argon2id as nobleArgon2id } from '@noble/hashes/argon2.js';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import { generateIdentity, identityToRecipient, NoIdentityMatchError } from 'fourfold/age';
import { codeBlocks, importsResolved, type Block } from '../../scripts/package-check/readme.js';
import { NOT_NODE, ROOT } from './files.js';
import { ENGINE_HAS_WASM, rand } from '../helpers.js';

/** Node's Response and fetch (undici) need WebAssembly, which node --jitless lacks; the README's examples use Response. */
const NO_RESPONSE: false | string =
  NOT_NODE ||
  (ENGINE_HAS_WASM ? false : "not applicable: node --jitless has no WebAssembly, which Node's Response (undici) needs, and the README's examples use Response");

const blocks = (): Block[] => codeBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8')).filter((b) => b.lang === 'js');
let dir = '';
let files: string[] = [];

/** The README's JavaScript blocks written into `into` (modules under their names, programs as example-N.mjs); returns the files. */
function writeBlocks(into: string, type: 'module' | 'commonjs'): string[] {
  writeFileSync(join(into, 'package.json'), `{ "type": "${type}" }\n`);
  return blocks().map((b, i) => {
    const file = join(into, b.name ?? `example-${i + 1}.mjs`);
    writeFileSync(
      file,
      importsResolved(b.code, (specifier) => import.meta.resolve(specifier)),
    );
    return file;
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the README's examples export functions of every shape; each test calls one as the README does.
const load = (name: string): Promise<Record<string, (...args: any[]) => any>> => import(pathToFileURL(join(dir, name)).href);
const bytesOf = async (blob: Blob): Promise<Uint8Array> => new Uint8Array(await blob.arrayBuffer());
/** Whether `folder` holds no hidden file: the output's temporary file, written beside it, is one. */
const noTemporaryIn = (folder: string): boolean => readdirSync(folder).every((name) => !name.startsWith('.'));
const flipped = (b: Uint8Array, at: number): Uint8Array => {
  const c = b.slice();
  c[at]! ^= 1;
  return c;
};

before(() => {
  if (NOT_NODE) return;
  dir = mkdtempSync(join(tmpdir(), 'fourfold-readme-'));
  files = writeBlocks(dir, 'module');
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('every JavaScript block of the README runs (the modules only define; the programs run their examples)', { skip: NO_RESPONSE }, async () => {
  assert.ok(files.length >= 10, `the README's JavaScript blocks: ${files.length}`);
  for (const file of files) await import(pathToFileURL(file).href);
  // Each module the README names is exercised below; a new one needs a test here.
  const named = blocks()
    .flatMap((b) => (b.name ? [b.name] : []))
    .sort();
  assert.deepEqual(named, ['file-crypto.js', 'file-crypto.mjs', 'keys.mjs', 'vite.config.js']);
});

/** The README's modules that are not for Node: the browser's recipe, served to a page or bundled, and Vite's configuration, which Vite loads itself. */
const NOT_FOR_NODE = ['file-crypto.js', 'vite.config.js'];

it('the modules the README gives for Node load where a user saves them: in a CommonJS project (npm 11\'s npm init -y writes "type": "commonjs")', {
  skip: NOT_NODE,
}, async () => {
  const project = join(dir, 'commonjs-project');
  mkdirSync(project);
  writeBlocks(project, 'commonjs');
  const forNode = blocks().flatMap((b) => (b.name !== undefined && !NOT_FOR_NODE.includes(b.name) ? [b.name] : []));
  assert.deepEqual(forNode.sort(), ['file-crypto.mjs', 'keys.mjs']);
  // In a Node of its own: this one runs under tsx, whose loader takes ES module syntax in any file.
  for (const name of forNode) {
    const importer = `const m = await import(${JSON.stringify(pathToFileURL(join(project, name)).href)}); console.log(Object.keys(m).join())`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', importer], { cwd: project, encoding: 'utf8' });
    assert.equal(r.status, 0, `${name}: ${r.stderr}`);
    assert.match(r.stdout, /^\w+(,\w+)+\n$/, `${name}: an ES module's named exports`);
  }
});

it("the README's first 40 lines: npm install, then a program that encrypts, decrypts and refuses a change", { skip: NO_RESPONSE }, async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const top = readme.split('\n').slice(0, 40).join('\n');
  assert.match(top, /^```sh\nnpm install fourfold\n```$/m, 'npm install fourfold');
  const first = codeBlocks(readme).find((b) => b.lang === 'js')!;
  assert.ok(top.includes(first.code), 'the first JavaScript block ends within the first 40 lines');
  assert.match(first.code, /\.encrypt\(/);
  assert.match(first.code, /\.decrypt\(/);
  // It prints what its comments say: the message, then true for the refused change.
  const logged: unknown[][] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void logged.push(args);
  try {
    await import(`${pathToFileURL(files[0]!).href}?again`);
  } finally {
    console.log = log;
  }
  assert.deepEqual(logged, [['hello'], [true]]);
});

it('the browser recipe (file-crypto.js): a File to an age file as a Blob and back, to keys and a passphrase; a changed file or another key is refused', {
  skip: NOT_NODE,
}, async () => {
  const { encryptFile, decryptFile } = await load('file-crypto.js');
  const identity = generateIdentity();
  const keys = { recipients: [identityToRecipient(identity)] };
  const opens = { identities: [identity] };
  for (const n of [0, 1000, 200_000]) {
    const data = rand(n);
    const encrypted: Blob = await encryptFile!(new File([data.slice()], 'photo.jpg'), keys);
    const file = await bytesOf(encrypted);
    assert.deepEqual(await age.decrypt(file, opens), data, `${n} bytes: an age file that fourfold/age opens`);
    assert.deepEqual(await bytesOf(await decryptFile!(new File([encrypted], 'photo.jpg.age'), opens)), data, `${n} bytes: decrypted`);
    const changed = flipped(file, file.length - 1 - Math.floor(n / 2));
    await assert.rejects(decryptFile!(new Blob([changed.slice()]), opens), AuthenticationError, `${n} bytes: a changed byte`);
    await assert.rejects(decryptFile!(encrypted, { identities: [generateIdentity()] }), NoIdentityMatchError, `${n} bytes: another identity`);
  }
  // A passphrase (a work factor of 12: age's default 18 takes minutes in node --jitless's plain JavaScript).
  const data = rand(70_000);
  const locked: Blob = await encryptFile!(new File([data.slice()], 'notes.txt'), { passphrase: 'hunter2 but longer', workFactor: 12 });
  assert.deepEqual(await bytesOf(await decryptFile!(locked, { passphrase: 'hunter2 but longer' })), data);
  await assert.rejects(decryptFile!(locked, { passphrase: 'hunter3 but longer' }), NoIdentityMatchError, 'another passphrase');
});

it('the Node recipe (file-crypto.mjs): age files, to keys and passphrases, that fourfold/age opens; a changed, cut or missing file leaves no output', {
  skip: NOT_NODE,
}, async () => {
  const { encryptFile, decryptFile } = await load('file-crypto.mjs');
  const identity = generateIdentity();
  const keys = { recipients: [identityToRecipient(identity)] };
  const opens = { identities: [identity] };
  const folder = join(dir, 'files');
  mkdirSync(folder);
  const data = rand(300_000);
  const plain = join(folder, 'report.pdf');
  const sealed = join(folder, 'report.pdf.age');
  const back = join(folder, 'report.copy.pdf');
  writeFileSync(plain, data);
  await encryptFile!(plain, sealed, keys);
  const encrypted = readFileSync(sealed);
  assert.deepEqual(await age.decrypt(encrypted, opens), data, 'an age file that fourfold/age opens');
  await decryptFile!(sealed, back, opens);
  assert.deepEqual(new Uint8Array(readFileSync(back)), data);
  await assert.rejects(decryptFile!(sealed, join(folder, 'other.pdf'), { identities: [generateIdentity()] }), NoIdentityMatchError, 'another identity');
  assert.ok(!existsSync(join(folder, 'other.pdf')), 'another identity: no output');
  // A passphrase, both ways (a work factor of 12: age's default 18 takes minutes in node --jitless's plain JavaScript).
  const passphrase = { passphrase: 'correct horse battery staple' };
  await encryptFile!(plain, sealed, { ...passphrase, workFactor: 12 });
  assert.match(readFileSync(sealed).subarray(0, 60).toString('latin1'), /^age-encryption\.org\/v1\n-> scrypt \S+ 12\n/);
  rmSync(back);
  await decryptFile!(sealed, back, passphrase);
  assert.deepEqual(new Uint8Array(readFileSync(back)), data);
  for (const [what, bad] of [
    ['a changed byte', flipped(encrypted, 200_000)],
    ['cut short', encrypted.subarray(0, encrypted.length - 100)],
  ] as const) {
    const path = join(folder, 'bad.age');
    writeFileSync(path, bad);
    const out = join(folder, 'bad.pdf');
    await assert.rejects(decryptFile!(path, out, opens), AuthenticationError, what);
    assert.ok(!existsSync(out) && noTemporaryIn(folder), `${what}: nothing left behind`);
  }
  // An input that is not there: the error, and no output (not even a header); an output that was there stays as it was.
  const missing = join(folder, 'no-such-file.pdf');
  const kept = join(folder, 'kept.age');
  writeFileSync(kept, 'an earlier file');
  for (let i = 0; i < 20; i++) {
    for (const [what, call, out, k] of [
      ['encryptFile', encryptFile!, join(folder, 'missing.age'), keys],
      ['decryptFile', decryptFile!, join(folder, 'missing.pdf'), opens],
      ['encryptFile over a file', encryptFile!, kept, keys],
    ] as const) {
      await assert.rejects(call(missing, out, k), { code: 'ENOENT' }, `${what}: a missing input`);
      assert.ok(noTemporaryIn(folder), `${what}: a missing input leaves no temporary file`);
      if (out === kept) assert.equal(readFileSync(kept, 'utf8'), 'an earlier file', `${what}: the file that was there is kept`);
      else assert.ok(!existsSync(out), `${what}: a missing input leaves no ${out}`);
    }
  }
});

it("keys.mjs: Argon2id gives @noble/hashes' bytes; a message stored with its nonce opens, and only unchanged under its key", { skip: NOT_NODE }, async () => {
  const { keyFromPassword, sealMessage, openMessage } = await load('keys.mjs');
  const salt = rand(16);
  const key: Uint8Array = await keyFromPassword!('correct horse battery staple', salt);
  const expected = nobleArgon2id('correct horse battery staple', salt, { m: 65536, t: 3, p: 1 });
  assert.deepEqual(key, expected, 'Argon2id, m = 64 MiB, t = 3, p = 1');
  const message = new TextEncoder().encode('meet at noon');
  const stored: Uint8Array = sealMessage!(key, message);
  assert.equal(stored.length, 24 + message.length + 16, 'nonce, ciphertext, tag');
  assert.notDeepEqual(sealMessage!(key, message), stored, 'a new random nonce each time');
  assert.deepEqual(openMessage!(key, stored), message);
  assert.throws(() => openMessage!(key, flipped(stored, 3)), AuthenticationError, 'a changed nonce');
  assert.throws(() => openMessage!(key, flipped(stored, 30)), AuthenticationError, 'a changed ciphertext');
  assert.throws(() => openMessage!(rand(32), stored), AuthenticationError, 'another key');
  // Too short to hold a nonce and a tag, whatever the AEAD says of a short ciphertext: AuthenticationError, as documented.
  for (const n of [0, 1, 23, 24, 25, 39]) assert.throws(() => openMessage!(key, stored.subarray(0, n)), AuthenticationError, `${n} bytes stored`);
  assert.deepEqual(openMessage!(key, sealMessage!(key, new Uint8Array(0))), new Uint8Array(0), 'an empty message: 40 bytes stored');
});

it('vite.config.js serves the dev server with the two headers the README names', { skip: NOT_NODE }, async () => {
  const config = (await load('vite.config.js')) as unknown as { default: { server: { headers: Record<string, string> } } };
  assert.deepEqual(config.default.server.headers, { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.match(readme, /^Cross-Origin-Opener-Policy: same-origin\nCross-Origin-Embedder-Policy: require-corp$/m);
});
