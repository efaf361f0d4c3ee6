/**
 * Random programs of libsodium.js calls, run on fourfold/sodium and on a
 * libsodium-wrappers build side by side: each input valid or one made
 * wrong (a length off by one, another type, a number out of range), an
 * output format or none, keys and nonces reused, results passed on (an
 * open follows its seal with its key, a key pair's halves go together),
 * states from _init to _final. Each call runs on both with copies of the
 * same arguments; they must both throw, or both return the same bytes (the
 * shapes alone where the call is random) and leave their arguments alike.
 * Where both throw, differing messages are counted, not failures.
 *
 * The calls come described (CallDescription): from fourfold/sodium's own
 * declarations (program-calls.ts, npm test) or from libsodium.js's
 * wrapper/symbols (scripts/sodium-differential.ts).
 */

/** One parameter: its name (libsodium.js's), its kind, and the numbers that bound it. */
export interface CallInput {
  readonly name: string;
  /**
   * buf (`length` bytes), buf_optional, unsized_buf (bytes or a string),
   * unsized_buf_optional, minsized_buf (`length` bytes or more), uint,
   * ranged_uint (`min` to `max`), u64, string (`length` characters),
   * unsized_string, state (of `family`).
   */
  readonly type: string;
  readonly length?: number;
  readonly min?: number;
  readonly max?: number;
  readonly family?: string;
}

export interface CallDescription {
  readonly name: string;
  readonly inputs: readonly CallInput[];
  /** The family of the state it returns (an _init), whole or as a result's `state`. */
  readonly makesState?: string;
  /** Whether libsodium.js frees the state it takes (a _final): it is not used again. */
  readonly freesState: boolean;
  /** The name its single byte result goes by as another call's input (beforenm's sharedKey). */
  readonly output?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a libsodium-wrappers module, every call and constant by name
export type Lib = Record<string, any>;

export interface ProgramRun {
  readonly calls: number;
  readonly bothReturned: number;
  readonly bothThrew: number;
  /** Each difference: the call, its arguments, what differed. */
  readonly differences: string[];
  /** Where both threw with other messages: `call: theirs / ours` and how often. */
  readonly messages: Map<string, number>;
  /** The differences docs/api.md names (DOCUMENTED), by call and message. */
  readonly documented: Map<string, number>;
  /** The calls that returned on both at least once. */
  readonly returned: Set<string>;
}

/**
 * Where fourfold/sodium differs on purpose, as docs/api.md says (its
 * "From libsodium" section and the table of what follows libsodium.js past
 * 0.8.4): fourfold throws where libsodium returns.
 */
const DOCUMENTED: [RegExp, RegExp][] = [
  [/^crypto_pwhash_str_needs_rehash$/, /^invalid hash$/],
  [/^crypto_box_curve25519xchacha20poly1305_seal_open$/, /^incorrect key pair for the given ciphertext$/],
  [/^crypto_core_(ed25519_from_uniform|ed25519_from_hash|ristretto255_from_hash)$/, /^invalid r length$/],
  [/^crypto_onetimeauth_init$/, /^(invalid key length|key cannot be null or undefined)$/],
  [/^crypto_core_h(chacha|salsa)20$/, /^invalid constant length$/],
  [/^crypto_kem_mlkem768_dec$/, /^invalid secretKey: hash check failed$/],
  [/_xor_ic$/, /^a bigint counter$/],
  [/^crypto_xof_\w+_init_with_domain$/, /^domain must be >= 0 and <= 255$/],
];

/** Calls whose result is random: compared by shape. */
const RANDOM =
  /keygen$|keypair$|_random$|^randombytes_(buf|random|uniform)$|_seal$|init_push$|^crypto_kem(_\w+)?_enc$|^crypto_pwhash(_scryptsalsa208sha256)?_str$/;
/** Inputs that a call before may have made: the last bytes returned are offered to them. */
const SEALED = /^(ciphertext|cipher|signedMessage|signature|mac|tag|header)$/;
/** The names of a group element's inputs (p, q, libsodium.js's element): each takes the points calls returned as p. */
const POINT = /^(p|q|element)$/;
const LENGTHS = [0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 1000];
const FORMATS = ['uint8array', 'hex', 'base64', 'text', undefined, null, 'bogus', 3];

/** A state made by both libraries' init: each call gets its own side's. */
class Pair {
  constructor(
    readonly family: string,
    readonly ours: unknown,
    readonly theirs: unknown,
    readonly divergent: boolean,
  ) {}
}

/** mulberry32: a seeded generator, so that a difference can be replayed. */
function generator(seed: number) {
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

const hex = (v: ArrayBufferView) => Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), (b) => b.toString(16).padStart(2, '0')).join('');

/** A value as text to compare: bytes as hex, objects by their keys; shapes alone where not `exact`. */
function shape(v: unknown, exact: boolean): string {
  if (v instanceof Uint8Array) return exact ? `u8:${hex(v)}` : `u8[${v.length}]`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}:${exact ? hex(v) : v.byteLength}`;
  if (typeof v === 'string') return exact ? JSON.stringify(v) : `string[${v.length}]`;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined || typeof v === 'bigint') return exact ? String(v) : typeof v;
  if (Array.isArray(v)) return `[${v.map((x) => shape(x, exact)).join(',')}]`;
  return `{${Object.keys(v as object)
    .sort()
    .map((k) => `${k}:${shape((v as Record<string, unknown>)[k], exact)}`)
    .join(',')}}`;
}

function copy(v: unknown, side: 'ours' | 'theirs'): unknown {
  if (v instanceof Pair) return v[side];
  if (ArrayBuffer.isView(v))
    return new (v.constructor as new (b: ArrayBuffer) => ArrayBufferView)(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer);
  if (v instanceof ArrayBuffer) return v.slice(0);
  if (Array.isArray(v)) return v.slice();
  return v;
}

function describeArgs(args: unknown[]): string {
  const one = (a: unknown) => {
    if (a instanceof Pair) return `<${a.family}${a.divergent ? ', random' : ''}>`;
    const s = shape(a, true);
    return s.length > 120 ? `${s.slice(0, 120)}... (${s.length})` : s;
  };
  return args.map(one).join(', ');
}

/** Whether `v` is a valid value of `input`'s length: any where none is given, a string's checked by the call. */
function fitsInput(input: CallInput, v: unknown): boolean {
  if (v === undefined) return false;
  if (input.length === undefined || input.type === 'string') return true;
  if (!(v instanceof Uint8Array)) return false;
  return input.type === 'minsized_buf' ? v.length >= input.length : v.length === input.length;
}

/** The call that undoes one, by libsodium's names: decrypt after encrypt, open after seal, pull after push. */
function inverseOf(name: string): string {
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

/** Runs `calls` calls of a random program from `seed` on `ours` and `theirs`. */
export function runPrograms(descriptions: readonly CallDescription[], ours: Lib, theirs: Lib, seed: number, calls: number): ProgramRun {
  const { below, pick, chance, bytes } = generator(seed);
  const shared = descriptions.filter((d) => typeof ours[d.name] === 'function' && typeof theirs[d.name] === 'function');
  const states = new Map<string, Pair[]>();
  const fixed = new Map<number, Uint8Array[]>();
  const outputs: Uint8Array[] = [];
  const strings: string[] = ['', 'abc', 'パスワード', '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$c29tZWhhc2g'];
  const recent = new Map<string, unknown[]>();
  const keyPairs: { publicKey: Uint8Array; privateKey: Uint8Array }[] = [];
  let lastBytes: Uint8Array | undefined;
  /** The last call that returned on both: its name, and its arguments and result's fields by name ('result': a bytes result). */
  let lastReturned: { name: string; named: Map<string, unknown> } | undefined;
  const run: ProgramRun = {
    calls: 0,
    bothReturned: 0,
    bothThrew: 0,
    differences: [],
    messages: new Map(),
    documented: new Map(),
    returned: new Set(),
  };
  const counted = run as { -readonly [K in keyof ProgramRun]: ProgramRun[K] };

  const fixedOf = (n: number) => {
    let list = fixed.get(n);
    if (list === undefined) fixed.set(n, (list = [bytes(n), bytes(n)]));
    return pick(list);
  };
  const sized = (n: number) => {
    const same = outputs.filter((o) => o.length === n);
    if (same.length > 0 && chance(0.3)) return pick(same).slice();
    return chance(0.6) ? fixedOf(n).slice() : bytes(n);
  };
  const unsized = (): Uint8Array | string => {
    if (outputs.length > 0 && chance(0.4)) return pick(outputs).slice();
    if (chance(0.15)) return pick(strings);
    return bytes(pick(LENGTHS));
  };
  const uint = (name: string, call: string): number => {
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
  };
  const remember = (name: string, v: unknown) => {
    if (!(v instanceof Uint8Array || typeof v === 'string')) return;
    const list = recent.get(name) ?? [];
    list.push(v instanceof Uint8Array ? v.slice() : v);
    if (list.length > 4) list.shift();
    recent.set(name, list);
  };

  /** A valid value for an input: one a call before gave or returned under its name, else new. */
  const valid = (input: CallInput, call: string): unknown => {
    if (chance(0.7) && input.type !== 'uint' && input.type !== 'state') {
      const fits = (x: unknown) => fitsInput(input, x);
      const latest = (recent.get(POINT.test(input.name) ? 'p' : input.name) ?? []).filter(fits).at(-1);
      const seen = [latest, SEALED.test(input.name) ? lastBytes : undefined].filter(fits);
      const v = seen.length > 0 ? pick(seen) : undefined;
      if (v instanceof Uint8Array) return v.slice();
      if (typeof v === 'string') return v;
    }
    switch (input.type) {
      case 'buf':
        return sized(input.length!);
      case 'buf_optional':
        return chance(0.3) ? null : sized(input.length!);
      case 'unsized_buf':
        return unsized();
      case 'unsized_buf_optional':
        return chance(0.3) ? pick([null, undefined]) : unsized();
      case 'minsized_buf':
        if (outputs.length > 0 && chance(0.6)) return pick(outputs).slice();
        return bytes((input.length ?? 0) + pick([0, 0, 1, 16, 64]));
      case 'uint':
        return uint(input.name, call);
      case 'ranged_uint':
        return pick([input.min!, input.max!, input.min! + below(input.max! - input.min! + 1)]);
      case 'u64':
        return pick([0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1]);
      case 'string':
        return chance(0.7) ? 'Examples' : pick(['', 'abcdefgh', 'éééé', 'abcdefghi']);
      case 'unsized_string':
        return pick(strings);
      default: {
        const list = states.get(input.family ?? '');
        return list !== undefined && list.length > 0 ? pick(list) : undefined;
      }
    }
  };

  /** One input made wrong: another type, another length, a number out of range. */
  const invalid = (value: unknown): unknown => {
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
  };

  /** Both halves of one key pair where a call takes a public and a private (or secret) key of their lengths. */
  const fromOnePair = (inputs: readonly CallInput[], args: unknown[]) => {
    const pk = inputs.findIndex((i) => i.name === 'publicKey');
    const sk = inputs.findIndex((i) => i.name === 'privateKey' || i.name === 'secretKey');
    if (pk < 0 || sk < 0 || !chance(0.6)) return;
    const pair = keyPairs.filter((p) => p.publicKey.length === inputs[pk]!.length && p.privateKey.length === inputs[sk]!.length).at(-1);
    if (pair === undefined) return;
    args[pk] = pair.publicKey.slice();
    args[sk] = pair.privateKey.slice();
  };

  /**
   * The arguments that undo the call before (its open, its verification): its own by name, its result as
   * the sealed input, and the other half of the key pair it took.
   */
  const undo = (d: CallDescription, named: Map<string, unknown>, args: unknown[]) => {
    const half = (known: 'publicKey' | 'privateKey') => {
      const key = named.get(known);
      const pair = keyPairs.find((p) => key instanceof Uint8Array && shape(p[known], true) === shape(key, true));
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
  };

  /** A call's arguments: each input valid, perhaps one made wrong, perhaps an output format. */
  const argumentsFor = (d: CallDescription): unknown[] => {
    const args = d.inputs.map((i) => valid(i, d.name));
    fromOnePair(d.inputs, args);
    if (lastReturned !== undefined && lastReturned.name !== d.name && d.name === inverseOf(lastReturned.name) && chance(0.8)) undo(d, lastReturned.named, args);
    // A state is never made wrong: libsodium.js passes whatever it is to C as an address, where fourfold throws.
    const plain = d.inputs.flatMap((input, i) => (input.type === 'state' ? [] : [i]));
    if (plain.length > 0 && chance(0.35)) {
      const i = pick(plain);
      args[i] = invalid(args[i]);
    }
    if (chance(0.5)) args.push(chance(0.8) ? pick(FORMATS.slice(0, 5)) : pick(FORMATS));
    return args;
  };

  const fail = (d: CallDescription, args: unknown[], why: string, ourError?: unknown) => {
    const message = ourError instanceof Error ? ourError.message : undefined;
    if (message !== undefined && DOCUMENTED.some(([name, m]) => name.test(d.name) && m.test(message))) {
      const key = `${d.name}: ${message}`;
      run.documented.set(key, (run.documented.get(key) ?? 0) + 1);
      return;
    }
    run.differences.push(`${d.name}(${describeArgs(args)}): ${why}`);
  };

  /** Keep a call's outputs for later calls: their bytes, strings, key pairs and states. */
  const keep = (d: CallDescription, args: unknown[], ourResult: unknown, theirResult: unknown, divergent: boolean) => {
    if (d.makesState !== undefined) {
      const stateOf = (r: unknown) => (d.name.endsWith('init_push') ? (r as { state: unknown }).state : r);
      const list = states.get(d.makesState) ?? [];
      list.push(new Pair(d.makesState, stateOf(ourResult), stateOf(theirResult), divergent));
      if (list.length > 6) list.shift();
      states.set(d.makesState, list);
    }
    // A result in hex or base64 is kept as its bytes too.
    const format = args.at(-1);
    const bytesOf = (v: unknown): unknown => {
      if (typeof v !== 'string' || (format !== 'hex' && format !== 'base64')) return v;
      try {
        return format === 'hex' ? theirs.from_hex(v) : theirs.from_base64(v, theirs.base64_variants.URLSAFE_NO_PADDING);
      } catch {
        // Not bytes: a key pair's keyType.
        return v;
      }
    };
    const add = (raw: unknown, name?: string) => {
      const v = bytesOf(raw);
      if (name !== undefined) remember(name, v);
      if (v instanceof Uint8Array) lastBytes = v.slice();
      if (v instanceof Uint8Array && v.length <= 4096) outputs.push(v.slice());
      else if (typeof v === 'string' && v.length < 300) strings.push(v);
      else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) for (const [k, x] of Object.entries(v)) add(x, k);
    };
    add(theirResult, d.output);
    const named = new Map<string, unknown>(d.inputs.map((input, i) => [input.name, args[i]]));
    const result = bytesOf(theirResult);
    if (result instanceof Uint8Array || typeof result === 'string') named.set('result', result);
    else if (result !== null && typeof result === 'object') for (const [k, v] of Object.entries(result)) named.set(k, bytesOf(v));
    lastReturned = { name: d.name, named };
    const pair = theirResult as { publicKey?: unknown; privateKey?: unknown } | null;
    if (pair !== null && typeof pair === 'object') {
      const [publicKey, privateKey] = [bytesOf(pair.publicKey), bytesOf(pair.privateKey)];
      if (publicKey instanceof Uint8Array && privateKey instanceof Uint8Array) {
        keyPairs.push({ publicKey, privateKey });
        if (keyPairs.length > 8) keyPairs.shift();
      }
    }
    d.inputs.forEach((input, i) => {
      remember(input.name, args[i]);
    });
    if (outputs.length > 200) outputs.splice(0, outputs.length - 200);
    if (strings.length > 50) strings.splice(4, strings.length - 50);
  };

  const callBoth = (d: CallDescription) => {
    const args = argumentsFor(d);
    const pairs = args.filter((a): a is Pair => a instanceof Pair);
    const divergent = pairs.some((p) => p.divergent) || RANDOM.test(d.name);
    const ourArgs = args.map((a) => copy(a, 'ours'));
    const theirArgs = args.map((a) => copy(a, 'theirs'));
    let ourResult: unknown;
    let theirResult: unknown;
    let ourError: unknown;
    let theirError: unknown;
    try {
      theirResult = theirs[d.name](...theirArgs);
    } catch (e) {
      theirError = e;
    }
    try {
      ourResult = ours[d.name](...ourArgs);
    } catch (e) {
      ourError = e;
    }
    counted.calls++;
    // libsodium.js frees a state in its final call, thrown or not, and a failed call leaves its state as C left it: neither is used again.
    if (d.freesState || theirError !== undefined || ourError !== undefined) {
      for (const p of pairs)
        states.set(
          p.family,
          (states.get(p.family) ?? []).filter((x) => x !== p),
        );
    }
    // Random bytes as text (a random call's, or a pull on each side's own random stream): whether they are UTF-8 is chance, on each side apart.
    if (divergent && args.at(-1) === 'text') return;
    if (theirError !== undefined && ourError !== undefined) {
      counted.bothThrew++;
      const [t, o] = [theirError as Error, ourError as Error];
      if (t.message !== o.message || t.constructor.name !== o.constructor.name) {
        const key = `${d.name}: ${t.constructor.name}(${t.message}) / ${o.constructor.name}(${o.message})`;
        run.messages.set(key, (run.messages.get(key) ?? 0) + 1);
      }
      return;
    }
    // 0.8.4 takes no bigint counter; fourfold, as libsodium.js now, takes one up to 2^64 - 1.
    if (theirError !== undefined && /_xor_ic$/.test(d.name) && args.some((a) => typeof a === 'bigint'))
      return fail(d, args, 'a bigint counter', new Error('a bigint counter'));
    if (theirError !== undefined)
      return fail(d, args, `libsodium threw ${(theirError as Error).message}; fourfold returned ${shape(ourResult, true).slice(0, 200)}`);
    if (ourError !== undefined)
      return fail(d, args, `fourfold threw ${(ourError as Error)?.stack}; libsodium returned ${shape(theirResult, true).slice(0, 200)}`, ourError);
    counted.bothReturned++;
    run.returned.add(d.name);
    // A state made by a random call (init_push's header) gives each library its own bytes from then on.
    if (d.makesState === undefined && !pairs.some((p) => p.divergent)) {
      const [a, b] = [shape(ourResult, !divergent), shape(theirResult, !divergent)];
      if (a !== b) return fail(d, args, `results differ:\n  fourfold  ${a.slice(0, 400)}\n  libsodium ${b.slice(0, 400)}`);
    }
    const argsAfter = (list: unknown[]) => list.map((a, i) => (args[i] instanceof Pair ? 'state' : shape(a, true))).join(',');
    if (argsAfter(ourArgs) !== argsAfter(theirArgs)) return fail(d, args, 'the arguments differ after the call');
    keep(d, args, ourResult, theirResult, divergent);
  };

  /** Half the time the next call is the last one's inverse (its open), or one of its family (its name less its last word). */
  const next = (previous: CallDescription | undefined): CallDescription => {
    if (previous === undefined || chance(0.4)) return pick(shared);
    const inverse = shared.find((d) => d.name === inverseOf(previous.name) && d !== previous);
    if (inverse !== undefined && chance(0.6)) return inverse;
    const words = previous.name.split('_');
    const family = words.length > 2 ? words.slice(0, -1).join('_') : previous.name;
    return pick(shared.filter((d) => d.name.startsWith(family)));
  };
  let last: CallDescription | undefined;
  for (let i = 0; i < calls; i++) {
    last = next(last);
    callBoth(last);
  }
  return run;
}
