/**
 * Every public function of the package, each a call whose byte arguments
 * (keys, nonces, data, aad, outputs, stream chunks) can be given as another
 * kind of Uint8Array: a subclass, one from another realm. The tests of
 * realms.test.ts and reentrancy.test.ts run them all and compare with the
 * same call on plain arrays.
 */
import assert from 'node:assert/strict';
import * as root from 'fourfold';
import { serpent, secretstream } from 'fourfold';
import { rand } from '../helpers.js';

/** A copy of `bytes` as the kind of Uint8Array under test (plain, subclass, foreign). */
export type Wrap = (bytes: Uint8Array) => Uint8Array;
/** Runs the library call itself: where a test arms its traps, after the arguments were made. */
export type During = <T>(call: () => T) => T;

export interface Call {
  name: string;
  /** Makes the arguments with `wrap`, calls through `during`, and returns the bytes produced (a plain copy). */
  run(wrap: Wrap, during: During): Uint8Array | Promise<Uint8Array>;
}

/** A plain copy, read through the typed array's internal slots only (no method of `a` is called). */
export const plain = (a: Uint8Array): Uint8Array => new Uint8Array(a);

/** `f(out)` must return the caller's own `out` object. */
function intoOutput(out: Uint8Array, result: Uint8Array, name: string): Uint8Array {
  assert.equal(result, out, `${name}: returns the caller's output object`);
  return plain(out);
}

async function readAll(readable: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = readable.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(plain(r.value));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Writes `chunks` to a TransformStream and returns all it output. */
async function through(stream: TransformStream<Uint8Array, Uint8Array>, chunks: Uint8Array[]): Promise<Uint8Array> {
  const out = readAll(stream.readable);
  const writer = stream.writable.getWriter();
  for (const c of chunks) await writer.write(c);
  await writer.close();
  return out;
}

/** Every public function, on messages of `size` bytes (past one 32 KiB slice for the slicing loops). */
export function calls(size: number): Call[] {
  const key = rand(32);
  const key16 = rand(16);
  const data = rand(size);
  const aad = rand(23);
  const n8 = rand(8);
  const n12 = rand(12);
  const n16 = rand(16);
  const n24 = rand(24);
  const list: Call[] = [];

  const streams = [
    ['chacha20', root.chacha20, n12, key],
    ['chacha8', root.chacha8, n12, key],
    ['chacha12', root.chacha12, n12, key],
    ['chacha20orig', root.chacha20orig, n8, key16],
    ['xchacha20', root.xchacha20, n24, key],
    ['salsa20', root.salsa20, n8, key16],
    ['salsa2012', root.salsa2012, n8, key],
    ['salsa208', root.salsa208, n8, key],
    ['xsalsa20', root.xsalsa20, n24, key],
  ] as const;
  for (const [name, f, nonce, k] of streams) {
    list.push({
      name,
      run: (w, during) => {
        const a = [w(k), w(nonce), w(data)] as const;
        return plain(during(() => f(...a)));
      },
    });
    list.push({
      name: `${name} into an output, counter 7`,
      run: (w, during) => {
        const [kk, nn, d, out] = [w(k), w(nonce), w(data), w(new Uint8Array(size))];
        return intoOutput(
          out,
          during(() => f(kk, nn, d, out, 7)),
          name,
        );
      },
    });
  }
  list.push({
    name: 'hchacha20',
    run: (w, during) => {
      const a = [w(key), w(n16)] as const;
      return plain(during(() => root.hchacha20(...a)));
    },
  });
  list.push({
    name: 'hsalsa20',
    run: (w, during) => {
      const a = [w(key), w(n16)] as const;
      return plain(during(() => root.hsalsa20(...a)));
    },
  });

  const aeads = [
    ['chacha20poly1305', root.chacha20poly1305, n12, aad],
    ['xchacha20poly1305', root.xchacha20poly1305, n24, aad],
    ['xsalsa20poly1305', root.xsalsa20poly1305, n24, undefined],
  ] as const;
  for (const [name, make, nonce, ad] of aeads) {
    const sealed = (make as (k: Uint8Array, n: Uint8Array, a?: Uint8Array) => root.Aead)(key, nonce, ad).encrypt(data);
    const cipher = (w: Wrap) => (make as (k: Uint8Array, n: Uint8Array, a?: Uint8Array) => root.Aead)(w(key), w(nonce), ad && w(ad));
    list.push({
      name: `${name} encrypt`,
      run: (w, during) => {
        const [c, p] = [cipher(w), w(data)];
        return plain(during(() => c.encrypt(p)));
      },
    });
    list.push({
      name: `${name} decrypt`,
      run: (w, during) => {
        const [c, s] = [cipher(w), w(sealed)];
        return plain(during(() => c.decrypt(s)));
      },
    });
    list.push({
      name: `${name} encrypt into an output`,
      run: (w, during) => {
        const [c, p, out] = [cipher(w), w(data), w(new Uint8Array(size + 16))];
        return intoOutput(
          out,
          during(() => c.encrypt(p, out)),
          name,
        );
      },
    });
    list.push({
      name: `${name} decrypt into an output`,
      run: (w, during) => {
        const [c, s, out] = [cipher(w), w(sealed), w(new Uint8Array(size))];
        return intoOutput(
          out,
          during(() => c.decrypt(s, out)),
          name,
        );
      },
    });
  }
  list.push({
    name: 'secretbox seal and open',
    run: (w, during) => {
      const [box, p] = [root.secretbox(w(key), w(n24)), w(data)];
      const sealed = during(() => box.seal(p));
      const s = w(sealed);
      return plain(during(() => box.open(s)));
    },
  });

  list.push({
    name: 'poly1305',
    run: (w, during) => {
      const a = [w(data), w(key)] as const;
      return plain(during(() => root.poly1305(...a)));
    },
  });
  list.push({
    name: 'poly1305.create: update, update, digestInto',
    run: (w, during) => {
      const [k, a, b, out] = [w(key), w(data.subarray(0, 7)), w(data.subarray(7)), w(new Uint8Array(16))];
      return intoOutput(
        out,
        during(() => root.poly1305.create(k).update(a).update(b).digestInto(out)),
        'digestInto',
      );
    },
  });

  list.push({
    name: 'blake3',
    run: (w, during) => {
      const d = w(data);
      return plain(during(() => root.blake3(d)));
    },
  });
  list.push({
    name: 'blake3 keyed, dkLen 100',
    run: (w, during) => {
      const [d, k] = [w(data), w(key)];
      return plain(during(() => root.blake3(d, { key: k, dkLen: 100 })));
    },
  });
  list.push({
    name: 'blake3 derive_key, bytes context',
    run: (w, during) => {
      const [d, c] = [w(data), w(aad)];
      return plain(during(() => root.blake3(d, { context: c })));
    },
  });
  list.push({
    name: 'blake3.create keyed: update, xofInto twice',
    run: (w, during) => {
      const [k, d, o1, o2] = [w(key), w(data), w(new Uint8Array(33)), w(new Uint8Array(200))];
      return during(() => {
        const h = root.blake3.create({ key: k }).update(d);
        assert.equal(h.xofInto(o1), o1, 'xofInto returns the output');
        assert.equal(h.xofInto(o2), o2, 'xofInto returns the output');
        return new Uint8Array([...plain(o1), ...plain(o2)]);
      });
    },
  });
  list.push({
    name: 'blake3.create derive_key: update, digestInto',
    run: (w, during) => {
      const [c, d, out] = [w(aad), w(data), w(new Uint8Array(40))];
      return intoOutput(
        out,
        during(() => root.blake3.create({ context: c }).update(d).digestInto(out)),
        'digestInto',
      );
    },
  });

  list.push({
    name: 'blake2b',
    run: (w, during) => {
      const d = w(data);
      return plain(during(() => root.blake2b(d)));
    },
  });
  list.push({
    name: 'blake2b keyed, salt, personalization, dkLen 40',
    run: (w, during) => {
      const [d, k, s, p] = [w(data), w(key), w(n16), w(key16)];
      return plain(during(() => root.blake2b(d, { key: k, salt: s, personalization: p, dkLen: 40 })));
    },
  });
  list.push({
    name: 'blake2b.create keyed: update twice, digestInto',
    run: (w, during) => {
      const [k, a, b, out] = [w(key), w(data.subarray(0, 100)), w(data.subarray(100)), w(new Uint8Array(64))];
      return intoOutput(
        out,
        during(() => root.blake2b.create({ key: k }).update(a).update(b).digestInto(out)),
        'digestInto',
      );
    },
  });

  const whole = data.subarray(0, size - (size % 16));
  const modes = [
    ['serpent.ecb', (w: Wrap) => serpent.ecb(w(key))],
    ['serpent.ecb without padding', (w: Wrap) => serpent.ecb(w(key), { disablePadding: true })],
    ['serpent.cbc', (w: Wrap) => serpent.cbc(w(key.subarray(0, 24)), w(n16))],
    ['serpent.ctr', (w: Wrap) => serpent.ctr(w(key16), w(n16))],
  ] as const;
  for (const [name, make] of modes) {
    const message = name.endsWith('padding') ? whole : data;
    const ciphertext = make((x) => x).encrypt(message);
    list.push({
      name: `${name} encrypt`,
      run: (w, during) => {
        const [c, m] = [make(w), w(message)];
        return plain(during(() => c.encrypt(m)));
      },
    });
    list.push({
      name: `${name} decrypt`,
      run: (w, during) => {
        const [c, s] = [make(w), w(ciphertext)];
        return plain(during(() => c.decrypt(s)));
      },
    });
    list.push({
      name: `${name} encrypt into an output`,
      run: (w, during) => {
        const [c, m, out] = [make(w), w(message), w(new Uint8Array(ciphertext.length))];
        return intoOutput(
          out,
          during(() => c.encrypt(m, out)),
          name,
        );
      },
    });
    if (name === 'serpent.ctr' || name.endsWith('padding')) {
      list.push({
        name: `${name} decrypt into an output`,
        run: (w, during) => {
          const [c, s, out] = [make(w), w(ciphertext), w(new Uint8Array(message.length))];
          return intoOutput(
            out,
            during(() => c.decrypt(s, out)),
            name,
          );
        },
      });
    }
  }

  const pusher = secretstream.initPush(key);
  const pushed = pusher.push(data, secretstream.TAG_MESSAGE, aad);
  list.push({
    name: 'secretstream push',
    run: (w, during) => {
      const [k, m, a] = [w(key), w(data), w(aad)];
      const { header, sealed } = during(() => {
        const p = secretstream.initPush(k);
        return { header: p.header, sealed: p.push(m, secretstream.TAG_MESSAGE, a) };
      });
      return secretstream.initPull(header, key).pull(sealed, aad).message;
    },
  });
  list.push({
    name: 'secretstream pull',
    run: (w, during) => {
      const [h, k, s, a] = [w(pusher.header), w(key), w(pushed), w(aad)];
      return plain(during(() => secretstream.initPull(h, k).pull(s, a).message));
    },
  });
  // Engines without web streams (Hermes) have no encryptStream to call: test/secretstream/environment.test.ts checks what it says there.
  if (typeof TransformStream === 'function')
    list.push({
      name: 'encryptStream, then decryptStream',
      run: async (w, during) => {
        const chunks = [w(data.subarray(0, 5)), w(data.subarray(5))];
        const [k1, k2] = [w(key), w(key)];
        const encrypted = await during(() => through(secretstream.encryptStream(k1, { chunkSize: 1000 }), chunks));
        const pieces = [w(encrypted.subarray(0, 30)), w(encrypted.subarray(30))];
        return during(() => through(secretstream.decryptStream(k2, { chunkSize: 1000 }), pieces));
      },
    });
  return list;
}
