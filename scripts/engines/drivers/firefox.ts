/**
 * Firefox ESR (Debian's) through puppeteer-core over WebDriver BiDi.
 * playwright-core cannot drive it (Playwright needs its patched Firefox), and
 * the npm geckodriver package downloads a binary, which fails here.
 */
import puppeteer from 'puppeteer-core';
import { makeProfile, removeProfile } from './profile.js';
import type { OpenPage } from './types.js';

export const openFirefox: OpenPage = async (engine, url, log) => {
  const profile = makeProfile('firefox');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: engine.binary,
    headless: true,
    userDataDir: profile,
    // No network here: keep Firefox from trying updates, captive-portal and telemetry pings.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'toolkit.telemetry.enabled': false,
    },
  });
  let closing = false;
  const died = new Promise<never>((_, reject) => browser.on('disconnected', () => closing || reject(new Error('Firefox disconnected unexpectedly'))));
  died.catch(() => {});
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  page.on('console', (m) => log(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log(`pageerror: ${e instanceof Error ? e.message : String(e)}`));
  // Not awaited: the suite runs inside the page for a while; its outcome comes through the page server.
  page.goto(url, { waitUntil: 'domcontentloaded', timeout: 0 }).catch((e: Error) => log(`navigation: ${e.message}`));
  return {
    died,
    close: async () => {
      closing = true;
      await browser.close().catch(() => {});
      removeProfile(profile, log);
    },
  };
};
