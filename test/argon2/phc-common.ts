/**
 * What the tests of stored password hashes share (phc-*, stored-hashes and
 * bcrypt-*.test.ts): the sumo build's password-hash calls, whether
 * hash-wasm can run, a base64 independent of the one under test, a PHC
 * string's fields, a refusal's check, an aborted signal.
 */
import assert from 'node:assert/strict';
import { ENGINE_COMPILES_WASM, type SodiumSumo } from '../helpers.js';

/** The sumo build's password-hash strings (helpers.ts's interface has the stream calls only). */
export type SodiumPwhash = SodiumSumo & {
  crypto_pwhash_str(password: string | Uint8Array, opslimit: number, memlimit: number): string;
  crypto_pwhash_str_verify(hashed: string, password: string | Uint8Array): boolean;
};
export const NO_HASH_WASM: false | string = ENGINE_COMPILES_WASM
  ? false
  : 'not applicable: hash-wasm (the peer) compiles WebAssembly from bytes, which this engine lacks or refuses';

/** Standard base64 without padding, from Buffer (an encoder independent of the one under test). */
export const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64').replace(/=+$/, '');
export const unb64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

/** The B64 alphabet, in the order of the values. */
export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The hex of a B64 text's bytes. */
export const toHexOf = (text: string): string => Buffer.from(unb64(text)).toString('hex');

/** A PHC string's five or six fields. */
export const fieldsOf = (phc: string): string[] => phc.split('$');

/** Rejects with `type`, its message matching `message`. */
export async function refused(call: Promise<unknown>, type: typeof TypeError | typeof RangeError, message: RegExp): Promise<void> {
  await assert.rejects(call, (e: unknown) => {
    assert.ok(e instanceof type, `${(e as Error)?.constructor?.name}: ${(e as Error)?.message}, not a ${type.name}`);
    assert.match(e.message, message);
    return true;
  });
}

/** A signal aborted with `reason`. */
export function aborted(reason: Error): AbortSignal {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
}
