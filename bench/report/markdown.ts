/** The Markdown summary printed on stdout. */
import type { Report } from './json.js';
import { engineLabel } from './json.js';
import { parallelTables, poolNote } from './parallel.js';
import { codeSizeTable, overheadTable, readyTable, summaryNote, summaryTables, type Table } from './tables.js';

function render(table: Table, level = '###'): string {
  return [
    `${level} ${table.title}`,
    ...(table.note === undefined ? [] : ['', table.note]),
    '',
    `| ${table.header.join(' | ')} |`,
    `| ${table.header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...table.rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

export function markdown(report: Report, sizes: readonly number[]): string {
  const parts: string[] = [];
  if (report.status === 'interrupted') parts.push('**Interrupted (Ctrl-C): only the results finished by then.**');
  for (const engine of report.engines) {
    parts.push(
      `## ${engineLabel(engine)} — ${report.machine.cpu}, ${report.machine.cores} cores, ${report.date.slice(0, 16).replace('T', ' ')} UTC, profile ${report.profile}${engine.interrupted === true ? ', unfinished' : ''}`,
    );
    // fourfold/parallel first, when it was timed: its speedups are what such a run is for.
    const note = poolNote(engine);
    if (note !== undefined) parts.push(note);
    parts.push(...parallelTables(engine, report.machine.cores).map((t) => render(t)));
    parts.push(summaryNote, ...summaryTables(engine, sizes).map((t) => render(t)));
    const overhead = overheadTable(engine);
    if (overhead !== undefined) parts.push(render(overhead));
  }
  for (const table of [readyTable(report), codeSizeTable(report)]) if (table !== undefined) parts.push(render(table));
  return parts.join('\n\n') + '\n';
}
