/**
 * No user code runs inside a call. Byte arguments are given as a
 * Uint8Array subclass whose constructor, Symbol.species, getters and every
 * method call back into fourfold (every kernel, with messages past one
 * slice) or throw: none of them may run while a call works (a call
 * re-entered through them used to clobber its own state in WebAssembly
 * memory or in the js tier's module scratch), the bytes must be those of
 * plain arrays, outputs are the caller's own objects, and kernel memory is
 * wiped afterwards. Options objects are read once each, at the start, so a
 * getter there may re-enter safely.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { blake3, chacha20, poly1305, ready, salsa20, secretstream, serpent } from 'fourfold';
import { assertBytes, assertKernelsWiped, ENGINE_HAS_SIMD, forEveryTier, NO_STREAMS, rand } from '../helpers.js';
import { calls, type During } from './calls.js';

const big = rand(40000);
const k32 = rand(32);

/** Every kernel once, on messages past one 32 KiB slice. */
function disturb(): void {
  chacha20(k32, k32.subarray(0, 12), big);
  salsa20(k32, k32.subarray(0, 8), big);
  poly1305(big, k32);
  blake3(big, { key: k32 });
  blake3.create().update(big).update(big).digest();
  serpent.ctr(k32, k32.subarray(0, 16)).encrypt(big);
  secretstream.initPush(k32).push(big);
}

/** What a trap does when it fires: re-enter fourfold, or throw. */
let action: 'reenter' | 'throw' = 'reenter';
let armed = false;
let fired: string[] = [];

function trap(what: string): void {
  if (!armed) return;
  fired.push(what);
  if (action === 'throw') throw new Error(`trap: ${what}`);
  armed = false;
  try {
    disturb();
  } finally {
    armed = true;
  }
}

class Hostile extends Uint8Array {
  // new Hostile(length), and new Hostile(buffer, byteOffset, length) from Symbol.species.
  constructor(...args: unknown[]) {
    super(...(args as [ArrayBuffer, number, number]));
    trap('constructor');
  }
}
const TYPED_ARRAY = Object.getPrototypeOf(Uint8Array.prototype) as object;

/** Whether this engine's subarray asks a subclass's Symbol.species for the constructor (ES2015 does; Hermes does not). */
const SPECIES_USED = ((): boolean => {
  let asked = false;
  class Probe extends Uint8Array {}
  const get = () => {
    asked = true;
    return Probe;
  };
  Object.defineProperty(Probe, Symbol.species, { get });
  new Probe(4).subarray(1);
  return asked;
})();
Object.defineProperty(Hostile, Symbol.species, {
  get() {
    trap('Symbol.species');
    return Hostile;
  },
});
// Every getter and method of %TypedArray%.prototype and Uint8Array.prototype, overridden with a trap.
for (const proto of [TYPED_ARRAY, Uint8Array.prototype]) {
  for (const key of Reflect.ownKeys(proto)) {
    if (key === 'constructor') continue;
    const d = Object.getOwnPropertyDescriptor(proto, key)!;
    const name = String(key);
    if (d.get !== undefined) {
      const get = d.get;
      Object.defineProperty(Hostile.prototype, key, {
        configurable: true,
        get() {
          trap(`get ${name}`);
          return get.call(this);
        },
      });
    } else if (typeof d.value === 'function') {
      const f = d.value as (...a: unknown[]) => unknown;
      Object.defineProperty(Hostile.prototype, key, {
        configurable: true,
        writable: true,
        value(this: unknown, ...a: unknown[]) {
          trap(name);
          return f.apply(this, a);
        },
      });
    }
  }
}

const hostile = (b: Uint8Array): Uint8Array => {
  const h = new Hostile(b.length);
  Uint8Array.prototype.set.call(h, b);
  return h;
};

/** Arms the traps for the library call only (until its promise settles, for the streams). */
const armedDuring: During = <T>(call: () => T): T => {
  armed = true;
  let async = false;
  try {
    const result = call();
    if (result instanceof Promise) {
      async = true;
      return result.finally(() => (armed = false)) as T;
    }
    return result;
  } finally {
    if (!async) armed = false;
  }
};
const direct: During = (call) => call();

it('the subclass does trap: its methods, getters and species call back', async () => {
  // The trap calls fourfold (browsers want ready() first).
  await ready();
  const h = hostile(rand(8));
  fired = [];
  action = 'reenter';
  armedDuring(() => h.subarray(1, 3).length);
  // Symbol.species where the engine consults it for subarray (Hermes does not).
  assert.deepEqual(fired.slice(0, 2), SPECIES_USED ? ['subarray', 'Symbol.species'] : ['subarray']);
});

forEveryTier('a Uint8Array subclass that calls back into fourfold', (tier) => {
  for (const mode of ['reenter', 'throw'] as const) {
    for (const size of [100, 40000]) {
      it(`no trap fires inside any public function, and the bytes are right: traps ${mode === 'reenter' ? 're-enter' : 'throw'} (${size} bytes)`, async () => {
        for (const c of calls(size)) {
          const expected = await c.run((b) => b.slice(), direct);
          action = mode;
          fired = [];
          const got = await c.run(hostile, armedDuring);
          assertBytes(got, expected, c.name);
          // The default tier's own calls run on the simd tier where the engine has it (node --jitless: js, no kernels).
          if (tier === 'simd' || (tier === 'default' && ENGINE_HAS_SIMD)) assertKernelsWiped(c.name);
          assert.deepEqual(fired, [], `${c.name}: user code ran inside the call`);
        }
      });
    }
  }

  const reads: string[] = [];
  /** `o` with a getter for each field that records its read and re-enters fourfold. */
  const getters = <T extends object>(o: T): T => {
    const out = {};
    for (const [k, v] of Object.entries(o)) {
      const get = () => {
        reads.push(k);
        trap(k);
        return v;
      };
      Object.defineProperty(out, k, { enumerable: true, get });
    }
    return out as T;
  };

  it('options are read once each, before any work: a getter there may re-enter', async () => {
    action = 'reenter';
    reads.length = 0;
    const data = rand(40000);
    const key = rand(32);
    const check = (label: string, got: Uint8Array, expected: Uint8Array, fields: string[]) => {
      assertBytes(got, expected, label);
      assert.deepEqual([...reads].sort(), [...fields].sort(), `${label}: each option read once`);
      if (tier === 'simd') assertKernelsWiped(label);
      reads.length = 0;
    };
    check(
      'blake3 opts',
      armedDuring(() => blake3(data, getters({ key, dkLen: 77 }))),
      blake3(data, { key, dkLen: 77 }),
      ['key', 'dkLen'],
    );
    check(
      'blake3 context',
      armedDuring(() => blake3(data, getters({ context: 'ctx', dkLen: 40 }))),
      blake3(data, { context: 'ctx', dkLen: 40 }),
      ['context', 'dkLen'],
    );
    check(
      'blake3.create',
      armedDuring(() => blake3.create(getters({ key })).update(data).digest()),
      blake3(data, { key }),
      ['key'],
    );
    const ecb = serpent.ecb(key, { disablePadding: true }).encrypt(data);
    check(
      'serpent.ecb options',
      armedDuring(() => serpent.ecb(key, getters({ disablePadding: true })).encrypt(data)),
      ecb,
      ['disablePadding'],
    );
    armed = false;
  });

  it("encryptStream's options are read once, at construction", { skip: NO_STREAMS }, async () => {
    action = 'reenter';
    reads.length = 0;
    const data = rand(40000);
    const key = rand(32);
    const stream = secretstream.encryptStream(key, getters({ chunkSize: 100 }));
    assert.deepEqual(reads, ['chunkSize'], 'chunkSize read once');
    reads.length = 0;
    const writer = stream.writable.getWriter();
    void writer.write(data);
    void writer.close();
    const reader = stream.readable.getReader();
    let total = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) total += r.value.length;
    assert.equal(total, 24 + data.length + 17 * (Math.floor(data.length / 100) + 1), 'the chunk size read from the getter');
    armed = false;
  });
});

forEveryTier('a Proxy around a Uint8Array', () => {
  it('is refused with a TypeError naming the argument, before any trap runs', async () => {
    const traps: string[] = [];
    let watching = false;
    const handler: ProxyHandler<Uint8Array> = {};
    for (const name of ['get', 'set', 'has', 'getPrototypeOf', 'ownKeys', 'getOwnPropertyDescriptor', 'defineProperty', 'apply', 'construct'] as const) {
      (handler as Record<string, unknown>)[name] = (...a: unknown[]) => {
        if (watching) traps.push(name);
        return (Reflect[name] as (...a: unknown[]) => unknown)(...a);
      };
    }
    const proxied = (b: Uint8Array): Uint8Array => new Proxy(b.slice(), handler);
    const watched: During = <T>(call: () => T): T => {
      watching = true;
      try {
        const result = call();
        if (result instanceof Promise) return result.finally(() => (watching = false)) as T;
        watching = false;
        return result;
      } catch (e) {
        watching = false;
        throw e;
      }
    };
    for (const c of calls(100)) {
      traps.length = 0;
      const refused = await Promise.resolve()
        .then(() => c.run(proxied, watched))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      assert.ok(refused instanceof TypeError && /must be (a Uint8Array|an ArrayBuffer), got object$/.test(refused.message), `${c.name}: ${refused}`);
      // Saying what the value is (describe: is it a Promise?) asks its prototype once the call is throwing; nothing else.
      assert.deepEqual(
        traps.filter((t) => t !== 'getPrototypeOf'),
        [],
        `${c.name}: user code ran inside the call`,
      );
    }
  });
});
