/**
 * The video check's verdict on one browser's run (page/test/video.ts):
 * what the page found (page/video/check.ts) against the server's log of
 * the encrypted file's requests. Each seek's network bytes are those of
 * the requests that reached the server between its mark and the next;
 * the chunks it needed are those of the plaintext the worker sent in
 * that time (and the next chunk of each range still being read), from
 * its log just before the seek's mark to its log just after the next
 * mark, a window that holds the server's (the media element goes on
 * reading while the page asks for a log and posts a mark); it may
 * fetch those and, for each range open in that time (asked for then, or
 * open when it began), its read-ahead and one chunk more: the chunk of a
 * read under way when the browser let the range go, or moved on (a range
 * that sent nothing in that time may still have had one), no more.
 */
import type { Served } from '../video/sw.js';
import type { Logged } from '../video/serve.js';

const CHUNK = 65536;
const SEALED = CHUNK + 16;
const FIRST_FRAME_LIMIT_MS = 500;

interface Seek {
  index: number;
  target: number;
  from: number;
  before: Served[];
  /** The worker's log just after the seek's mark: the end of the previous seek's window. */
  marked: Served[];
  firstFrameMs: number;
  frameTime: number;
  seekedMs: number;
  by: string;
}

/** What check.ts POSTs. */
export interface PageRun {
  size: number;
  play: { firstFrameMs: number; played: number };
  seeks: Seek[];
  compared: { ranges: number; bytes: number; mismatches: string[] };
  tampered: { error: number | undefined; message: string; at: number; ms: number };
  served: Served[];
  tamperedServed: Served[];
}

/**
 * The chunks the worker read for the ranges it answered between two
 * snapshots of its log: those of the bytes each sent in between, and the
 * one it was reading where it had not ended (a range that started in
 * between: from its first).
 */
function chunksBetween(before: readonly Served[], after: readonly Served[], path: string): Set<number> {
  const chunks = new Set<number>();
  const sentBefore = new Map(before.map((s) => [s.id, s.sent]));
  for (const s of after) {
    if (!s.path.endsWith(path)) continue;
    const was = sentBefore.get(s.id);
    if (was !== undefined && was === s.sent) continue;
    const from = s.start + (was ?? 0);
    const to = s.start + s.sent + (s.ended === 'done' ? 0 : 1);
    for (let i = Math.floor(from / CHUNK); i * CHUNK < to; i++) chunks.add(i);
  }
  return chunks;
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(2)} MiB`;

/** Problems (none: a pass) and a table of the figures. */
export function checkRun(run: PageRun, log: Logged[], o: { readAhead: number; changedChunk: number }): { problems: string[]; report: string } {
  const problems: string[] = [];
  const rows: string[] = [];
  if (!(run.play.played >= 2)) problems.push(`played ${run.play.played} s from the start, not 2`);
  rows.push(`  play from the start: first frame after ${run.play.firstFrameMs.toFixed(0)} ms, ${run.play.played.toFixed(2)} s played`);
  rows.push('  seek to   first frame   seeked    fetched (requests)   chunks needed   allowed (needed + read-ahead and a chunk per range open)');
  for (const [k, seek] of run.seeks.entries()) {
    const requests = log.filter((l) => l.name === 'film.webm.age' && l.phase === `seek ${seek.index}`);
    const fetched = requests.reduce((n, l) => n + l.sent, 0);
    const after = run.seeks[k + 1]?.marked ?? run.served;
    const needed = chunksBetween(seek.before, after, '/film.webm');
    // Each range open in the seek (asked for in it, or open when it began) has a read-ahead of its own, and a read under way.
    const openBefore = new Map(seek.before.map((s) => [s.id, s.ended === 'open']));
    const open = Math.max(1, after.filter((s) => s.path.endsWith('/film.webm') && (openBefore.get(s.id) ?? true)).length);
    const allowed = (needed.size + (o.readAhead + 1) * open) * SEALED;
    rows.push(
      `  ${seek.target.toFixed(2).padStart(6)} s ${seek.firstFrameMs.toFixed(0).padStart(8)} ms ${seek.seekedMs.toFixed(0).padStart(6)} ms   ${mib(fetched).padStart(10)} (${requests.length})   ${String(needed.size).padStart(6)}          ${mib(allowed)} (${open} open)`,
    );
    if (!(seek.firstFrameMs <= FIRST_FRAME_LIMIT_MS))
      problems.push(`seek to ${seek.target} s: first frame after ${seek.firstFrameMs.toFixed(0)} ms (${seek.by}), over ${FIRST_FRAME_LIMIT_MS}`);
    if (Math.abs(seek.frameTime - seek.target) > 1) problems.push(`seek to ${seek.target} s showed the frame at ${seek.frameTime} s`);
    if (fetched > allowed)
      problems.push(`seek to ${seek.target} s fetched ${fetched} bytes, over the ${allowed} of its ${needed.size} chunks and ${open} ranges' read-aheads`);
  }
  rows.push(`  the first frame by ${run.seeks[0]?.by ?? '-'}; read-ahead ${o.readAhead} chunks (${mib(o.readAhead * SEALED)})`);
  const c = run.compared;
  rows.push(`  ranges compared with the plaintext: ${c.ranges}, ${mib(c.bytes)}, ${c.mismatches.length} differ`);
  if (c.ranges === 0) problems.push('no range was compared');
  for (const m of c.mismatches.slice(0, 5)) problems.push(`a range differs from the plaintext: ${m}`);
  for (const s of run.tamperedServed) rows.push(`    tampered copy, ${s.range}: ${s.status}, ${s.sent} bytes sent, ${s.ended} ${s.error ?? ''}`);
  const t = run.tampered;
  rows.push(
    `  tampered copy: stopped with MediaError ${t.error ?? 'none'} (${t.message || 'no message'}) at ${t.at.toFixed(2)} s, ${t.ms.toFixed(0)} ms after play`,
  );
  if (t.error === undefined) problems.push('the tampered copy did not stop with an error');
  if (!run.tamperedServed.some((s) => s.status === 502 || s.error?.startsWith('AuthenticationError')))
    problems.push('no response of the tampered copy was a 502 or errored with AuthenticationError');
  const changedStart = o.changedChunk * CHUNK;
  for (const s of run.tamperedServed) {
    if (s.status !== 206 && s.status !== 200) continue;
    if (s.start < changedStart + CHUNK && s.start + s.sent > changedStart) problems.push(`the worker sent bytes of the changed chunk: ${s.start}+${s.sent}`);
  }
  return { problems, report: rows.join('\n') };
}
