/**
 * npm run check:package: the package as a user gets it. Packs it (npm pack,
 * which builds it first), installs the tarball into a fresh project made
 * from fixture/ (typescript, vite, webpack, wrangler and edge-runtime at
 * pinned versions, from the npm registry), and checks, in this order (each
 * part's module says what it checks, and how):
 *
 * - the tarball (tarball.ts): every export's files and types, the bin, and
 *   nothing unexpected; every relative link in its Markdown resolves;
 * - Node (node.ts): every subpath export imports and require()s, the
 *   bundlers' entries resolve, the fourfold bin runs, fourfold/parallel's
 *   blake3 gives BLAKE3's bytes;
 * - TypeScript (typescript.ts): 5.0, 5.9 and 7.0 under each
 *   moduleResolution on fixture/types.ts and platform.ts; the shipped
 *   docs' code blocks (snippets.ts); fixture/cjs/, a CommonJS project;
 * - bundlers (bundlers.ts): vite and webpack build fixture/app.js without
 *   warnings, and each built page runs in headless Chromium;
 * - edge hosts (edge.ts): a Worker built by wrangler and run in workerd,
 *   and the edge-light build in the edge-runtime package;
 * - a login server (login.ts): fourfold/parallel's PHC calls behind
 *   node:http in Node, Bun and Deno, a burst of logins answered right with
 *   the event loop free;
 * - a new user's project (new-project.ts): `npm init -y`, the README's
 *   code saved in it, run by Node and Deno;
 * - a Next.js 16 app (nextjs.ts): edge and Node route handlers calling every
 *   family, built by Turbopack and webpack, served by `next start`.
 *
 * common.ts holds what the parts share: the record of checks, running a
 * command, the package's exports, and the fresh project's making.
 *
 *   npm run check:package                          # all of it
 *   npm run check:package -- --keep                # keep the temporary project (its path is printed)
 *   npm run check:package -- --project=<that dir>  # again in it, with only the new tarball installed
 *   npm run check:package -- --only=new-project    # the tarball and the new user's project alone (no fixture, no Chromium)
 *   npm run check:package -- --only=nextjs         # the tarball and the Next.js app alone
 *
 * Prints one line per check and exits 1 if any failed (the project is then
 * kept, with each build's full output in its build.log). Needs the npm
 * registry (the fixture's packages), and Chromium and Deno (npm run
 * engines:install).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkBundlers } from './bundlers.js';
import { checker, checks, copyFixture, FIXTURE, install } from './common.js';
import { checkEdge } from './edge.js';
import { checkLogins, loginEngines } from './login.js';
import { checkNewProject } from './new-project.js';
import { checkNextjs } from './nextjs.js';
import { checkNode } from './node.js';
import { checkLinks, pack } from './tarball.js';
import { checkCommonJs, checkSnippets, checkTypes } from './typescript.js';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { keep: { type: 'boolean' }, project: { type: 'string' }, only: { type: 'string' } } });
  if (values.only !== undefined && !['new-project', 'nextjs'].includes(values.only)) throw new Error(`--only=${values.only}: new-project or nextjs`);
  // --project=<dir>: a project a previous --keep run left, with its packages installed (quicker when iterating).
  const dir = values.project ?? mkdtempSync(join(tmpdir(), 'fourfold-package-check-'));
  console.log(`# package check in ${dir}`);
  const project = join(dir, 'project');
  const tarball = pack(dir);
  if (tarball === undefined) return 1;
  if (values.only === undefined) {
    checkLinks(tarball, dir);
    copyFixture(project);
    if (!install(project, tarball, values.project === undefined)) return 1;
    checkNode(project);
    checkTypes(project);
    checkSnippets(project);
    checkCommonJs(project);
    await checkBundlers(project);
    await checkEdge(checker, project, FIXTURE);
    checkLogins(checker, project, FIXTURE, loginEngines(checker));
  }
  if (values.only !== 'nextjs') checkNewProject(join(dir, 'new-project'), tarball);
  if (values.only !== 'new-project') await checkNextjs(checker, join(dir, 'nextjs'), FIXTURE, tarball);

  const failed = checks.filter((c) => !c.ok);
  console.log(
    `\n# ${checks.length - failed.length}/${checks.length} package checks passed${failed.length ? `; failed: ${failed.map((c) => c.name).join('; ')}` : ''}`,
  );
  if (values.keep || failed.length)
    console.log(`# kept ${values.only === undefined ? project : join(dir, values.only)}; run again in it with --project=${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
