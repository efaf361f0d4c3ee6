/**
 * A host primitive the asynchronous calls rely on that throws (Next.js's
 * edge sandbox defines setImmediate as a function that throws "not
 * supported in the Edge Runtime"): every asynchronous call of every
 * family either resolves with the bytes it gives on an intact host (where
 * there is another way: setImmediate's turns from a MessageChannel,
 * performance.now from Date.now, a worker's pieces on the calling
 * thread) or rejects with an error naming the primitive; never waits
 * forever.
 *
 * Each primitive is replaced by a function that throws an error naming
 * nothing, in a fresh node:vm context whose other globals are this host's
 * (process included, so that the library sees Node and reaches its
 * worker_threads), running one bundle of the built package (esbuild,
 * dist/parallel/workers.js's import.meta.url kept, so that its workers
 * start from the real files). The calls run one at a time, each within
 * CALL_MS: a call past it is a failure.
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { createContext, runInContext } from 'node:vm';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { age, argon2Verify, argon2idHash } from 'fourfold';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const g = globalThis as { Deno?: unknown; Bun?: unknown; process?: { getBuiltinModule?: unknown } };
/** A Node host in a node:vm context: Node's (Deno and Bun do not give a context the host's worker_threads and timers alike). */
const skip =
  g.Deno === undefined && g.Bun === undefined && typeof g.process?.getBuiltinModule === 'function'
    ? false
    : "not applicable: the contexts are node:vm's with Node's own globals and worker_threads";

/** How long one call may take in a context before it counts as waiting forever: its work is milliseconds, its pool's start a fraction of a second. */
const CALL_MS = 10_000;

/** The library in one script: the root and fourfold/parallel, as `F` and `P` on the context's globalThis. */
async function bundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "import * as F from 'fourfold'; import * as P from 'fourfold/parallel'; globalThis.F = F; globalThis.P = P;",
      resolveDir: ROOT,
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'node',
    // The pool's worker scripts are found beside dist/parallel/workers.js, which reads import.meta.url as web-workers.js beside it does (none other).
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(`${ROOT}dist/parallel/workers.js`).href) },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** The primitives replaced: a global, or (Worker) node:worker_threads's constructor as process.getBuiltinModule gives it. */
type Primitive = 'setImmediate' | 'MessageChannel' | 'setTimeout' | 'queueMicrotask' | 'performance.now' | 'Worker';

/** The error the replaced primitive throws: it names nothing, so that a rejection naming the primitive is the library's doing. */
const REFUSAL = 'refused by this host';

interface Context {
  F: Library;
  P: Library;
  /** Times the replaced primitive was called. */
  calls: () => number;
  warnings: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: the bundle's exports, from another realm
type Library = any;

/** A fresh context with this host's globals, those `replaced` throwing, and the bundle run in it. */
function context(code: string, replaced: readonly Primitive[] = []): Context {
  let count = 0;
  const refuse = function refused(): never {
    count++;
    throw new Error(REFUSAL);
  };
  const own = new Set(runInContext('Object.getOwnPropertyNames(globalThis)', createContext()) as string[]);
  const sandbox: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (own.has(name) || name === 'globalThis') continue;
    sandbox[name] = (globalThis as Record<string, unknown>)[name];
  }
  const warnings: string[] = [];
  sandbox.console = { ...console, warn: (...a: unknown[]) => warnings.push(a.join(' ')) };
  for (const primitive of replaced) {
    if (primitive === 'performance.now') sandbox.performance = Object.create(performance, { now: { value: refuse } });
    else if (primitive === 'Worker') {
      const host = process as unknown as { getBuiltinModule(id: string): unknown };
      const threads = { ...(host.getBuiltinModule('node:worker_threads') as object), Worker: refuse };
      sandbox.process = Object.create(process, {
        getBuiltinModule: { value: (id: string) => (id === 'node:worker_threads' || id === 'worker_threads' ? threads : host.getBuiltinModule(id)) },
      });
    } else sandbox[primitive] = refuse;
  }
  const c = createContext(sandbox);
  runInContext(code, c);
  return { F: c.F, P: c.P, calls: () => count, warnings };
}

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const bytes = (n: number, seed: number): Uint8Array<ArrayBuffer> => new Uint8Array(n).map((_, i) => (i * 31 + seed) & 255);

const key = bytes(32, 1);
const nonce12 = bytes(12, 2);
const nonce24 = bytes(24, 3);
const iv16 = bytes(16, 4);
const small = bytes(3000, 5);
/** Past a piece (1 MiB) several times over, so that fourfold/parallel's calls give jobs to workers. */
const large = bytes(3 * 2 ** 20 + 17, 6);
const argon2 = { t: 2, m: 256 };
const scrypt = { N: 1024, r: 8, p: 1 };
/** Openwall's known answer (crypt_blowfish's tests): 'U*U' at cost 5. */
const BCRYPT = '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW';

/** Files and hashes made here, on the intact host, for the calls that open them. */
const made = (async () => {
  const identity = age.generateIdentity();
  const recipient = age.identityToRecipient(identity);
  return {
    identity,
    recipient,
    argon2: await argon2idHash('pw', argon2),
    byPassphrase: await age.encrypt(small, { passphrase: 'pw', workFactor: 10 }),
    toIdentity: await age.encrypt(large, { recipients: [recipient] }),
  };
})();
type Made = Awaited<typeof made>;

/** A readable stream's bytes, as hexadecimal text. */
async function drain(readable: ReadableStream<Uint8Array>): Promise<string> {
  let out = '';
  for await (const chunk of readable as unknown as AsyncIterable<Uint8Array>) out += hexOf(chunk);
  return out;
}

/** `data` through a TransformStream, in pieces of up to 64 KiB. */
async function through(stream: TransformStream<Uint8Array, Uint8Array>, data: Uint8Array): Promise<string> {
  const out = drain(stream.readable);
  // A failed write errors the readable side too: its error is the write's, thrown below.
  out.catch(() => {});
  const writer = stream.writable.getWriter();
  for (let at = 0; at < data.length; at += 65536) await writer.write(data.slice(at, at + 65536));
  await writer.close();
  return out;
}

/** An age file made in the context, opened here: its plaintext, as hexadecimal text. */
const openHere = async (file: Uint8Array, m: Made): Promise<string> => hexOf(await age.decrypt(new Uint8Array(file), { identities: [m.identity] }));
const blobBytes = async (blob: Blob): Promise<Uint8Array> => new Uint8Array(await blob.arrayBuffer());

type Call = (F: Library, P: Library, m: Made) => Promise<string>;

/** The stream, file and range calls of age (`of`: the root's or fourfold/parallel's) and secretstream's streams, on `data`. */
function streamCalls(prefix: string, of: (F: Library, P: Library) => Library, data: Uint8Array<ArrayBuffer>, rangeEnd: number): Record<string, Call> {
  const to = (m: Made) => ({ recipients: [m.recipient] });
  const from = (m: Made) => ({ identities: [m.identity] });
  const file = (m: Made) => new Blob([new Uint8Array(m.toIdentity)]);
  return {
    [`${prefix}age.encrypt (X25519)`]: async (F, P, m) => openHere(await of(F, P).age.encrypt(data, to(m)), m),
    [`${prefix}age.decrypt (X25519)`]: async (F, P, m) => hexOf(await of(F, P).age.decrypt(m.toIdentity, from(m))),
    [`${prefix}age.decryptRange`]: async (F, P, m) => hexOf(await of(F, P).age.decryptRange(file(m), 70_000, rangeEnd, from(m))),
    [`${prefix}age.encryptStream`]: async (F, P, m) => openHere(Buffer.from(await through(of(F, P).age.encryptStream(to(m)), data), 'hex'), m),
    [`${prefix}age.decryptStream`]: async (F, P, m) => through(of(F, P).age.decryptStream(from(m)), m.toIdentity),
    [`${prefix}age.encryptFile (Blob)`]: async (F, P, m) => openHere(await blobBytes(await of(F, P).age.encryptFile(new Blob([data]), undefined, to(m))), m),
    [`${prefix}age.decryptFile (Blob)`]: async (F, P, m) => hexOf(await blobBytes(await of(F, P).age.decryptFile(file(m), undefined, from(m)))),
    [`${prefix}secretstream`]: async (F, P) => {
      const sealed = Buffer.from(await through(of(F, P).secretstream.encryptStream(key), data), 'hex');
      return through(of(F, P).secretstream.decryptStream(key), sealed).then((opened) => `${sealed.length}:${opened === hexOf(data)}`);
    },
  };
}

/** Every asynchronous call of each family, its result as text that is the same on every run of an intact host. */
const CALLS: Record<string, Call> = {
  argon2idAsync: async (F) => hexOf(await F.argon2idAsync('pw', nonce24, argon2)),
  argon2iAsync: async (F) => hexOf(await F.argon2iAsync('pw', nonce24, argon2)),
  argon2dAsync: async (F) => hexOf(await F.argon2dAsync('pw', nonce24, argon2)),
  argon2idHash: async (F) => String(await argon2Verify(await F.argon2idHash('pw', argon2), 'pw')),
  argon2iHash: async (F) => String(await argon2Verify(await F.argon2iHash('pw', argon2), 'pw')),
  argon2dHash: async (F) => String(await argon2Verify(await F.argon2dHash('pw', argon2), 'pw')),
  'argon2Verify (argon2id)': async (F, _, m) => String(await F.argon2Verify(m.argon2, 'pw')),
  'argon2Verify (bcrypt)': async (F) => String(await F.argon2Verify(BCRYPT, 'U*U')),
  scryptAsync: async (F) => hexOf(await F.scryptAsync('pw', 'salt', scrypt)),
  'age.encrypt (passphrase)': async (F) =>
    hexOf(await age.decrypt(new Uint8Array(await F.age.encrypt(small, { passphrase: 'pw', workFactor: 10 })), { passphrase: 'pw' })),
  'age.decrypt (passphrase)': async (F, _, m) => hexOf(await F.age.decrypt(m.byPassphrase, { passphrase: 'pw' })),
  ...streamCalls('', (F) => F, small, 200_000),
  'parallel chacha20': async (_, P) => hexOf(await P.chacha20(key, nonce12, large)),
  'parallel xchacha20': async (_, P) => hexOf(await P.xchacha20(key, nonce24, large)),
  'parallel xchacha20poly1305': async (_, P) => {
    const sealed = await P.xchacha20poly1305(key, nonce24).encrypt(large);
    return `${hexOf(sealed.subarray(sealed.length - 16))}:${hexOf(await P.xchacha20poly1305(key, nonce24).decrypt(sealed)) === hexOf(large)}`;
  },
  'parallel chacha20poly1305': async (_, P) => hexOf((await P.chacha20poly1305(key, nonce12).encrypt(large)).subarray(-16)),
  'parallel poly1305': async (_, P) => hexOf(await P.poly1305(large, key)),
  'parallel xsalsa20': async (_, P) => hexOf(await P.xsalsa20(key, nonce24, large)),
  'parallel secretbox': async (_, P) => hexOf((await P.secretbox(key, nonce24).seal(large)).subarray(0, 16)),
  'parallel blake3': async (_, P) => hexOf(await P.blake3(large)),
  'parallel serpent.ctr': async (_, P) => hexOf(await P.serpent.ctr(key, iv16).encrypt(large)),
  'parallel serpent.cbc': async (_, P) => hexOf(await P.serpent.cbc(key, iv16).decrypt(await P.serpent.cbc(key, iv16).encrypt(large))),
  'parallel scrypt': async (_, P) => hexOf(await P.scrypt('pw', 'salt', { N: 2 ** 14, r: 8, p: 4 })),
  'parallel argon2id': async (_, P) => hexOf(await P.argon2id('pw', nonce24, { t: 2, m: 8192, p: 4 })),
  'parallel argon2i': async (_, P) => hexOf(await P.argon2i('pw', nonce24, { t: 2, m: 8192 })),
  'parallel argon2d': async (_, P) => hexOf(await P.argon2d('pw', nonce24, { t: 2, m: 8192 })),
  'parallel argon2idHash': async (_, P) => String(await argon2Verify(await P.argon2idHash('pw', { t: 2, m: 8192 }), 'pw')),
  'parallel argon2Verify': async (_, P, m) => String(await P.argon2Verify(m.argon2, 'pw')),
  ...streamCalls('parallel ', (_, P) => P, large, 2_200_000),
};

type Outcome = { value: string } | { error: string } | { late: true };

/** An error and its causes, as one line. */
function describe(e: unknown): string {
  const parts: string[] = [];
  for (let x = e, depth = 0; x !== undefined && depth < 5; x = (x as { cause?: unknown }).cause, depth++) {
    parts.push(x instanceof Object && 'message' in x ? `${(x as Error).name}: ${(x as Error).message}` : String(x));
  }
  return parts.join(' <- ');
}

/** Each call, one at a time, given CALL_MS to settle. */
async function runAll(c: Context, m: Made): Promise<Record<string, Outcome>> {
  const out: Record<string, Outcome> = {};
  for (const [name, call] of Object.entries(CALLS)) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<Outcome>((resolve) => (timer = setTimeout(() => resolve({ late: true }), CALL_MS)));
    const settled = (async (): Promise<Outcome> => {
      try {
        return { value: await call(c.F, c.P, m) };
      } catch (e) {
        return { error: describe(e) };
      }
    })();
    out[name] = await Promise.race([settled, late]);
    clearTimeout(timer);
  }
  return out;
}

const bundled = skip ? undefined : bundle();
const contexts: Context[] = [];
after(async () => {
  for (const c of contexts) await c.P.terminate();
});

let intact: Record<string, Outcome> | undefined;
async function expected(): Promise<Record<string, Outcome>> {
  if (intact !== undefined) return intact;
  const c = context(await bundled!);
  contexts.push(c);
  intact = await runAll(c, await made);
  return intact;
}

it('on the intact host, every call resolves, on the simd tier, warning of nothing', { skip }, async () => {
  const c = context(await bundled!);
  contexts.push(c);
  const outcomes = await runAll(c, await made);
  for (const [name, o] of Object.entries(outcomes)) assert.ok('value' in o, `${name}: ${JSON.stringify(o)}`);
  assert.equal(c.F.tier(), 'simd');
  assert.deepEqual(c.warnings, []);
  intact = outcomes;
});

interface Case {
  replaced: readonly Primitive[];
  /** Whether the calls have another way (they must then resolve), or may reject naming the primitive tried last. */
  fallback: boolean;
  /** What console.warn may say (the pool's notice that it has no workers), or nothing. */
  warns?: RegExp;
  /** Whether no call uses it here: MessageChannel where setImmediate works; queueMicrotask, which the package calls nowhere (the case stands guard should a call start to). */
  unused?: true;
}

/**
 * Each primitive alone; then the turns' sources one after the other, down
 * to none: setImmediate's turns come from a channel, a channel's from
 * setTimeout, and without setTimeout a call that needs turns rejects,
 * naming it.
 */
const CASES: Case[] = [
  { replaced: ['setImmediate'], fallback: true },
  { replaced: ['MessageChannel'], fallback: true, unused: true },
  { replaced: ['setTimeout'], fallback: false },
  { replaced: ['queueMicrotask'], fallback: true, unused: true },
  { replaced: ['performance.now'], fallback: true },
  {
    replaced: ['Worker'],
    fallback: true,
    warns: /^fourfold\/parallel: workers are not available \(Error: refused by this host\); calls run on the calling thread$/,
  },
  { replaced: ['setImmediate', 'MessageChannel'], fallback: true },
  { replaced: ['setImmediate', 'MessageChannel', 'setTimeout'], fallback: false },
];

for (const { replaced, fallback, warns, unused } of CASES) {
  const named = replaced.at(-1)!;
  const what = fallback ? 'resolves with the same bytes' : `resolves with the same bytes or rejects naming ${named}`;
  it(`${replaced.join(' and ')} throwing: every call ${what}, within ${CALL_MS / 1000} s`, { skip }, async () => {
    const want = await expected();
    const c = context(await bundled!, replaced);
    contexts.push(c);
    const outcomes = await runAll(c, await made);
    const wrong: string[] = [];
    for (const [name, o] of Object.entries(outcomes)) {
      const right = 'value' in o ? o.value === (want[name] as { value: string }).value : 'error' in o && !fallback && o.error.includes(named);
      if (!right) wrong.push(`${name}: ${'late' in o ? `not settled after ${CALL_MS} ms` : 'value' in o ? 'other bytes' : o.error}`);
    }
    assert.deepEqual(wrong, [], `${replaced.join(' and ')} throwing`);
    // A primitive some call uses was called (else the case would show nothing); one no call uses, never.
    assert.equal(c.calls() > 0, !unused, `${replaced.join(' and ')} called ${c.calls()} times`);
    assert.equal(c.F.tier(), 'simd');
    assert.ok(
      c.warnings.every((w) => warns?.test(w)),
      `warnings: ${c.warnings.join('; ')}`,
    );
  });
}
