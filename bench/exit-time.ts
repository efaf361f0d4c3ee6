/**
 * How long a script lives after its fourfold/parallel call resolved: each
 * call of test/parallel/exit.test.ts's fixture (after-call.mjs: the call,
 * then again with the workers ready) in a process of its own, timed from
 * the line the fixture prints once the call resolved to the process's
 * exit. The test checks that nothing is left to keep the process alive;
 * this gives the time, which is the runtime's own exit where nothing is.
 *
 *   node --import tsx bench/exit-time.ts [--runs=5] [--runtime=PATH] [--before=PATH/dist/] [--calls=a,b]
 *
 * --runtime: the program that runs the fixture (default: this Node; a
 * path ending in deno runs it with `run -A`). --before: another build's
 * dist/, timed in the same rounds. Reported: each call's median and
 * range, in ms.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const args = Object.fromEntries(process.argv.slice(2).map((a) => [...a.replace(/^--/, '').split('='), 'true'].slice(0, 2) as [string, string]));
const runs = Number(args.runs ?? 5);
const runtime = args.runtime ?? process.execPath;
const runtimeArgs = runtime.endsWith('deno') ? ['run', '-A'] : [];
const FIXTURE = new URL('../test/parallel/fixtures/after-call.mjs', import.meta.url).pathname;
const builds: [string, string][] = [['now', new URL('../dist/', import.meta.url).href]];
if (args.before !== undefined) builds.unshift(['before', pathToFileURL(args.before.endsWith('/') ? args.before : `${args.before}/`).href]);
const CALLS = (
  args.calls ??
  'chacha20,xchacha20poly1305.decrypt,poly1305,blake3,serpent.cbc.encrypt,secretstream.encryptStream,scrypt,argon2id,age.encrypt,age.decrypt,age.decryptStream,age.decryptRange,age.encryptFile,age.decryptFile,terminate'
).split(',');

/** One run of `call` on `dist`: ms from the fixture's line to the process's exit. */
function once(dist: string, call: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(runtime, [...runtimeArgs, FIXTURE, dist, call], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' },
    });
    let printed: number | undefined;
    child.stdout.on('data', () => (printed ??= performance.now()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const exited = performance.now();
      if (code !== 0 || printed === undefined) reject(new Error(`${call}: exit code ${code}`));
      else resolve(exited - printed);
    });
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const times = new Map<string, number[]>();
for (let r = 0; r < runs; r++) {
  for (const call of CALLS) {
    // Each round in another order of the builds, so that neither always runs first.
    for (const [name, dist] of r % 2 === 0 ? builds : [...builds].reverse()) {
      const key = `${call}\t${name}`;
      times.set(key, [...(times.get(key) ?? []), await once(dist, call)]);
    }
  }
}
console.log(`${runtime}: ms from the call resolving to the process's exit, median of ${runs} (range); load ${loadavg()[0]!.toFixed(1)}`);
console.log(`  ${'call'.padEnd(28)}${builds.map(([n]) => n.padStart(16)).join('')}`);
for (const call of CALLS) {
  const cells = builds.map(([name]) => {
    const xs = times.get(`${call}\t${name}`)!;
    return `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`.padStart(16);
  });
  console.log(`  ${call.padEnd(28)}${cells.join('')}`);
}
