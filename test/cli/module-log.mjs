/**
 * `node --import ./module-log.mjs PROGRAM`: appends to the file named by
 * FOURFOLD_MODULE_LOG, a line each, the URL of every module the program
 * loads (a load hook); as it exits, every built-in module it loaded
 * ("node:tty"), however it reached it (import, or
 * process.getBuiltinModule); and "process.stdout" or "process.stderr"
 * when the program (or Node) made that stream. The hook is
 * node:module's registerHooks where Node has it (22.15 and later, on
 * the program's thread), else register (20.6 and later), whose own
 * thread loads some built-ins (worker_threads, net) and which newer
 * Nodes deprecate with a warning on stderr, a stream the log would count.
 */
import { appendFileSync } from 'node:fs';
import * as nodeModule from 'node:module';

const log = process.env.FOURFOLD_MODULE_LOG;
if (log === undefined) throw new Error('module-log.mjs: FOURFOLD_MODULE_LOG names no file');
if (typeof nodeModule.registerHooks === 'function') {
  nodeModule.registerHooks({
    load(url, context, next) {
      appendFileSync(log, `${url}\n`);
      return next(url, context);
    },
  });
} else {
  nodeModule.register(new URL('./module-log-hooks.mjs', import.meta.url));
}
for (const name of ['stdout', 'stderr']) {
  const made = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: made.enumerable,
    get() {
      appendFileSync(log, `process.${name}\n`);
      return made.get.call(process);
    },
  });
}
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/'));
  appendFileSync(log, builtins.map((m) => `node:${m.slice('NativeModule '.length)}\n`).join(''));
});
