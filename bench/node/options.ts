/**
 * Command-line options of `npm run bench`, each overriding its part of a
 * profile (node/profiles.ts).
 */
import { NATIVE, NODE_CONTRACT, NODE_JOINED, PARALLEL, workerColumn } from '../core/libraries.js';
import { parts, type BenchConfig, type Part } from '../core/types.js';
import { summarySizes } from '../report/summary.js';
import { engineNames, type EngineName } from './engines.js';
import { allParts, KiB, MiB, profiles, runnerParts, type Profile, type ProfileName, type RunnerPart } from './profiles.js';

export interface Options {
  readonly engines: EngineName[];
  readonly config: Omit<BenchConfig, 'versions'>;
  readonly runnerParts: RunnerPart[];
  /** The profile's name ('default', 'quick', 'full'). */
  readonly profile: ProfileName;
  /** How long one engine may run before the runner gives up on it. */
  readonly engineTimeoutMs: number;
  readonly out: string;
  /** Sizes of the Markdown summary table. */
  readonly tableSizes: number[];
}

/** '64', '1k', '16m': a size as the command line takes it. */
const sizeText = (n: number) => (n >= MiB && n % MiB === 0 ? `${n / MiB}m` : n >= KiB && n % KiB === 0 ? `${n / KiB}k` : String(n));

/** A profile's own sizes of some ops: ', scrypt 16m, scrypt-p4 none'. */
const opSizesText = (p: Profile) =>
  Object.entries(p.opSizes ?? {})
    .map(([op, sizes]) => `, ${op} ${sizes.length === 0 ? 'none' : sizes.map(sizeText).join(',')}`)
    .join('');

/** A profile's own caps of some ops: ', scrypt 10'. */
const opCapsText = (p: Profile) =>
  Object.entries(p.opCapMs ?? {})
    .map(([op, ms]) => `, ${op} ${ms / 1000}`)
    .join('');

/** An option's value in the default profile, then in each profile where it differs: '(default: 4; --quick: 2; --full: 60)'. */
function defaults(value: (profile: Profile) => string): string {
  const byDefault = value(profiles.default);
  const others = Object.entries(profiles)
    .filter(([name, profile]) => name !== 'default' && value(profile) !== byDefault)
    .map(([name, profile]) => `; ${name === 'quick' || name === 'full' ? `--${name}` : `--profile=${name}`}: ${value(profile)}`);
  return `(default: ${byDefault}${others.join('')})`;
}

export const usage = `usage: npm run bench -- [options]
  (no option)      ${profiles.default.summary}
  --quick          ${profiles.quick.summary}
  --full           ${profiles.full.summary}
  --profile=parallel
                   ${profiles.parallel.summary}
  --profile=scrypt ${profiles.scrypt.summary}
  --profile=argon2 ${profiles.argon2.summary}
  --profile=age    ${profiles.age.summary}
  --profile=js     ${profiles.js.summary}
  --profile=sodium ${profiles.sodium.summary}
  --profile=name   ${Object.keys(profiles).join(', ')} (--quick and --full are short for two of them)
  --engines=a,b    node, deno, bun, chromium, firefox, webkit, or all (default: node)
  --ops=a,b        ops to run (default: all); 'chacha20poly1305' selects its -encrypt and -decrypt
  --libs=a,b       libraries to time: fourfold, 'fourfold (output)', fourfold-js, '${NATIVE}' (Node, Deno), '${PARALLEL}'
                   (from 2 MiB: below, a call runs inline; scrypt's at any size), noble, 'noble (output)',
                   sodium, node, '${NODE_JOINED}', '${NODE_CONTRACT}', noble-hashes, hash-wasm, mipher, blakejs, typage, age-cli, rage-cli, fourfold-cli ${defaults((p) => p.libs?.join(',') ?? (p.libsLeftOut === undefined ? 'all' : `all but ${p.libsLeftOut.join(', ')}`))}
  --workers=a,b    worker counts of the columns '${workerColumn(2)}' and so on, timed at
                   --chart-size wherever '${PARALLEL}' is ${defaults((p) => p.parallel.workerCounts.join(',') || 'none')}
  --chart-size=s   the size of the worker-count columns and of the model ${defaults((p) => sizeText(p.parallel.chartSize))}
  --task-size=s    the size of the longest task during a parallel call ${defaults((p) => sizeText(p.parallel.taskSize))}
  --sizes=a,b      sizes of the summary and the large-message cases, k/m suffixes for KiB/MiB; for every op
                   (scrypt's size is the memory of a lane: 16m is N = 2^14; argon2id's the memory m of a call:
                   19m is m = 19456 KiB)
                   ${defaults((p) => p.sizes.map(sizeText).join(',') + opSizesText(p))}
  --parts=a,b      ${allParts.join(', ')}
                   ${defaults((p) => (p.parts.length === allParts.length ? 'all' : p.parts.join(',')))}
  --cap=seconds    the most one case (or one library's share of a sweep) may take, for every op; a library too slow
                   to fit is reported as capped, not timed; 0: no cap ${defaults((p) => String(p.capMs / 1000) + opCapsText(p))}
  --out=dir        where results.json goes (default: bench-report); it is rewritten as
                   the run goes, so Ctrl-C leaves a report of what was measured
  --render[=dir]   measure nothing: print the summary of dir/results.json (default bench-report)
  --help           this text`;

export function parseSize(text: string): number {
  const match = /^(\d+)\s*(k|kib|m|mib)?$/i.exec(text.trim());
  if (match === null) throw new Error(`not a size: '${text}'`);
  const unit = match[2]?.toLowerCase().startsWith('m') ? MiB : match[2] !== undefined ? KiB : 1;
  return Number(match[1]) * unit;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseWorkers(text: string): number[] {
  const counts = list(text).map(Number);
  const bad = counts.filter((n) => !Number.isInteger(n) || n < 0);
  if (bad.length > 0) throw new Error(`--workers takes worker counts (0, 1, 2, ...), got '${text}'`);
  return counts;
}

/** --cap: seconds, 0 for none; returned in ms. */
function parseSeconds(text: string): number {
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds < 0) throw new Error(`--cap expects seconds (0 for no cap), got '${text}'`);
  return seconds * 1000;
}

function parseEngines(text: string): EngineName[] {
  if (text === 'all') return [...engineNames];
  const names = list(text);
  const unknown = names.filter((name) => !(engineNames as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown engine: ${unknown.join(', ')} (engines: ${engineNames.join(', ')}, all)`);
  return names as EngineName[];
}

export function parseOptions(argv: readonly string[]): Options | 'help' {
  const values = new Map<string, string>();
  const chosen: string[] = [];
  for (const arg of argv) {
    const eq = arg.indexOf('=');
    const [name, value] = eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
    if (name === '--help' || name === '-h') return 'help';
    if ((name === '--quick' || name === '--full') && value === undefined) chosen.push(name.slice(2));
    else if (name === '--profile' && value !== undefined) chosen.push(value);
    else if (value !== undefined && /^--(engines|ops|libs|sizes|parts|cap|out|workers|chart-size|task-size)$/.test(name)) values.set(name.slice(2), value);
    else throw new Error(`unknown option '${arg}'\n${usage}`);
  }
  if (new Set(chosen).size > 1) throw new Error(`one profile at a time, got ${chosen.join(' and ')}`);
  const profileName = chosen[0] ?? 'default';
  if (!Object.hasOwn(profiles, profileName)) throw new Error(`unknown profile '${profileName}' (profiles: ${Object.keys(profiles).join(', ')})`);
  const profile: Profile = profiles[profileName as ProfileName];
  const get = <T>(name: string, parse: (text: string) => T, fallback: T): T => {
    const text = values.get(name);
    return text === undefined ? fallback : parse(text);
  };

  const chosenParts = get('parts', list, [...profile.parts]);
  const unknownParts = chosenParts.filter((p) => !allParts.includes(p));
  if (unknownParts.length > 0) throw new Error(`unknown part: ${unknownParts.join(', ')} (parts: ${allParts.join(', ')})`);
  const sizes = get('sizes', (t) => list(t).map(parseSize), [...profile.sizes]);
  // Sizes and a cap on the command line are every op's.
  const opSizes = values.has('sizes') ? undefined : profile.opSizes;
  const opCapMs = values.has('cap') ? undefined : profile.opCapMs;

  return {
    engines: get('engines', parseEngines, ['node'] as EngineName[]),
    config: {
      ops: get('ops', list, profile.ops),
      libs: get('libs', list, profile.libs),
      ...(values.has('libs') || profile.libsLeftOut === undefined ? {} : { libsLeftOut: profile.libsLeftOut }),
      parts: parts.filter((p) => chosenParts.includes(p)) as Part[],
      sizes,
      ...(opSizes === undefined ? {} : { opSizes }),
      sweep: profile.sweep,
      timing: profile.timing,
      capMs: get('cap', parseSeconds, profile.capMs),
      ...(opCapMs === undefined ? {} : { opCapMs }),
      references: profile.references,
      parallel: {
        workerCounts: get('workers', parseWorkers, profile.parallel.workerCounts),
        chartSize: get('chart-size', parseSize, profile.parallel.chartSize),
        taskSize: get('task-size', parseSize, profile.parallel.taskSize),
        taskCalls: profile.parallel.taskCalls,
      },
    },
    runnerParts: runnerParts.filter((p) => chosenParts.includes(p)),
    profile: profileName as ProfileName,
    engineTimeoutMs: profile.engineTimeoutMs,
    out: values.get('out') ?? 'bench-report',
    // The summary shows the sizes asked for, or by default the five summary sizes, 64 B to 1 MiB (or the profile's, when it has none of them).
    tableSizes: values.has('sizes') ? sizes : summarySizes(sizes),
  };
}
