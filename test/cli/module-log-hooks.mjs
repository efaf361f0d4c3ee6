/** module-log.mjs's hook, on the loader's thread: each module's URL as it is loaded. */
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  appendFileSync(process.env.FOURFOLD_MODULE_LOG, `${url}\n`);
  return next(url, context);
}
