/** 'fourfold/secretstream' and its namespace on the root ('fourfold'.secretstream) are the same objects. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as root from 'fourfold';
import * as secretstream from 'fourfold/secretstream';

const FUNCTIONS = ['initPush', 'initPull', 'encryptStream', 'decryptStream'];
const CONSTANTS = { TAG_MESSAGE: 0, TAG_PUSH: 1, TAG_REKEY: 2, TAG_FINAL: 3, KEY_BYTES: 32, HEADER_BYTES: 24, ABYTES: 17, MESSAGE_BYTES_MAX: 64 * (2 ** 32 - 2) };

it("'fourfold/secretstream' exports its functions and libsodium's constants", () => {
  const api = secretstream as Record<string, unknown>;
  for (const name of FUNCTIONS) assert.equal(typeof api[name], 'function', name);
  for (const [name, value] of Object.entries(CONSTANTS)) assert.equal(api[name], value, name);
});

it("'fourfold' re-exports them as the namespace secretstream", () => {
  const ns = (root as unknown as { secretstream: Record<string, unknown> }).secretstream;
  for (const name of [...FUNCTIONS, ...Object.keys(CONSTANTS)]) assert.equal(ns[name], (secretstream as Record<string, unknown>)[name], name);
});
