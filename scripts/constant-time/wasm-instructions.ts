/**
 * One instruction at a time from a function body (WebAssembly Core
 * Specification 2.0 §5.4, with the SIMD (0xFD) and bulk-memory (0xFC)
 * prefixes), reduced to what taint needs: how many values it takes and
 * gives, and which of them are addresses, conditions or divisors. An
 * opcode this table does not know stops the check: a kernel that starts
 * using a new instruction gets a row here, and a reviewer, first.
 */
import type { FunctionType, Reader } from './wasm-module.js';

export type Instruction =
  | { kind: 'block' | 'loop' | 'if'; type: FunctionType }
  | { kind: 'else' | 'end' | 'return' | 'unreachable' | 'nop' | 'drop' | 'select' }
  | { kind: 'br' | 'br_if'; depth: number }
  | { kind: 'br_table'; depths: number[] }
  | { kind: 'call'; func: number }
  | { kind: 'call_indirect'; type: FunctionType }
  | { kind: 'local.get' | 'local.set' | 'local.tee' | 'global.get' | 'global.set'; index: number }
  | { kind: 'i32.const'; value: number }
  /** Pops an address (and, for a lane load, a vector), pushes one value. */
  | { kind: 'load'; offset: number; pops: 1 | 2 }
  /** Pops an address and a value. */
  | { kind: 'store'; offset: number }
  /** memory.copy, memory.fill, memory.init: three operands, every one an address or a length. */
  | { kind: 'bulk' }
  /** Arithmetic and everything else without effects: `pops` operands, `pushes` results. */
  | { kind: 'pure'; pops: number; pushes: number; variableTime?: boolean };

export interface Decoded {
  offset: number;
  name: string;
  op: Instruction;
}

const pure = (pops: number, pushes = 1, variableTime = false): Instruction => ({ kind: 'pure', pops, pushes, variableTime });

/** §5.4.1: a block type is empty (0x40), one value type, or a type index. */
function blockType(r: Reader, types: FunctionType[]): FunctionType {
  const first = r.bytes[r.at];
  if (first === 0x40) {
    r.at++;
    return { params: 0, results: 0 };
  }
  if (first >= 0x6f && first <= 0x7f) {
    r.at++;
    return { params: 0, results: 1 };
  }
  return types[Number(r.signed(33))];
}

/** A memarg (§5.4.6): alignment, then the offset added to the address. */
function memarg(r: Reader): number {
  r.u32();
  return r.u32();
}

// §5.4.7 numeric instructions: names by opcode, from 0x45 (i32.eqz) to 0xc4.
const NUMERIC = `i32.eqz i32.eq i32.ne i32.lt_s i32.lt_u i32.gt_s i32.gt_u i32.le_s i32.le_u i32.ge_s i32.ge_u
  i64.eqz i64.eq i64.ne i64.lt_s i64.lt_u i64.gt_s i64.gt_u i64.le_s i64.le_u i64.ge_s i64.ge_u
  f32.eq f32.ne f32.lt f32.gt f32.le f32.ge f64.eq f64.ne f64.lt f64.gt f64.le f64.ge
  i32.clz i32.ctz i32.popcnt i32.add i32.sub i32.mul i32.div_s i32.div_u i32.rem_s i32.rem_u i32.and i32.or i32.xor i32.shl i32.shr_s i32.shr_u i32.rotl i32.rotr
  i64.clz i64.ctz i64.popcnt i64.add i64.sub i64.mul i64.div_s i64.div_u i64.rem_s i64.rem_u i64.and i64.or i64.xor i64.shl i64.shr_s i64.shr_u i64.rotl i64.rotr
  f32.abs f32.neg f32.ceil f32.floor f32.trunc f32.nearest f32.sqrt f32.add f32.sub f32.mul f32.div f32.min f32.max f32.copysign
  f64.abs f64.neg f64.ceil f64.floor f64.trunc f64.nearest f64.sqrt f64.add f64.sub f64.mul f64.div f64.min f64.max f64.copysign
  i32.wrap_i64 i32.trunc_f32_s i32.trunc_f32_u i32.trunc_f64_s i32.trunc_f64_u i64.extend_i32_s i64.extend_i32_u
  i64.trunc_f32_s i64.trunc_f32_u i64.trunc_f64_s i64.trunc_f64_u f32.convert_i32_s f32.convert_i32_u f32.convert_i64_s
  f32.convert_i64_u f32.demote_f64 f64.convert_i32_s f64.convert_i32_u f64.convert_i64_s f64.convert_i64_u f64.promote_f32
  i32.reinterpret_f32 i64.reinterpret_f64 f32.reinterpret_i32 f64.reinterpret_i64
  i32.extend8_s i32.extend16_s i64.extend8_s i64.extend16_s i64.extend32_s`.split(/\s+/);

/** Operand counts of a numeric instruction by its name's shape: tests, unary and conversions take one. */
function numericPops(name: string): number {
  const [, op] = name.split('.');
  if (/^(eqz|clz|ctz|popcnt|abs|neg|ceil|floor|trunc|nearest|sqrt)$/.test(op)) return 1;
  if (/^(wrap|trunc_|extend|convert|demote|promote|reinterpret)/.test(op)) return 1;
  return 2;
}

/**
 * Instructions whose time depends on their operands' values on common
 * engines' targets: integer division and remainder (x86 DIV/IDIV, Arm
 * SDIV/UDIV take fewer cycles for small operands), and floating-point
 * division and square root (subnormal operands take a slow path).
 */
const VARIABLE_TIME = /\.(div|rem|sqrt)(_[su])?$/;

const LOADS =
  'i32.load i64.load f32.load f64.load i32.load8_s i32.load8_u i32.load16_s i32.load16_u i64.load8_s i64.load8_u i64.load16_s i64.load16_u i64.load32_s i64.load32_u'.split(
    ' ',
  );
const STORES = 'i32.store i64.store f32.store f64.store i32.store8 i32.store16 i64.store8 i64.store16 i64.store32'.split(' ');

/** SIMD opcodes (after 0xFD) taking one operand: splats, lane extraction, unary operations, tests, widening and conversions. */
const SIMD_UNARY = new Set([
  0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x18, 0x19, 0x1b, 0x1d, 0x1f, 0x21, 0x4d, 0x53, 0x5e, 0x5f, 0x60, 0x61, 0x62, 0x63, 0x64, 0x67, 0x68, 0x69,
  0x6a, 0x74, 0x75, 0x7a, 0x7c, 0x7d, 0x7e, 0x7f, 0x80, 0x81, 0x83, 0x84, 0x87, 0x88, 0x89, 0x8a, 0x94, 0xa0, 0xa1, 0xa3, 0xa4, 0xa7, 0xa8, 0xa9, 0xaa, 0xc0,
  0xc1, 0xc3, 0xc4, 0xc7, 0xc8, 0xc9, 0xca, 0xe0, 0xe1, 0xe3, 0xec, 0xed, 0xef, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
]);
/** SIMD opcodes with a lane-index byte: extract_lane and replace_lane. */
const SIMD_LANE = (n: number) => n >= 0x15 && n <= 0x22;
/** Reserved SIMD opcodes (no instruction). */
const SIMD_RESERVED = new Set([0x9a, 0xa2, 0xa5, 0xa6, 0xaf, 0xb0, 0xb2, 0xb3, 0xb4, 0xbb, 0xc2, 0xc5, 0xc6, 0xcf, 0xd0, 0xd2, 0xd3, 0xd4, 0xe2, 0xee]);
/** f32x4/f64x2 division and square root. */
const SIMD_VARIABLE_TIME = new Set([0xe3, 0xe7, 0xef, 0xf3]);

function simd(r: Reader): { name: string; op: Instruction } {
  const n = r.u32();
  const name = `simd 0x${n.toString(16)}`;
  if (n <= 0x0a || n === 0x5c || n === 0x5d) return { name: n === 0 ? 'v128.load' : `v128.load (${name})`, op: { kind: 'load', offset: memarg(r), pops: 1 } };
  if (n === 0x0b) return { name: 'v128.store', op: { kind: 'store', offset: memarg(r) } };
  if (n >= 0x54 && n <= 0x57) {
    const offset = memarg(r);
    r.skip(1);
    return { name: `v128.load_lane (${name})`, op: { kind: 'load', offset, pops: 2 } };
  }
  if (n >= 0x58 && n <= 0x5b) {
    const offset = memarg(r);
    r.skip(1);
    return { name: `v128.store_lane (${name})`, op: { kind: 'store', offset } };
  }
  if (n === 0x0c) {
    r.skip(16);
    return { name: 'v128.const', op: pure(0) };
  }
  if (n === 0x0d) {
    r.skip(16);
    return { name: 'i8x16.shuffle', op: pure(2) };
  }
  if (n > 0xff || SIMD_RESERVED.has(n)) throw new Error(`wasm: SIMD opcode 0x${n.toString(16)} is not in the table`);
  if (SIMD_LANE(n)) r.skip(1);
  const pops = n === 0x52 ? 3 : SIMD_UNARY.has(n) ? 1 : 2;
  return { name: SIMD_VARIABLE_TIME.has(n) ? `${name} (division or square root)` : name, op: pure(pops, 1, SIMD_VARIABLE_TIME.has(n)) };
}

/** 0xFC: saturating truncation (0-7) and bulk memory. */
function prefixed(r: Reader): { name: string; op: Instruction } {
  const n = r.u32();
  if (n <= 7) return { name: `trunc_sat (0xfc ${n})`, op: pure(1) };
  if (n === 8) {
    r.u32();
    r.byte();
    return { name: 'memory.init', op: { kind: 'bulk' } };
  }
  if (n === 9) {
    r.u32();
    return { name: 'data.drop', op: pure(0, 0) };
  }
  if (n === 10) {
    r.skip(2);
    return { name: 'memory.copy', op: { kind: 'bulk' } };
  }
  if (n === 11) {
    r.skip(1);
    return { name: 'memory.fill', op: { kind: 'bulk' } };
  }
  throw new Error(`wasm: opcode 0xfc ${n} is not in the table`);
}

/** Decodes the instruction at r.at and advances past it. */
export function decode(r: Reader, types: FunctionType[]): Decoded {
  const offset = r.at;
  const code = r.byte();
  const named = (name: string, op: Instruction): Decoded => ({ offset, name, op });
  switch (code) {
    case 0x00:
      return named('unreachable', { kind: 'unreachable' });
    case 0x01:
      return named('nop', { kind: 'nop' });
    case 0x02:
    case 0x03:
    case 0x04: {
      const kind = code === 0x02 ? 'block' : code === 0x03 ? 'loop' : 'if';
      return named(kind, { kind, type: blockType(r, types) });
    }
    case 0x05:
      return named('else', { kind: 'else' });
    case 0x0b:
      return named('end', { kind: 'end' });
    case 0x0c:
    case 0x0d:
      return named(code === 0x0c ? 'br' : 'br_if', { kind: code === 0x0c ? 'br' : 'br_if', depth: r.u32() });
    case 0x0e: {
      const depths: number[] = [];
      for (let n = r.u32(); n >= 0; n--) depths.push(r.u32());
      return named('br_table', { kind: 'br_table', depths });
    }
    case 0x0f:
      return named('return', { kind: 'return' });
    case 0x10:
      return named('call', { kind: 'call', func: r.u32() });
    case 0x11: {
      const type = types[r.u32()];
      r.u32();
      return named('call_indirect', { kind: 'call_indirect', type });
    }
    case 0x1a:
      return named('drop', { kind: 'drop' });
    case 0x1b:
      return named('select', { kind: 'select' });
    case 0x1c:
      r.skip(r.u32());
      return named('select', { kind: 'select' });
    case 0x20:
    case 0x21:
    case 0x22:
    case 0x23:
    case 0x24: {
      const kind = (['local.get', 'local.set', 'local.tee', 'global.get', 'global.set'] as const)[code - 0x20];
      return named(kind, { kind, index: r.u32() });
    }
    case 0x3f:
      r.skip(1);
      return named('memory.size', pure(0));
    case 0x40:
      r.skip(1);
      return named('memory.grow', pure(1));
    case 0x41:
      return named('i32.const', { kind: 'i32.const', value: Number(BigInt.asIntN(32, r.signed(32))) });
    case 0x42:
      r.signed(64);
      return named('i64.const', pure(0));
    case 0x43:
      r.skip(4);
      return named('f32.const', pure(0));
    case 0x44:
      r.skip(8);
      return named('f64.const', pure(0));
    case 0xfc:
      return { offset, ...prefixed(r) };
    case 0xfd:
      return { offset, ...simd(r) };
  }
  if (code >= 0x28 && code <= 0x35) return named(LOADS[code - 0x28], { kind: 'load', offset: memarg(r), pops: 1 });
  if (code >= 0x36 && code <= 0x3e) return named(STORES[code - 0x36], { kind: 'store', offset: memarg(r) });
  if (code >= 0x45 && code <= 0xc4) {
    const name = NUMERIC[code - 0x45];
    return named(name, pure(numericPops(name), 1, VARIABLE_TIME.test(name)));
  }
  throw new Error(`wasm: opcode 0x${code.toString(16)} at ${offset} is not in the table`);
}
