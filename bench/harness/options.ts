/**
 * What the harness's modules share beside core/ and report/: their
 * command lines (`--name=value`, `--flag`), with defaults.
 */

/** The command line's `--name=value` options (`--flag` alone is 'true') over `defaults`. */
export function options(defaults: Readonly<Record<string, string>> = {}, argv: readonly string[] = process.argv.slice(2)): Record<string, string | undefined> {
  const given = argv.map((a) => {
    const [name, ...value] = a.replace(/^--/, '').split('=');
    return [name!, value.length === 0 ? 'true' : value.join('=')];
  });
  return { ...defaults, ...Object.fromEntries(given) };
}
