/**
 * The S-box circuits (src/serpent/sboxes.ts), which the kernel generator
 * emits, and their JavaScript form (js-sboxes.ts), which the pure-JS tier
 * runs, each checked on all 16 inputs against the specification's tables,
 * in bitslice form: truth tables of the four inputs go in, and output bit
 * j of S[v] must be bit v of output j.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, inverse, INVERSE_CIRCUITS, INVERSE_FUNCTIONS, type Logic, parseGates, SBOX_CIRCUITS, SBOX_FUNCTIONS, SBOXES } from '../internal.js';

/** x_j as a truth table over the 16 nibbles v (bit v = bit j of v), in a 32-bit word (two copies). */
const INPUTS = [0, 1, 2, 3].map((j) => {
  let t = 0;
  for (let v = 0; v < 16; v++) if ((v >> j) & 1) t |= 1 << v;
  return t | (t << 16) | 0;
});

function outputsOf(table: readonly number[]): number[] {
  return [0, 1, 2, 3].map((j) => {
    let t = 0;
    for (let v = 0; v < 16; v++) if ((table[v]! >> j) & 1) t |= 1 << v;
    return t | (t << 16) | 0;
  });
}

const words: Logic<number> = {
  and: (a, b) => a & b,
  or: (a, b) => a | b,
  xor: (a, b) => a ^ b,
  andnot: (a, b) => a & ~b,
  not: (a) => ~a,
};

const CASES = [
  ...SBOXES.map((table, i) => ({ name: `S${i}`, table, circuit: SBOX_CIRCUITS[i]!, fn: SBOX_FUNCTIONS[i]! })),
  ...SBOXES.map((table, i) => ({ name: `S${i}^-1`, table: inverse(table), circuit: INVERSE_CIRCUITS[i]!, fn: INVERSE_FUNCTIONS[i]! })),
];

it("the tables are the specification's permutations and inverse() inverts them", () => {
  for (const table of SBOXES) {
    assert.deepEqual(
      [...table].sort((a, b) => a - b),
      [...Array(16).keys()],
    );
    const inv = inverse(table);
    for (let v = 0; v < 16; v++) assert.equal(inv[table[v]!], v);
  }
  assert.deepEqual(SBOXES[0], [3, 8, 15, 1, 10, 6, 5, 11, 14, 13, 4, 2, 7, 0, 9, 12]);
});

for (const { name, table, circuit, fn } of CASES) {
  it(`${name}: the circuit computes the table on all 16 inputs`, () => {
    assert.deepEqual(evaluate(circuit, words, INPUTS), outputsOf(table));
  });

  it(`${name}: the JavaScript function computes the table on all 16 inputs`, () => {
    const r = Int32Array.from(INPUTS);
    fn(r);
    assert.deepEqual([...r], outputsOf(table));
  });

  it(`${name}: well formed (each gate defines a new temporary, reads only defined names; outputs are gates)`, () => {
    const defined = new Set(['x0', 'x1', 'x2', 'x3']);
    for (const g of parseGates(circuit)) {
      assert.ok(defined.has(g.a) && defined.has(g.b), `${g.target} reads an undefined name`);
      assert.ok(!defined.has(g.target), `${g.target} defined twice`);
      defined.add(g.target);
    }
    assert.ok(circuit.outputs.every((o: string) => o.startsWith('t') && defined.has(o)));
  });
}

it('a wrong circuit is detected: one flipped gate changes the outputs', () => {
  const broken = { ...SBOX_CIRCUITS[0]!, gates: SBOX_CIRCUITS[0]!.gates.replace('^', '|') };
  assert.notDeepEqual(evaluate(broken, words, INPUTS), outputsOf(SBOXES[0]!));
  assert.throws(() => parseGates({ gates: 't0 = x0 + x1;', outputs: [] }), /not a gate/);
  assert.throws(() => evaluate({ gates: 't0 = x0 ^ t5;', outputs: ['t0'] }, words, INPUTS), /before defining/);
});
