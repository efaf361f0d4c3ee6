/**
 * scrypt work factors above 21 in age files: N = 2^22 with r = 8 needs
 * 4 GiB and 2 KiB, more than a WebAssembly memory holds, yet age decrypts
 * up to 22 by default. Where the runtime has node:crypto's scrypt (Node,
 * Deno, Bun) fourfold computes them there, with the same bytes as its own
 * scrypt; elsewhere (browsers) it refuses them before any work, typed,
 * saying why. The Go age's work-factor-22 file decrypted for real (20 s,
 * 4 GiB) is in test/cli/age-files.test.ts.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { scrypt } from 'fourfold/scrypt';
import * as age from 'fourfold/age';
import { assertBytes, loadJson, rand } from '../helpers.js';
import { nativeScrypt, nodeAgeScrypt, reachableWorkFactor, scryptFor, WASM_MAX_WORK_FACTOR } from '../internal.js';

const V = loadJson<{ passphrase: string; plaintext: string; file: string }>('vectors/age-work-factor-22.json');
// Buffer, as in hex(): the bundles give it to engines without one, and Hermes has no atob.
const FILE = new Uint8Array(Buffer.from(V.file, 'base64'));
const NO_NATIVE = nativeScrypt() === undefined ? 'not applicable: this runtime has no node:crypto scrypt' : false;

interface HostProcess {
  execPath?: string;
  versions?: { node?: string };
  getBuiltinModule?: (id: string) => unknown;
}
const host = (globalThis as { process?: HostProcess; Deno?: unknown; Bun?: unknown }).process;
const IS_NODE = typeof host?.versions?.node === 'string' && !('Deno' in globalThis) && !('Bun' in globalThis);

/** What decrypting the work-factor-22 file, and encrypting at 22, throw: each error's name and message. */
interface Refusals {
  decrypt: { name: string; message: string };
  encrypt: { name: string; message: string };
}

/** The two calls here, where there is no node:crypto scrypt. */
async function refusedHere(): Promise<Refusals> {
  const outcome = async (call: () => Promise<unknown>) => {
    try {
      await call();
      return { name: 'none', message: 'it did not throw' };
    } catch (e) {
      return { name: (e as Error).name, message: (e as Error).message };
    }
  };
  return {
    decrypt: await outcome(() => age.decrypt(FILE, { passphrase: V.passphrase, maxWorkFactor: 22 })),
    encrypt: await outcome(() => age.encrypt(rand(3), { passphrase: 'pw', workFactor: 22 })),
  };
}

/** The same calls in a Node process whose runtime gives no built-in modules, as a browser gives none. */
function refusedInNodeWithoutBuiltins(): Refusals {
  const { spawnSync } = host!.getBuiltinModule!('node:child_process') as typeof import('node:child_process');
  const script = `
    delete process.getBuiltinModule;
    const age = await import('fourfold/age');
    const outcome = (call) => call().then(() => ({ name: 'none', message: 'it did not throw' }), (e) => ({ name: e.name, message: e.message }));
    const file = Uint8Array.from(atob(process.env.FILE), (c) => c.charCodeAt(0));
    const decrypt = await outcome(() => age.decrypt(file, { passphrase: process.env.PASSPHRASE, maxWorkFactor: 22 }));
    const encrypt = await outcome(() => age.encrypt(new Uint8Array(3), { passphrase: 'pw', workFactor: 22 }));
    process.stdout.write(JSON.stringify({ decrypt, encrypt }));`;
  const r = spawnSync(host!.execPath!, ['--input-type=module', '-e', script], {
    cwd: new URL('../../', import.meta.url),
    env: { ...process.env, FILE: V.file, PASSPHRASE: V.passphrase },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Refusals;
}

it("node:crypto's scrypt, which computes work factors above 21, gives fourfold's bytes", { skip: NO_NATIVE }, async () => {
  const password = rand(22);
  for (const [N, r, p, dkLen] of [
    [2 ** 10, 8, 1, 32],
    [16, 1, 1, 64],
    [2 ** 12, 8, 3, 20],
  ] as const) {
    const salt = rand(44);
    assertBytes(await nativeScrypt()!(password, salt, { N, r, p, dkLen }), scrypt(password, salt, { N, r, p, dkLen }), `N = ${N}, r = ${r}, p = ${p}`);
  }
  const salt = rand(44);
  assertBytes(await nodeAgeScrypt(password, salt, 2 ** 11), scrypt(password, salt, { N: 2 ** 11, r: 8, p: 1, dkLen: 32 }), "age's parameters");
});

it("fourfold's own scrypt up to work factor 21, node:crypto's from 22, where it is: nowhere else", () => {
  const own = async () => new Uint8Array(32);
  assert.equal(WASM_MAX_WORK_FACTOR, 21);
  assert.equal(scryptFor(18, own), own);
  assert.equal(scryptFor(21, own), own);
  assert.equal(scryptFor(22, own), nodeAgeScrypt);
  assert.equal(scryptFor(30, own), nodeAgeScrypt);
  assert.equal(reachableWorkFactor(), NO_NATIVE ? 21 : 30);
});

it('without node:crypto (browsers), work factor 22 is refused before any work: AgeFormatError decrypting, RangeError encrypting, saying why', {
  skip: !NO_NATIVE && !IS_NODE && 'not applicable: this runtime has node:crypto scrypt, and the check without it starts a Node process',
}, async () => {
  const { decrypt, encrypt } = NO_NATIVE ? await refusedHere() : refusedInNodeWithoutBuiltins();
  const why = 'needs 4 GiB and 2 KiB of memory for scrypt, more than the 4 GiB a WebAssembly memory holds, and this runtime has no scrypt of its own';
  assert.equal(decrypt.name, 'AgeFormatError', decrypt.message);
  assert.ok(decrypt.message.startsWith(`the file asks for scrypt work factor 22, which ${why}`), decrypt.message);
  assert.equal(encrypt.name, 'RangeError', encrypt.message);
  assert.ok(encrypt.message.startsWith(`workFactor 22 ${why}`), encrypt.message);
});

it('a file asking for more than maxWorkFactor is refused by it where the runtime could compute it', { skip: NO_NATIVE }, async () => {
  await assert.rejects(
    age.decrypt(FILE, { passphrase: V.passphrase }),
    (e: unknown) => e instanceof age.AgeFormatError && /above the bound 20/.test(e.message),
  );
});
