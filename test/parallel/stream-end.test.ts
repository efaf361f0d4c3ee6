/**
 * Every way a fourfold/parallel stream can end lets go of its worker and
 * the stream's state there, and the process then exits by itself: each
 * ending (finished, its source failing, a chunk that is not bytes,
 * cancelled, aborted, its sink failing, never used) at each moment it can
 * come (before any chunk, while the worker opens the stream, after the
 * header, mid-way, while the stream flushes), in both directions, each in
 * a process of its own (fixtures/stream-end.mjs). The caller sees the
 * error that ended the stream (the sink's own, say), never the stream's
 * internal state. Node, Deno and Bun: it starts processes.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { NO_PROCESSES, runFixture } from './fixture-process.js';

const FIXTURE = new URL('./fixtures/stream-end.mjs', import.meta.url);
const MODULE = new URL('../../dist/parallel/index.js', import.meta.url).href;

/** The endings, each with the moments it can come at, and what the caller must see. */
const ENDINGS: { ending: string; moments: string[]; outcome: RegExp | 'resolved' }[] = [
  { ending: 'unused', moments: ['-'], outcome: 'resolved' },
  { ending: 'finished', moments: ['-'], outcome: 'resolved' },
  { ending: 'source-error', moments: ['start', 'midway'], outcome: /^Error: the source failed$/ },
  { ending: 'bad-chunk', moments: ['start', 'midway'], outcome: /^TypeError: chunk must be/ },
  { ending: 'cancel', moments: ['start', 'opening', 'header', 'midway', 'flush'], outcome: 'resolved' },
  { ending: 'abort', moments: ['start', 'opening', 'header', 'midway', 'flush'], outcome: 'resolved' },
  { ending: 'sink-error', moments: ['midway', 'flush'], outcome: /^Error: the sink failed$/ },
];

interface Outcome {
  resolved: boolean;
  error: string | null;
  streams: number;
}

/** Runs the fixture in a new process of this engine; rejects unless it exits by itself, 0, within 60 s. */
async function runCase(direction: string, ending: string, moment: string): Promise<Outcome> {
  return JSON.parse(await runFixture(FIXTURE, [MODULE, direction, ending, moment])) as Outcome;
}

for (const direction of ['encryptStream', 'decryptStream']) {
  it(`${direction}: every ending at every moment lets go of the worker, the process exits, and the caller sees the cause`, {
    skip: NO_PROCESSES,
    timeout: 600_000,
  }, async () => {
    const cases = ENDINGS.flatMap((e) => e.moments.map((moment) => ({ ...e, moment })));
    // Two processes at a time: each takes a fraction of a second, mostly starting up.
    for (let i = 0; i < cases.length; i += 2) {
      await Promise.all(
        cases.slice(i, i + 2).map(async ({ ending, moment, outcome }) => {
          const label = `${direction}, ${ending} at ${moment}`;
          const seen = await runCase(direction === 'encryptStream' ? 'encrypt' : 'decrypt', ending, moment);
          assert.equal(seen.streams, 0, `${label}: a worker still holds the stream's state`);
          if (outcome === 'resolved') assert.ok(seen.resolved, `${label}: ${seen.error}`);
          else assert.match(seen.error ?? 'no error', outcome, label);
        }),
      );
    }
  });
}
