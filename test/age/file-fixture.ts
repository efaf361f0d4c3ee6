/**
 * What the tests of encryptFile and decryptFile share: node:fs and
 * node:os where the engine has them (else a reason to skip), the two APIs,
 * a key pair, and a fresh directory per test.
 */
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';

type Fs = typeof import('node:fs');
const builtin = (name: string) => (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.(name);
export const fs = builtin('node:fs') as Fs | undefined;
const os = builtin('node:os') as typeof import('node:os') | undefined;
export const NO_FILES = fs === undefined || os === undefined ? 'not applicable: this engine has no node:fs' : false;

export const CHUNK = 65536;
export const SEALED = CHUNK + 16;
export const APIS = [
  ['fourfold/age', age],
  ['fourfold/parallel', P.age],
] as const;

const id = age.generateIdentity();
export const to = { recipients: [age.identityToRecipient(id)] };
export const from = { identities: [id] };

/** A fresh directory, removed after `f`; `f` gets the path of a name in it, and the names in it. */
export async function inDirectory(f: (path: (name: string) => string, names: () => string[]) => Promise<void>): Promise<void> {
  const dir = fs!.mkdtempSync(`${os!.tmpdir()}/fourfold-files-`);
  try {
    await f(
      (name) => `${dir}/${name}`,
      () => fs!.readdirSync(dir).sort(),
    );
  } finally {
    fs!.rmSync(dir, { recursive: true, force: true });
  }
}

export const read = (path: string): Uint8Array => new Uint8Array(fs!.readFileSync(path));

/**
 * Whether the pool's worker count shows a worker lost (a stuck one is
 * ended and its piece redone here): not in Deno, whose pool ends a worker
 * idle for 250 ms by design (pool/spawn.ts DENO_IDLE_MS), as it is between the
 * small calls a sweep of sizes makes. The code that loses one is the same
 * in every runtime; Node and Bun check it.
 */
export const COUNTS_LOST_WORKERS = (globalThis as { Deno?: unknown }).Deno === undefined;
