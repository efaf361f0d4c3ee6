/**
 * npm run fuzz: the differential fuzzing's long run. Runs every property
 * of test/fuzz/ (or --only's) on every tier it has, round-robin, a round
 * of each at a time, until --minutes are up; prints the seed first (a
 * random one unless --seed gives it), the cases each property ran at the
 * end, and on a failure the command that replays it, with fast-check's
 * report (the seed, the path and the shrunk counterexample), exiting 1.
 *
 *   npm run fuzz -- --minutes=30 [--seed=S] [--only=name[,name]]
 *   npm run fuzz -- --only=name --tier=T --seed=S --path=P   (replays one failure)
 */
import * as P from 'fourfold/parallel';
import type { CallTier } from '../test/helpers.js';
import { PROPERTIES, runProperty, seedOf } from '../test/fuzz/runner.js';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const m = /^--([\w-]+)=(.*)$/.exec(a);
    if (m === null) throw new Error(`an argument this command does not take: ${a} (--minutes=N, --seed=S, --only=name, --tier=T, --path=P)`);
    return [m[1]!, m[2]!];
  }),
) as Record<string, string | undefined>;

const minutes = Number(args.minutes ?? 5);
const seed = args.seed === undefined ? crypto.getRandomValues(new Int32Array(1))[0]! : Number(args.seed);
if (!Number.isInteger(seed) || !(minutes > 0)) throw new Error('--seed is an integer, --minutes a positive number');
const only = args.only?.split(',');
const chosen = PROPERTIES.filter((p) => only === undefined || only.includes(p.name));
if (chosen.length === 0) throw new Error(`no property named ${args.only}: ${PROPERTIES.map((p) => p.name).join(', ')}`);

console.log(`fuzz seed: ${seed} (npm run fuzz -- --seed=${seed}${args.only ? ` --only=${args.only}` : ''})`);

/** A failure's replay: one property, one tier, its seed and fast-check's path to the shrunk case. */
if (args.path !== undefined) {
  const p = chosen[0]!;
  const tier = (args.tier ?? p.tiers[0]) as CallTier;
  const outcome = await runProperty(p, tier, { seed, cases: 1_000_000, path: args.path });
  console.log(outcome.failure ?? `${p.name} (${tier}): the case passes`);
  P.terminate();
  process.exit(outcome.failure === undefined ? 0 : 1);
}

const deadline = Date.now() + minutes * 60_000;
const counts = new Map<string, number>();
let failed = false;
for (let round = 0; Date.now() < deadline && !failed; round++) {
  for (const [index, p] of PROPERTIES.entries()) {
    if (!chosen.includes(p)) continue;
    for (const tier of p.tiers) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const s = seedOf(seed, index, tier, round);
      // A round runs a property's npm test budget; the last one stops at the deadline.
      const outcome = await runProperty(p, tier, { seed: s, cases: p.cases, millis: left });
      counts.set(`${p.name} (${tier})`, (counts.get(`${p.name} (${tier})`) ?? 0) + outcome.cases);
      if (outcome.failure !== undefined) {
        failed = true;
        const path = /path: "([\d:]*)"/.exec(outcome.failure)?.[1];
        console.log(`\nFAILED: ${p.name} on the ${tier} tier, round ${round} of the run from seed ${seed}`);
        console.log(`replay: npm run fuzz -- --only=${p.name} --tier=${tier} --seed=${s}${path === undefined ? '' : ` --path=${path}`}`);
        console.log(outcome.failure);
        break;
      }
    }
    if (failed) break;
  }
}
console.log(`\ncases per property (seed ${seed}, ${minutes} min):`);
for (const [name, n] of counts) console.log(`  ${name.padEnd(40)} ${n}`);
P.terminate();
process.exit(failed ? 1 : 0);
