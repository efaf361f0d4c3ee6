/**
 * A small vocabulary for writing WebAssembly kernels in TypeScript, in the
 * perlasm tradition: generator code decides unrolling, register (local)
 * allocation and lane layout, and emits WebAssembly text that
 * scripts/build-kernels.ts assembles, validates and optimizes with binaryen.
 * Every helper returns one folded S-expression; an instruction a
 * generator needs gets a word here rather than raw text in the generator.
 */

export type Expr = string;

/**
 * With notes on, each instruction a generator emits is preceded by
 * binaryen's source-location comment `;;@ file:line:column`, naming the
 * generator line that asked for it (the first caller outside this file),
 * so that the constant-time check (scripts/constant-time/) can say which
 * line of which generator a finding comes from. Off for the build: the
 * notes change no byte of the code (the check proves it).
 */
let notes = false;

export function noteGeneratorLines(on: boolean): void {
  notes = on;
}

const here = new URL(import.meta.url).pathname;
const root = new URL('../../', import.meta.url).pathname;
/** A stack frame's location: `at fn (file:line:column)` or `at file:line:column`. */
const LOCATION = /\(?(?:file:\/\/)?([^\s()]+):(\d+):(\d+)\)?$/;

/** `text`, preceded by its generator's line when notes are on. */
function noted(text: Expr): Expr {
  if (!notes) return text;
  for (const frame of (new Error().stack ?? '').split('\n').slice(1)) {
    const at = frame.includes(here) ? null : LOCATION.exec(frame.trim());
    if (at) return `;;@ ${at[1].replace(root, '')}:${at[2]}:${at[3]}\n${text}`;
  }
  return text;
}

/** `(name arg...)`: an instruction, with its operands already emitted (the tables below name them). */
const op =
  (name: string) =>
  (...operands: Expr[]): Expr =>
    noted(`(${name} ${operands.join(' ')})`);

/** Any instruction by name, for code that needs one the tables lack (the constant-time check's planted faults). */
export const instruction = op;

export const get = (local: string): Expr => `(local.get $${local})`;
export const set = (local: string, value: Expr): Expr => `(local.set $${local} ${value})`;
/** `(call $fn arg...)`. */
export const call = (fn: string, ...args: Expr[]): Expr => noted(`(call $${[fn, ...args].join(' ')})`);
/** `(return)`, from a function without results. */
export const ret = (): Expr => '(return)';
/** `cond ? ifTrue : ifFalse` without a branch (both operands are evaluated). */
export const select = (ifTrue: Expr, ifFalse: Expr, cond: Expr): Expr => noted(`(select ${ifTrue} ${ifFalse} ${cond})`);

/** A mutable i32 global's declaration, for `module`'s globals. */
export const mutableGlobal = (name: string, initial = 0): string => `(global $${name} (mut i32) ${i32.const(initial)})`;
export const getGlobal = (name: string): Expr => `(global.get $${name})`;
export const setGlobal = (name: string, value: Expr): Expr => `(global.set $${name} ${value})`;

export const i32 = {
  const: (n: number): Expr => `(i32.const ${n | 0})`,
  load: (addr: Expr, offset = 0): Expr => noted(`(i32.load offset=${offset} align=1 ${addr})`),
  load8: (addr: Expr, offset = 0): Expr => noted(`(i32.load8_u offset=${offset} ${addr})`),
  store: (addr: Expr, value: Expr, offset = 0): Expr => noted(`(i32.store offset=${offset} align=1 ${addr} ${value})`),
  store8: (addr: Expr, value: Expr, offset = 0): Expr => noted(`(i32.store8 offset=${offset} ${addr} ${value})`),
  add: op('i32.add'),
  sub: op('i32.sub'),
  mul: op('i32.mul'),
  and: op('i32.and'),
  or: op('i32.or'),
  xor: op('i32.xor'),
  shl: (a: Expr, n: Expr | number): Expr => op('i32.shl')(a, typeof n === 'number' ? i32.const(n) : n),
  shr: (a: Expr, n: Expr | number): Expr => op('i32.shr_u')(a, typeof n === 'number' ? i32.const(n) : n),
  rotl: (a: Expr, n: number): Expr => op('i32.rotl')(a, i32.const(n)),
  clz: op('i32.clz'),
  eqz: op('i32.eqz'),
  eq: op('i32.eq'),
  ne: op('i32.ne'),
  ltU: op('i32.lt_u'),
  leU: op('i32.le_u'),
  leS: op('i32.le_s'),
  gtU: op('i32.gt_u'),
  geU: op('i32.ge_u'),
  wrap: op('i32.wrap_i64'),
};

export const i64 = {
  const: (n: number | bigint): Expr => `(i64.const ${BigInt(n)})`,
  load: (addr: Expr, offset = 0): Expr => noted(`(i64.load offset=${offset} align=1 ${addr})`),
  store: (addr: Expr, value: Expr, offset = 0): Expr => noted(`(i64.store offset=${offset} align=1 ${addr} ${value})`),
  add: op('i64.add'),
  sub: op('i64.sub'),
  mul: op('i64.mul'),
  and: op('i64.and'),
  xor: op('i64.xor'),
  /** Rotation right by `n` bits. */
  rotr: (a: Expr, n: number): Expr => op('i64.rotr')(a, i64.const(n)),
  shl: (a: Expr, n: number): Expr => op('i64.shl')(a, i64.const(n)),
  shr: (a: Expr, n: number): Expr => op('i64.shr_u')(a, i64.const(n)),
  popcnt: op('i64.popcnt'),
  ne: op('i64.ne'),
  ltU: op('i64.lt_u'),
  extend: op('i64.extend_i32_u'),
  /** An f64 holding a whole number in [0, 2^64), as an i64 (i64.trunc_f64_u). */
  fromF64: op('i64.trunc_f64_u'),
};

/** A 16-byte lane pattern for i8x16.shuffle, from 32-bit lane indices (0..7 across both operands). */
const wordLanes = (lanes: number[]): number[] => lanes.flatMap((l) => [4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3]);

export const v128 = {
  load: (addr: Expr, offset = 0): Expr => noted(`(v128.load offset=${offset} align=1 ${addr})`),
  store: (addr: Expr, value: Expr, offset = 0): Expr => noted(`(v128.store offset=${offset} align=1 ${addr} ${value})`),
  /** One 32-bit word from memory, copied into all four lanes. */
  splat32: (addr: Expr, offset = 0): Expr => noted(`(v128.load32_splat offset=${offset} align=4 ${addr})`),
  const32: (a: number, b: number, c: number, d: number): Expr => `(v128.const i32x4 ${a | 0} ${b | 0} ${c | 0} ${d | 0})`,
  const64: (a: number, b: number): Expr => `(v128.const i64x2 ${a} ${b})`,
  and: op('v128.and'),
  /** a & ~b. */
  andnot: op('v128.andnot'),
  or: op('v128.or'),
  xor: op('v128.xor'),
  not: op('v128.not'),
  /** Byte permutation of one vector (or two: indices 16..31 pick from `b`). */
  shuffle: (bytes: number[], a: Expr, b: Expr = a): Expr => noted(`(i8x16.shuffle ${bytes.join(' ')} ${a} ${b})`),
  /** Byte permutation through a constant index vector (i8x16.swizzle). */
  swizzle: (bytes: number[], a: Expr): Expr => noted(`(i8x16.swizzle ${a} (v128.const i8x16 ${bytes.join(' ')}))`),
  /** 32-bit lane permutation across `a` (lanes 0..3) and `b` (lanes 4..7). */
  shuffle32: (lanes: number[], a: Expr, b: Expr): Expr => v128.shuffle(wordLanes(lanes), a, b),
};

export const i32x4 = {
  splat: op('i32x4.splat'),
  add: op('i32x4.add'),
  sub: op('i32x4.sub'),
  mul: op('i32x4.mul'),
  shl: (a: Expr, n: number): Expr => op('i32x4.shl')(a, i32.const(n)),
  shr: (a: Expr, n: number): Expr => op('i32x4.shr_u')(a, i32.const(n)),
  eq: op('i32x4.eq'),
  ltU: op('i32x4.lt_u'),
  lane: (a: Expr, i: number): Expr => noted(`(i32x4.extract_lane ${i} ${a})`),
};

export const i64x2 = {
  add: op('i64x2.add'),
  shl: (a: Expr, n: number): Expr => op('i64x2.shl')(a, i32.const(n)),
  shr: (a: Expr, n: number): Expr => op('i64x2.shr_u')(a, i32.const(n)),
  /** Full 64-bit products of the unsigned 32-bit lanes 0 and 1 (or 2 and 3). */
  mulLow: op('i64x2.extmul_low_i32x4_u'),
  mulHigh: op('i64x2.extmul_high_i32x4_u'),
  /** Lanes 0 and 1, zero-extended to 64 bits. */
  extendLow: op('i64x2.extend_low_i32x4_u'),
  lane: (a: Expr, i: number): Expr => noted(`(i64x2.extract_lane ${i} ${a})`),
  /** The low 32 bits of both 64-bit lanes, moved to 32-bit lanes 0 and 1. */
  narrowLow: (a: Expr): Expr => v128.shuffle(wordLanes([0, 2, 0, 2]), a),
};

/**
 * 4x4 transpose of 32-bit lanes: out_j lane i = word j of rows[i]. Eight
 * shuffles, all in registers; used by the Poly1305 message
 * loads, the ChaCha output pass and the BLAKE3 message and output passes.
 */
export function transpose4(out: string[], tmp: string[], rows: Expr[]): Expr[] {
  return [
    set(tmp[0], rows[0]),
    set(tmp[1], rows[1]),
    set(tmp[2], rows[2]),
    set(tmp[3], rows[3]),
    set(out[0], v128.shuffle32([0, 4, 1, 5], get(tmp[0]), get(tmp[1]))), // a0 b0 a1 b1
    set(out[1], v128.shuffle32([2, 6, 3, 7], get(tmp[0]), get(tmp[1]))), // a2 b2 a3 b3
    set(out[2], v128.shuffle32([0, 4, 1, 5], get(tmp[2]), get(tmp[3]))), // c0 d0 c1 d1
    set(out[3], v128.shuffle32([2, 6, 3, 7], get(tmp[2]), get(tmp[3]))), // c2 d2 c3 d3
    set(tmp[0], v128.shuffle32([0, 1, 4, 5], get(out[0]), get(out[2]))), // a0 b0 c0 d0
    set(tmp[1], v128.shuffle32([2, 3, 6, 7], get(out[0]), get(out[2]))), // a1 b1 c1 d1
    set(tmp[2], v128.shuffle32([0, 1, 4, 5], get(out[1]), get(out[3]))), // a2 b2 c2 d2
    set(tmp[3], v128.shuffle32([2, 3, 6, 7], get(out[1]), get(out[3]))), // a3 b3 c3 d3
    set(out[0], get(tmp[0])),
    set(out[1], get(tmp[1])),
    set(out[2], get(tmp[2])),
    set(out[3], get(tmp[3])),
  ];
}

/**
 * Independent chains of code interleaved statement by statement (the first
 * statement of each, then the second of each, ...), so that the engine's
 * compiler finds either chain's work to fill the other's latencies.
 */
export function interleave(parts: Expr[][]): Expr[] {
  if (parts.length === 1) return parts[0];
  const out: Expr[] = [];
  for (let i = 0; i < Math.max(...parts.map((p) => p.length)); i++) for (const p of parts) if (i < p.length) out.push(p[i]);
  return out;
}

/** Bulk memory: copy `length` bytes from `src` to `dst` (overlap allowed). */
export const memoryCopy = (dst: Expr, src: Expr, length: Expr): Expr => noted(`(memory.copy ${dst} ${src} ${length})`);
/** Bulk memory: zero `length` bytes at `dst`. */
export const memoryFill = (dst: Expr, length: Expr): Expr => noted(`(memory.fill ${dst} ${i32.const(0)} ${length})`);

/** How a vector rotation by a multiple of 8 bits is emitted; engines differ on which is fastest. */
export type ByteRotation = 'shuffle' | 'swizzle' | 'shift';

/**
 * Each 32-bit lane of `x` rotated left by `bits`. A rotation by a multiple
 * of 8 can be a byte permutation (i8x16.shuffle or .swizzle, `style`);
 * others are shift, shift, or.
 */
export function rotlLanes(x: Expr, bits: number, style: ByteRotation): Expr {
  if (bits % 8 === 0 && style !== 'shift') {
    // Little-endian lanes: byte b of a lane comes from byte b - bits/8 (mod 4).
    const bytes = [0, 4, 8, 12].flatMap((lane) => [0, 1, 2, 3].map((b) => lane + ((b - bits / 8 + 4) % 4)));
    return style === 'shuffle' ? v128.shuffle(bytes, x) : v128.swizzle(bytes, x);
  }
  return v128.or(i32x4.shl(x, bits), i32x4.shr(x, 32 - bits));
}

/** `for (;;) { before; if (exit) break; after }` as a block and loop. */
export function loopWithExit(label: string, before: Expr[], exit: Expr, after: Expr[]): Expr {
  const body = [...before, noted(`(br_if $${label}_end ${exit})`), ...after, `(br $${label})`];
  return `(block $${label}_end (loop $${label}\n    ${body.join('\n    ')}))`;
}

/** `while (cond) { body }` as a block and loop. */
export function whileLoop(label: string, cond: Expr, body: Expr[]): Expr {
  return loopWithExit(label, [], i32.eqz(cond), body);
}

/**
 * `do { body } while (cond)`: the test at the end. Prefer it where the body
 * runs at least once: TurboFan (V8) hoists loop-invariant work only out of
 * loops whose body always executes.
 */
export function doWhile(label: string, body: Expr[], cond: Expr): Expr {
  return `(loop $${label}\n    ${body.join('\n    ')}\n    ${noted(`(br_if $${label} ${cond})`)})`;
}

export function ifThen(cond: Expr, body: Expr[]): Expr {
  return noted(`(if ${cond} (then ${body.join('\n')}))`);
}

export function ifElse(cond: Expr, then: Expr[], otherwise: Expr[]): Expr {
  return noted(`(if ${cond}\n(then ${then.join('\n')})\n(else ${otherwise.join('\n')}))`);
}

type ValueType = 'i32' | 'i64' | 'f64' | 'v128';

export interface FunctionSpec {
  name: string;
  exported?: boolean;
  params?: [string, ValueType][];
  /** One result type, or several (multi-value: the body leaves them on the stack in order). */
  result?: ValueType | ValueType[];
  locals?: Record<string, 'i32' | 'i64' | 'v128'>;
  body: Expr[];
}

export function func(spec: FunctionSpec): string {
  const params = (spec.params ?? []).map(([n, t]) => `(param $${n} ${t})`).join(' ');
  const result = spec.result ? `(result ${[spec.result].flat().join(' ')})` : '';
  const locals = Object.entries(spec.locals ?? {})
    .map(([n, t]) => `(local $${n} ${t})`)
    .join(' ');
  const exported = spec.exported ? `(export "${spec.name}")` : '';
  return `(func $${spec.name} ${exported} ${params} ${result} ${locals}\n  ${spec.body.join('\n  ')})`;
}

/**
 * A module with one exported memory of `pages` pages: fixed (it never
 * grows) unless `maxPages` allows its caller to grow it.
 */
export function module(pages: number, functions: string[], globals: string[] = [], maxPages = pages): string {
  return `(module\n(memory (export "memory") ${pages} ${maxPages})\n${globals.join('\n')}\n${functions.join('\n')}\n)`;
}

/** A module whose memory is imported (env.memory) and shared between threads, from `pages` up to `maxPages`. */
export function sharedMemoryModule(pages: number, functions: string[], maxPages: number): string {
  return `(module\n(import "env" "memory" (memory ${pages} ${maxPages} shared))\n${functions.join('\n')}\n)`;
}

/**
 * Kernel variants: equivalent formulations of one function, of which the
 * runtime picks the fastest per engine by timing real calls
 * (runtime/variants.ts). The module holds the choice in $variant, set
 * through select_variant; `callVariant` branches on it (the choice is
 * public, so branching on it is fine).
 */
export const variantGlobal = mutableGlobal('variant');

/** select_variant(index) and variant_count(), the exports the runtime chooses with. */
export function variantFunctions(count: number): string[] {
  return [
    func({ name: 'select_variant', exported: true, params: [['index', 'i32']], body: [setGlobal('variant', get('index'))] }),
    func({ name: 'variant_count', exported: true, result: 'i32', body: [i32.const(count)] }),
  ];
}

/**
 * cases[index], for an index known only at run time and public (a branch
 * on it is fine): a chain of ifs, the last case taken for any other index.
 */
export function choose(index: Expr, cases: Expr[]): Expr {
  return cases.slice(0, -1).reduceRight((rest: Expr, code, i) => ifElse(i32.eq(index, i32.const(i)), [code], [rest]), cases[cases.length - 1]);
}

/** `(call $<fn>_<name> args)` for the variant named names[$variant]. */
export function callVariant(names: string[], fn: string, args: Expr[]): Expr {
  return choose(
    getGlobal('variant'),
    names.map((name) => call(`${fn}_${name}`, ...args)),
  );
}

/** Sets locals `names` from an expression with as many results (a multi-value call): the last result is on top of the stack. */
export const setAll = (names: string[], multi: Expr): Expr => [multi, ...[...names].reverse().map((n) => `(local.set $${n})`)].join('\n');

/** Names `prefix0..prefix{n-1}`: register files for generators. */
export const regs = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** Declares every name in `names` as a local of type `type`. */
export const declare = (names: string[], type: 'i32' | 'i64' | 'v128'): Record<string, typeof type> => Object.fromEntries(names.map((n) => [n, type]));

/**
 * `wipe(end)`: zeroes memory [0, end) and, when given, the 256-byte scratch
 * at `tail`. Cheaper from JavaScript than Uint8Array.prototype.fill for the
 * few hundred bytes a short call leaves.
 */
export function wipeFunction(tail?: number): string {
  const scratch = tail === undefined ? [] : [memoryFill(i32.const(tail), i32.const(256))];
  return func({
    name: 'wipe',
    exported: true,
    params: [['end', 'i32']],
    body: [memoryFill(i32.const(0), get('end')), ...scratch],
  });
}
