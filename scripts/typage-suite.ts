/**
 * typage's own test suite (tests/*.test.ts of FiloSottile/typage) against
 * fourfold/age/typage, in Node and in Chromium, as typage runs it (vitest;
 * its browser project through Vite). Run outside the repository: typage's
 * files stay out of it.
 *
 *   npx tsx scripts/typage-suite.ts <typage checkout> [work folder] [--project=node|browser] [--slow]
 *
 * The work folder (default /tmp/typage-run) gets typage's tests, the test
 * tools from npm at typage's versions, and fourfold linked as
 * node_modules/fourfold (this checkout: build it first). typage's tests
 * import its sources (`../lib/*.js`); shims there give them:
 * - its public API (lib/index.js, and lib/recipients.js's key calls) from
 *   fourfold/age/typage;
 * - the test's own helpers (io.js's streams, x25519.js's webCryptoFallback,
 *   format.js's parser used while the testkit's tests are collected) from
 *   npm's age-encryption: they make inputs and read outputs;
 * - its internals (the header codec, the STREAM functions and sizes,
 *   forceWebCryptoOff) as calls that skip the running test, with the reason.
 * Chromium is Debian's (/usr/bin/chromium) through Playwright, with the
 * engine runner's flags (drivers/chromium.ts): nothing is downloaded.
 * Prints the counts per file and the skips by reason.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS } from './engines/drivers/chromium.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** typage's test tools, at the versions its package.json pins, and the age-encryption release its tests' helpers come from. */
const TOOLS = [
  'vitest@4.0.16',
  '@vitest/browser-playwright@4.0.16',
  'playwright@1.57.0',
  '@fast-check/vitest@0.2.4',
  'cctv-age@0.2.0',
  '@noble/hashes@2.0.1',
  '@scure/base@2.0.0',
  'esbuild@0.27.2',
  'age-encryption@0.3.1',
];

const INTERNAL_FORMAT = "typage's header codec (lib/format.ts) is internal, not in its public API";
const INTERNAL_STREAM =
  "typage's STREAM functions (lib/stream.ts) are internal; the public counterparts, a stream's size() and the streamed decrypt, are tested by index.test.ts and testkit.test.ts";
const INTERNAL_WEBCRYPTO = "forceWebCryptoOff is a switch inside typage's X25519 (its noble fallback); fourfold's X25519 has no Web Crypto path to switch off";

/** The shims of typage's lib/, the setup that skips, the config and the counting reporter. */
const FILES: Record<string, string> = {
  'lib/index.js': 'export * from "fourfold/age/typage"\n',
  'lib/recipients.js': 'export { generateHybridIdentity, generateIdentity, generateX25519Identity, identityToRecipient } from "fourfold/age/typage"\n',
  'lib/io.js': 'export { randomBytesStream, readAll, stream } from "../node_modules/age-encryption/dist/io.js"\n',
  'lib/x25519.js': `import { skipInternal } from "../setup.js"
export { webCryptoFallback } from "../node_modules/age-encryption/dist/x25519.js"
export function forceWebCryptoOff(off) { if (off) skipInternal(${JSON.stringify(INTERNAL_WEBCRYPTO)}) }
`,
  'lib/format.js': `import { inTest, skipInternal } from "../setup.js"
import * as typage from "../node_modules/age-encryption/dist/format.js"
const why = ${JSON.stringify(INTERNAL_FORMAT)}
export function parseHeader(header) { if (inTest()) skipInternal(why); return typage.parseHeader(header) }
export function encodeHeader() { skipInternal(why) }
export function encodeHeaderNoMAC() { skipInternal(why) }
`,
  'lib/stream.js': `import { skipInternal } from "../setup.js"
const why = ${JSON.stringify(INTERNAL_STREAM)}
export function encryptSTREAM() { skipInternal(why) }
export function decryptSTREAM() { skipInternal(why) }
export function plaintextSize() { skipInternal(why) }
export function ciphertextSize() { skipInternal(why) }
`,
  'setup.js': `import { afterEach, beforeEach } from "vitest"
let current
const SUITES = { "base64nopad.decode": "tests @scure/base, typage's dependency, not typage's API" }
beforeEach((context) => {
  current = context
  const reason = SUITES[context.task.suite?.name]
  if (reason) context.skip("not typage's API: " + reason)
})
afterEach(() => { current = undefined })
export const inTest = () => current !== undefined
export function skipInternal(reason) {
  if (current === undefined) throw new Error("typage internal called outside a test: " + reason)
  current.skip("typage internal: " + reason)
}
`,
  'vitest.config.js': `import { defineConfig } from "vitest/config"
import { playwright } from "@vitest/browser-playwright"
// vitest's browser mode wraps each import() (@vitest/mocker's injectDynamicImport) and drops the "(" of
// fourfold's import(('./x.js')) (the parentheses keep Vite's preload helper out of builds): a syntax error.
// Its source, served as is, gets the bare specifier first.
const unwrapSpecifiers = {
  name: "unwrap-specifiers",
  enforce: "pre",
  transform(code, id) {
    if (id.includes("/node_modules/fourfold/")) return code.replace(/import\\(\\(('[^']+')\\)\\)/g, "import($1)")
  },
}
const args = ${JSON.stringify(CHROMIUM_ARGS)}
export default defineConfig({
  server: { fs: { allow: [".", ${JSON.stringify(ROOT)}] } },
  // fourfold as an installed package, under node_modules (Vite pre-bundles it for the page, Node imports it).
  resolve: { preserveSymlinks: true },
  // Not pre-bundled, as Vite's guide says of a package that starts workers with new URL(..., import.meta.url):
  // in .vite/deps the pool's worker scripts would not be found beside it.
  optimizeDeps: { force: true, exclude: ["fourfold"] },
  plugins: [unwrapSpecifiers],
  test: {
    setupFiles: ["./setup.js"],
    testTimeout: 120000,
    projects: [
      { extends: true, test: { name: "node" } },
      { extends: true, test: { name: "browser", browser: { enabled: true, headless: true, screenshotFailures: false,
        provider: playwright({ launchOptions: { executablePath: "/usr/bin/chromium", args } }), instances: [{ browser: "chromium" }] } } },
    ],
  },
})
`,
  'counts.js': `export default class Counts {
  rows = new Map(); skips = new Map()
  onTestCaseResult(test) {
    const { state, note } = test.result()
    const row = test.project.name + " " + test.module.moduleId.split("/").pop()
    const c = this.rows.get(row) ?? { passed: 0, failed: 0, skipped: 0 }
    c[state] = (c[state] ?? 0) + 1
    this.rows.set(row, c)
    if (state === "skipped") {
      const key = test.project.name + " | " + (note ?? "typage's own skip (its slow tests, SLOW unset; a vector over 1 MiB; esbuild outside Node)")
      this.skips.set(key, (this.skips.get(key) ?? 0) + 1)
    }
  }
  onTestRunEnd() {
    console.log("\\nproject file: passed failed skipped")
    const totals = {}
    for (const [row, c] of [...this.rows].sort()) {
      console.log(row + ": " + c.passed + " " + c.failed + " " + c.skipped)
      const t = (totals[row.split(" ")[0]] ??= { files: 0, passed: 0, failed: 0, skipped: 0 })
      t.files++; t.passed += c.passed; t.failed += c.failed; t.skipped += c.skipped
    }
    for (const [p, t] of Object.entries(totals)) console.log("total " + p + ": " + t.files + " files, " + (t.passed + t.failed + t.skipped) + " tests: " + t.passed + " passed, " + t.failed + " failed, " + t.skipped + " skipped")
    console.log("\\nskipped, by reason:")
    for (const [k, n] of [...this.skips].sort()) console.log(n + "  " + k)
  }
}
`,
};

function main(): void {
  const args = process.argv.slice(2);
  const [typage, work = '/tmp/typage-run'] = args.filter((a) => !a.startsWith('--'));
  if (typage === undefined || !existsSync(join(typage, 'tests')))
    throw new Error('usage: npx tsx scripts/typage-suite.ts <typage checkout> [work folder] [--project=node|browser] [--slow]');
  const dir = resolve(work);
  mkdirSync(join(dir, 'lib'), { recursive: true });
  rmSync(join(dir, 'tests'), { recursive: true, force: true });
  mkdirSync(join(dir, 'tests'));
  for (const f of readdirSync(join(typage, 'tests')).filter((n) => n.endsWith('.test.ts'))) cpSync(join(typage, 'tests', f), join(dir, 'tests', f));
  writeFileSync(join(dir, 'package.json'), '{ "name": "typage-suite", "private": true, "type": "module" }\n');
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  const run = (cmd: string, argv: string[], environment: NodeJS.ProcessEnv = process.env): void => {
    execFileSync(cmd, argv, { cwd: dir, stdio: 'inherit', env: environment });
  };
  if (!existsSync(join(dir, 'node_modules/vitest'))) run('npm', ['install', '--no-audit', '--no-fund', ...TOOLS]);
  rmSync(join(dir, 'node_modules/fourfold'), { recursive: true, force: true });
  symlinkSync(ROOT, join(dir, 'node_modules/fourfold'));
  const project = args.find((a) => a.startsWith('--project='))?.slice('--project='.length);
  const env = args.includes('--slow') ? { ...process.env, SLOW: '1' } : process.env;
  run('npx', ['vitest', '--run', ...(project ? ['--project', project] : []), '--reporter=default', '--reporter=./counts.js'], env);
}

main();
