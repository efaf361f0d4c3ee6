// Runs in a fresh process (plain JavaScript, so no TypeScript loader is
// timed): imports one library, initializes it (fourfold: ready(), which
// decodes and compiles the kernels), makes one first call, and prints the
// time of each step as JSON. cli-start.ts runs it in its rounds. Only
// dynamic import and performance.now() are used, so another runtime can
// run it too.
const probes = {
  async fourfold() {
    const { ready } = await import('fourfold');
    const { chacha20poly1305 } = await import('fourfold/chacha');
    return { init: () => ready(), call: () => chacha20poly1305(new Uint8Array(32), new Uint8Array(12)).encrypt(new Uint8Array(64)) };
  },
  async 'fourfold-js'() {
    const { ready } = await import('fourfold');
    const { chacha20poly1305 } = await import('fourfold/chacha');
    return { init: () => ready({ tier: 'js' }), call: () => chacha20poly1305(new Uint8Array(32), new Uint8Array(12)).encrypt(new Uint8Array(64)) };
  },
  async noble() {
    const { chacha20poly1305 } = await import('@noble/ciphers/chacha.js');
    return { init: () => undefined, call: () => chacha20poly1305(new Uint8Array(32), new Uint8Array(12)).encrypt(new Uint8Array(64)) };
  },
  async sodium() {
    const sodium = (await import('libsodium-wrappers-sumo')).default;
    return {
      init: () => sodium.ready,
      call: () => sodium.crypto_aead_chacha20poly1305_ietf_encrypt(new Uint8Array(64), null, null, new Uint8Array(12), new Uint8Array(32)),
    };
  },
};

const name = globalThis.process?.argv?.[2] ?? globalThis.Deno?.args?.[0];
const t0 = performance.now();
const library = await probes[name]();
const t1 = performance.now();
await library.init();
const t2 = performance.now();
library.call();
const t3 = performance.now();
console.log(JSON.stringify({ library: name, importMs: t1 - t0, initMs: t2 - t1, firstCallMs: t3 - t2, totalMs: t3 - t0 }));
