/**
 * What fourfold's contract costs on top of node:crypto's bare call, for
 * one ChaCha20-Poly1305 call (RFC 8439 §2.8) of each size: the least code
 * that keeps the contract, timed beside the bare call and fourfold's API.
 *
 *   node bench/ceiling/native-calls.mjs [SIZE ...]
 *   deno run -A bench/ceiling/native-calls.mjs [SIZE ...]   (from the repository root)
 *
 * The contract: the key and nonce copied when the AEAD is made (the
 * caller may wipe or reuse its arrays), the copy node:crypto is handed
 * wiped after the call, the result a plain Uint8Array of its own, and
 * encrypt's result one array, ciphertext || tag. The floor does that and
 * nothing more: no argument checks beyond a length, no tiers. The bare
 * calls are node:crypto's as its users write them: decrypt with the body
 * and tag already apart; encrypt as two arrays (ciphertext, then the tag),
 * and joined with Buffer.concat.
 *
 * Each size runs every variant interleaved, 11 rounds of a loop of about
 * 0.1 s, and prints the median microseconds per call and the bare call's
 * time over each (above 1: faster than the bare call).
 */
import crypto from 'node:crypto';
import { Buffer } from 'node:buffer';
import { ready } from '../../dist/runtime/kernels.js';
import { chacha20poly1305 } from '../../dist/chacha/index.js';

const TAG = 16;
const OPTIONS = { authTagLength: TAG };
const ROUNDS = 11;

/** node:crypto's key and nonce, copied into arrays of their own ArrayBuffers (as fourfold's native tier does). */
const KEY = new Uint8Array(new ArrayBuffer(32));
const NONCE = new Uint8Array(new ArrayBuffer(12));
const TAG_IN = new Uint8Array(new ArrayBuffer(TAG));
const transfer = ArrayBuffer.prototype.transfer;

/** The least an AEAD object keeping fourfold's contract does on node:crypto. */
class Floor {
  constructor(key, nonce) {
    this.key = key.slice();
    this.nonce = nonce.slice();
  }

  encrypt(plaintext) {
    KEY.set(this.key);
    NONCE.set(this.nonce);
    try {
      const cipher = crypto.createCipheriv('chacha20-poly1305', KEY, NONCE, OPTIONS);
      const ciphertext = cipher.update(plaintext);
      cipher.final();
      const n = plaintext.length;
      let result;
      if (transfer !== undefined) result = new Uint8Array(transfer.call(ciphertext.buffer, n + TAG));
      else {
        result = new Uint8Array(n + TAG);
        result.set(ciphertext);
      }
      result.set(cipher.getAuthTag(), n);
      return result;
    } finally {
      KEY.fill(0);
    }
  }

  decrypt(sealed) {
    if (sealed.length < TAG) throw new RangeError('short');
    const n = sealed.length - TAG;
    KEY.set(this.key);
    NONCE.set(this.nonce);
    TAG_IN.set(sealed.subarray(n));
    try {
      const decipher = crypto.createDecipheriv('chacha20-poly1305', KEY, NONCE, OPTIONS);
      decipher.setAuthTag(TAG_IN);
      const plaintext = decipher.update(sealed.subarray(0, n));
      decipher.final();
      return new Uint8Array(plaintext.buffer, plaintext.byteOffset, plaintext.length);
    } finally {
      KEY.fill(0);
    }
  }
}

/** The variants of one size, by name: each returns its result, so that nothing is optimised away. */
function variants(size) {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const plaintext = crypto.randomFillSync(new Uint8Array(size));
  const sealed = new Floor(key, nonce).encrypt(plaintext);
  const body = sealed.subarray(0, size);
  const tag = sealed.subarray(size);
  return {
    'encrypt, node:crypto (tag apart)': () => {
      const cipher = crypto.createCipheriv('chacha20-poly1305', key, nonce, OPTIONS);
      const ciphertext = cipher.update(plaintext);
      cipher.final();
      cipher.getAuthTag();
      return ciphertext;
    },
    'encrypt, node:crypto (joined)': () => {
      const cipher = crypto.createCipheriv('chacha20-poly1305', key, nonce, OPTIONS);
      return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    },
    'encrypt, floor': () => new Floor(key, nonce).encrypt(plaintext),
    'encrypt, fourfold': () => chacha20poly1305(key, nonce).encrypt(plaintext),
    'decrypt, node:crypto': () => {
      const decipher = crypto.createDecipheriv('chacha20-poly1305', key, nonce, OPTIONS);
      decipher.setAuthTag(tag);
      const plain = decipher.update(body);
      decipher.final();
      return plain;
    },
    'decrypt, floor': () => new Floor(key, nonce).decrypt(sealed),
    'decrypt, fourfold': () => chacha20poly1305(key, nonce).decrypt(sealed),
  };
}

/** Median microseconds per call of each variant, interleaved round by round. */
function timeAll(calls, size) {
  const names = Object.keys(calls);
  const reps = Math.max(500, Math.round(5e7 / (size + 2000)));
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) for (let i = 0; i < reps; i++) calls[name]();
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names) {
      const start = performance.now();
      for (let i = 0; i < reps; i++) calls[name]();
      times[name].push(((performance.now() - start) * 1000) / reps);
    }
  }
  return Object.fromEntries(names.map((name) => [name, times[name].sort((a, b) => a - b)[ROUNDS >> 1]]));
}

/** Checks that every variant gives the bytes the bare call does, before anything is timed. */
function check(calls) {
  const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
  const joined = hex(calls['encrypt, node:crypto (joined)']());
  for (const name of ['encrypt, floor', 'encrypt, fourfold']) if (hex(calls[name]()) !== joined) throw new Error(`${name}: not node:crypto's bytes`);
  const plain = hex(calls['decrypt, node:crypto']());
  for (const name of ['decrypt, floor', 'decrypt, fourfold']) if (hex(calls[name]()) !== plain) throw new Error(`${name}: not node:crypto's bytes`);
}

await ready();
const sizes = process.argv.slice(2).map(Number);
const runtime = typeof Deno === 'undefined' ? `Node ${process.versions.node}` : `Deno ${Deno.version.deno}`;
console.log(`${runtime}; transfer(): ${transfer === undefined ? 'no' : 'yes'}; microseconds per call (bare node:crypto's time over it)`);
for (const size of sizes.length > 0 ? sizes : [4096, 6144, 8192, 16384, 65536, 1 << 20]) {
  const calls = variants(size);
  check(calls);
  const t = timeAll(calls, size);
  const line = (op, bare) =>
    Object.keys(t)
      .filter((name) => name.startsWith(op))
      .map((name) => `${name.slice(op.length + 2)} ${t[name].toFixed(2)} (${(t[bare] / t[name]).toFixed(2)})`)
      .join('  ');
  console.log(`${size} B  encrypt: ${line('encrypt', 'encrypt, node:crypto (tag apart)')}`);
  console.log(`${' '.repeat(String(size).length)}    decrypt: ${line('decrypt', 'decrypt, node:crypto')}`);
}
