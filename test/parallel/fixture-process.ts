/**
 * A fixture of this folder run in a process of its own, of the engine
 * running the tests (Node, Deno, Bun), for what only a whole process shows:
 * that it exits by itself once a script is done.
 */
const g = globalThis as { Deno?: { execPath(): string }; window?: unknown };

/** The `skip` of a test that starts processes. */
export const NO_PROCESSES: false | string =
  typeof g.window === 'object' || typeof process !== 'object' || typeof process.getBuiltinModule !== 'function'
    ? 'not applicable: this engine cannot start processes'
    : false;

/** Runs `fixture` with `args` in a new process of this engine; resolves to the last line it wrote, or rejects unless it exits by itself, 0, within 60 s. */
export async function runFixture(fixture: URL, args: readonly string[]): Promise<string> {
  const { execFile } = process.getBuiltinModule('node:child_process') as typeof import('node:child_process');
  const { fileURLToPath } = process.getBuiltinModule('node:url') as typeof import('node:url');
  const script = fileURLToPath(fixture);
  const [command, engineArgs] = g.Deno ? [g.Deno.execPath(), ['run', '-A', script]] : [process.execPath, [script]];
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(command, [...engineArgs, ...args], { encoding: 'utf8', timeout: 60_000 }, (error, out, err) =>
      error ? reject(new Error(`${args.join(' ')}: the process did not exit by itself with 0 (${error.message}): ${err}`)) : resolve(out),
    ),
  );
  return stdout.trim().split('\n').pop()!;
}
