/** The 'fourfold/blake3' entry point, and the root re-exporting it. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as root from 'fourfold';
import * as b3 from 'fourfold/blake3';

it("'fourfold/blake3' exports blake3 (with create, outputLen, blockLen, canXOF, as @noble/hashes') and the Blake3 class; the root re-exports them", () => {
  assert.equal(typeof b3.blake3, 'function');
  assert.equal(typeof b3.blake3.create, 'function');
  assert.equal(b3.blake3.outputLen, 32);
  assert.equal(b3.blake3.blockLen, 64);
  assert.equal(b3.blake3.canXOF, true);
  assert.ok(b3.blake3.create() instanceof b3.Blake3);
  assert.equal(b3.blake3.create().canXOF, true);
  assert.equal(root.blake3, b3.blake3);
  assert.equal(root.Blake3, b3.Blake3);
});
