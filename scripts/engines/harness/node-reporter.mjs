// A node:test reporter (node --test --test-reporter=<this file>) that writes
// one JSON object per finished test, in the shape of harness/node-test.ts's
// TestResult plus the file, so Node runs are summarized like the others.
// Suites are not reported, except when they fail by themselves (a hook), or
// are skipped as a whole. Each file's own time, load included, is a line
// { file, fileMs } of its own: the test:complete event node --test gives
// the file (named by its path, relative to the working directory in Node
// 22 and later).
import { resolve } from 'node:path';

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* report(source) {
  // Titles of the enclosing suites, per file, indexed by nesting level.
  const stacks = new Map();
  for await (const { type, data } of source) {
    if (type === 'test:complete' && data.nesting === 0 && data.file && resolve(data.name) === data.file) {
      yield `${JSON.stringify({ file: data.file, fileMs: Math.round(data.details?.duration_ms ?? 0) })}\n`;
      continue;
    }
    if (type !== 'test:start' && type !== 'test:pass' && type !== 'test:fail') continue;
    const file = data.file ?? '';
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
