/**
 * A measurement of bench/core run once in an engine through scripts/engines'
 * runner, for the bench's scripts of their own (scrypt-blocking.ts,
 * argon2-blocking.ts): an entry that calls `name` from the core module with
 * `options` and its progress callback is bundled with fourfold/parallel's
 * workers beside it (and `assets`, files by name, for workers of the
 * measurement's own), run, and its JSON returned. Needs fourfold built
 * (dist/) and, for an engine other than Node, `npm run engines:install`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function runCoreInEngine<T>(
  engine: string,
  core: string,
  name: string,
  options: object,
  timeoutMs: number,
  assets: Readonly<Record<string, string>> = {},
): Promise<T> {
  const { bundleEntry, bundleWorkers } = await import('../../scripts/engines/bundle.js');
  const { runInEngine } = await import('../../scripts/engines/run.js');
  const dir = mkdtempSync(join(tmpdir(), `fourfold-${name}-${engine}-`));
  try {
    writeFileSync(
      join(dir, 'entry.ts'),
      `import { ${name} } from ${JSON.stringify(core)};\n` + `export default (context) => ${name}(${JSON.stringify(options)}, (m) => context.progress(m));\n`,
    );
    // fourfold/parallel's pool starts its workers from beside the bundle, as in the bench's engines (node/bundle.ts).
    const entry = await bundleEntry({ entry: join(dir, 'entry.ts'), target: 'browser', outfile: join(dir, 'entry.js') });
    await bundleWorkers(dir, 'browser');
    for (const [file, text] of Object.entries(assets)) writeFileSync(join(dir, file), text);
    const outcome = await runInEngine(engine as Parameters<typeof runInEngine>[0], {
      entry,
      timeoutMs,
      onProgress: (m) => process.stderr.write(`${engine}: ${m}\n`),
    });
    if (!outcome.ok) throw new Error(`${outcome.error ?? 'failed'}\n${outcome.log.slice(-10).join('\n')}`);
    return outcome.value as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
