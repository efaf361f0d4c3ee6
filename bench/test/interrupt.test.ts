/**
 * Ctrl-C: the real command stopped half-way leaves results.json with what it
 * finished, marked interrupted, and exits 130 as for SIGINT. Needs dist/.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../report/json.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('SIGINT writes a report of the results finished so far, marked interrupted', { timeout: 120_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'fourfold-bench-interrupt-'));
  try {
    // Long enough (five ops up to 16 MiB: seconds even on an idle machine) that the signal comes before the end.
    const ops = '--ops=chacha20,xchacha20,salsa20,xsalsa20,poly1305';
    const args = ['--import', 'tsx', 'bench/run.ts', ops, '--libs=fourfold,noble', '--parts=sizes', '--sizes=64,1k,64k,1m,16m', `--out=${out}`];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    // The report is rewritten as cases end (every few seconds): wait for one that holds a case.
    const casesWritten = (): number => {
      try {
        return (JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Report).engines[0]?.cases.length ?? 0;
      } catch {
        return 0; // Not written yet.
      }
    };
    let seen = 0;
    for (let waited = 0; (seen = casesWritten()) === 0; waited += 100) {
      assert.ok(waited < 90_000 && child.exitCode === null, `no case in the report after ${waited} ms:\n${stderr}`);
      await sleep(100);
    }
    child.kill('SIGINT');
    assert.equal(await exited, 130, stderr);

    const report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Report;
    assert.equal(report.status, 'interrupted');
    assert.equal(report.engines.length, 1);
    assert.equal(report.engines[0]!.interrupted, true);
    assert.ok(report.engines[0]!.cases.length >= seen, 'the cases finished before the signal are kept');
    assert.ok(report.engines[0]!.cases.every((c) => c.nsPerCall.length > 0 || c.capped !== undefined));
    assert.match(stderr, /interrupted: wrote/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
