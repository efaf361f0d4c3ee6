/**
 * workerd (Cloudflare Workers' runtime), run as `wrangler dev` runs it
 * locally: one process serving one Worker on 127.0.0.1, configured by a
 * Cap'n Proto text file written beside the Worker's main module. The
 * main module is a bundle from bundle.ts (target 'worker'); the kernels,
 * dist/kernels/<name>.wasm, are Wasm modules of the configuration, which
 * workerd compiles and the bundle imports (`./kernels/<name>.wasm`). One
 * request runs the suite; its response is the outcome.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { basename, dirname, join, relative } from 'node:path';
import { ROOT, type Engine } from '../engines.js';
import { WORKER_KERNELS } from '../bundle.js';
import type { PageOutcome } from '../serve.js';
import { freePort, spawnGroup } from './process.js';

const KERNELS = join(ROOT, 'dist/kernels');
/**
 * One this workerd supports (it refuses a date after its own). No
 * compatibility flags: no nodejs_compat, as fourfold's edge entry points
 * need nothing of Node's.
 */
const COMPATIBILITY_DATE = '2026-04-01';

/** The configuration of a Worker whose main module is `entry`, served on `port`. */
function config(entry: string, port: number): string {
  const dir = dirname(entry);
  const embed = (name: string, kind: string, file: string) => `(name = ${JSON.stringify(name)}, ${kind} = embed ${JSON.stringify(relative(dir, file))})`;
  const modules = [
    embed(basename(entry), 'esModule', entry),
    ...readdirSync(KERNELS)
      .filter((f) => f.endsWith('.wasm'))
      .map((f) => embed(`${WORKER_KERNELS}/${f}`, 'wasm', join(KERNELS, f))),
  ];
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "suite", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "suite")],
);
const worker :Workerd.Worker = (
  modules = [
    ${modules.join(',\n    ')}
  ],
  compatibilityDate = "${COMPATIBILITY_DATE}",
);
`;
}

/** GET / on the Worker: the response's body, or the connection's error (refused until workerd listens). */
function get(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function runWorker(
  engine: Engine,
  entry: string,
  options: { timeoutMs: number; onProgress?: (m: string) => void; log: (line: string) => void },
): Promise<PageOutcome> {
  const port = await freePort();
  const file = entry.replace(/\.js$/, '.capnp');
  writeFileSync(file, config(entry, port));
  let lastProgress = '';
  const onLine = (line: string) => {
    if (line.startsWith('# ')) options.onProgress?.((lastProgress = line.slice(2)));
    else options.log(line);
  };
  const group = spawnGroup(engine.binary, ['serve', file], onLine);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<PageOutcome>(
    (resolve) =>
      (timer = setTimeout(
        () => resolve({ ok: false, error: `timed out after ${options.timeoutMs} ms${lastProgress ? ` (last progress: ${lastProgress})` : ''}` }),
        options.timeoutMs,
      )),
  );
  const died = group.exited.catch((e: Error): PageOutcome => ({ ok: false, error: `${engine.id}: ${e.message}` }));
  try {
    const answer = ask(port, () => group.child.exitCode !== null).catch((e: Error): PageOutcome => ({ ok: false, error: `${engine.id}: ${e.message}` }));
    return await Promise.race([answer, timedOut, died]);
  } finally {
    clearTimeout(timer);
    await group.kill(1000);
  }
}

/** Asks the Worker for the outcome, once workerd listens: a refused connection is tried again until `gone()`. */
async function ask(port: number, gone: () => boolean): Promise<PageOutcome> {
  for (;;) {
    try {
      const { status, body } = await get(port);
      if (status !== 200) return { ok: false, error: `the Worker answered ${status}: ${body.slice(0, 2000)}` };
      return JSON.parse(body) as PageOutcome;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ECONNREFUSED' || gone()) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
