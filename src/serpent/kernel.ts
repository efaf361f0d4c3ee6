/**
 * Serpent kernel generator (Anderson, Biham, Knudsen: "Serpent: A Proposal
 * for the Advanced Encryption Standard", the bitslice description of §2),
 * with the ECB, CBC and CTR modes (NIST SP 800-38A) around it.
 *
 * The SIMD path is inter-block: v128 local x_j holds word X_j of four
 * blocks (lane i = block i), so each gate of an S-box circuit (sboxes.ts)
 * and each step of the linear transformation does four blocks' work, with
 * all state in locals through the 32 rounds. Blocks are transposed into
 * that form on load and back on store, in registers. ECB, CTR and CBC
 * decryption are parallel and run two groups interleaved (8 blocks an
 * iteration), then one group; a last partial group runs zero-padded in
 * TAIL. CBC encryption is serial and runs one block at a time on i32 words.
 * ECB and CBC decryption share their group functions (groupFunction).
 */
import { CHAIN, KEY, PAGES, SUBKEYS, TAIL } from './layout.js';
import { PHI } from './tables.js';
import { INVERSE_CIRCUITS, SBOX_CIRCUITS, evaluate, type Circuit, type Logic } from './sboxes.js';
import {
  type Expr,
  call,
  choose,
  declare,
  func,
  get,
  i32,
  i32x4,
  i64,
  ifThen,
  interleave,
  loopWithExit,
  memoryCopy,
  memoryFill,
  module,
  regs,
  rotlLanes,
  set,
  transpose4,
  v128,
  whileLoop,
  wipeFunction,
} from '../wasm/wat.js';

/** The gates plus the word operations of the linear transformation, for vectors or scalar words. */
interface Words extends Logic<Expr> {
  rotl(a: Expr, bits: number): Expr;
  shl(a: Expr, bits: number): Expr;
  /** Round key word `word` of the round key at address `key` + `offset`. */
  key(key: Expr, offset: number): Expr;
}

const vectorWords: Words = {
  and: v128.and,
  or: v128.or,
  xor: v128.xor,
  andnot: v128.andnot,
  not: v128.not,
  // No rotation amount of the transformation is a multiple of 8: shift, shift, or.
  rotl: (a, bits) => rotlLanes(a, bits, 'shift'),
  shl: i32x4.shl,
  key: (key, offset) => v128.splat32(key, offset),
};

const ALL_ONES = i32.const(-1);
const scalarWords: Words = {
  and: i32.and,
  or: i32.or,
  xor: i32.xor,
  andnot: (a, b) => i32.and(a, i32.xor(b, ALL_ONES)),
  not: (a) => i32.xor(a, ALL_ONES),
  rotl: i32.rotl,
  shl: i32.shl,
  key: (key, offset) => i32.load(key, offset),
};

/** One group's registers: the four state words and the circuit temporaries. */
interface Group {
  x: string[];
  t: string;
}

const TEMPS = 32;

function group(prefix: string): Group {
  return { x: regs(`${prefix}x`, 4), t: `${prefix}t` };
}

const groupLocals = (g: Group, type: 'v128' | 'i32') => ({ ...declare(g.x, type), ...declare(regs(g.t, TEMPS), type) });

/** An S-box (or inverse) circuit on a group's words: each gate into a temporary local, then the outputs back into x. */
function sbox(m: Words, g: Group, circuit: Circuit): Expr[] {
  const code: Expr[] = [];
  const outputs = evaluate(circuit, m, g.x.map(get), (name, value) => {
    const local = `${g.t}${name.slice(1)}`;
    code.push(set(local, value));
    return get(local);
  });
  return [...code, ...outputs.map((y, j) => set(g.x[j], y))];
}

/** §2 (bitslice form): the linear transformation LT on X0..X3. */
function linear(m: Words, [x0, x1, x2, x3]: string[]): Expr[] {
  return [
    set(x0, m.rotl(get(x0), 13)),
    set(x2, m.rotl(get(x2), 3)),
    set(x1, m.xor(m.xor(get(x1), get(x0)), get(x2))),
    set(x3, m.xor(m.xor(get(x3), get(x2)), m.shl(get(x0), 3))),
    set(x1, m.rotl(get(x1), 1)),
    set(x3, m.rotl(get(x3), 7)),
    set(x0, m.xor(m.xor(get(x0), get(x1)), get(x3))),
    set(x2, m.xor(m.xor(get(x2), get(x3)), m.shl(get(x1), 7))),
    set(x0, m.rotl(get(x0), 5)),
    set(x2, m.rotl(get(x2), 22)),
  ];
}

/** The inverse of LT: its steps undone in reverse order. */
function inverseLinear(m: Words, [x0, x1, x2, x3]: string[]): Expr[] {
  return [
    set(x2, m.rotl(get(x2), 32 - 22)),
    set(x0, m.rotl(get(x0), 32 - 5)),
    set(x2, m.xor(m.xor(get(x2), get(x3)), m.shl(get(x1), 7))),
    set(x0, m.xor(m.xor(get(x0), get(x1)), get(x3))),
    set(x3, m.rotl(get(x3), 32 - 7)),
    set(x1, m.rotl(get(x1), 32 - 1)),
    set(x3, m.xor(m.xor(get(x3), get(x2)), m.shl(get(x0), 3))),
    set(x1, m.xor(m.xor(get(x1), get(x0)), get(x2))),
    set(x2, m.rotl(get(x2), 32 - 3)),
    set(x0, m.rotl(get(x0), 32 - 13)),
  ];
}

/**
 * The round key at `key` + `offset` XORed into every group. With two
 * groups the splatted words are loaded once into k0..k3.
 */
function addRoundKey(m: Words, groups: Group[], offset: number): Expr[] {
  if (groups.length === 1) return groups[0].x.map((x, j) => set(x, m.xor(get(x), m.key(get('k'), offset + 4 * j))));
  return [
    ...[0, 1, 2, 3].map((j) => set(`k${j}`, m.key(get('k'), offset + 4 * j))),
    ...interleave(groups.map((g) => g.x.map((x, j) => set(x, m.xor(get(x), get(`k${j}`)))))),
  ];
}

const each = (groups: Group[], f: (g: Group) => Expr[]): Expr[] => interleave(groups.map(f));

/**
 * §2 encryption, 32 rounds: round r XORs K_r, applies S_{r mod 8}, then LT
 * (round 31 XORs K_32 instead). Two groups run all 32 rounds unrolled;
 * one group (a call's last 4 blocks) and the scalar block loop over eight
 * rounds (S0..S7) at a time, local k walking the round keys: unrolling
 * made no difference there, so the smaller code is kept
 * (docs/contributing/performance-history.md#serpent).
 */
function encryptRounds(m: Words, groups: Group[]): Expr[] {
  if (groups.length > 1) {
    const code: Expr[] = [set('k', i32.const(SUBKEYS))];
    for (let r = 0; r < 32; r++) {
      code.push(...addRoundKey(m, groups, 16 * r), ...each(groups, (g) => sbox(m, g, SBOX_CIRCUITS[r % 8])));
      if (r < 31) code.push(...each(groups, (g) => linear(m, g.x)));
    }
    return [...code, ...addRoundKey(m, groups, 16 * 32)];
  }
  const eight: Expr[] = [];
  for (let b = 0; b < 8; b++) {
    eight.push(...each(groups, (g) => sbox(m, g, SBOX_CIRCUITS[b])));
    if (b < 7) eight.push(...each(groups, (g) => linear(m, g.x)), ...addRoundKey(m, groups, 16 * (b + 1)));
  }
  return [
    set('k', i32.const(SUBKEYS)),
    ...addRoundKey(m, groups, 0),
    loopWithExit('rounds', eight, i32.eq(get('k'), i32.const(SUBKEYS + 16 * 24)), [
      ...each(groups, (g) => linear(m, g.x)),
      ...addRoundKey(m, groups, 128),
      set('k', i32.add(get('k'), i32.const(128))),
    ]),
    ...addRoundKey(m, groups, 16 * 8),
  ];
}

/** Decryption: the rounds undone from the last, with the inverse S-boxes and LT^-1. */
function decryptRounds(m: Words, groups: Group[]): Expr[] {
  if (groups.length > 1) {
    const code: Expr[] = [set('k', i32.const(SUBKEYS)), ...addRoundKey(m, groups, 16 * 32)];
    for (let r = 31; r >= 0; r--) {
      if (r < 31) code.push(...each(groups, (g) => inverseLinear(m, g.x)));
      code.push(...each(groups, (g) => sbox(m, g, INVERSE_CIRCUITS[r % 8])), ...addRoundKey(m, groups, 16 * r));
    }
    return code;
  }
  const eight: Expr[] = [];
  for (let b = 7; b >= 0; b--) {
    eight.push(...each(groups, (g) => sbox(m, g, INVERSE_CIRCUITS[b])), ...addRoundKey(m, groups, 16 * b));
    if (b > 0) eight.push(...each(groups, (g) => inverseLinear(m, g.x)));
  }
  return [
    set('k', i32.const(SUBKEYS + 16 * 24)),
    ...addRoundKey(m, groups, 16 * 8),
    loopWithExit('rounds', eight, i32.eq(get('k'), i32.const(SUBKEYS)), [
      ...each(groups, (g) => inverseLinear(m, g.x)),
      set('k', i32.sub(get('k'), i32.const(128))),
    ]),
  ];
}

/** How a mode feeds a group of 4 blocks (at ptr + 64 * index) into the rounds and what it does with the result. */
interface Mode {
  name: string;
  decrypt: boolean;
  /** Sets the group's x words to the rounds' input. */
  load(g: Group, index: number): Expr[];
  /** Uses the rounds' output (the groups' x words) and advances any chaining state. */
  store(groups: Group[]): Expr[];
}

/** Transposition scratch, shared by the groups (used one group at a time). */
const R = regs('r', 4);

/** The four 16-byte blocks at ptr + offset as rows, transposed into x (lane i = block i). */
const loadBlocks = (g: Group, offset: number): Expr[] =>
  transpose4(
    g.x,
    R,
    [0, 1, 2, 3].map((i) => v128.load(get('ptr'), offset + 16 * i)),
  );

/** x transposed back into rows (x[i] = block i's 16 bytes), stored through `write`. */
function storeBlocks(g: Group, write: (row: Expr, i: number) => Expr): Expr[] {
  return [...transpose4(g.x, R, g.x.map(get)), ...g.x.map((x, i) => write(get(x), i))];
}

const ecbMode = (decrypt: boolean): Mode => ({
  name: decrypt ? 'ecb_decrypt' : 'ecb_encrypt',
  decrypt,
  load: (g, index) => loadBlocks(g, 64 * index),
  store: (groups) => groups.flatMap((g, index) => storeBlocks(g, (row, i) => v128.store(get('ptr'), row, 64 * index + 16 * i))),
});

/**
 * CBC decryption (SP 800-38A §6.2): P_i = D(C_i) XOR C_{i-1}, C_{-1} the
 * chaining block at CHAIN. Blocks are written last to first, so each
 * C_{i-1} is still in memory when block i is written; the last ciphertext
 * block becomes the chaining block.
 */
const cbcDecryptMode: Mode = {
  name: 'cbc_decrypt',
  decrypt: true,
  load: (g, index) => loadBlocks(g, 64 * index),
  store: (groups) => {
    const blocks = 4 * groups.length;
    const code: Expr[] = [set('chain', v128.load(get('ptr'), 16 * (blocks - 1)))];
    for (let index = groups.length - 1; index >= 0; index--) {
      const g = groups[index];
      code.push(...transpose4(g.x, R, g.x.map(get)));
      for (let i = 3; i >= 0; i--) {
        const b = 4 * index + i;
        const previous = b === 0 ? v128.load(i32.const(CHAIN)) : v128.load(get('ptr'), 16 * (b - 1));
        code.push(v128.store(get('ptr'), v128.xor(get(g.x[i]), previous), 16 * b));
      }
    }
    code.push(v128.store(i32.const(CHAIN), get('chain')));
    return code;
  },
};

/** The 128-bit counter at CHAIN, as little-endian words c0 (least significant) .. c3. */
const counterWord = (w: number): Expr => v128.splat32(i32.const(CHAIN), 4 * w);
/** Each lane's 32-bit word byte-reversed: counter words are big-endian in the block (SP 800-38A §B.1). */
const byteSwap = (a: Expr): Expr => v128.shuffle([3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12], a);

/**
 * CTR (SP 800-38A §6.5): lane i of group `index` encrypts counter +
 * 4 * index + i, the carry rippling up the words where a lane's low word
 * wrapped (i32x4.lt_u and i32x4.eq give -1 where true). Block word X_j is
 * counter word 3 - j byte-reversed. The keystream is XORed into the data
 * after the transpose, in registers.
 */
const ctrMode: Mode = {
  name: 'ctr_xor',
  decrypt: false,
  load: (g, index) => {
    const [c0, c1, c2, c3] = [g.x[3], g.x[2], g.x[1], g.x[0]];
    const carry = R[0];
    const first = 4 * index;
    return [
      set(c0, i32x4.add(counterWord(0), v128.const32(first, first + 1, first + 2, first + 3))),
      set(carry, i32x4.ltU(get(c0), counterWord(0))),
      set(c1, i32x4.sub(counterWord(1), get(carry))),
      set(carry, v128.and(get(carry), i32x4.eq(get(c1), v128.const32(0, 0, 0, 0)))),
      set(c2, i32x4.sub(counterWord(2), get(carry))),
      set(carry, v128.and(get(carry), i32x4.eq(get(c2), v128.const32(0, 0, 0, 0)))),
      set(c3, i32x4.sub(counterWord(3), get(carry))),
      ...g.x.map((x) => set(x, byteSwap(get(x)))),
    ];
  },
  store: (groups) => {
    const xorInto = (at: number, row: Expr) => v128.store(get('ptr'), v128.xor(v128.load(get('ptr'), at), row), at);
    // The 128-bit counter advances by 4 per group, carrying from the low 64 bits into the high; it wraps at 2^128.
    const n = 4 * groups.length;
    return [
      ...groups.flatMap((g, index) => storeBlocks(g, (row, i) => xorInto(64 * index + 16 * i, row))),
      set('low', i64.add(i64.load(i32.const(CHAIN)), i64.const(n))),
      i64.store(i32.const(CHAIN), get('low')),
      i64.store(i32.const(CHAIN), i64.add(i64.load(i32.const(CHAIN), 8), i64.extend(i64.ltU(get('low'), i64.const(n)))), 8),
    ];
  },
};

const GROUP_NAMES = ['a', 'b'];

/**
 * <name>_group<n>(ptr, mode): n groups of 4 blocks at ptr, in place,
 * loaded and stored as `modes`[mode] does; `modes` run the same direction
 * and share this one copy of its rounds, with a branch on the (public)
 * mode before and after them.
 *
 * ECB and CBC decryption share theirs, which makes the module a fifth
 * smaller at the same speed; sharing more made CTR slower in
 * JavaScriptCore (docs/contributing/performance-history.md#serpent).
 */
function groupFunction(modes: Mode[], count: number): string {
  const decrypt = modes[0].decrypt;
  const groups = GROUP_NAMES.slice(0, count).map(group);
  const rounds = decrypt ? decryptRounds(vectorWords, groups) : encryptRounds(vectorWords, groups);
  const byMode = (part: (m: Mode) => Expr[]): Expr =>
    choose(
      get('mode'),
      modes.map((m) => part(m).join('\n')),
    );
  return func({
    name: groupName(modes, count),
    params: [
      ['ptr', 'i32'],
      ['mode', 'i32'],
    ],
    locals: {
      ...Object.assign({}, ...groups.map((g) => groupLocals(g, 'v128'))),
      ...declare([...R, ...regs('k', 4), 'chain'], 'v128'),
      k: 'i32',
      low: 'i64',
    },
    body: [byMode((m) => groups.flatMap((g, i) => m.load(g, i))), ...rounds, byMode((m) => m.store(groups))],
  });
}

const groupName = (modes: Mode[], count: number) => `${modes.length === 1 ? modes[0].name : modes[0].decrypt ? 'decrypt' : 'encrypt'}_group${count}`;

/**
 * <mode>(ptr, len): pairs of groups while 128 bytes remain, then one
 * group while 64 do; a last 16..48 bytes (or, for CTR, 1..63) run as one
 * group over a zero-padded copy in TAIL. Only a call's last slice has such
 * a remainder, so what the padding does to the chaining state never matters.
 */
function driver(modes: Mode[], index: number): string {
  const mode = modes[index];
  const callGroup = (count: number, ptr: Expr) => call(groupName(modes, count), ptr, i32.const(index));
  const step = (count: number) => [
    callGroup(count, get('ptr')),
    set('ptr', i32.add(get('ptr'), i32.const(64 * count))),
    set('len', i32.sub(get('len'), i32.const(64 * count))),
  ];
  return func({
    name: mode.name,
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    body: [
      whileLoop('pair', i32.geU(get('len'), i32.const(128)), step(2)),
      whileLoop('group', i32.geU(get('len'), i32.const(64)), step(1)),
      ifThen(get('len'), [
        memoryCopy(i32.const(TAIL), get('ptr'), get('len')),
        memoryFill(i32.add(i32.const(TAIL), get('len')), i32.sub(i32.const(64), get('len'))),
        callGroup(1, i32.const(TAIL)),
        memoryCopy(get('ptr'), i32.const(TAIL), get('len')),
        memoryFill(i32.const(TAIL), i32.const(64)),
      ]),
    ],
  });
}

/**
 * cbc_encrypt(ptr, len): C_i = E(P_i XOR C_{i-1}) (SP 800-38A §6.2), one
 * block at a time since each needs the one before; on i32 words, whose
 * rotations are single instructions. The chaining block stays in the
 * four state words from block to block.
 */
function cbcEncrypt(): string {
  const g = group('s');
  return func({
    name: 'cbc_encrypt',
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    locals: { ...groupLocals(g, 'i32'), k: 'i32' },
    body: [
      ...g.x.map((x, j) => set(x, i32.load(i32.const(CHAIN), 4 * j))),
      whileLoop('block', get('len'), [
        ...g.x.map((x, j) => set(x, i32.xor(get(x), i32.load(get('ptr'), 4 * j)))),
        ...encryptRounds(scalarWords, [g]),
        ...g.x.map((x, j) => i32.store(get('ptr'), get(x), 4 * j)),
        set('ptr', i32.add(get('ptr'), i32.const(16))),
        set('len', i32.sub(get('len'), i32.const(16))),
      ]),
      ...g.x.map((x, j) => i32.store(i32.const(CHAIN), get(x), 4 * j)),
    ],
  });
}

/**
 * schedule(): the key schedule (§2.2, bitslice form) from the padded key at
 * KEY. The prekey w_i = (w_{i-8} ^ w_{i-5} ^ w_{i-3} ^ w_{i-1} ^ PHI ^ i) <<< 11
 * is unrolled, each word in a local (only w_{i-1} is on the critical path),
 * and stored for the second pass: K_i = S_{(3 - i) mod 8}(w_{4i}, .., w_{4i+3}).
 * Keys i, i + 8, i + 16, i + 24 use the same S-box, so they go through it
 * together as the four lanes of one group (K_32 with K_0's S-box, alone).
 */
function schedule(): string {
  const g = group('a');
  const w = regs('w', 140); // w[i + 8] is the specification's w_i
  const at = (i: number) => KEY + 4 * i;
  const prekey: Expr[] = w.slice(0, 8).map((n, i) => set(n, i32.load(i32.const(at(i)))));
  for (let i = 8; i < 140; i++) {
    const mix = i32.xor(i32.xor(get(w[i - 8]), get(w[i - 5])), i32.xor(get(w[i - 3]), i32.const(PHI ^ (i - 8))));
    prekey.push(set(w[i], i32.rotl(i32.xor(mix, get(w[i - 1])), 11)), i32.store(i32.const(at(i)), get(w[i])));
  }
  const subkeys = (keys: number[]): Expr[] => [
    ...transpose4(
      g.x,
      R,
      keys.map((i) => v128.load(i32.const(at(8 + 4 * i)))),
    ),
    ...sbox(vectorWords, g, SBOX_CIRCUITS[(((3 - keys[0]) % 8) + 8) % 8]),
    ...transpose4(g.x, R, g.x.map(get)),
    ...keys.map((i, lane) => v128.store(i32.const(SUBKEYS + 16 * i), get(g.x[lane]))),
  ];
  return func({
    name: 'schedule',
    exported: true,
    locals: { ...groupLocals(g, 'v128'), ...declare(R, 'v128'), ...declare(w, 'i32') },
    body: [...prekey, ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => subkeys([i, i + 8, i + 16, i + 24])), ...subkeys([32, 32, 32, 32])],
  });
}

/** The parallel modes run two groups (8 blocks) an iteration while 128 bytes remain, much faster than one (docs/contributing/performance-history.md#serpent). */
export function serpentModule(): string {
  const families = [[ecbMode(false)], [ctrMode], [ecbMode(true), cbcDecryptMode]];
  return module(PAGES, [
    schedule(),
    ...families.flatMap((modes) => [groupFunction(modes, 1), groupFunction(modes, 2)]),
    ...families.flatMap((modes) => modes.map((_, i) => driver(modes, i))),
    cbcEncrypt(),
    wipeFunction(TAIL),
  ]);
}
