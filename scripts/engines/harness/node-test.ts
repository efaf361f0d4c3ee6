/**
 * A small stand-in for `node:test`, used where the test files run outside
 * Node (browsers, Deno, Bun): the bundler maps `node:test` to this module.
 *
 * It covers what the test suite uses, with Node's semantics:
 * - `describe` / `it` / `test` (also `.skip`, `.todo`), the `{ skip, todo }`
 *   options, nested suites, sync, async and callback-style tests;
 * - `before` / `after` / `beforeEach` / `afterEach` at file level and in suites;
 * - a suite's body runs when `describe` is called (collection), its hooks and
 *   tests run later, one at a time, in declaration order;
 * - a skipped suite's body is not run (Node does not run it either); it is
 *   reported as one skipped entry;
 * - a failing `before` hook fails every test of its suite.
 *
 * Registrations go to a collector on `globalThis`, so the test bundles (each
 * with its own copy of this module) and the runner (`runCollected`, in the
 * suite entry) share it. Results are plain JSON (see `TestResult`).
 */

type Fn = (this: unknown, t: TestContext, done?: (err?: unknown) => void) => unknown;
type HookFn = (this: unknown, done?: (err?: unknown) => void) => unknown;

export interface TestOptions {
  skip?: boolean | string;
  todo?: boolean | string;
  only?: boolean;
  timeout?: number;
  concurrency?: number | boolean;
}

export interface TestResult {
  /** Suite titles and the test title, joined with ' > '. */
  name: string;
  status: 'pass' | 'fail' | 'skip' | 'todo';
  ms: number;
  /** Failure message and stack (status 'fail'), or the skip/todo reason. */
  error?: string;
  reason?: string;
}

interface TestNode {
  kind: 'test';
  name: string;
  options: TestOptions;
  fn?: Fn;
}

interface SuiteNode {
  kind: 'suite';
  name: string;
  options: TestOptions;
  children: (TestNode | SuiteNode)[];
  before: HookFn[];
  after: HookFn[];
  beforeEach: HookFn[];
  afterEach: HookFn[];
  /** What was thrown while collecting (the body threw, or its promise rejected), boxed: it may be undefined. */
  collectError?: { value: unknown };
  pending?: Promise<unknown>;
}

interface Collector {
  root: SuiteNode;
  current: SuiteNode;
  running?: { name: string; uncaught: unknown[] };
}

const KEY = Symbol.for('fourfold.engines.node-test');

function newSuite(name: string, options: TestOptions): SuiteNode {
  return { kind: 'suite', name, options, children: [], before: [], after: [], beforeEach: [], afterEach: [] };
}

function collector(): Collector {
  const g = globalThis as unknown as Record<symbol, Collector | undefined>;
  if (!g[KEY]) {
    const root = newSuite('', {});
    g[KEY] = { root, current: root };
  }
  return g[KEY]!;
}

/** Normalizes Node's overloads: (name?, options?, fn?). */
function args(a: unknown, b: unknown, c: unknown): { name: string; options: TestOptions; fn?: Fn } {
  let name = '<anonymous>';
  let options: TestOptions = {};
  let fn: Fn | undefined;
  for (const x of [a, b, c]) {
    if (typeof x === 'string') name = x;
    else if (typeof x === 'function') fn = x as Fn;
    else if (x && typeof x === 'object') options = x as TestOptions;
  }
  if (name === '<anonymous>' && fn?.name) name = fn.name;
  return { name, options, fn };
}

// ------------------------------------------------------------------ registration (the node:test API)

export function describe(a?: unknown, b?: unknown, c?: unknown): void {
  const { name, options, fn } = args(a, b, c);
  const col = collector();
  const suite = newSuite(name, options);
  col.current.children.push(suite);
  if (options.skip || options.todo || !fn) return;
  const parent = col.current;
  col.current = suite;
  try {
    const r = (fn as unknown as () => unknown)();
    if (r && typeof (r as Promise<unknown>).then === 'function') {
      suite.pending = (r as Promise<unknown>).catch((e) => (suite.collectError = { value: e }));
    }
  } catch (e) {
    suite.collectError = { value: e };
  } finally {
    col.current = parent;
  }
}

export function it(a?: unknown, b?: unknown, c?: unknown): void {
  const { name, options, fn } = args(a, b, c);
  collector().current.children.push({ kind: 'test', name, options: fn ? options : { todo: true, ...options }, fn });
}

export const test = it;
export const suite = describe;

for (const f of [describe, it] as ((a?: unknown, b?: unknown, c?: unknown) => void)[]) {
  const g = f as unknown as Record<string, unknown>;
  g.skip = (a?: unknown, b?: unknown, c?: unknown) => {
    const x = args(a, b, c);
    f(x.name, { ...x.options, skip: true }, x.fn);
  };
  g.todo = (a?: unknown, b?: unknown, c?: unknown) => {
    const x = args(a, b, c);
    f(x.name, { ...x.options, todo: true }, x.fn);
  };
  g.only = f;
}

function hook(kind: 'before' | 'after' | 'beforeEach' | 'afterEach') {
  return (fn: HookFn) => {
    collector().current[kind].push(fn);
  };
}
export const before = hook('before');
export const after = hook('after');
export const beforeEach = hook('beforeEach');
export const afterEach = hook('afterEach');

/** `mock` and `run` exist in node:test but are not provided here. */
export default Object.assign(test, { describe, it, test, suite, before, after, beforeEach, afterEach });

// ------------------------------------------------------------------ running

export interface TestContext {
  name: string;
  signal: AbortSignal;
  diagnostic(message: string): void;
  skip(message?: string): void;
  todo(message?: string): void;
}

/** An error as a readable message with its stack (also used by shell-host.ts). */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const stack = e.stack ?? '';
    const head = `${e.name}: ${e.message}`;
    // V8 puts the message first in the stack; SpiderMonkey and JSC do not.
    return stack.includes(e.message) ? stack : `${head}\n${stack}`;
  }
  try {
    return `thrown: ${typeof e === 'object' ? JSON.stringify(e) : String(e)}`;
  } catch {
    return `thrown: ${String(e)}`;
  }
}

/** Calls a test or hook function: a returned promise is awaited; a function declaring `done` is callback-style. */
function call(fn: Fn | HookFn, withContext: TestContext | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const arity = withContext ? 2 : 1;
    const callbackStyle = fn.length >= arity;
    const done = (err?: unknown) => (err ? reject(err) : resolve());
    try {
      const r = withContext
        ? (fn as Fn).call(undefined, withContext, callbackStyle ? done : undefined)
        : (fn as HookFn).call(undefined, callbackStyle ? done : undefined);
      if (callbackStyle) return;
      if (r && typeof (r as Promise<unknown>).then === 'function') (r as Promise<unknown>).then(() => resolve(), reject);
      else resolve();
    } catch (e) {
      reject(e);
    }
  });
}

const now = () => (globalThis.performance ? performance.now() : Date.now());

/** Hooks inherited from enclosing suites, outermost first (beforeEach) or innermost first (afterEach). */
interface Inherited {
  beforeEach: HookFn[];
  afterEach: HookFn[];
  path: string[];
}

async function runSuite(s: SuiteNode, inh: Inherited, out: TestResult[], col: Collector, progress?: (name: string) => void): Promise<void> {
  const path = s.name ? [...inh.path, s.name] : inh.path;
  const label = (n: string) => [...path, n].join(' > ');
  const suiteLabel = path.join(' > ');
  if (s.pending !== undefined) await s.pending;

  if (s.options.skip || s.options.todo) {
    const status = s.options.skip ? 'skip' : 'todo';
    const r = s.options.skip ?? s.options.todo;
    out.push({ name: suiteLabel + ' (suite)', status, ms: 0, ...(typeof r === 'string' ? { reason: r } : {}) });
    return;
  }
  if (s.collectError !== undefined) {
    out.push({ name: suiteLabel + ' (suite body)', status: 'fail', ms: 0, error: describeError(s.collectError.value) });
    return;
  }

  // A failing `before` hook fails every test below it, as in Node.
  // Boxed: a hook may throw undefined, which still fails it.
  let hookError: { value: unknown } | undefined;
  for (const h of s.before) {
    try {
      await call(h, undefined);
    } catch (e) {
      hookError = { value: e };
      break;
    }
  }
  const each: Inherited = { beforeEach: [...inh.beforeEach, ...s.beforeEach], afterEach: [...s.afterEach, ...inh.afterEach], path };

  for (const c of s.children) {
    if (c.kind === 'suite') {
      if (hookError !== undefined)
        out.push({ name: label(c.name) + ' (suite)', status: 'fail', ms: 0, error: `before hook failed: ${describeError(hookError.value)}` });
      else await runSuite(c, each, out, col, progress);
      continue;
    }
    const name = label(c.name);
    if (c.options.skip || c.options.todo || !c.fn) {
      const status = c.options.skip ? 'skip' : 'todo';
      const r = c.options.skip ?? c.options.todo;
      out.push({ name, status, ms: 0, ...(typeof r === 'string' ? { reason: r } : {}) });
      continue;
    }
    if (hookError !== undefined) {
      out.push({ name, status: 'fail', ms: 0, error: `before hook failed: ${describeError(hookError.value)}` });
      continue;
    }
    progress?.(name);
    const t0 = now();
    let skipped: string | undefined;
    // Hermes has no AbortController: there, a signal that never aborts.
    const controller = typeof AbortController === 'function' ? new AbortController() : { signal: { aborted: false } as AbortSignal, abort: () => {} };
    const ctx: TestContext = {
      name: c.name,
      signal: controller.signal,
      diagnostic: () => {},
      skip: (m) => void (skipped = m ?? ''),
      todo: (m) => void (skipped = m ?? ''),
    };
    col.running = { name, uncaught: [] };
    // Boxed: a test that throws or rejects with undefined still fails.
    let error: { value: unknown } | undefined;
    try {
      for (const h of each.beforeEach) await call(h, undefined);
      await call(c.fn, ctx);
    } catch (e) {
      error = { value: e };
    }
    for (const h of each.afterEach) {
      try {
        await call(h, undefined);
      } catch (e) {
        error ??= { value: e };
      }
    }
    controller.abort();
    // Errors thrown asynchronously (outside the test's promise) while it ran.
    if (error === undefined && col.running.uncaught.length) error = { value: col.running.uncaught[0] };
    col.running = undefined;
    const ms = Math.round((now() - t0) * 10) / 10;
    if (error !== undefined) out.push({ name, status: 'fail', ms, error: describeError(error.value) });
    else if (skipped !== undefined) out.push({ name, status: 'skip', ms, ...(skipped ? { reason: skipped } : {}) });
    else out.push({ name, status: 'pass', ms });
  }

  for (const h of s.after) {
    try {
      await call(h, undefined);
    } catch (e) {
      out.push({ name: (suiteLabel || '<file>') + ' (after hook)', status: 'fail', ms: 0, error: describeError(e) });
    }
  }
}

/**
 * Runs everything registered since the last call, then forgets it (so the
 * next test file starts from an empty collector). Never throws: failures
 * are results.
 */
export async function runCollected(progress?: (name: string) => void): Promise<TestResult[]> {
  const col = collector();
  // A run inside a running test (the harness's own test) gives that test back its state at the end.
  const outer = col.running;
  const root = col.root;
  const fresh = newSuite('', {});
  col.root = fresh;
  col.current = fresh;
  const out: TestResult[] = [];
  const onError = (e: unknown) => {
    if (col.running) col.running.uncaught.push(e);
  };
  // Browsers and Deno dispatch 'error' / 'unhandledrejection' events on globalThis.
  const g = globalThis as unknown as {
    addEventListener?: (t: string, f: (ev: never) => void) => void;
    removeEventListener?: (t: string, f: (ev: never) => void) => void;
  };
  const onEvent = (ev: { error?: unknown; reason?: unknown; preventDefault?: () => void }) => {
    if (!col.running) return;
    onError(ev.error ?? ev.reason);
    ev.preventDefault?.();
  };
  g.addEventListener?.('error', onEvent);
  g.addEventListener?.('unhandledrejection', onEvent);
  try {
    await runSuite(root, { beforeEach: [], afterEach: [], path: [] }, out, col, progress);
  } finally {
    g.removeEventListener?.('error', onEvent);
    g.removeEventListener?.('unhandledrejection', onEvent);
    col.running = outer;
  }
  return out;
}
