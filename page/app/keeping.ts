/**
 * Keeping and sharing a result on the page: the results object as a
 * JSON download, and a link that carries its summary (share.ts).
 */
import type { Report } from '../../bench/report/json.js';
import type { Environment } from './environment.js';
import { browserId } from './results.js';
import { encodeHash, summarize } from './share.js';

/** Downloads `report` as fourfold-page-BROWSER-DATE.json. */
export function download(report: Report, environment: Environment): void {
  const blob = new Blob([JSON.stringify(report, null, 1) + '\n'], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `fourfold-page-${browserId(environment)}-${report.date.slice(0, 16).replace(/[:T]/g, '-')}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** Puts a link to `report`'s summary in `field` and on the clipboard, saying which in `status`. */
export async function copyLink(report: Report, field: HTMLInputElement, status: (text: string) => void): Promise<void> {
  const url = `${location.origin}${location.pathname}${await encodeHash(summarize(report))}`;
  field.value = url;
  field.hidden = false;
  try {
    await navigator.clipboard.writeText(url);
    status(`Link copied (${url.length} characters).`);
  } catch {
    field.select();
    status('Copy the link below (this browser did not let the page use the clipboard).');
  }
}
