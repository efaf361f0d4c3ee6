/**
 * The page server for browser runs: serves one directory on 127.0.0.1 at a
 * random port, plus a page that imports the entry module, awaits its
 * default export and reports back. The page both leaves the outcome on
 * `window.__fourfoldResult` (for drivers that poll) and POSTs it to
 * /__result, which is what resolves `result` here: that way a browser that
 * has no driver at all (cog) reports the same way.
 *
 * The page's script is a file of its own (/__run.js), not inline, so that
 * a run can serve everything under a Content-Security-Policy as strict as
 * `script-src 'self'` (the `headers` option). It records every
 * `securitypolicyviolation` event from its first line on, in
 * `window.__fourfoldViolations`, for the tests of such a policy.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** What the page sends: the entry's resolved value, or why there is none. */
export type PageOutcome = { ok: true; value: unknown } | { ok: false; error: string };

export interface PageServer {
  /** The page that runs `entry` (a path relative to the served directory). */
  url: string;
  /** Resolves with the first outcome the page POSTs. */
  result: Promise<PageOutcome>;
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>fourfold engine run</title>
<script type="module" src="/__run.js"></script>
`;

/** What the page runs: a module script, so that `script-src 'self'` allows it. */
function runner(entry: string): string {
  return `const violations = (window.__fourfoldViolations = []);
document.addEventListener('securitypolicyviolation', (e) => violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
const post = (path, body) => fetch(path, { method: 'POST', body: JSON.stringify(body) });
const describe = (e) => (e && e.stack ? (String(e.stack).includes(e.message) ? String(e.stack) : e.name + ': ' + e.message + '\\n' + e.stack) : String(e));
let outcome;
try {
  const mod = await import(${JSON.stringify('./' + entry)});
  const value = await mod.default({ progress: (message) => { post('/__progress', message).catch(() => {}); } });
  outcome = { ok: true, value };
} catch (e) {
  outcome = { ok: false, error: describe(e) };
}
window.__fourfoldResult = outcome;
await post('/__result', outcome);
document.title = 'done';
`;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (s += c));
    req.on('end', () => resolve(s));
    req.on('error', reject);
  });
}

export interface PageOptions {
  /** The directory served. */
  dir: string;
  /** The entry module, relative to `dir`. */
  entry: string;
  onProgress?: (message: string) => void;
  /** Headers added to every response, e.g. `{ 'content-security-policy': "script-src 'self'" }`. */
  headers?: Record<string, string>;
}

export async function servePage(options: PageOptions): Promise<PageServer> {
  const root = normalize(options.dir + sep);
  let deliver!: (o: PageOutcome) => void;
  const result = new Promise<PageOutcome>((resolve) => (deliver = resolve));
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (req.method === 'POST' && path === '/__result') {
        const text = await body(req);
        res.end('ok');
        try {
          deliver(JSON.parse(text) as PageOutcome);
        } catch (e) {
          deliver({ ok: false, error: `unreadable result from the page: ${String(e)}` });
        }
        return;
      }
      if (req.method === 'POST' && path === '/__progress') {
        options.onProgress?.(JSON.parse(await body(req)) as string);
        res.end('ok');
        return;
      }
      res.setHeader('cache-control', 'no-store');
      // Cross-origin isolation (everything here is same-origin): browsers then give
      // performance.now() fine resolution (Chromium 5 us instead of 100 us).
      res.setHeader('cross-origin-opener-policy', 'same-origin');
      res.setHeader('cross-origin-embedder-policy', 'require-corp');
      for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
      if (path === '/' || path === '/__run.html') {
        res.setHeader('content-type', TYPES['.html']!);
        res.end(PAGE);
        return;
      }
      if (path === '/__run.js') {
        res.setHeader('content-type', TYPES['.js']!);
        res.end(runner(options.entry));
        return;
      }
      const file = normalize(join(root, path));
      if (!file.startsWith(root)) {
        res.statusCode = 403;
        res.end();
        return;
      }
      const data = await readFile(file);
      res.setHeader('content-type', TYPES[extname(file)] ?? 'application/octet-stream');
      res.end(data);
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/__run.html`,
    result,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
