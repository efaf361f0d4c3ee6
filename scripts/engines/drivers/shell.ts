/**
 * Shells (Hermes): run the script bundle.ts made for them (`target:
 * 'shell'`), whose host (harness/shell-host.ts) prints progress lines
 * ('# ...') and, last, the outcome after a RESULT marker.
 */
import type { Engine } from '../engines.js';
import type { PageOutcome } from '../serve.js';
import { RESULT } from '../harness/shell-host.js';
import { spawnGroup } from './process.js';

export async function runShell(
  engine: Engine,
  script: string,
  options: { timeoutMs: number; onProgress?: (m: string) => void; log: (line: string) => void },
): Promise<PageOutcome> {
  let outcome: PageOutcome | undefined;
  let lastProgress = '';
  const onLine = (line: string) => {
    if (line.startsWith(RESULT)) outcome = JSON.parse(line.slice(RESULT.length)) as PageOutcome;
    else if (line.startsWith('# ')) options.onProgress?.((lastProgress = line.slice(2)));
    else options.log(line);
  };
  const group = spawnGroup(engine.binary, [...(engine.args ?? []), script], onLine);
  let timer: NodeJS.Timeout | undefined;
  try {
    const finished = new Promise<void>((resolve) => group.child.once('close', () => resolve()));
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), options.timeoutMs)));
    if ((await Promise.race([finished, timedOut])) === 'timeout') {
      return { ok: false, error: `timed out after ${options.timeoutMs} ms${lastProgress ? ` (last progress: ${lastProgress})` : ''}` };
    }
    return outcome ?? { ok: false, error: `${engine.id} exited (code ${group.child.exitCode}, signal ${group.child.signalCode}) without a result` };
  } finally {
    clearTimeout(timer);
    await group.kill(1000);
  }
}
