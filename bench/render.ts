/**
 * Re-renders a report from its results.json, without measuring anything:
 * `node --import tsx bench/render.ts [dir]` (default bench-report) rewrites
 * dir/index.html and prints the Markdown summary. Handy after changing the
 * charts, or to look at a results.json from another machine.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderHtml } from './report/html.js';
import { parseReport } from './report/json.js';
import { markdown } from './report/markdown.js';
import { summarySizes } from './report/summary.js';

const dir = resolve(process.argv[2] ?? 'bench-report');
const report = parseReport(readFileSync(join(dir, 'results.json'), 'utf8'));
process.stdout.write(markdown(report, summarySizes(report.settings.sizes)));
writeFileSync(join(dir, 'index.html'), renderHtml(report));
process.stderr.write(`wrote ${join(dir, 'index.html')}\n`);
