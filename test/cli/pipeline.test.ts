/**
 * The fourfold command in a pipeline. `fourfold b3sum`: each sum goes out
 * when it is done, as b3sum's line-buffered standard output sends it, not
 * when the process ends; the second file is a FIFO that nothing writes
 * until the first sum has been read, so a sum held back until exit is
 * never seen in time. Every command: a reader that closes early (`|
 * head`) ends it by SIGPIPE, as it ends age. Node only (it starts
 * processes; a FIFO needs mkfifo).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blake3 } from 'fourfold/blake3';

const CLI = fileURLToPath(new URL('../../dist/cli/fourfold.js', import.meta.url));
const g = globalThis as { Deno?: unknown; Bun?: unknown };
const NODE = g.Deno === undefined && g.Bun === undefined ? process.execPath : 'node';
const NO_FIFO = process.platform === 'win32' || spawnSync('mkfifo', ['--version']).status !== 0 ? 'not applicable: no mkfifo here' : false;

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

it("each sum is written when it is done: a pipeline reads the first file's line while the second is still being read", {
  skip: NO_FIFO,
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fourfold-pipeline-'));
  try {
    const first = join(dir, 'first');
    const fifo = join(dir, 'fifo');
    const data = new TextEncoder().encode('the first file\n');
    writeFileSync(first, data);
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    const child = spawn(NODE, [CLI, 'b3sum', first, fifo], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Listened for from the start: the process may end while this thread writes the FIFO.
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    let out = '';
    child.stdout.setEncoding('utf8');
    const line = `${hex(blake3(data))}  ${first}\n`;
    // The first line, read while the process blocks on the FIFO (or the deadline, after which the FIFO is opened anyway).
    const seenInTime = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 30_000);
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
    });
    const writer = await open(fifo, 'w');
    await writer.write(new TextEncoder().encode('the second file'));
    await writer.close();
    const code = await closed;
    assert.ok(seenInTime, 'the first sum was not written before the second file was read');
    assert.equal(code, 0);
    assert.ok(out.startsWith(line), out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a reader that closes early (| head) ends age -d, age -e and b3sum by SIGPIPE, as age ends, with no EPIPE message', {
  skip: process.platform === 'win32' && 'not applicable: no SIGPIPE',
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fourfold-sigpipe-'));
  try {
    const at = (name: string) => join(dir, name);
    const cli = (...args: string[]) => spawnSync(NODE, [CLI, ...args], { encoding: 'utf8' });
    assert.equal(cli('age-keygen', '-o', at('key.txt')).status, 0, 'age-keygen');
    const recipient = cli('age-keygen', '-y', at('key.txt')).stdout.trim();
    // Each output is far larger than a pipe holds: the command is still writing when its reader goes.
    writeFileSync(at('plain'), new Uint8Array(8 << 20).fill(7));
    assert.equal(cli('age', '-r', recipient, '-o', at('plain.age'), at('plain')).status, 0, 'age -r');
    writeFileSync(at('small'), 'a line\n');
    const cases: [string, string[]][] = [
      ['age -d', ['age', '-d', '-i', at('key.txt'), at('plain.age')]],
      ['age -e', ['age', '-r', recipient, at('plain')]],
      ['b3sum, a line per file', ['b3sum', ...Array<string>(5000).fill(at('small'))]],
      ['b3sum --raw', ['b3sum', '--raw', '--length', '10000000', at('small')]],
    ];
    for (const [what, args] of cases) {
      const child = spawn(NODE, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      await once(child.stdout, 'data');
      child.stdout.destroy();
      assert.equal(await ended, 'SIGPIPE', `${what}: ended by SIGPIPE (${stderr})`);
      assert.equal(stderr, '', `${what}: nothing on standard error`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
