/**
 * Once a fourfold/parallel call has resolved, nothing it left keeps the
 * process alive: no timer, no worker held for a job, for its start or for
 * its stop. Each call of every family (and terminate(), and warm()) runs
 * in a process of its own (fixtures/after-call.mjs), first while its
 * workers start, then with them ready; the process lists what keeps it
 * alive right after each call resolved and not before it, and must then
 * exit by itself, 0. Node, Deno and Bun: it starts processes; an engine
 * that does not list what keeps it alive (process.getActiveResourcesInfo)
 * is checked for the exit alone, and the test says so.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { NO_PROCESSES, runFixture } from './fixture-process.js';

const FIXTURE = new URL('./fixtures/after-call.mjs', import.meta.url);
const DIST = new URL('../../dist/', import.meta.url).href;

/** The calls, as the fixture names them: one or more per family, each kind of scheduling (pieces, chained, handed out, streams, lanes). */
const CALLS = [
  'chacha20',
  'xchacha20',
  'chacha20poly1305.encrypt',
  'xchacha20poly1305.decrypt',
  'salsa20',
  'secretbox.open',
  'poly1305',
  'blake3',
  'serpent.ctr',
  'serpent.cbc.encrypt',
  'serpent.cbc.decrypt',
  'secretstream.encryptStream',
  'secretstream.decryptStream',
  'scrypt',
  'argon2id',
  'age.encrypt',
  'age.encrypt passphrase',
  'age.decrypt',
  'age.encryptStream',
  'age.decryptStream',
  'age.decryptRange',
  'age.encryptFile',
  'age.decryptFile',
  'warm',
  'terminate',
];

interface Seen {
  /** Whether the engine lists what keeps it alive. */
  canTell: boolean;
  /** What kept the process alive right after the call resolved, and not before it: the first call, and the call again with the workers ready. */
  cold: string[];
  warm: string[];
  status: unknown;
}

/** Runs the fixture for `call` in a new process of this engine; rejects unless it exits by itself, 0, within 60 s. */
async function runCall(call: string): Promise<Seen> {
  return JSON.parse(await runFixture(FIXTURE, [DIST, call])) as Seen;
}

it('after any call resolves, nothing it left keeps the process alive, and the process exits by itself', {
  skip: NO_PROCESSES,
  timeout: 600_000,
}, async (t) => {
  const kept: string[] = [];
  let told = true;
  // Two processes at a time: each takes a fraction of a second, mostly starting up.
  for (let i = 0; i < CALLS.length; i += 2) {
    await Promise.all(
      CALLS.slice(i, i + 2).map(async (call) => {
        const seen = await runCall(call);
        told &&= seen.canTell;
        for (const when of ['cold', 'warm'] as const)
          if (seen[when].length > 0) kept.push(`${call} (${when}): ${seen[when].join(', ')}; ${JSON.stringify(seen.status)}`);
      }),
    );
  }
  assert.deepEqual(kept, [], 'what kept the process alive after the call resolved');
  if (!told) t.diagnostic('this engine does not list what keeps it alive (process.getActiveResourcesInfo): only the exit was checked');
});
