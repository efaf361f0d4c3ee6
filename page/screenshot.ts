/**
 * The screenshots of docs/: the page after a quick run in this machine's
 * Chromium, at desktop width and at a phone's.
 *
 *   npm run build && tsx page/screenshot.ts [--out=docs]   (writes page-desktop.png and page-phone.png)
 *
 * Chromium is the engine matrix's (scripts/engines: its binary and flags);
 * the page is served cross-origin isolated by the runner's page server.
 */
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ENGINES } from '../scripts/engines/engines.js';
import { CHROMIUM_ARGS } from '../scripts/engines/drivers/chromium.js';
import { servePage } from '../scripts/engines/serve.js';
import { buildPage } from './build.js';

const out = resolve(
  process.argv
    .slice(2)
    .find((a) => a.startsWith('--out='))
    ?.slice(6) ?? 'docs',
);
const dir = mkdtempSync(join(tmpdir(), 'fourfold-page-shot-'));
const server = await servePage({ dir, entry: 'index.html' });
const browser = await chromium.launch({ executablePath: ENGINES.chromium.binary, headless: true, args: CHROMIUM_ARGS });
try {
  await buildPage(join(dir, 'bench'));
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(server.url.replace(/__run\.html$/, 'bench/index.html?run=quick'));
  await page.waitForFunction(() => ['done', 'failed'].includes(document.documentElement.dataset.state ?? ''), undefined, { timeout: 600_000, polling: 1000 });
  const state = await page.evaluate(() => document.documentElement.dataset.state);
  if (state !== 'done') throw new Error(`the page ended ${state}: ${await page.evaluate(() => document.getElementById('status')?.textContent)}`);
  await page.screenshot({ path: join(out, 'page-desktop.png'), fullPage: true });
  // The same result redrawn for a phone's width (the page redraws its charts on resize).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: join(out, 'page-phone.png'), fullPage: true });
  process.stderr.write(`wrote ${join(out, 'page-desktop.png')} and ${join(out, 'page-phone.png')}\n`);
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
