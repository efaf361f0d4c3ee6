/**
 * check.ts's bundlers, in the fresh project with the tarball installed: a
 * default `vite build` and a default webpack 5 production build of
 * fixture/app.js succeed without warnings (node: modules, top-level
 * await, critical dependencies...), and each built page, opened in
 * headless Chromium, awaits ready() in its main chunk, then loads a route
 * chunk whose two families run their first calls on the js tier and reach
 * the simd tier without another ready(), hashes a few MiB with
 * fourfold/parallel's blake3 to BLAKE3's bytes with its Web Workers doing work,
 * loads each key type's lazily imported code through the bundler's chunks
 * (a post-quantum file and back, tag and SSH stanzas), and
 * runs the README's browser recipes in a chunk of their own
 * (file-crypto.js and keys.mjs, taken from the README): a File to an age
 * file and back, a changed one refused, a download offered, a file under
 * a passphrase, a message under a key from a password.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { ENGINES } from '../engines/engines.js';
import { openChromium } from '../engines/drivers/chromium.js';
import { servePage, type PageOutcome } from '../engines/serve.js';
import { ABC, FIXTURE, hex, output, record, sh } from './common.js';
import { input } from './fixture/input.js';

/** Build output that is a problem for users: Node built-ins pulled into a browser bundle, top-level await, dynamic requests. */
const WARNING = /warn|\(!\)|externaliz|top-level await|critical dependency|node:/i;
/**
 * webpack's performance hints (size advice, not a build problem) are reported, not failed; nor is
 * its closing count ("compiled with 1 warning"): each warning it counts has a WARNING line of its own.
 */
const SIZE_HINT =
  /asset size limit|entrypoint size limit|performance recommendations|webpack\.js\.org\/guides\/code-splitting|^\s*(assets?|main|entrypoint)\b.*KiB|compiled with \d+ warnings? in/i;

interface PageReport {
  /** What ready() resolved to in the main chunk, before the route loaded. */
  ready: string;
  /** The route's families: the tier of their first calls, and when (ms after the route loaded) each first ran on simd. */
  lazy: { first: Record<string, string>; simdAfterMs: Record<string, number> };
  bytes: number;
  abc: string;
  sequential: string;
  /** The first call (which starts the workers) and the later ones (until a worker answered with a result). */
  parallel: string[];
  doneAfterFirst: number;
  /** The first stanza of a file to each lazily loaded key type (a post-quantum one decrypted back). */
  keyTypes: { hybrid: string; tag: string; ssh: string };
  /** The README's browser recipes, run in the page. */
  recipe: {
    bytes: number;
    encryptedBytes: number;
    header: string;
    roundTrip: boolean;
    refused: string;
    downloaded: string;
    password: boolean;
    wrongPassword: string;
    message: boolean;
  };
  crossOriginIsolated: boolean;
  workers: number;
  messages: number;
  done: number;
  errors: string[];
}

/** The lines of a build's output that say what went wrong: errors, warnings, and the line after each heading. */
function problems(text: string): string[] {
  const lines = text.split('\n');
  return lines.flatMap((l, i) => (/^(ERROR|WARNING) in /.test(l) ? [l, lines[i + 1] ?? ''] : /error|warn|\(!\)|✗/i.test(l) && !/^\s+at /.test(l) ? [l] : []));
}

function build(name: string, command: string[], cwd: string): boolean {
  const r = sh(command[0]!, command.slice(1), cwd);
  const all = output(r);
  writeFileSync(join(cwd, 'build.log'), all);
  const warnings = all.split('\n').filter((l) => WARNING.test(l) && !SIZE_HINT.test(l));
  const ok = r.status === 0 && warnings.length === 0;
  const hints = SIZE_HINT.test(all) ? " (and webpack's size hints)" : '';
  return record(
    ok
      ? `${name}: builds with no warnings${hints}`
      : `${name}: ${r.status === 0 ? `builds, with ${warnings.length} warning lines` : `fails (exit code ${r.status})`}`,
    ok,
    ok ? '' : `${problems(all).join('\n')}\n(full output: ${join(cwd, 'build.log')})`,
  );
}

async function openBuilt(name: string, dir: string, page: string): Promise<void> {
  const log: string[] = [];
  const server = await servePage({ dir, entry: page });
  const url = new URL(page, server.url).href;
  let outcome: PageOutcome;
  let timer: NodeJS.Timeout | undefined;
  const session = await openChromium(ENGINES.chromium, url, (l) => log.push(l)).catch((e: Error) => e);
  try {
    if (session instanceof Error) throw session;
    const timeout = new Promise<PageOutcome>((resolve) => (timer = setTimeout(() => resolve({ ok: false, error: 'no result within 60 s' }), 60_000)));
    outcome = await Promise.race([server.result, session.died, timeout]);
  } catch (e) {
    outcome = { ok: false, error: (e as Error).message };
  } finally {
    clearTimeout(timer);
    if (!(session instanceof Error)) await session.close();
    await server.close();
  }
  const where = `${name} page in Chromium`;
  if (!outcome.ok) return void record(`${where}: fourfold/parallel's blake3 ran`, false, `${outcome.error}\n${log.join('\n')}`);
  const r = outcome.value as PageReport;
  const expected = hex(nobleBlake3(input(r.bytes)));
  const families = ['blake3', 'xchacha20poly1305'];
  const lazy = families.map((f) => `${f} ${r.lazy.first[f]}, simd after ${r.lazy.simdAfterMs[f] ?? 'never'} ms`).join('; ');
  record(
    `${where}: a route chunk loaded after ready() reaches the simd tier without another ready() (${lazy})`,
    // First calls on the js tier: the families were not in the main chunk, so the first ready() had not compiled them.
    r.ready === 'simd' && families.every((f) => r.lazy.first[f] === 'js' && r.lazy.simdAfterMs[f] !== undefined),
    JSON.stringify(r.lazy),
  );
  record(`${where}: blake3('abc') is the BLAKE3 test vector`, r.abc === ABC, r.abc);
  const k = r.keyTypes;
  record(
    `${where}: each key type's code loads from its chunks on first use (${k.hybrid}; ${k.tag}; ${k.ssh})`,
    k.hybrid === 'mlkem768x25519: lazily loaded' && k.tag === 'p256tag' && k.ssh === 'ssh-ed25519',
    JSON.stringify(k),
  );
  record(
    `${where}: fourfold/parallel's blake3 (${r.parallel.length} calls) and blake3 of ${r.bytes / (1 << 20)} MiB give @noble/hashes' bytes`,
    r.parallel.every((p) => p === expected) && r.sequential === expected,
    `expected ${expected}\nparallel ${r.parallel.join(', ')}\nsequential ${r.sequential}`,
  );
  const c = r.recipe;
  // The payload: a 16-byte nonce, then the chunks, each with its tag; a header before it.
  const payload = 16 + c.bytes + 16 * Math.ceil(c.bytes / 65536);
  record(
    `${where}: the README's recipes: a File to an age file (${c.encryptedBytes} bytes) and back, a changed one refused (${c.refused}), a download offered, a file under a passphrase, a message under a key from a password`,
    c.header === 'age-encryption.org/v1\n' &&
      c.encryptedBytes > payload &&
      c.encryptedBytes < payload + 400 &&
      c.roundTrip &&
      c.refused === 'AuthenticationError' &&
      c.downloaded === 'data.bin.age' &&
      c.password &&
      c.wrongPassword === 'NoIdentityMatchError' &&
      c.message,
    JSON.stringify(c),
  );
  record(
    `${where}: Web Workers did the work (${r.workers} started, ${r.messages} messages back, ${r.done} job results, ${r.doneAfterFirst} after the first of ${r.parallel.length} calls${r.crossOriginIsolated ? '; cross-origin isolated' : ''})`,
    r.workers >= 1 && r.doneAfterFirst >= 1 && r.errors.length === 0,
    r.workers >= 1 && r.doneAfterFirst >= 1 && r.errors.length === 0 ? '' : `${r.errors.join('\n')}\n${log.join('\n')}`,
  );
}

/** Both bundlers' builds, and each built page in Chromium (a failed check where Chromium is not installed). */
export async function checkBundlers(dir: string): Promise<void> {
  if (!existsSync(ENGINES.chromium.binary)) return void record(`Chromium (${ENGINES.chromium.binary}) is not installed: run npm run engines:install`, false);
  const bin = (name: string) => join(dir, 'node_modules/.bin', name);
  if (build('vite build (no configuration)', [bin('vite'), 'build'], join(dir, 'vite-app'))) {
    await openBuilt('vite', join(dir, 'vite-app/dist'), 'index.html');
  }
  if (build('webpack 5, production mode, defaults (no configuration)', [bin('webpack'), '--mode', 'production'], join(dir, 'webpack-app'))) {
    copyFileSync(join(FIXTURE, 'webpack.html'), join(dir, 'webpack-app/dist/index.html'));
    await openBuilt('webpack', join(dir, 'webpack-app/dist'), 'index.html');
  }
}
