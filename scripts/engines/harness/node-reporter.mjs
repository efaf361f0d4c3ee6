// A node:test reporter (node --test --test-reporter=<this file>) that writes
// one JSON object per finished test, in the shape of harness/node-test.ts's
// TestResult plus the file, so Node runs are summarized like the others.
// Suites are not reported, except when they fail by themselves (a hook), or
// are skipped as a whole. Each file's own time, load included, is a line
// { file, fileMs } of its own: the test:complete event node --test gives
// the file (named by its path, relative to the working directory in Node
// 22 and later).
import { resolve } from 'node:path';

/** The event of a test file itself (its start or end), not of a test in it. */
const isFileEvent = (data) => data.nesting === 0 && data.file && resolve(data.name) === data.file;

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* report(source) {
  // Titles of the enclosing suites, per file, indexed by nesting level. An event's `file` is where
  // its test or suite was declared: a suite that test/helpers.ts's forEachTier declares names
  // helpers.ts, and its tests the test file. So events are taken as the running file's: the one
  // last started (node --test runs one file at a time on two cores, and reports each file's
  // tests in order).
  const stacks = new Map();
  let running = '';
  for await (const { type, data } of source) {
    if (type === 'test:dequeue' && isFileEvent(data)) running = data.file;
    if (type === 'test:complete' && isFileEvent(data)) {
      yield `${JSON.stringify({ file: data.file, fileMs: Math.round(data.details?.duration_ms ?? 0) })}\n`;
      continue;
    }
    if (type !== 'test:start' && type !== 'test:pass' && type !== 'test:fail') continue;
    const file = /\.test\.[cm]?[jt]s$/.test(data.file ?? '') ? data.file : running;
    const stack = stacks.get(file) ?? [];
    stacks.set(file, stack);
    if (type === 'test:start') {
      stack.length = data.nesting;
      stack[data.nesting] = data.name;
      continue;
    }
    const name = [...stack.slice(0, data.nesting), data.name].join(' > ');
    const details = data.details ?? {};
    const isSuite = details.type === 'suite';
    const error = details.error;
    const failureType = error?.failureType;
    let status = type === 'test:pass' ? 'pass' : 'fail';
    if (data.skip !== undefined) status = 'skip';
    else if (data.todo !== undefined) status = 'todo';
    if (isSuite && status === 'pass') continue;
    if (isSuite && status === 'fail' && failureType === 'subtestsFailed') continue;
    const reason = typeof (data.skip ?? data.todo) === 'string' ? (data.skip ?? data.todo) : undefined;
    const cause = error?.cause ?? error;
    const message = status === 'fail' ? String(cause?.stack ?? cause?.message ?? cause) : undefined;
    yield JSON.stringify({
      file,
      name: isSuite ? `${name} (suite)` : name,
      status,
      ms: Math.round((details.duration_ms ?? 0) * 10) / 10,
      ...(message ? { error: message } : {}),
      ...(reason ? { reason } : {}),
    }) + '\n';
  }
}
