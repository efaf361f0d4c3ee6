/**
 * fourfold/sodium against libsodium-wrappers-sumo, call by call, with the
 * arguments libsodium.js's own descriptions of its calls allow
 * (wrapper/symbols/*.json of jedisct1/libsodium.js, outside the repository):
 * random programs of calls, each with valid arguments or one made wrong
 * (a length off by one, another type, a number out of range), outputs and
 * states passed on to later calls. Each call runs on both with copies of the
 * same arguments; they must both throw, or both return the same bytes (the
 * shapes alone where the call is random) and leave their arguments alike.
 * Where both throw, differing messages are counted, not failures.
 *
 *   npx tsx scripts/sodium-differential.ts /path/to/libsodium.js/wrapper/symbols [--calls=N] [--seed=S] [--peer=MODULE]
 *
 * The peer is libsodium-wrappers-sumo from npm unless --peer names another
 * build's module (libsodium.js's current source: its
 * dist/modules-sumo-esm/libsodium-wrappers.mjs).
 *
 * Exits 1 on a difference, printing the call and its arguments.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fourfold from 'fourfold/sodium';

interface Input {
  name: string;
  type: string;
  length?: string;
  min_length?: string;
  min_value?: string;
  max_value?: string;
}
interface Symbol {
  name: string;
  type: string;
  inputs?: Input[];
  outputs?: { name?: string; type: string }[];
  return?: string;
}

const argv = Object.fromEntries(
  process.argv.slice(3).map((a) => {
    const m = /^--(\w+)=(.*)$/.exec(a);
    if (m === null) throw new Error(`an argument this command does not take: ${a}`);
    return [m[1]!, m[2]!];
  }),
);
const symbolsDir = process.argv[2];
if (symbolsDir === undefined) throw new Error('usage: sodium-differential.ts SYMBOLS_DIR [--calls=N] [--seed=S]');
const calls = Number(argv.calls ?? 20_000);
const seed = Number(argv.seed ?? Date.now() % 1_000_000);

// biome-ignore lint/suspicious/noExplicitAny: a peer's module, every call and constant by name
type Lib = Record<string, any>;
const peerModule = (await import(argv.peer ?? 'libsodium-wrappers-sumo')) as { default: Lib };
const lib = peerModule.default;
await lib.ready;
await fourfold.ready;
const ff = fourfold as unknown as Lib;
const emscripten = lib.libsodium as Lib;

/** mulberry32: a seeded generator, so that a difference can be replayed. */
let state = seed >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
}
const below = (n: number) => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[below(xs.length)]!;
const chance = (p: number) => random() < p;
function bytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = below(256);
  return b;
}

/** A length expression of the symbols: libsodium's constant functions, nothing else. */
function evaluate(expr: string): number {
  if (/^\d+$/.test(expr.trim())) return Number(expr);
  const m = /^libsodium\.(_\w+)\(\)$/.exec(expr.trim());
  if (m === null) throw new Error(`a length this script does not read: ${expr}`);
  return emscripten[m[1]!]() as number;
}

const symbols: Symbol[] = readdirSync(symbolsDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(symbolsDir, f), 'utf8')) as Symbol)
  .filter((s) => s.type === 'function' && typeof lib[s.name] === 'function' && typeof ff[s.name] === 'function');

/** A state made by both libraries' init: each call gets its own side's. */
class Pair {
  constructor(
    readonly kind: string,
    readonly ours: unknown,
    readonly theirs: unknown,
    readonly divergent: boolean,
  ) {}
}
const states = new Map<string, Pair[]>();
/** Keys and nonces reused across calls, so that a decryption sometimes meets its encryption's key. */
const fixed = new Map<number, Uint8Array[]>();
const outputs: Uint8Array[] = [];
const strings: string[] = ['', 'abc', 'パスワード', '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$c29tZWhhc2g'];

function fixedOf(n: number): Uint8Array {
  let list = fixed.get(n);
  if (list === undefined) fixed.set(n, (list = [bytes(n), bytes(n)]));
  return pick(list);
}
function sized(n: number): Uint8Array {
  const same = outputs.filter((o) => o.length === n);
  if (same.length > 0 && chance(0.3)) return pick(same).slice();
  return chance(0.6) ? fixedOf(n).slice() : bytes(n);
}
const LENGTHS = [0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 1000];
function unsized(): Uint8Array | string {
  if (outputs.length > 0 && chance(0.4)) return pick(outputs).slice();
  if (chance(0.15)) return pick(strings);
  return bytes(pick(LENGTHS));
}

function uint(name: string, fn: string): number {
  const n = name.toLowerCase();
  if (/ops/.test(n)) return fn.includes('scrypt') ? pick([0, 1, 2, 1023, 1024, 16384, 32768, 524288]) : pick([0, 1, 2, 3]);
  if (/mem/.test(n)) return pick([0, 8191, 8192, 65536, 1 << 20, 1 << 24]);
  if (n === 'r') return pick([0, 1, 2, 8]);
  if (n === 'p') return pick([0, 1, 2]);
  if (/alg/.test(n)) return pick([0, 1, 2, 3]);
  if (/length|len$|bytes/.test(n)) return pick([0, 1, 15, 16, 17, 32, 63, 64, 65, 128, 1000]);
  if (/upper/.test(n)) return pick([0, 1, 2, 3, 255, 256, 2 ** 31, 2 ** 32 - 1]);
  return pick([0, 1, 2, 16, 32, 64, 255, 1000]);
}

/**
 * The values last given to or returned as an input of each name (a key, a
 * nonce, a public key from a key pair), and the last bytes a call
 * returned, so that an open may meet its seal: a decryption with the key,
 * nonce and ciphertext of an encryption before it.
 */
const recent = new Map<string, unknown[]>();
function remember(name: string, v: unknown): void {
  if (!(v instanceof Uint8Array || typeof v === 'string')) return;
  const list = recent.get(name) ?? [];
  list.push(v instanceof Uint8Array ? v.slice() : v);
  if (list.length > 4) list.shift();
  recent.set(name, list);
}
let lastBytes: Uint8Array | undefined;
const SEALED = /^(ciphertext|cipher|signedMessage|signature|mac|tag|header)$/;

/** A valid value for an input, as the symbol describes it. */
function valid(input: Input, fn: string): unknown {
  if (chance(0.7) && input.type !== 'uint' && !input.type.endsWith('_state_address')) {
    const fits = (x: unknown) => x !== undefined && (input.length === undefined || (x instanceof Uint8Array && x.length === evaluate(input.length)));
    const latest = (recent.get(input.name) ?? []).filter(fits).at(-1);
    const seen = [latest, SEALED.test(input.name) ? lastBytes : undefined].filter(fits);
    const v = seen.length > 0 ? pick(seen) : undefined;
    if (v instanceof Uint8Array) return v.slice();
    if (typeof v === 'string') return v;
  }
  switch (input.type) {
    case 'buf':
      return sized(evaluate(input.length!));
    case 'buf_optional':
      return chance(0.3) ? null : sized(evaluate(input.length!));
    case 'unsized_buf':
      return unsized();
    case 'unsized_buf_optional':
      return chance(0.3) ? pick([null, undefined]) : unsized();
    case 'minsized_buf': {
      if (outputs.length > 0 && chance(0.6)) return pick(outputs).slice();
      return bytes(evaluate(input.min_length ?? '0') + pick([0, 0, 1, 16, 64]));
    }
    case 'uint':
      return uint(input.name, fn);
    case 'ranged_uint': {
      const lo = evaluate(input.min_value!);
      const hi = evaluate(input.max_value!);
      return pick([lo, hi, lo + below(hi - lo + 1)]);
    }
    case 'u64':
      return pick([0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1]);
    case 'string':
      return chance(0.7) ? 'Examples' : pick(['', 'abcdefgh', 'éééé', 'abcdefghi']);
    case 'unsized_string':
      return pick(strings);
    default: {
      const kind = input.type.replace(/_address$/, '');
      const list = states.get(kind);
      return list !== undefined && list.length > 0 ? pick(list) : undefined;
    }
  }
}

/** One input made wrong: another type, another length, a number out of range. */
function invalid(value: unknown): unknown {
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

const FORMATS = ['uint8array', 'hex', 'base64', 'text', undefined, null, 'bogus', 3];

/** Key pairs calls returned, both halves: an open that takes both gets one pair's. */
const keyPairs: { publicKey: Uint8Array; privateKey: Uint8Array }[] = [];

/** Both halves of one key pair where a call takes a public and a private (or secret) key of their lengths. */
function fromOnePair(inputs: Input[], args: unknown[]): void {
  const pk = inputs.findIndex((i) => i.name === 'publicKey');
  const sk = inputs.findIndex((i) => i.name === 'privateKey' || i.name === 'secretKey');
  if (pk < 0 || sk < 0 || !chance(0.6)) return;
  const lengthOf = (i: Input) => (i.length === undefined ? undefined : evaluate(i.length));
  const fitting = keyPairs.filter((p) => p.publicKey.length === lengthOf(inputs[pk]!) && p.privateKey.length === lengthOf(inputs[sk]!));
  if (fitting.length === 0) return;
  const pair = fitting.at(-1)!;
  args[pk] = pair.publicKey.slice();
  args[sk] = pair.privateKey.slice();
}

/** A call's arguments: each input valid, perhaps one made wrong, perhaps an output format. */
function argumentsFor(s: Symbol): unknown[] {
  const inputs = s.inputs ?? [];
  const args = inputs.map((i) => valid(i, s.name));
  fromOnePair(inputs, args);
  // A state is never made wrong: libsodium.js passes whatever it is to C as an address, where fourfold throws.
  const plain = inputs.flatMap((input, i) => (input.type.endsWith('_state_address') ? [] : [i]));
  if (plain.length > 0 && chance(0.35)) {
    const i = pick(plain);
    args[i] = invalid(args[i]);
  }
  if (chance(0.5)) args.push(chance(0.8) ? pick(FORMATS.slice(0, 5)) : pick(FORMATS));
  return args;
}

function copy(v: unknown, side: 'ours' | 'theirs'): unknown {
  if (v instanceof Pair) return v[side];
  if (ArrayBuffer.isView(v))
    return new (v.constructor as new (b: ArrayBuffer) => ArrayBufferView)(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer);
  if (v instanceof ArrayBuffer) return v.slice(0);
  if (Array.isArray(v)) return v.slice();
  return v;
}

/** A value as text to compare: bytes as hex, objects by their keys; a state as its kind. */
function shape(v: unknown, exact: boolean): string {
  if (v instanceof Uint8Array) return exact ? `u8:${Buffer.from(v).toString('hex')}` : `u8[${v.length}]`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}:${exact ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') : v.byteLength}`;
  if (typeof v === 'string') return exact ? JSON.stringify(v) : `string[${v.length}]`;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined || typeof v === 'bigint') return exact ? String(v) : typeof v;
  if (Array.isArray(v)) return `[${v.map((x) => shape(x, exact)).join(',')}]`;
  return `{${Object.keys(v as object)
    .sort()
    .map((k) => `${k}:${shape((v as Record<string, unknown>)[k], exact)}`)
    .join(',')}}`;
}

const RANDOM =
  /keygen$|keypair$|_random$|^randombytes_(buf|random|uniform)$|_seal$|init_push$|^crypto_kem(_\w+)?_enc$|^crypto_pwhash(_scryptsalsa208sha256)?_str$/;

function describe(args: unknown[]): string {
  return args
    .map((a) =>
      a instanceof Pair
        ? `<${a.kind}${a.divergent ? ', random' : ''}>`
        : (() => {
            const s = shape(a, true);
            return s.length > 120 ? `${s.slice(0, 120)}... (${s.length})` : s;
          })(),
    )
    .join(', ');
}

const messages = new Map<string, number>();
const counts = { calls: 0, bothThrew: 0, bothReturned: 0 };
const perCall = new Map<string, { ok: number; threw: number }>();
let failures = 0;

/**
 * Where fourfold/sodium differs on purpose, as docs/api.md says (its
 * "From libsodium" section and the table of what follows libsodium.js past
 * 0.8.4): fourfold throws where libsodium returns. Counted apart.
 */
const DOCUMENTED: [RegExp, RegExp][] = [
  [/^crypto_pwhash_str_needs_rehash$/, /^invalid hash$/],
  [/^crypto_box_curve25519xchacha20poly1305_seal_open$/, /^incorrect key pair for the given ciphertext$/],
  [/^crypto_core_(ed25519_from_uniform|ed25519_from_hash|ristretto255_from_hash)$/, /^invalid r length$/],
  [/^crypto_onetimeauth_init$/, /^(invalid key length|key cannot be null or undefined)$/],
  [/^crypto_core_h(chacha|salsa)20$/, /^invalid constant length$/],
  [/^crypto_kem_mlkem768_dec$/, /^invalid secretKey: hash check failed$/],
  [/_xor_ic$/, /^a bigint counter$/],
];
const documented = new Map<string, number>();

function fail(s: Symbol, args: unknown[], why: string, ourError?: unknown) {
  const message = ourError instanceof Error ? ourError.message : undefined;
  if (message !== undefined && DOCUMENTED.some(([name, m]) => name.test(s.name) && m.test(message))) {
    const key = `${s.name}: ${message}`;
    documented.set(key, (documented.get(key) ?? 0) + 1);
    return;
  }
  failures++;
  console.log(`DIFFERENCE ${s.name}(${describe(args)}): ${why}`);
}

/** Keep a call's outputs for later calls: their bytes, strings and states. */
function keep(s: Symbol, args: unknown[], ours: unknown, theirs: unknown, divergent: boolean) {
  const stateOutput = s.outputs?.find((o) => o.type.endsWith('_state'));
  if (stateOutput !== undefined) {
    const ourState = s.name.endsWith('init_push') ? (ours as { state: unknown }).state : ours;
    const theirState = s.name.endsWith('init_push') ? (theirs as { state: unknown }).state : theirs;
    const kind = stateOutput.type;
    const list = states.get(kind) ?? [];
    list.push(new Pair(kind, ourState, theirState, divergent));
    if (list.length > 6) list.shift();
    states.set(kind, list);
  }
  // A result in hex or base64 is kept as its bytes too.
  const format = args.at(-1);
  const bytesOf = (v: unknown): unknown => {
    if (typeof v !== 'string' || (format !== 'hex' && format !== 'base64')) return v;
    try {
      return format === 'hex' ? lib.from_hex(v) : lib.from_base64(v, lib.base64_variants.URLSAFE_NO_PADDING);
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
  // A bytes result is kept under its output's name (beforenm's sharedKey), a key pair as a pair.
  const single = s.outputs?.length === 1 ? s.outputs[0]!.name : undefined;
  add(theirs, single);
  const pair = theirs as { publicKey?: unknown; privateKey?: unknown } | null;
  if (pair !== null && typeof pair === 'object') {
    const [publicKey, privateKey] = [bytesOf(pair.publicKey), bytesOf(pair.privateKey)];
    if (publicKey instanceof Uint8Array && privateKey instanceof Uint8Array) {
      keyPairs.push({ publicKey, privateKey });
      if (keyPairs.length > 8) keyPairs.shift();
    }
  }
  (s.inputs ?? []).forEach((input, i) => {
    remember(input.name, args[i]);
  });
  if (outputs.length > 200) outputs.splice(0, outputs.length - 200);
  if (strings.length > 50) strings.splice(4, strings.length - 50);
}

function run(s: Symbol) {
  const args = argumentsFor(s);
  const pairs = args.filter((a): a is Pair => a instanceof Pair);
  const divergent = pairs.some((p) => p.divergent) || RANDOM.test(s.name);
  const ourArgs = args.map((a) => copy(a, 'ours'));
  const theirArgs = args.map((a) => copy(a, 'theirs'));
  let ours: unknown;
  let theirs: unknown;
  let ourError: unknown;
  let theirError: unknown;
  try {
    theirs = lib[s.name](...theirArgs);
  } catch (e) {
    theirError = e;
  }
  try {
    ours = ff[s.name](...ourArgs);
  } catch (e) {
    ourError = e;
  }
  counts.calls++;
  const tally = perCall.get(s.name) ?? { ok: 0, threw: 0 };
  perCall.set(s.name, tally);
  // libsodium.js frees a state in its final call, thrown or not, and a failed call leaves its state as C left it: neither is used again.
  if (s.return?.includes('_free_state_address') || theirError !== undefined || ourError !== undefined) {
    for (const p of pairs) {
      const list = states.get(p.kind);
      if (list !== undefined)
        states.set(
          p.kind,
          list.filter((x) => x !== p),
        );
    }
  }
  // Random bytes as text: whether they are UTF-8 is chance, on each side apart.
  if (RANDOM.test(s.name) && args.at(-1) === 'text') return;
  if (theirError !== undefined && ourError !== undefined) {
    counts.bothThrew++;
    tally.threw++;
    const t = theirError as Error;
    const o = ourError as Error;
    if (t.message !== o.message || t.constructor.name !== o.constructor.name) {
      const key = `${s.name}: ${t.constructor.name}(${t.message}) / ${o.constructor.name}(${o.message})`;
      messages.set(key, (messages.get(key) ?? 0) + 1);
    }
    return;
  }
  // 0.8.4 takes no bigint counter; fourfold, as libsodium.js now, takes one up to 2^64 - 1.
  if (theirError !== undefined && /_xor_ic$/.test(s.name) && args.some((a) => typeof a === 'bigint'))
    return fail(s, args, 'a bigint counter', new Error('a bigint counter'));
  if (theirError !== undefined) return fail(s, args, `libsodium threw ${(theirError as Error).message}; fourfold returned ${shape(ours, true).slice(0, 200)}`);
  if (ourError !== undefined)
    return fail(s, args, `fourfold threw ${(ourError as Error)?.stack}; libsodium returned ${shape(theirs, true).slice(0, 200)}`, ourError);
  counts.bothReturned++;
  tally.ok++;
  // A state made by a random call (init_push's header) gives each library its own bytes from then on.
  const stateResult = s.outputs?.some((o) => o.type.endsWith('_state'));
  if (!stateResult && !pairs.some((p) => p.divergent)) {
    const a = shape(ours, !divergent);
    const b = shape(theirs, !divergent);
    if (a !== b) return fail(s, args, `results differ:\n  fourfold  ${a.slice(0, 400)}\n  libsodium ${b.slice(0, 400)}`);
  }
  const argsAfter = (list: unknown[]) => list.map((a, i) => (args[i] instanceof Pair ? 'state' : shape(a, true))).join(',');
  if (argsAfter(ourArgs) !== argsAfter(theirArgs)) return fail(s, args, 'the arguments differ after the call');
  keep(s, args, ours, theirs, divergent);
}

console.log(`seed ${seed}, ${calls} calls over ${symbols.length} calls of both`);
/** The call that undoes one, by libsodium's names: decrypt after encrypt, open after seal, pull after push. */
function inverseOf(name: string): string {
  return name
    .replace(/_encrypt(_detached)?$/, '_decrypt$1')
    .replace(/^(crypto_(secret)?box\w*?)_(easy|detached)(_afternm)?$/, '$1_open_$3$4')
    .replace(/_seal$/, '_seal_open')
    .replace(/_push$/, '_pull')
    .replace(/^crypto_sign$/, 'crypto_sign_open')
    .replace(/^crypto_sign_detached$/, 'crypto_sign_verify_detached')
    .replace(/_enc(_deterministic)?$/, '_dec');
}

/**
 * Half the time the next call is the last one's inverse (its open), or
 * one of its family (its name less its last word).
 */
function next(previous: Symbol | undefined): Symbol {
  if (previous === undefined || chance(0.4)) return pick(symbols);
  const inverse = symbols.find((s) => s.name === inverseOf(previous.name) && s !== previous);
  if (inverse !== undefined && chance(0.6)) return inverse;
  const words = previous.name.split('_');
  const family = words.length > 2 ? words.slice(0, -1).join('_') : previous.name;
  return pick(symbols.filter((s) => s.name.startsWith(family)));
}
let last: Symbol | undefined;
for (let i = 0; i < calls; i++) {
  last = next(last);
  run(last);
}
console.log(counts);
const never = symbols.filter((s) => (perCall.get(s.name)?.ok ?? 0) === 0).map((s) => s.name);
console.log(`calls that never returned on both: ${never.join(' ') || 'none'}`);
console.log(`differing messages where both threw (${messages.size}):`);
for (const [k, n] of [...messages].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${k}`);
console.log(`documented differences (docs/api.md), not failures (${documented.size}):`);
for (const [k, n] of [...documented].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${k}`);
console.log(failures === 0 ? 'no difference' : `${failures} differences`);
process.exit(failures === 0 ? 0 : 1);
