/**
 * Serpent's S-boxes as Boolean circuits (bitslice form, Serpent
 * specification §2.1 and appendix A.5): word X_j holds bit j of all 32
 * S-box inputs of a round (X0 the least significant), so one gate computes
 * a bit of 32 S-boxes at once, with no table and nothing that depends on
 * secret data for branches or addresses.
 *
 * Each circuit reads x0..x3 and defines t0, t1, ... one gate at a time;
 * `outputs` names where y0..y3 end up. The gates are and (&), or (|), xor
 * (^), andnot (a &~ b = a AND NOT b) and not (~): each one WebAssembly SIMD
 * instruction. scripts/serpent-sboxes.ts derived them from the tables
 * (tables.ts) by a randomized greedy search, and test/serpent/sboxes.test.ts
 * checks every circuit on all 16 inputs.
 */

/** A straight-line program: `tN = a OP b;` or `tN = ~a;`, in order. */
export interface Circuit {
  readonly gates: string;
  readonly outputs: readonly string[];
}

/** The S-boxes S0..S7 (round r uses S_{r mod 8}). */
export const SBOX_CIRCUITS: readonly Circuit[] = [
  // S0: 18 gates
  {
    gates: `
      t0 = x0 | x3; t1 = x1 ^ t0; t2 = x2 ^ t1; t3 = x0 | t2; t4 = x0 & x2; t5 = ~t1; t6 = x0 ^ t3;
      t7 = x0 ^ x3; t8 = t1 &~ t7; t9 = t5 &~ x3; t10 = t4 ^ t9; t11 = x2 | t8; t12 = t10 ^ t11; t13 = ~t6;
      t14 = t7 ^ t11; t15 = t13 ^ t14; t16 = t12 | t15; t17 = t5 ^ t16;
    `,
    outputs: ['t12', 't15', 't17', 't2'],
  },
  // S1: 17 gates
  {
    gates: `
      t0 = x0 ^ x2; t1 = ~t0; t2 = x3 ^ t1; t3 = x0 | x1; t4 = t2 ^ t3; t5 = x1 &~ x3; t6 = x1 ^ x3;
      t7 = t4 &~ x2; t8 = t2 | t7; t9 = x0 &~ t6; t10 = t8 &~ t9; t11 = t5 | t9; t12 = x2 ^ t11;
      t13 = t10 ^ t12; t14 = x1 | t9; t15 = t1 | t13; t16 = t14 ^ t15;
    `,
    outputs: ['t16', 't10', 't4', 't13'],
  },
  // S2: 16 gates
  {
    gates: `
      t0 = x2 &~ x0; t1 = x1 ^ t0; t2 = x3 ^ t1; t3 = x0 & x3; t4 = x2 ^ t2; t5 = ~x0; t6 = t2 ^ t5;
      t7 = t4 &~ x1; t8 = t6 ^ t7; t9 = t1 &~ t4; t10 = ~t9; t11 = t3 | t6; t12 = t10 ^ t11; t13 = t3 ^ t7;
      t14 = t0 ^ t12; t15 = t13 ^ t14;
    `,
    outputs: ['t2', 't15', 't12', 't8'],
  },
  // S3: 19 gates
  {
    gates: `
      t0 = x0 | x2; t1 = x1 ^ t0; t2 = x0 &~ x2; t3 = x3 ^ t2; t4 = x0 & x3; t5 = t0 &~ t3; t6 = t1 | t4;
      t7 = t5 ^ t6; t8 = x0 ^ t7; t9 = t1 | t3; t10 = t8 ^ t9; t11 = x1 & x3; t12 = t4 ^ t11; t13 = t9 ^ t12;
      t14 = x1 ^ t3; t15 = x2 ^ t11; t16 = t8 & t15; t17 = t12 | t14; t18 = t16 ^ t17;
    `,
    outputs: ['t18', 't7', 't10', 't13'],
  },
  // S4: 18 gates
  {
    gates: `
      t0 = x1 ^ x3; t1 = x2 | t0; t2 = x1 ^ x2; t3 = x0 | t0; t4 = t1 &~ x3; t5 = x0 ^ x1; t6 = t0 &~ t5;
      t7 = t2 ^ t6; t8 = ~t7; t9 = t7 &~ x1; t10 = x0 ^ t9; t11 = t0 ^ t10; t12 = x2 & t10; t13 = t5 &~ t4;
      t14 = t12 | t13; t15 = x3 ^ t3; t16 = t7 &~ t12; t17 = t15 ^ t16;
    `,
    outputs: ['t8', 't17', 't14', 't11'],
  },
  // S5: 17 gates
  {
    gates: `
      t0 = x1 &~ x3; t1 = ~x1; t2 = x0 ^ t1; t3 = x2 | x3; t4 = t0 | t2; t5 = t3 ^ t4; t6 = t2 &~ x3;
      t7 = x0 &~ x1; t8 = x2 ^ t7; t9 = t6 ^ t8; t10 = x1 ^ t8; t11 = t9 & t10; t12 = x3 ^ t2;
      t13 = t11 ^ t12; t14 = x0 ^ t8; t15 = t12 &~ t11; t16 = t14 ^ t15;
    `,
    outputs: ['t9', 't5', 't13', 't16'],
  },
  // S6: 17 gates
  {
    gates: `
      t0 = ~x1; t1 = x0 & x3; t2 = x2 ^ t1; t3 = t0 ^ t2; t4 = x1 & t2; t5 = x0 ^ t3; t6 = x1 | t3;
      t7 = t5 & t6; t8 = x3 | t4; t9 = t7 ^ t8; t10 = t3 & t9; t11 = x1 ^ t7; t12 = x3 ^ t11; t13 = t5 ^ t10;
      t14 = t12 ^ t13; t15 = t14 &~ t9; t16 = t2 ^ t15;
    `,
    outputs: ['t9', 't3', 't14', 't16'],
  },
  // S7: 21 gates
  {
    gates: `
      t0 = x2 ^ x3; t1 = x1 & x2; t2 = x0 ^ x3; t3 = t0 | t1; t4 = x3 &~ x1; t5 = t1 ^ t2; t6 = x0 | x2;
      t7 = x1 ^ t6; t8 = x0 &~ t5; t9 = t7 ^ t8; t10 = t2 &~ t7; t11 = ~t10; t12 = t3 ^ t11; t13 = t0 | t2;
      t14 = x2 &~ t10; t15 = x1 ^ t14; t16 = x0 | t4; t17 = t15 ^ t16; t18 = t5 ^ t15; t19 = t0 ^ t13;
      t20 = t18 &~ t19;
    `,
    outputs: ['t12', 't20', 't17', 't9'],
  },
];

/** The inverse S-boxes' circuits, for decryption (same derivation). */
export const INVERSE_CIRCUITS: readonly Circuit[] = [
  // I0: 17 gates
  {
    gates: `
      t0 = x3 &~ x1; t1 = x0 ^ x1; t2 = ~x0; t3 = x2 ^ x3; t4 = t2 &~ x1; t5 = t3 ^ t4; t6 = t2 &~ x3;
      t7 = t5 &~ t6; t8 = t7 &~ t0; t9 = x2 ^ t8; t10 = t1 ^ t9; t11 = t0 | t2; t12 = t3 &~ t10;
      t13 = t11 ^ t12; t14 = x2 ^ t0; t15 = t10 | t13; t16 = t14 ^ t15;
    `,
    outputs: ['t16', 't10', 't5', 't13'],
  },
  // I1: 17 gates
  {
    gates: `
      t0 = x3 &~ x1; t1 = x0 ^ t0; t2 = x2 ^ t1; t3 = x3 ^ t2; t4 = x1 ^ x3; t5 = t1 & t4; t6 = ~x0;
      t7 = x2 &~ t5; t8 = x1 ^ t7; t9 = x3 & t2; t10 = t8 ^ t9; t11 = ~t3; t12 = t5 ^ t10; t13 = t11 ^ t12;
      t14 = t10 &~ t13; t15 = t6 ^ t14; t16 = t0 ^ t15;
    `,
    outputs: ['t13', 't10', 't16', 't2'],
  },
  // I2: 17 gates
  {
    gates: `
      t0 = x1 & x2; t1 = x1 ^ x2; t2 = x2 | x3; t3 = x3 &~ t1; t4 = x1 ^ t3; t5 = x0 ^ t2; t6 = t0 ^ t5;
      t7 = t4 ^ t6; t8 = x3 ^ t1; t9 = t4 & t6; t10 = t8 ^ t9; t11 = t4 ^ t10; t12 = x0 ^ t11; t13 = ~t12;
      t14 = t13 &~ t6; t15 = t12 &~ t4; t16 = t14 | t15;
    `,
    outputs: ['t7', 't10', 't13', 't16'],
  },
  // I3: 16 gates
  {
    gates: `
      t0 = x1 &~ x2; t1 = x0 &~ t0; t2 = x3 ^ t0; t3 = x0 ^ t2; t4 = x1 ^ x2; t5 = x3 | t3; t6 = t4 ^ t5;
      t7 = t4 | t5; t8 = x2 ^ t3; t9 = t7 ^ t8; t10 = t6 | t8; t11 = t1 ^ t10; t12 = x3 | t1; t13 = t9 ^ t12;
      t14 = x1 | t11; t15 = t13 ^ t14;
    `,
    outputs: ['t6', 't11', 't9', 't15'],
  },
  // I4: 17 gates
  {
    gates: `
      t0 = x2 ^ x3; t1 = x0 & x1; t2 = x2 | x3; t3 = t0 ^ t1; t4 = x0 & t2; t5 = t3 ^ t4; t6 = x1 ^ t4;
      t7 = t5 &~ x3; t8 = t6 ^ t7; t9 = x2 &~ t8; t10 = x0 ^ x3; t11 = t5 | t10; t12 = ~t11; t13 = t6 ^ t12;
      t14 = t4 | t9; t15 = t13 &~ t5; t16 = t14 ^ t15;
    `,
    outputs: ['t13', 't5', 't16', 't8'],
  },
  // I5: 16 gates
  {
    gates: `
      t0 = x1 ^ x2; t1 = x1 &~ x2; t2 = x0 & x3; t3 = t0 ^ t2; t4 = x0 ^ x3; t5 = x1 &~ t3; t6 = t4 ^ t5;
      t7 = ~t3; t8 = x0 & t1; t9 = t7 ^ t8; t10 = x0 &~ t9; t11 = x1 ^ t6; t12 = t10 ^ t11; t13 = t6 | t12;
      t14 = x3 ^ t13; t15 = t3 ^ t14;
    `,
    outputs: ['t6', 't12', 't15', 't9'],
  },
  // I6: 16 gates
  {
    gates: `
      t0 = x0 ^ x3; t1 = x1 ^ t0; t2 = ~t1; t3 = x0 | x2; t4 = t2 ^ t3; t5 = t3 &~ x3; t6 = x2 ^ t5;
      t7 = x0 & t6; t8 = t2 &~ t5; t9 = t7 | t8; t10 = t5 | t9; t11 = x1 ^ t7; t12 = t10 ^ t11;
      t13 = t0 ^ t3; t14 = t9 &~ t11; t15 = t13 ^ t14;
    `,
    outputs: ['t12', 't4', 't15', 't9'],
  },
  // I7: 19 gates
  {
    gates: `
      t0 = ~x1; t1 = x0 & x3; t2 = x3 ^ t0; t3 = x1 ^ t1; t4 = x2 | x3; t5 = t4 &~ t3; t6 = x2 ^ t2;
      t7 = t1 | t5; t8 = x0 ^ t6; t9 = t7 ^ t8; t10 = t1 | t9; t11 = t4 ^ t10; t12 = x1 ^ t11;
      t13 = t4 &~ t9; t14 = x3 ^ t13; t15 = t3 ^ t14; t16 = t8 &~ t15; t17 = t10 ^ t14; t18 = t16 ^ t17;
    `,
    outputs: ['t9', 't12', 't15', 't18'],
  },
];

export type GateOp = 'and' | 'or' | 'xor' | 'andnot' | 'not';

/** One parsed gate: `target = op(a, b)` (for not, only `a`). */
export interface Gate {
  readonly target: string;
  readonly op: GateOp;
  readonly a: string;
  readonly b: string;
}

const OPERATORS: Record<string, GateOp> = { '&': 'and', '|': 'or', '^': 'xor', '&~': 'andnot' };

/** Parses a circuit's gates (they are data, checked once here). */
export function parseGates(circuit: Circuit): Gate[] {
  return circuit.gates.split(';').map((text) => text.trim()).filter((text) => text !== '').map((text) => {
    const not = /^(t\d+) = ~(\w+)$/.exec(text);
    if (not) return { target: not[1], op: 'not', a: not[2], b: not[2] };
    const binary = /^(t\d+) = (\w+) (&~|&|\||\^) (\w+)$/.exec(text);
    if (!binary) throw new Error(`not a gate: ${text}`);
    return { target: binary[1], op: OPERATORS[binary[3]], a: binary[2], b: binary[4] };
  });
}

/** What a circuit's gates compute on: machine words, vectors or emitted code. */
export interface Logic<V> {
  and(a: V, b: V): V;
  or(a: V, b: V): V;
  xor(a: V, b: V): V;
  /** a AND NOT b. */
  andnot(a: V, b: V): V;
  not(a: V): V;
}

/**
 * Runs `circuit` on inputs x0..x3 with `logic`; `define` turns each gate's
 * value into what later gates read (identity for numbers; a local for
 * emitted code). Returns y0..y3.
 */
export function evaluate<V>(circuit: Circuit, logic: Logic<V>, x: readonly V[], define: (name: string, value: V) => V = (_, v) => v): V[] {
  const values = new Map<string, V>(x.map((v, i) => [`x${i}`, v]));
  const read = (name: string): V => {
    const v = values.get(name);
    if (v === undefined) throw new Error(`circuit reads ${name} before defining it`);
    return v;
  };
  for (const g of parseGates(circuit)) {
    const value = g.op === 'not' ? logic.not(read(g.a)) : logic[g.op](read(g.a), read(g.b));
    values.set(g.target, define(g.target, value));
  }
  return circuit.outputs.map(read);
}
