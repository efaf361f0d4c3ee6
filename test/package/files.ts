/**
 * What the tests of the package as a user gets it share: the repository's
 * root, and whether this engine runs them. They read files (the emitted
 * declarations, the README, the packed file list) and start processes:
 * the same files in every engine, so they run in Node only, and are
 * reported as skipped elsewhere with this reason.
 */
import { fileURLToPath } from 'node:url';

const g = globalThis as { Deno?: unknown; Bun?: unknown; process?: { versions?: { node?: string } } };

/** The `skip` option of tests that read the package's files: false in Node, else why they do not run. */
export const NOT_NODE: false | string =
  g.Deno === undefined && g.Bun === undefined && typeof g.process?.versions?.node === 'string'
    ? false
    : "not applicable: reads the package's own files with Node's tools (the same files in every engine; Node checks them)";

/** The repository's root (package.json, README.md, dist/). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
