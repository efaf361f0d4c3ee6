/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver, with plain WebDriver HTTP
 * calls (no client library needed for: new session, navigate, delete).
 * MiniBrowser has no headless mode, so the driver runs under `xvfb-run -a`;
 * without a display, session creation hangs, hence the timeout on it. The
 * driver, Xvfb and MiniBrowser share one process group, ended together.
 * playwright-core cannot drive Debian's WebKit (it needs Playwright's build).
 */
import { freePort, spawnGroup } from './process.js';
import type { OpenPage } from './types.js';

const DRIVER = '/usr/bin/WebKitWebDriver';

/** The fields of WebDriver's answers read here: /status's ready, /session's sessionId. */
interface Answer {
  ready?: boolean;
  sessionId?: string;
}

async function webdriver(base: string, method: string, path: string, body: unknown, timeoutMs: number): Promise<Answer | undefined> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const json = (await res.json().catch(() => ({}))) as { value?: Answer };
  if (!res.ok) throw new Error(`WebDriver ${method} ${path}: HTTP ${res.status} ${JSON.stringify(json.value ?? json).slice(0, 300)}`);
  return json.value;
}

export const openWebkit: OpenPage = async (engine, url, log) => {
  const port = await freePort();
  const group = spawnGroup('xvfb-run', ['-a', DRIVER, `--port=${port}`], (l) => log(`driver: ${l}`));
  const base = `http://127.0.0.1:${port}`;
  try {
    // Wait for the driver to listen.
    const deadline = Date.now() + 15000;
    for (;;) {
      const ready = await webdriver(base, 'GET', '/status', undefined, 1000).then(
        (v) => v?.ready !== false,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error('WebKitWebDriver did not start listening within 15 s');
      await Promise.race([new Promise((r) => setTimeout(r, 150)), group.exited]);
    }
    const session = await webdriver(
      base,
      'POST',
      '/session',
      { capabilities: { alwaysMatch: { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: engine.binary, args: ['--automation'] } } } },
      30000,
    );
    const id = session?.sessionId;
    if (id === undefined) throw new Error('WebKitWebDriver answered /session without a sessionId');
    // Not awaited: navigation returns when the page has loaded, and the outcome comes through the page server.
    webdriver(base, 'POST', `/session/${id}/url`, { url }, 24 * 3600 * 1000).catch((e: Error) => log(`navigation: ${e.message}`));
    return {
      died: group.exited,
      close: async () => {
        await webdriver(base, 'DELETE', `/session/${id}`, undefined, 5000).catch(() => {});
        await group.kill();
      },
    };
  } catch (e) {
    await group.kill();
    throw e;
  }
};
