/**
 * fourfold/sodium against libsodium-wrappers, random programs of calls
 * (test/sodium/programs.ts): the calls as fourfold/sodium declares them
 * (test/sodium/program-calls.ts, what npm test runs), or as libsodium.js's
 * own descriptions have them (wrapper/symbols/*.json of jedisct1/libsodium.js,
 * outside the repository) when --symbols names that folder.
 *
 *   npx tsx scripts/sodium-differential.ts [--symbols=DIR] [--calls=N] [--seed=S] [--peer=MODULE]
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
import { type CallDescription, type CallInput, describeCalls } from '../test/sodium/program-calls.js';
import { type Lib, runPrograms } from '../test/sodium/programs.js';

/** An input of libsodium.js's descriptions: lengths and bounds as expressions of its constant functions. */
interface SymbolInput {
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
  inputs?: SymbolInput[];
  outputs?: { name?: string; type: string }[];
  return?: string;
}

const argv = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const m = /^--(\w+)=(.*)$/.exec(a);
    if (m === null) throw new Error(`an argument this command does not take: ${a}`);
    return [m[1]!, m[2]!];
  }),
);
const calls = Number(argv.calls ?? 20_000);
const seed = Number(argv.seed ?? Date.now() % 1_000_000);

const lib = ((await import(argv.peer ?? 'libsodium-wrappers-sumo')) as { default: Lib }).default;
await lib.ready;
await fourfold.ready;
const ff = fourfold as unknown as Lib;

/** A length expression of the symbols: libsodium's constant functions, nothing else. */
function evaluate(expr: string | undefined): number | undefined {
  if (expr === undefined) return undefined;
  if (/^\d+$/.test(expr.trim())) return Number(expr);
  const m = /^libsodium\.(_\w+)\(\)$/.exec(expr.trim());
  if (m === null) throw new Error(`a length this script does not read: ${expr}`);
  return (lib.libsodium as Lib)[m[1]!]() as number;
}

/** libsodium.js's description of a call as the programs take it. */
function fromSymbol(s: Symbol): CallDescription {
  const inputs = (s.inputs ?? []).map((i): CallInput => {
    if (i.type.endsWith('_state_address')) return { name: i.name, type: 'state', family: i.type.replace(/_address$/, '') };
    return { name: i.name, type: i.type, length: evaluate(i.length ?? i.min_length), min: evaluate(i.min_value), max: evaluate(i.max_value) };
  });
  const single = s.outputs?.length === 1 ? s.outputs[0]!.name : undefined;
  return {
    name: s.name,
    inputs,
    makesState: s.outputs?.find((o) => o.type.endsWith('_state'))?.type,
    freesState: s.return?.includes('_free_state_address') === true,
    output: single,
  };
}

const descriptions =
  argv.symbols === undefined
    ? describeCalls(ff)
    : readdirSync(argv.symbols)
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(readFileSync(join(argv.symbols!, f), 'utf8')) as Symbol)
        .filter((s) => s.type === 'function')
        .map(fromSymbol);
const shared = descriptions.filter((d) => typeof lib[d.name] === 'function' && typeof ff[d.name] === 'function');
console.log(
  `seed ${seed}, ${calls} calls over ${shared.length} calls of both (${argv.symbols === undefined ? "fourfold/sodium's declarations" : argv.symbols})`,
);
const run = runPrograms(shared, ff, lib, seed, calls);
for (const difference of run.differences) console.log(`DIFFERENCE ${difference}`);
console.log({ calls: run.calls, bothThrew: run.bothThrew, bothReturned: run.bothReturned });
const never = shared.filter((d) => !run.returned.has(d.name)).map((d) => d.name);
console.log(`calls that never returned on both: ${never.join(' ') || 'none'}`);
console.log(`differing messages where both threw (${run.messages.size}):`);
for (const [k, n] of [...run.messages].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${k}`);
console.log(`documented differences (docs/api.md), not failures (${run.documented.size}):`);
for (const [k, n] of [...run.documented].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${k}`);
console.log(run.differences.length === 0 ? 'no difference' : `${run.differences.length} differences`);
process.exit(run.differences.length === 0 ? 0 : 1);
