/**
 * WPE WebKit through cog, its reference launcher, with the headless platform
 * plug-in (no display needed). Nothing drives it: cog opens the URL, the page
 * reports through the page server, and the process group is ended after.
 * WPE WebKit 2.38 (Debian 12) has WebAssembly but no WebAssembly SIMD.
 */
import { spawnGroup } from './process.js';
import type { OpenPage } from './types.js';

export const openWpe: OpenPage = async (engine, url, log) => {
  // --webprocess-failure=exit: a crashed web process ends cog, which `died` reports.
  const group = spawnGroup(engine.binary, ['--platform=headless', '--webprocess-failure=exit', url], (l) => log(`cog: ${l}`));
  return { died: group.exited, close: () => group.kill() };
};
