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
 * wrapper/symbols (scripts/sodium-differential.ts); their arguments from
 * program-values.ts.
 */
import type { CallDescription } from './program-calls.js';
import { inverseOf, Pair, ProgramValues } from './program-values.js';

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

/** Runs `calls` calls of a random program from `seed` on `ours` and `theirs`. */
export function runPrograms(descriptions: readonly CallDescription[], ours: Lib, theirs: Lib, seed: number, calls: number): ProgramRun {
  const shared = descriptions.filter((d) => typeof ours[d.name] === 'function' && typeof theirs[d.name] === 'function');
  const values = new ProgramValues(seed, (text, format) =>
    format === 'hex' ? theirs.from_hex(text) : theirs.from_base64(text, theirs.base64_variants.URLSAFE_NO_PADDING),
  );
  const { pick, chance } = values.random;
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

  const fail = (d: CallDescription, args: unknown[], why: string, ourError?: unknown) => {
    const message = ourError instanceof Error ? ourError.message : undefined;
    if (message !== undefined && DOCUMENTED.some(([name, m]) => name.test(d.name) && m.test(message))) {
      const key = `${d.name}: ${message}`;
      run.documented.set(key, (run.documented.get(key) ?? 0) + 1);
      return;
    }
    run.differences.push(`${d.name}(${describeArgs(args)}): ${why}`);
  };

  const callBoth = (d: CallDescription) => {
    const args = values.argumentsFor(d);
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
    if (d.freesState || theirError !== undefined || ourError !== undefined) values.forget(pairs);
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
    values.keep(d, args, ourResult, theirResult, divergent);
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
