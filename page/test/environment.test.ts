/**
 * The benchmark page's account of the browser (page/app/environment.ts,
 * view.ts): what it says a browser without WebAssembly, SIMD, Workers or
 * isolation measures, which peer did not load, and why fourfold has no
 * simd tier. Part of npm test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserOf, notices, osOf } from '../app/environment.js';
import { runNotices } from '../app/results.js';
import { completeReport, environment } from './fixture.js';

describe('the environment', () => {
  const agents: [string, string, string, string][] = [
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131.0', 'V8', 'Windows'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Edge 131.0',
      'V8',
      'Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari 18.1',
      'JavaScriptCore',
      'iOS 18.1',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
      'Chrome (iOS) 131.0',
      'JavaScriptCore',
      'iOS 17.5',
    ],
    ['Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0', 'Firefox 132.0', 'SpiderMonkey', 'Android 14'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari 18.1',
      'JavaScriptCore',
      'macOS',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/60.5 Safari/605.1.15',
      'WebKitGTK (Safari-like) 60.5',
      'JavaScriptCore',
      'Linux',
    ],
  ];
  for (const [ua, browser, engine, os] of agents) {
    it(`reads ${browser} on ${os}`, () => {
      assert.deepEqual(browserOf(ua), { browser, engine });
      assert.equal(osOf(ua), os);
    });
  }

  it('says what a browser without WebAssembly, SIMD, Workers or isolation measures', () => {
    const text = (env: Parameters<typeof notices>[0]) =>
      notices(env)
        .map((n) => `${n.level}: ${n.text}`)
        .join('\n');
    assert.deepEqual(notices(environment()), []);
    assert.match(text(environment({ webAssembly: false, simd: false })), /^warn: This browser runs no WebAssembly.*js tier only/);
    assert.match(text(environment({ simd: false })), /^warn: This browser runs WebAssembly without SIMD.*js tier/);
    assert.match(text(environment({ workers: false })), /^warn: This browser has no Web Workers/);
    assert.match(text(environment({ crossOriginIsolated: false, sharedMemory: false })), /^info: This page is not cross-origin isolated.*plain arrays only/);
    assert.match(text(environment({ sharedMemory: false })), /^info: This page is cross-origin isolated, but the browser offers no SharedArrayBuffer/);
  });

  it('says which peer did not load, and why fourfold has no simd tier where the browser has SIMD', () => {
    const report = completeReport('quick');
    const result = {
      ...report.engines[0]!,
      warnings: [
        'libsodium-wrappers: cannot load (libsodium-wrappers: Aborted(CompileError: refused). Build with -sASSERTIONS for more info.); its columns are skipped, and the ops it alone checks (secretstream) are not timed',
        'hash-wasm 4.13.0: WebAssembly.compile(): refused; its columns are skipped',
        'coarse clock (100000 ns): sweep stride widened from 127 to 254',
      ],
    };
    assert.deepEqual(
      runNotices(result, environment()).map((n) => n.text),
      [
        'A peer did not load, so its columns are empty: libsodium-wrappers (libsodium-wrappers: Aborted(CompileError: refused)). secretstream is not timed, as only libsodium checks its bytes.',
        'A peer did not load, so its columns are empty: hash-wasm (WebAssembly.compile(): refused).',
      ],
    );
    const jsOnly = { ...result, warnings: [], libraries: result.libraries.filter((l) => l.name !== 'fourfold' && l.name !== 'webcrypto') };
    const texts = runNotices(jsOnly, environment()).map((n) => n.text);
    assert.match(texts[0]!, /has WebAssembly SIMD, but fourfold could not compile its kernels.*'wasm-unsafe-eval'/);
    assert.match(texts[1]!, /WebCrypto.*not available here/);
    assert.equal(runNotices(jsOnly, environment({ simd: false })).length, 1);
  });
});
