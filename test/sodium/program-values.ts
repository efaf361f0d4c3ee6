/**
 * The arguments of the random programs' calls (programs.ts): each input
 * valid for its description, or one made wrong, from a seeded generator,
 * and the program's memory of what calls before gave and returned (keys,
 * nonces, key pairs, states, the last seal), so that an open can meet its
 * seal and an _update its _init.
 */
import type { CallDescription, CallInput } from './program-calls.js';

/** A state made by both libraries' init: each call gets its own side's; `divergent` where each holds its own random bytes. */
export class Pair {
  constructor(
    readonly family: string,
    readonly ours: unknown,
    readonly theirs: unknown,
    readonly divergent: boolean,
  ) {}
}

/** mulberry32: a seeded generator, so that a difference can be replayed. */
export function generator(seed: number) {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const below = (n: number) => Math.floor(random() * n);
  return {
    below,
    pick: <T>(xs: readonly T[]): T => xs[below(xs.length)]!,
    chance: (p: number) => random() < p,
    bytes: (n: number) => Uint8Array.from({ length: n }, () => below(256)),
  };
}
type Generator = ReturnType<typeof generator>;

/** The call that undoes one, by libsodium's names: decrypt after encrypt, open after seal, pull after push, unpad after pad. */
export function inverseOf(name: string): string {
  return name
    .replace(/_encrypt(_detached)?$/, '_decrypt$1')
    .replace(/^(crypto_(secret)?box\w*?)_(easy|detached)(_afternm)?$/, '$1_open_$3$4')
    .replace(/_seal$/, '_seal_open')
    .replace(/_push$/, '_pull')
    .replace(/^crypto_sign$/, 'crypto_sign_open')
    .replace(/^crypto_sign_detached$/, 'crypto_sign_verify_detached')
    .replace(/_enc(_deterministic)?$/, '_dec')
    .replace(/^pad$/, 'unpad')
    .replace(/^to_(hex|base64|string)$/, 'from_$1');
}

/** Inputs a call before may have made: the last bytes returned are offered to them. */
const SEALED = /^(ciphertext|cipher|signedMessage|signature|mac|tag|header)$/;
/** The names of a group element's inputs (p, q, libsodium.js's element): each takes the points calls returned as p. */
const POINT = /^(p|q|element)$/;
const LENGTHS = [0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 1000];
const FORMATS = ['uint8array', 'hex', 'base64', 'text', undefined, null, 'bogus', 3];

/** Whether `v` is a valid value of `input`'s length: any where none is given, a string's checked by the call. */
function fitsInput(input: CallInput, v: unknown): boolean {
  if (v === undefined) return false;
  if (input.length === undefined || input.type === 'string') return true;
  if (!(v instanceof Uint8Array)) return false;
  return input.type === 'minsized_buf' ? v.length >= input.length : v.length === input.length;
}

const sameBytes = (a: Uint8Array, b: unknown) => b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);

/** A number for an input by its name: libsodium's limits and a few past them. */
function numberFor(name: string, call: string, pick: Generator['pick']): number {
  const n = name.toLowerCase();
  if (/ops/.test(n)) return call.includes('scrypt') ? pick([0, 1, 2, 1023, 1024, 16384, 32768, 524288]) : pick([0, 1, 2, 3]);
  if (/mem/.test(n)) return pick([0, 8191, 8192, 65536, 1 << 20, 1 << 24]);
  if (n === 'r') return pick([0, 1, 2, 8]);
  if (n === 'p') return pick([0, 1, 2]);
  if (/alg/.test(n)) return pick([0, 1, 2, 3]);
  if (/length|len$|bytes/.test(n)) return pick([0, 1, 15, 16, 17, 32, 63, 64, 65, 128, 1000]);
  if (n === 'variant') return pick([1, 3, 5, 7, 0, 2, 8]);
  if (n === 'blocksize') return pick([0, 1, 2, 16, 64, 255, 256, 1000]);
  if (/upper/.test(n)) return pick([0, 1, 2, 3, 255, 256, 2 ** 31, 2 ** 32 - 1]);
  return pick([0, 1, 2, 16, 32, 64, 255, 1000]);
}

/** One input made wrong: another type, another length, a number out of range. */
function invalid(value: unknown, pick: Generator['pick']): unknown {
  if (value instanceof Uint8Array) {
    return pick([
      () => value.subarray(0, Math.max(0, value.length - 1)),
      () => new Uint8Array(value.length + 1),
      () => Array.from(value),
      () => value.buffer.slice(0),
      () => new DataView(value.buffer.slice(0)),
      () => new Int8Array(value),
      () => new Uint16Array(value.length),
      () => null,
      () => undefined,
      () => 7,
      () => ({ length: value.length }),
    ])();
  }
  if (typeof value === 'number') return pick([-1, 1.5, 2 ** 32, 2 ** 53, Number.NaN, Infinity, '16', null, undefined, 10n]);
  return pick([null, undefined, 0, '', {}, [], new Uint8Array(3), 'x'.repeat(7)]);
}

type KeyPair = { publicKey: Uint8Array; privateKey: Uint8Array };

/** A program's arguments and memory. `decode` reads a result given as hex or base64 back into bytes (the peer's from_hex, from_base64). */
export class ProgramValues {
  readonly random: Generator;
  private readonly states = new Map<string, Pair[]>();
  private readonly fixed = new Map<number, Uint8Array[]>();
  private readonly outputs: Uint8Array[] = [];
  private readonly strings: string[] = ['', 'abc', 'パスワード', '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$c29tZWhhc2g'];
  /** The values last given to or returned as an input of each name. */
  private readonly recent = new Map<string, unknown[]>();
  private readonly keyPairs: KeyPair[] = [];
  private lastBytes: Uint8Array | undefined;
  /** The last call that returned on both: its name, and its arguments and result's fields by name ('result': a whole result). */
  private lastReturned: { name: string; named: Map<string, unknown> } | undefined;

  constructor(
    seed: number,
    private readonly decode: (text: string, format: 'hex' | 'base64') => Uint8Array,
  ) {
    this.random = generator(seed);
  }

  /** A call's arguments: each input valid (its seal's where it undoes the call before), perhaps one made wrong, perhaps an output format. */
  argumentsFor(d: CallDescription): unknown[] {
    const { pick, chance } = this.random;
    const args = d.inputs.map((i) => this.valid(i, d.name));
    this.fromOnePair(d.inputs, args);
    const last = this.lastReturned;
    if (last !== undefined && last.name !== d.name && d.name === inverseOf(last.name) && chance(0.8)) this.undo(d, last.named, args);
    // A state is never made wrong: libsodium.js passes whatever it is to C as an address, where fourfold throws.
    const plain = d.inputs.flatMap((input, i) => (input.type === 'state' ? [] : [i]));
    if (plain.length > 0 && chance(0.35)) {
      const i = pick(plain);
      args[i] = invalid(args[i], pick);
    }
    if (chance(0.5)) args.push(chance(0.8) ? pick(FORMATS.slice(0, 5)) : pick(FORMATS));
    return args;
  }

  /** States a call freed (a _final) or left as C left them (a failed call): not used again. */
  forget(pairs: readonly Pair[]): void {
    for (const p of pairs)
      this.states.set(
        p.family,
        (this.states.get(p.family) ?? []).filter((x) => x !== p),
      );
  }

  /** Keeps a call's arguments and outputs for later calls: their bytes, strings, key pairs and states. */
  keep(d: CallDescription, args: unknown[], ourResult: unknown, theirResult: unknown, divergent: boolean): void {
    if (d.makesState !== undefined) this.keepState(d, ourResult, theirResult, divergent);
    // A result in hex or base64 is kept as its bytes too.
    const format = args.at(-1);
    const bytesOf = (v: unknown): unknown => {
      if (typeof v !== 'string' || (format !== 'hex' && format !== 'base64')) return v;
      try {
        return this.decode(v, format);
      } catch {
        // Not bytes: a key pair's keyType.
        return v;
      }
    };
    const add = (raw: unknown, name?: string) => {
      const v = bytesOf(raw);
      if (name !== undefined) this.remember(name, v);
      if (v instanceof Uint8Array) this.lastBytes = v.slice();
      if (v instanceof Uint8Array && v.length <= 4096) this.outputs.push(v.slice());
      else if (typeof v === 'string' && v.length < 300) this.strings.push(v);
      else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) for (const [k, x] of Object.entries(v)) add(x, k);
    };
    add(theirResult, d.output);
    const named = new Map<string, unknown>(d.inputs.map((input, i) => [input.name, args[i]]));
    const result = bytesOf(theirResult);
    if (result instanceof Uint8Array || typeof result === 'string') named.set('result', result);
    else if (result !== null && typeof result === 'object') for (const [k, v] of Object.entries(result)) named.set(k, bytesOf(v));
    this.lastReturned = { name: d.name, named };
    const pair = theirResult as { publicKey?: unknown; privateKey?: unknown } | null;
    if (pair !== null && typeof pair === 'object') {
      const [publicKey, privateKey] = [bytesOf(pair.publicKey), bytesOf(pair.privateKey)];
      if (publicKey instanceof Uint8Array && privateKey instanceof Uint8Array) {
        this.keyPairs.push({ publicKey, privateKey });
        if (this.keyPairs.length > 8) this.keyPairs.shift();
      }
    }
    d.inputs.forEach((input, i) => {
      this.remember(input.name, args[i]);
    });
    if (this.outputs.length > 200) this.outputs.splice(0, this.outputs.length - 200);
    if (this.strings.length > 50) this.strings.splice(4, this.strings.length - 50);
  }

  private keepState(d: CallDescription, ourResult: unknown, theirResult: unknown, divergent: boolean): void {
    const family = d.makesState!;
    const stateOf = (r: unknown) => (d.name.endsWith('init_push') ? (r as { state: unknown }).state : r);
    const list = this.states.get(family) ?? [];
    list.push(new Pair(family, stateOf(ourResult), stateOf(theirResult), divergent));
    if (list.length > 6) list.shift();
    this.states.set(family, list);
  }

  private remember(name: string, v: unknown): void {
    if (!(v instanceof Uint8Array || typeof v === 'string')) return;
    const list = this.recent.get(name) ?? [];
    list.push(v instanceof Uint8Array ? v.slice() : v);
    if (list.length > 4) list.shift();
    this.recent.set(name, list);
  }

  /** A valid value for an input: one a call before gave or returned under its name, else new. */
  private valid(input: CallInput, call: string): unknown {
    const { pick, chance, below, bytes } = this.random;
    if (chance(0.7) && input.type !== 'uint' && input.type !== 'state') {
      const fits = (x: unknown) => fitsInput(input, x);
      const latest = (this.recent.get(POINT.test(input.name) ? 'p' : input.name) ?? []).filter(fits).at(-1);
      const seen = [latest, SEALED.test(input.name) ? this.lastBytes : undefined].filter(fits);
      const v = seen.length > 0 ? pick(seen) : undefined;
      if (v instanceof Uint8Array) return v.slice();
      if (typeof v === 'string') return v;
    }
    switch (input.type) {
      case 'buf':
        return this.sized(input.length!);
      case 'buf_optional':
        return chance(0.3) ? null : this.sized(input.length!);
      case 'unsized_buf':
        return this.unsized();
      case 'unsized_buf_optional':
        return chance(0.3) ? pick([null, undefined]) : this.unsized();
      case 'minsized_buf':
        if (this.outputs.length > 0 && chance(0.6)) return pick(this.outputs).slice();
        return bytes((input.length ?? 0) + pick([0, 0, 1, 16, 64]));
      case 'uint':
        return numberFor(input.name, call, pick);
      case 'ranged_uint':
        return pick([input.min!, input.max!, input.min! + below(input.max! - input.min! + 1)]);
      case 'u64':
        return pick([0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1]);
      case 'string':
        return chance(0.7) ? 'Examples' : pick(['', 'abcdefgh', 'éééé', 'abcdefghi']);
      case 'unsized_string':
        return pick(this.strings);
      default: {
        const list = this.states.get(input.family ?? '');
        return list !== undefined && list.length > 0 ? pick(list) : undefined;
      }
    }
  }

  private sized(n: number): Uint8Array {
    const { pick, chance, bytes } = this.random;
    const same = this.outputs.filter((o) => o.length === n);
    if (same.length > 0 && chance(0.3)) return pick(same).slice();
    if (!chance(0.6)) return bytes(n);
    let list = this.fixed.get(n);
    if (list === undefined) this.fixed.set(n, (list = [bytes(n), bytes(n)]));
    return pick(list).slice();
  }

  private unsized(): Uint8Array | string {
    const { pick, chance, bytes } = this.random;
    if (this.outputs.length > 0 && chance(0.4)) return pick(this.outputs).slice();
    if (chance(0.15)) return pick(this.strings);
    return bytes(pick(LENGTHS));
  }

  /** Both halves of one key pair where a call takes a public and a private (or secret) key of their lengths. */
  private fromOnePair(inputs: readonly CallInput[], args: unknown[]): void {
    const pk = inputs.findIndex((i) => i.name === 'publicKey');
    const sk = inputs.findIndex((i) => i.name === 'privateKey' || i.name === 'secretKey');
    if (pk < 0 || sk < 0 || !this.random.chance(0.6)) return;
    const pair = this.keyPairs.filter((p) => p.publicKey.length === inputs[pk]!.length && p.privateKey.length === inputs[sk]!.length).at(-1);
    if (pair === undefined) return;
    args[pk] = pair.publicKey.slice();
    args[sk] = pair.privateKey.slice();
  }

  /**
   * The arguments that undo the call before (its open, its verification): its own by name, its result as
   * the sealed input, and the other half of the key pair it took.
   */
  private undo(d: CallDescription, named: Map<string, unknown>, args: unknown[]): void {
    const half = (known: 'publicKey' | 'privateKey') => {
      const pair = this.keyPairs.find((p) => sameBytes(p[known], named.get(known)));
      return known === 'publicKey' ? pair?.privateKey : pair?.publicKey;
    };
    // The input the result goes to: a sealed one (ciphertext, signature, ...), else the first (unpad's buf).
    const sealedInput = d.inputs.find((i) => SEALED.test(i.name) && !named.has(i.name)) ?? d.inputs[0];
    d.inputs.forEach((input, i) => {
      if (input.type === 'state') return;
      let v = named.get(input.name);
      if (input === sealedInput && named.has('result')) v = named.get('result');
      if (v === undefined && input.name === 'publicKey') v = half('privateKey');
      if (v === undefined && (input.name === 'privateKey' || input.name === 'secretKey')) v = half('publicKey');
      if (fitsInput(input, v)) args[i] = v instanceof Uint8Array ? v.slice() : v;
    });
  }
}
