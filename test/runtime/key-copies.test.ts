/**
 * Every object that keeps a key (or a nonce, IV, aad or header) past the
 * call that made it keeps its own copy: a caller that wipes its arrays
 * right after construction (normal hygiene), or reuses them for another
 * message, does not change what the object computes.
 */
import { it } from 'node:test';
import { blake2b, blake3, chacha20poly1305, poly1305, secretbox, secretstream, serpent, xchacha20poly1305, xsalsa20poly1305 } from 'fourfold';
import { assertBytes, forEveryTier, NO_STREAMS, rand } from '../helpers.js';

/** What to do to the caller's arrays after construction. */
const AFTER = {
  wiped: (a: Uint8Array) => a.fill(0),
  changed: (a: Uint8Array) => a.set(rand(a.length)),
} as const;

interface Keeper {
  name: string;
  /** Makes the object from `args` (the caller's arrays, changed afterwards) and returns a function that uses it. */
  make(args: Uint8Array[], sealed?: Uint8Array): () => Uint8Array | Promise<Uint8Array>;
  /** The lengths of the arrays it keeps (random ones), or their making (with a message sealed under them). */
  lengths: number[];
  args?: () => { args: Uint8Array[]; sealed: Uint8Array };
  /** A TransformStream (encryptStream, decryptStream): not in engines without web streams. */
  streams?: boolean;
}

const message = rand(300);

async function readAll(readable: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: number[] = [];
  const reader = readable.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(...r.value);
  return Uint8Array.from(parts);
}

/** `data` through a TransformStream in two chunks. */
async function through(stream: TransformStream<Uint8Array, Uint8Array>, data: Uint8Array): Promise<Uint8Array> {
  const out = readAll(stream.readable);
  const writer = stream.writable.getWriter();
  void writer.write(data.slice(0, 10));
  void writer.write(data.slice(10));
  void writer.close();
  return out;
}

const KEEPERS: Keeper[] = [
  {
    name: 'chacha20poly1305 (key, nonce, aad)',
    lengths: [32, 12, 20],
    make: ([k, n, a]) => {
      const c = chacha20poly1305(k!, n!, a);
      return () => c.encrypt(message);
    },
  },
  {
    name: 'xchacha20poly1305 (key, nonce, aad)',
    lengths: [32, 24, 20],
    make: ([k, n, a]) => {
      const c = xchacha20poly1305(k!, n!, a);
      return () => c.encrypt(message);
    },
  },
  {
    name: 'xsalsa20poly1305 (key, nonce)',
    lengths: [32, 24],
    make: ([k, n]) => {
      const c = xsalsa20poly1305(k!, n!);
      return () => c.encrypt(message);
    },
  },
  {
    name: 'secretbox (key, nonce)',
    lengths: [32, 24],
    make: ([k, n]) => {
      const c = secretbox(k!, n!);
      return () => c.seal(message);
    },
  },
  {
    name: 'serpent.ecb (key)',
    lengths: [32],
    make: ([k]) => {
      const c = serpent.ecb(k!);
      return () => c.encrypt(message);
    },
  },
  {
    name: 'serpent.cbc (key, iv)',
    lengths: [24, 16],
    make: ([k, iv]) => {
      const c = serpent.cbc(k!, iv!);
      return () => c.encrypt(message);
    },
  },
  {
    name: 'serpent.ctr (key, iv)',
    lengths: [16, 16],
    make: ([k, iv]) => {
      const c = serpent.ctr(k!, iv!);
      return () => c.encrypt(message);
    },
  },
  {
    name: 'poly1305.create (key)',
    lengths: [32],
    make: ([k]) => {
      const m = poly1305.create(k!);
      return () => m.update(message).digest();
    },
  },
  {
    name: 'blake3.create (key)',
    lengths: [32],
    make: ([k]) => {
      const h = blake3.create({ key: k! });
      return () => h.update(message).digest();
    },
  },
  {
    name: 'blake3.create (bytes context)',
    lengths: [20],
    make: ([c]) => {
      const h = blake3.create({ context: c! });
      return () => h.update(message).digest();
    },
  },
  {
    name: 'blake2b.create (key, salt, personalization)',
    lengths: [64, 16, 16],
    make: ([k, s, p]) => {
      const h = blake2b.create({ key: k!, salt: s!, personalization: p! });
      return () => h.update(message).digest();
    },
  },
  {
    name: 'secretstream.initPush (key)',
    lengths: [32],
    make: ([k]) => {
      const key = k!.slice();
      const push = secretstream.initPush(k!);
      return () => secretstream.initPull(push.header, key).pull(push.push(message)).message;
    },
  },
  {
    name: 'secretstream.initPull (header, key)',
    lengths: [24, 32],
    // The header and key of a real stream, and its first message.
    args: () => {
      const key = rand(32);
      const push = secretstream.initPush(key);
      const sealed = push.push(message);
      return { args: [push.header.slice(), key], sealed };
    },
    make: ([h, k], sealed) => {
      const pull = secretstream.initPull(h!, k!);
      return () => pull.pull(sealed!).message;
    },
  },
  {
    name: 'encryptStream (key)',
    lengths: [32],
    streams: true,
    make: ([k]) => {
      const key = k!.slice();
      const enc = secretstream.encryptStream(k!);
      return async () => through(secretstream.decryptStream(key), await through(enc, message));
    },
  },
  {
    name: 'decryptStream (key)',
    lengths: [32],
    streams: true,
    make: ([k]) => {
      const encrypted = through(secretstream.encryptStream(k!), message);
      const dec = secretstream.decryptStream(k!);
      return async () => through(dec, await encrypted);
    },
  },
];

forEveryTier('objects keep copies of their keys', () => {
  for (const k of KEEPERS) {
    for (const [what, change] of Object.entries(AFTER)) {
      it(`${k.name}: the caller's arrays ${what} after construction`, { skip: k.streams === true && NO_STREAMS }, async () => {
        const { args, sealed } = k.args?.() ?? { args: k.lengths.map((n) => rand(n)), sealed: undefined };
        const expected = await k.make(
          args.map((a) => a.slice()),
          sealed,
        )();
        const use = k.make(args, sealed);
        for (const a of args) change(a);
        assertBytes(await use(), expected, k.name);
      });
    }
  }
});
