/**
 * Derives the Boolean circuits of Serpent's eight S-boxes and their
 * inverses (src/serpent/sboxes.ts) from the tables of the Serpent
 * specification (Anderson, Biham, Knudsen, 1998, §2 and appendix A.5).
 *
 * A 4-input function is its 16-bit truth table: bit v is its value on the
 * nibble v = x0 + 2 x1 + 4 x2 + 8 x3 (x0 is the least significant, as in
 * the bitsliced Serpent where word X0 holds every S-box's bit 0). A circuit
 * starts from x0..x3 and adds gates (and, or, xor, andnot = a & ~b, not:
 * each one WebAssembly SIMD instruction) until it holds y0..y3.
 *
 * The search is greedy with random tie-breaking, restarted many times:
 * a target one gate away is taken at once; else the gate that brings the
 * most targets to one gate away; else a gate that is half of a two-gate
 * way to a target. Unused gates are dropped, and the shortest circuit of
 * all restarts is kept. Run: npx tsx scripts/serpent-sboxes.ts [restarts]
 *
 * With --js it instead writes the pure-JS tier's S-box functions
 * (src/serpent/js-sboxes.ts) from the circuits in src/serpent/sboxes.ts:
 * npx tsx scripts/serpent-sboxes.ts --js > src/serpent/js-sboxes.ts
 */
import { SBOXES, inverse } from '../src/serpent/tables.js';
import { INVERSE_CIRCUITS, SBOX_CIRCUITS, parseGates, type Circuit } from '../src/serpent/sboxes.js';

type Op = 'and' | 'or' | 'xor' | 'andnot' | 'not';
interface Gate {
  op: Op;
  a: number;
  b: number;
}

const INPUTS = [0xaaaa, 0xcccc, 0xf0f0, 0xff00];
const MASK = 0xffff;

function apply(op: Op, a: number, b: number): number {
  switch (op) {
    case 'and':
      return a & b;
    case 'or':
      return a | b;
    case 'xor':
      return a ^ b;
    case 'andnot':
      return a & ~b & MASK;
    case 'not':
      return ~a & MASK;
  }
}

function targetsOf(table: readonly number[]): number[] {
  return [0, 1, 2, 3].map((bit) => {
    let t = 0;
    for (let v = 0; v < 16; v++) if ((table[v] >> bit) & 1) t |= 1 << v;
    return t;
  });
}

let seed = 0x9e3779b9;
function random(n: number): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
}
const pick = <T>(xs: T[]): T => xs[random(xs.length)];

/** Every gate on two known values (or one, for not), with what it computes. */
function oneGate(values: number[], known: Set<number>): { value: number; gate: Gate }[] {
  const out: { value: number; gate: Gate }[] = [];
  const seen = new Set<number>();
  const add = (op: Op, a: number, b: number) => {
    const value = apply(op, values[a], values[b]);
    if (known.has(value) || seen.has(value)) return;
    seen.add(value);
    out.push({ value, gate: { op, a, b } });
  };
  for (let a = 0; a < values.length; a++) {
    add('not', a, a);
    for (let b = 0; b < values.length; b++) {
      if (a === b) continue;
      if (a < b) {
        add('and', a, b);
        add('or', a, b);
        add('xor', a, b);
      }
      add('andnot', a, b);
    }
  }
  return out;
}

const OPS2: Op[] = ['and', 'or', 'xor', 'andnot'];

/** One greedy run; returns the gates (indices: 0..3 inputs, 4.. gates) and where each target is. */
function greedy(targets: number[], limit: number): { gates: Gate[]; outputs: number[] } | undefined {
  const values = [...INPUTS];
  const gates: Gate[] = [];
  const known = new Set(values);
  const where = new Map<number, number>(values.map((v, i) => [v, i]));
  while (targets.some((t) => !known.has(t))) {
    if (gates.length >= limit) return undefined;
    const open = targets.filter((t) => !known.has(t));
    const next = oneGate(values, known);
    const direct = next.filter((n) => open.includes(n.value));
    let chosen: { value: number; gate: Gate };
    if (direct.length > 0) chosen = pick(direct);
    else {
      // Targets one gate away once `g` is known.
      const score = (g: number) => {
        let s = 0;
        for (const t of open) {
          let near = (~g & MASK) === t;
          for (let i = 0; i < values.length && !near; i++)
            for (const op of OPS2) if (apply(op, g, values[i]) === t || apply(op, values[i], g) === t) near = true;
          if (near) s++;
        }
        return s;
      };
      let best = 0,
        bests: typeof next = [];
      for (const n of next) {
        const s = score(n.value);
        if (s > best) {
          best = s;
          bests = [n];
        } else if (s === best && s > 0) bests.push(n);
      }
      if (best > 0) chosen = pick(bests);
      else {
        // Halves of two-gate ways: t = op(p, q) with p, q both one gate away.
        const level = new Set(next.map((n) => n.value));
        const halves: typeof next = [];
        for (const t of open)
          for (const p of next)
            for (const op of OPS2) {
              for (const q of next) {
                if (apply(op, p.value, q.value) === t && level.has(q.value)) {
                  halves.push(p);
                  break;
                }
              }
            }
        chosen = halves.length > 0 ? pick(halves) : pick(next);
      }
    }
    known.add(chosen.value);
    where.set(chosen.value, values.length);
    values.push(chosen.value);
    gates.push(chosen.gate);
  }
  return { gates, outputs: targets.map((t) => where.get(t)!) };
}

/** Drops gates nothing uses and renumbers the rest. */
function prune(c: { gates: Gate[]; outputs: number[] }): { gates: Gate[]; outputs: number[] } {
  const used = new Set(c.outputs);
  for (let i = c.gates.length - 1; i >= 0; i--) {
    if (!used.has(i + 4)) continue;
    used.add(c.gates[i].a);
    used.add(c.gates[i].b);
  }
  const index = new Map<number, number>([
    [0, 0],
    [1, 1],
    [2, 2],
    [3, 3],
  ]);
  const gates: Gate[] = [];
  c.gates.forEach((g, i) => {
    if (!used.has(i + 4)) return;
    index.set(i + 4, gates.length + 4);
    gates.push({ op: g.op, a: index.get(g.a)!, b: index.get(g.b)! });
  });
  return { gates, outputs: c.outputs.map((o) => index.get(o)!) };
}

/** A gate input's name: the S-box's inputs x0..x3, then the temporaries. */
const wire = (i: number) => (i < 4 ? `x${i}` : `t${i - 4}`);
const SYMBOL: Record<Op, string> = { and: '&', or: '|', xor: '^', andnot: '&~', not: '~' };

function render(c: { gates: Gate[]; outputs: number[] }): string[] {
  return c.gates.map((g, i) => (g.op === 'not' ? `t${i} = ~${wire(g.a)}` : `t${i} = ${wire(g.a)} ${SYMBOL[g.op]} ${wire(g.b)}`));
}

function jsFunction(name: string, circuit: Circuit): string {
  const expr = (g: ReturnType<typeof parseGates>[number]) =>
    g.op === 'not' ? `~${g.a}` : g.op === 'andnot' ? `${g.a} & ~${g.b}` : `${g.a} ${{ and: '&', or: '|', xor: '^' }[g.op]} ${g.b}`;
  const gates = parseGates(circuit).map((g) => `${g.target} = ${expr(g)}`);
  const lines: string[] = [];
  for (let i = 0; i < gates.length; i += 6) lines.push(`  const ${gates.slice(i, i + 6).join(', ')};`);
  return [
    `export function ${name}(r: Int32Array): void {`,
    '  const x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];',
    ...lines,
    `  ${circuit.outputs.map((o, j) => `r[${j}] = ${o};`).join(' ')}`,
    '}',
  ].join('\n');
}

function printJs(): void {
  console.log(`/**
 * The S-box circuits of sboxes.ts as JavaScript functions on the four words
 * r[0..3], for the pure-JS tier. Written by scripts/serpent-sboxes.ts --js
 * from sboxes.ts; test/serpent/sboxes.test.ts checks both against the tables.
 */
`);
  console.log(SBOX_CIRCUITS.map((c, i) => jsFunction(`s${i}`, c)).join('\n\n'));
  console.log();
  console.log(INVERSE_CIRCUITS.map((c, i) => jsFunction(`si${i}`, c)).join('\n\n'));
  console.log('\n/** S0..S7, then their inverses. */');
  console.log('export const SBOX_FUNCTIONS = [s0, s1, s2, s3, s4, s5, s6, s7];');
  console.log('export const INVERSE_FUNCTIONS = [si0, si1, si2, si3, si4, si5, si6, si7];');
}

if (process.argv[2] === '--js') printJs();
else search();

function search(): void {
  const restarts = Number(process.argv[2] ?? 2000);
  const boxes = [...SBOXES.map((s, i) => [`S${i}`, s] as const), ...SBOXES.map((s, i) => [`I${i}`, inverse(s)] as const)];
  for (const [label, table] of boxes) {
    const targets = targetsOf(table);
    let best: { gates: Gate[]; outputs: number[] } | undefined;
    for (let r = 0; r < restarts; r++) {
      const c = greedy(targets, best ? best.gates.length + 4 : 60);
      if (c === undefined) continue;
      const p = prune(c);
      if (best === undefined || p.gates.length < best.gates.length) best = p;
    }
    console.log(`  // ${label}: ${best!.gates.length} gates`);
    console.log(`  ${label}: { gates: ${JSON.stringify(render(best!))}, outputs: ${JSON.stringify(best!.outputs.map(wire))} },`);
  }
}
