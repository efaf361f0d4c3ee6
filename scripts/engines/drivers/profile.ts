/**
 * A browser's throwaway profile folder, made private by mkdtemp (0700).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function makeProfile(browser: string): string {
  return mkdtempSync(join(tmpdir(), `fourfold-${browser}-`));
}

/**
 * Removes a profile after its browser closed. A browser that was told to
 * close may still be flushing its caches into the folder (seen under load:
 * ENOTEMPTY while Chromium wrote its code cache), so removal retries, and a
 * folder that still cannot go is logged rather than failing the run: it
 * holds nothing but the browser's own caches, in a folder only we can read.
 */
export function removeProfile(profile: string, log: (line: string) => void): void {
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    log(`profile ${profile} left behind: ${(e as Error).message}`);
  }
}
