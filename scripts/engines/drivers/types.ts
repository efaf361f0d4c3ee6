/**
 * What a browser driver does: start the browser, open one URL, and later
 * shut everything down. Results travel through the page server (serve.ts),
 * not through the driver, so a driver needs no protocol beyond navigation.
 */
import type { Engine } from '../engines.js';

export interface BrowserSession {
  /** Closes the page and the browser, and ends every process it started. */
  close(): Promise<void>;
  /** Rejects if the browser goes away before close() (crash, failed launch). */
  died: Promise<never>;
}

/** `log` receives console output and driver diagnostics, for failure reports. */
export type OpenPage = (engine: Engine, url: string, log: (line: string) => void) => Promise<BrowserSession>;
