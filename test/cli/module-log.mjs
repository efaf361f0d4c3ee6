/**
 * `node --import ./module-log.mjs PROGRAM`: appends to the file named by
 * FOURFOLD_MODULE_LOG, a line each, the URL of every module the program
 * loads (a load hook, node:module's register: Node 20.6 and later); as
 * it exits, every built-in module it loaded ("node:tty"), however it
 * reached it (import, or process.getBuiltinModule); and "process.stdout"
 * or "process.stderr" when the program (or Node) made that stream. The
 * hook's own thread loads some built-ins (worker_threads, net).
 */
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';

const log = process.env.FOURFOLD_MODULE_LOG;
if (log === undefined) throw new Error('module-log.mjs: FOURFOLD_MODULE_LOG names no file');
register(new URL('./module-log-hooks.mjs', import.meta.url));
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
