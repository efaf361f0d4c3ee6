/**
 * Chromium (Debian's, /usr/bin/chromium) through playwright-core, which
 * launches a given executable and never downloads a browser of its own.
 */
import { chromium } from 'playwright-core';
import { makeProfile, removeProfile } from './profile.js';
import type { OpenPage } from './types.js';

/**
 * Chromium's flags here. The network is closed: without the
 * background-networking flags Chromium keeps retrying its update, sync and
 * QUIC probes. (page/screenshot.ts launches it with them too.)
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const openChromium: OpenPage = async (engine, url, log) => {
  const profile = makeProfile('chromium');
  const context = await chromium.launchPersistentContext(profile, { executablePath: engine.binary, headless: true, args: CHROMIUM_ARGS });
  let closing = false;
  const died = new Promise<never>((_, reject) => context.on('close', () => closing || reject(new Error('Chromium closed unexpectedly'))));
  died.catch(() => {});
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => log(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log(`pageerror: ${e.message}`));
  page.on('crash', () => log('page crashed'));
  // Not awaited: the suite runs inside the page for a while; its outcome comes through the page server.
  page.goto(url, { waitUntil: 'commit' }).catch((e: Error) => log(`navigation: ${e.message}`));
  return {
    died,
    close: async () => {
      closing = true;
      await context.close().catch(() => {});
      removeProfile(profile, log);
    },
  };
};
