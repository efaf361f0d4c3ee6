/**
 * The 'simd' tier's Serpent engine: the key, the chaining block and the
 * data go through the kernel's memory (layout.ts); everything a call wrote
 * there is wiped before it returns, also when it throws.
 */
import { BUFFER, CHAIN, KEY, SLICE } from './layout.js';
import type { SerpentEngine } from './engine.js';
import { serpentKernel, type SerpentKernel } from './wasm.js';
import type { LinearMemory } from '../runtime/memory.js';

/**
 * The key, padded to 256 bits as §2.2 of the specification says (a 1 bit
 * after the key's last byte, then zeros), then the key schedule.
 */
function installKey(k: SerpentKernel, mem: LinearMemory, key: Uint8Array): void {
  const b = mem.bytes;
  b.set(key, KEY);
  if (key.length < 32) {
    b[KEY + key.length] = 1;
    b.fill(0, KEY + key.length + 1, KEY + 32);
  }
  k.schedule();
}

/**
 * The kernel's `process` over `data` (whole blocks, a slice at a time
 * through BUFFER), then over `final` when given (the padded last block,
 * which continues a CBC chain: the kernel keeps it at CHAIN), into `out`
 * or a new array.
 */
function crypt(
  mem: LinearMemory,
  process: (ptr: number, len: number) => void,
  data: Uint8Array,
  final: Uint8Array | undefined,
  out: Uint8Array | undefined,
): Uint8Array {
  const body = data.length;
  const target = out ?? new Uint8Array(body + (final === undefined ? 0 : 16));
  mem.through(BUFFER, SLICE, data, target, process);
  if (final !== undefined) {
    mem.bytes.set(final, BUFFER);
    process(BUFFER, 16);
    target.set(mem.view(BUFFER, 16), body);
  }
  return target;
}

/** Wipes what a call of `length` bytes left: key schedule, chaining block, TAIL and the buffer up to the slice it used. */
const wipe = (k: SerpentKernel, length: number) => k.wipe(BUFFER + Math.min(SLICE, length));

type Process = 'ecb_encrypt' | 'ecb_decrypt' | 'cbc_encrypt' | 'cbc_decrypt' | 'ctr_xor';

/** One call: key schedule, chaining block (CBC: the IV; CTR: the IV as the kernel counts), data; then the wipe. */
function run(
  key: Uint8Array,
  iv: Uint8Array | undefined,
  process: Process,
  data: Uint8Array,
  final: Uint8Array | undefined,
  out: Uint8Array | undefined,
): Uint8Array {
  const { k, mem } = serpentKernel();
  try {
    installKey(k, mem, key);
    if (process === 'ctr_xor') {
      // The kernel counts in a 128-bit little-endian integer: the big-endian IV reversed.
      for (let i = 0; i < 16; i++) mem.bytes[CHAIN + i] = iv![15 - i];
    } else if (iv !== undefined) mem.bytes.set(iv, CHAIN);
    return crypt(mem, k[process], data, final, out);
  } finally {
    wipe(k, data.length + 16);
  }
}

export const simdSerpent: SerpentEngine = {
  encrypt: (key, iv, data, final, out) => run(key, iv, iv === undefined ? 'ecb_encrypt' : 'cbc_encrypt', data, final, out),
  decrypt: (key, iv, data, out) => run(key, iv, iv === undefined ? 'ecb_decrypt' : 'cbc_decrypt', data, undefined, out),
  ctr: (key, iv, data, out) => run(key, iv, 'ctr_xor', data, undefined, out),
};
