/**
 * What the declarations promise of results, checked at run time: a result
 * the call allocates is a plain Uint8Array over an ArrayBuffer, never a
 * SharedArrayBuffer, also when the input is on one (so Blob, Response and
 * crypto.subtle take it: the types say Uint8Array<ArrayBuffer>); an
 * `output` the caller passes is returned as that very object (the types
 * say the caller's own type), except Serpent's padded decryption, which
 * returns the view of its first bytes. Every function that returns bytes,
 * synchronous and fourfold/parallel, on an ArrayBuffer and a
 * SharedArrayBuffer input; fourfold/parallel (and the typage API, which
 * uses its pool) also on inputs large enough for its workers, in engines
 * with a JIT. Among them every decrypting path: age's, the typage API's
 * (bytes, armored text, a stream of shared chunks, decryptHeader), the
 * reads by range (a source of shared views, a fetch whose bodies are:
 * openers.ts), and fourfold/sodium's opening calls.
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as age from 'fourfold/age';
import * as typage from 'fourfold/age/typage';
import * as P from 'fourfold/parallel';
import * as sodium from 'fourfold/sodium';
import { ENGINE_HAS_WASM, NO_STREAMS, rand, readAll } from '../helpers.js';
import { chunksOf, decrypterOf, NO_FETCH, rangeFetch, viewSource, withReader } from './openers.js';

/** Large enough that fourfold/parallel uses its workers (2 MiB and more). */
const LARGE = (2 << 20) + 17;
/**
 * Engines without WebAssembly (node --jitless, Hermes) only interpret: a few
 * megabytes through every function there take minutes. The small inputs
 * run everywhere; the large ones where there is a JIT (WPE WebKit, without
 * SIMD, runs them in plain JavaScript).
 */
const INTERPRETED: false | string = ENGINE_HAS_WASM
  ? false
  : 'not run without a JIT (no WebAssembly here): megabytes through every parallel function take minutes interpreted; the small inputs above run here';
const key = rand(32);
const n8 = rand(8);
const n12 = rand(12);
const n16 = rand(16);
const n24 = rand(24);

/** A subclass stands for a caller's own type (Buffer in Node): the very object must come back. */
class Own extends Uint8Array {}

/** `bytes` copied onto a SharedArrayBuffer where the engine has one, else undefined. */
function shared(bytes: Uint8Array): Uint8Array | undefined {
  if (typeof SharedArrayBuffer !== 'function') return undefined;
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.length));
  copy.set(bytes);
  return copy;
}

function assertAllocated(result: unknown, label: string): void {
  assert.ok(result instanceof Uint8Array, `${label}: a Uint8Array`);
  assert.equal(Object.getPrototypeOf(result), Uint8Array.prototype, `${label}: a plain Uint8Array`);
  assert.equal(Object.prototype.toString.call(result.buffer), '[object ArrayBuffer]', `${label}: over an ArrayBuffer`);
}

interface Call {
  name: string;
  /** fourfold/parallel's: worth a large input too. */
  parallel?: boolean;
  /** The input for a message of n bytes (a ciphertext for decryption). */
  input(n: number): Uint8Array | Promise<Uint8Array>;
  /** The output's length for an input of `length` bytes; undefined where the function takes no output. */
  outLength?: (length: number) => number;
  run(input: Uint8Array, output?: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Where the result is the view of the output's first bytes rather than the output (padded decryption). */
  view?: boolean;
}

function calls(): Call[] {
  const list: Call[] = [];
  for (const [api, tag] of [
    [F, ''],
    [P, 'parallel '],
  ] as const) {
    const start = list.length;
    const streams = [
      ['chacha20', api.chacha20, n12],
      ['chacha8', api.chacha8, n12],
      ['chacha12', api.chacha12, n12],
      ['chacha20orig', api.chacha20orig, n8],
      ['xchacha20', api.xchacha20, n24],
      ['salsa20', api.salsa20, n8],
      ['salsa2012', api.salsa2012, n8],
      ['salsa208', api.salsa208, n8],
      ['xsalsa20', api.xsalsa20, n24],
    ] as const;
    for (const [name, f, nonce] of streams) list.push({ name: tag + name, input: rand, outLength: (n) => n, run: (i, o) => f(key, nonce, i, o) });
    const aeads = [
      ['chacha20poly1305', api.chacha20poly1305, F.chacha20poly1305, n12],
      ['xchacha20poly1305', api.xchacha20poly1305, F.xchacha20poly1305, n24],
      ['xsalsa20poly1305', api.xsalsa20poly1305, F.xsalsa20poly1305, n24],
    ] as const;
    for (const [name, make, sync, nonce] of aeads) {
      list.push({ name: `${tag}${name} encrypt`, input: rand, outLength: (n) => n + 16, run: (i, o) => make(key, nonce).encrypt(i, o) });
      list.push({
        name: `${tag}${name} decrypt`,
        input: (n) => sync(key, nonce).encrypt(rand(n)),
        outLength: (n) => n - 16,
        run: (i, o) => make(key, nonce).decrypt(i, o),
      });
    }
    list.push({ name: `${tag}secretbox seal`, input: rand, outLength: (n) => n + 16, run: (i, o) => api.secretbox(key, n24).seal(i, o) });
    list.push({
      name: `${tag}secretbox open`,
      input: (n) => F.secretbox(key, n24).seal(rand(n)),
      outLength: (n) => n - 16,
      run: (i, o) => api.secretbox(key, n24).open(i, o),
    });
    for (const mode of ['ecb', 'cbc', 'ctr'] as const) {
      const cipher = () => (mode === 'ecb' ? api.serpent.ecb(key) : api.serpent[mode](key, n16));
      const padded = mode !== 'ctr';
      const length = (n: number) => (padded ? n - (n % 16) + 16 : n);
      list.push({ name: `${tag}serpent ${mode} encrypt`, input: rand, outLength: length, run: (i, o) => cipher().encrypt(i, o) });
      const sync = () => (mode === 'ecb' ? F.serpent.ecb(key) : F.serpent[mode](key, n16));
      list.push({
        name: `${tag}serpent ${mode} decrypt`,
        input: (n) => sync().encrypt(rand(n)),
        outLength: (n) => n,
        run: (i, o) => cipher().decrypt(i, o),
        view: padded,
      });
    }
    list.push({ name: `${tag}poly1305`, input: rand, run: (i) => api.poly1305(i, key) });
    list.push({ name: `${tag}blake3`, input: rand, run: (i) => api.blake3(i, { dkLen: 100 }) });
    for (const c of list.slice(start)) c.parallel = api === P;
  }
  list.push({ name: 'hchacha20', input: () => n16, run: (i) => F.hchacha20(key, i) });
  list.push({ name: 'hsalsa20', input: () => n16, run: (i) => F.hsalsa20(key, i) });
  list.push({ name: 'Blake3 digest', input: rand, run: (i) => F.blake3.create().update(i).digest() });
  list.push({ name: 'Blake3 xof', input: rand, run: (i) => F.blake3.create().update(i).xof(99) });
  list.push({
    name: 'Blake3 digestInto, xofInto',
    input: rand,
    outLength: () => 32,
    run: (i, o) => (o === undefined ? F.blake3.create().update(i).digest() : F.blake3.create().update(i).xofInto(o)),
  });
  list.push({
    name: 'Poly1305 digest, digestInto',
    input: rand,
    outLength: () => 16,
    run: (i, o) => (o === undefined ? F.poly1305.create(key).update(i).digest() : F.poly1305.create(key).update(i).digestInto(o)),
  });
  list.push({ name: 'secretstream push', input: rand, run: (i) => F.secretstream.initPush(key).push(i) });
  list.push({
    name: 'secretstream pull',
    input: () => n24,
    run: () => {
      const push = F.secretstream.initPush(key);
      return F.secretstream.initPull(push.header, key).pull(push.push(rand(50))).message;
    },
  });
  list.push({ name: 'secretstream header', input: () => n24, run: () => F.secretstream.initPush(key).header });
  list.push(...ageCalls(), ...sodiumCalls());
  return list;
}

const identity = age.generateIdentity();
const to = { recipients: [age.identityToRecipient(identity)] };
const from = { identities: [identity] };
const ageFile = (n: number) => age.encrypt(rand(n), to);

/**
 * The age family's decryptions: fourfold/age's, fourfold/parallel's (a
 * large file on the workers), the typage API's (past PARALLEL_MIN on the
 * pool) and the reads by range, over a source of views of the input's
 * memory and over HTTP (a fetch whose bodies are: openers.ts).
 */
function ageCalls(): Call[] {
  const list: Call[] = [
    { name: 'age decrypt', input: ageFile, run: (i) => age.decrypt(i, from) },
    { name: 'parallel age decrypt', parallel: true, input: ageFile, run: (i) => P.age.decrypt(i, from) },
    { name: 'typage Decrypter.decrypt', parallel: true, input: ageFile, run: (i) => decrypterOf(identity).decrypt(i) },
    {
      name: 'typage Decrypter.decrypt, armored',
      input: async (n) => new TextEncoder().encode(typage.armor.encode(await ageFile(n))),
      run: (i) => decrypterOf(identity).decrypt(i),
    },
    { name: 'typage Decrypter.decryptHeader', input: ageFile, run: (i) => decrypterOf(identity).decryptHeader(i) },
    { name: 'age openRangeReader read', input: ageFile, run: (i) => withReader(viewSource(i), from, (r) => r.read(0, r.size)) },
    {
      name: 'age httpRangeSource read',
      input: ageFile,
      run: async (i) => withReader(await age.httpRangeSource('https://fourfold.test/file.age', { fetch: rangeFetch(i) }), from, (r) => r.read(0, r.size)),
    },
  ];
  // Where there is no Response (node --jitless, Hermes), no fetch can bring a file.
  return list.filter((c) => !c.name.includes('http') || !NO_FETCH);
}

/** fourfold/sodium's opening calls (each copies an input on shared memory before it reads it). */
function sodiumCalls(): Call[] {
  const bob = sodium.crypto_box_keypair();
  const signer = sodium.crypto_sign_keypair();
  return [
    {
      name: 'sodium crypto_aead_xchacha20poly1305_ietf_decrypt',
      input: (n) => sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(rand(n), null, null, n24, key),
      run: (i) => sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(null, i, null, n24, key),
    },
    {
      name: 'sodium crypto_aead_chacha20poly1305_decrypt',
      input: (n) => sodium.crypto_aead_chacha20poly1305_encrypt(rand(n), null, null, n8, key),
      run: (i) => sodium.crypto_aead_chacha20poly1305_decrypt(null, i, null, n8, key),
    },
    {
      name: 'sodium crypto_secretbox_open_easy',
      input: (n) => sodium.crypto_secretbox_easy(rand(n), n24, key),
      run: (i) => sodium.crypto_secretbox_open_easy(i, n24, key),
    },
    {
      name: 'sodium crypto_box_seal_open',
      input: (n) => sodium.crypto_box_seal(rand(n), bob.publicKey),
      run: (i) => sodium.crypto_box_seal_open(i, bob.publicKey, bob.privateKey),
    },
    {
      name: 'sodium crypto_secretstream_xchacha20poly1305_pull',
      input: rand,
      run: (i) => {
        const start = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
        const sealed = sodium.crypto_secretstream_xchacha20poly1305_push(start.state, i, null, 0);
        const pulled = sodium.crypto_secretstream_xchacha20poly1305_pull(sodium.crypto_secretstream_xchacha20poly1305_init_pull(start.header, key), sealed);
        assert.ok(pulled !== false);
        return pulled.message;
      },
    },
    {
      name: 'sodium crypto_sign_open',
      input: (n) => sodium.crypto_sign(rand(n), signer.privateKey),
      run: (i) => sodium.crypto_sign_open(i, signer.publicKey),
    },
  ];
}

after(() => P.terminate());

async function allocated(n: number, only: (c: Call) => boolean): Promise<void> {
  for (const c of calls().filter(only)) {
    const input = await c.input(n);
    for (const [where, bytes] of [
      ['', input],
      [' (SharedArrayBuffer input)', shared(input)],
    ] as const) {
      if (bytes === undefined) continue;
      assertAllocated(await c.run(bytes), `${c.name}, ${n} bytes${where}`);
    }
  }
}

async function outputs(n: number, only: (c: Call) => boolean): Promise<void> {
  for (const c of calls().filter(only)) {
    if (c.outLength === undefined) continue;
    const input = await c.input(n);
    const targets: Uint8Array[] = [new Own(c.outLength(input.length))];
    const onShared = shared(new Uint8Array(c.outLength(input.length)));
    if (onShared !== undefined) targets.push(onShared);
    for (const output of targets) {
      const result = await c.run(input, output);
      const label = `${c.name}, ${n} bytes, ${output instanceof Own ? 'a subclass' : 'on a SharedArrayBuffer'}`;
      if (c.view) {
        assert.equal(result.buffer, output.buffer, `${label}: a view of the output's buffer`);
        assert.equal(result.byteOffset, output.byteOffset, `${label}: from the output's start`);
      } else {
        assert.equal(result, output, `${label}: the output itself`);
      }
    }
  }
}

it('a result the call allocates is a plain Uint8Array over an ArrayBuffer, from ArrayBuffer and SharedArrayBuffer inputs', () => allocated(100, () => true));

it("an output the caller passes comes back as that object (Serpent's padded decryption: a view of its first bytes)", () => outputs(100, () => true));

it("fourfold/parallel on inputs for its workers: results over ArrayBuffers, outputs the caller's objects", { skip: INTERPRETED }, async () => {
  await allocated(LARGE, (c) => c.parallel === true);
  await outputs(LARGE, (c) => c.parallel === true);
});

it('encryptStream and decryptStream give plain Uint8Arrays over ArrayBuffers', { skip: NO_STREAMS }, async () => {
  for (const [tag, s] of [
    ['', F.secretstream],
    ['parallel ', P.secretstream],
  ] as const) {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    const source = () => new Blob([rand(70_000).slice()]).stream();
    const collect = (into: Uint8Array<ArrayBuffer>[]) => new WritableStream<Uint8Array<ArrayBuffer>>({ write: (chunk) => void into.push(chunk) });
    await source().pipeThrough(s.encryptStream(key)).pipeTo(collect(chunks));
    chunks.forEach((chunk, i) => {
      assertAllocated(chunk, `${tag}encryptStream chunk ${i}`);
    });
    const opened: Uint8Array<ArrayBuffer>[] = [];
    await new Blob(chunks).stream().pipeThrough(s.decryptStream(key)).pipeTo(collect(opened));
    opened.forEach((chunk, i) => {
      assertAllocated(chunk, `${tag}decryptStream chunk ${i}`);
    });
  }
});

it("the age family's decrypting streams give plain Uint8Arrays over ArrayBuffers, from shared input (typage, openRangeReader, rangeResponse)", {
  skip: NO_FETCH,
}, async () => {
  const file = await ageFile(200_000);
  // Chunks of shared memory where the engine has it: a stream cannot be a SharedArrayBuffer, its chunks can.
  const input = shared(file) ?? file;
  const streams: [string, () => Promise<ReadableStream<Uint8Array>>][] = [
    ['typage Decrypter.decrypt of a stream', () => decrypterOf(identity).decrypt(chunksOf(input))],
    ['age openRangeReader stream', async () => (await age.openRangeReader(viewSource(input), from)).stream()],
    [
      'age rangeResponse body',
      async () => {
        const reader = await age.openRangeReader(viewSource(input), from);
        return (await age.rangeResponse(new Request('https://fourfold.test/file', { headers: { range: 'bytes=1000-' } }), reader)).body!;
      },
    ],
  ];
  for (const [name, open] of streams) {
    const chunks = await readAll(await open());
    assert.ok(chunks.length > 0, `${name}: no chunk to check`);
    chunks.forEach((chunk, i) => {
      assertAllocated(chunk, `${name}, chunk ${i}`);
    });
  }
});
