/**
 * The code-size budgets (bench/node/size-budgets.ts) against the package as
 * it is: every page, built by a default `vite build`, loads no more gzip
 * bytes than its budget, and every module entry of package.json has a page.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { measureCodeSize } from '../node/code-size.js';
import { PAGES } from '../node/size-budgets.js';

it('a budget for every module entry of package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  const modules = Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object' && target.types !== undefined)
    .map(([k]) => (k === '.' ? 'fourfold' : `fourfold/${k.slice(2)}`));
  const unbudgeted = modules.filter((m) => !PAGES.some((p) => p.name === `* from '${m}'` && p.budget !== undefined));
  assert.deepEqual(unbudgeted, [], 'no budgeted page imports all of these');
});

it('every page loads no more than its budget (gzip, a default vite build)', async () => {
  const { pages } = await measureCodeSize({ peers: false });
  assert.equal(pages.length, PAGES.length);
  const over = pages.filter((p) => p.gzipBytes > p.budget!).map((p) => `${p.name}: ${p.gzipBytes} bytes, budget ${p.budget}`);
  assert.deepEqual(over, []);
  for (const p of pages) {
    const scripts = p.files.filter((f) => f.file.endsWith('.js'));
    assert.ok(scripts.length > 0, `${p.name}: no script loaded`);
    // Every page uses a kernel, which its main chunk carries; the pool's worker gets its kernels from the pool
    // (runtime/kernel-registry.ts kernelsFor) and carries none.
    const kernels = p.files.filter((f) => f.hasKernel && !/worker/.test(f.file));
    assert.ok(kernels.length > 0, `${p.name}: no kernel found in the page's scripts`);
    for (const worker of p.files.filter((f) => /worker/.test(f.file))) assert.ok(!worker.hasKernel, `${p.name}: ${worker.file} embeds a kernel`);
    // A page with the pool has its js-tier twin too, for engines that cannot run the kernels; it embeds none either.
    const workers = p.files.filter((f) => /worker/.test(f.file)).length;
    assert.equal(p.jsTierOnly.length, workers, `${p.name}: ${workers} simd workers, ${p.jsTierOnly.length} js-tier workers`);
    for (const worker of p.jsTierOnly) assert.ok(!worker.hasKernel, `${p.name}: ${worker.file} embeds a kernel`);
    // package.json's "browser" field leaves the native tier (node:crypto) out of every browser build.
    for (const file of [...p.files, ...p.jsTierOnly]) assert.ok(!file.hasNative, `${p.name}: ${file.file} carries node:crypto's tier`);
  }
});
