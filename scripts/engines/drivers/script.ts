/**
 * Script engines (Node, also --jitless, Deno, Bun; also their ARM64 builds under qemu): run harness/host.mjs, which imports the
 * entry, awaits its default export and writes the outcome to a file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { engineCommand, type Engine } from '../engines.js';
import type { PageOutcome } from '../serve.js';
import { spawnGroup } from './process.js';

const HOST = fileURLToPath(new URL('../harness/host.mjs', import.meta.url));

/** The command line that runs `script` with `args` in this engine. */
export function scriptCommand(engine: Engine, script: string, args: string[]): string[] {
  switch (engine.id) {
    case 'deno':
    case 'deno-arm64':
      // -A: the host writes its result file; tests read vectors and spawn processes.
      return engineCommand(engine, ['run', '-A', '--no-prompt', script, ...args]);
    default:
      return engineCommand(engine, [...(engine.args ?? []), script, ...args]);
  }
}

/** Environment for every script engine: no update checks, no colors in logs. */
export function scriptEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

export async function runScript(
  engine: Engine,
  entry: string,
  options: { timeoutMs: number; env?: Record<string, string>; cwd?: string; onProgress?: (m: string) => void; log: (line: string) => void },
): Promise<PageOutcome> {
  const dir = mkdtempSync(join(tmpdir(), `fourfold-${engine.id}-`));
  const out = join(dir, 'result.json');
  const [bin, ...args] = scriptCommand(engine, HOST, [pathToFileURL(entry).href, out]);
  let lastProgress = '';
  const onLine = (line: string) => {
    if (!line.startsWith('# ')) return options.log(line);
    lastProgress = line.slice(2);
    options.onProgress?.(lastProgress);
  };
  const group = spawnGroup(bin!, args, onLine, scriptEnv(options.env));
  let timer: NodeJS.Timeout | undefined;
  try {
    const finished = new Promise<void>((resolve) => group.child.once('exit', () => resolve()));
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), options.timeoutMs)));
    const how = await Promise.race([finished, timedOut]);
    if (how === 'timeout') return { ok: false, error: `timed out after ${options.timeoutMs} ms${lastProgress ? ` (last progress: ${lastProgress})` : ''}` };
    try {
      return JSON.parse(readFileSync(out, 'utf8')) as PageOutcome;
    } catch {
      return { ok: false, error: `${engine.id} exited (code ${group.child.exitCode}, signal ${group.child.signalCode}) without a result` };
    }
  } finally {
    clearTimeout(timer);
    await group.kill(1000);
    rmSync(dir, { recursive: true, force: true });
  }
}
