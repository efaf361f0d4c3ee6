/**
 * Poly1305 (RFC 8439 §2.5) as a one-shot MAC over a whole message.
 * node:crypto offers no Poly1305 of its own (only inside the AEAD), and
 * libsodium-wrappers has crypto_onetimeauth only in its -sumo build, so
 * the sodium entry is registered only when the function exists. No
 * library takes a caller-supplied buffer for the 16-byte tag.
 */
import { PARALLEL, PARALLEL_SHARED, type Apis } from '../libraries.js';
import { hasSharedMemory, keySet, messageOf, perKey, sharedBuffer } from './shared.js';
import { defineOp, type Call, type OpDefinition, type OpEntry, type Shape } from './types.js';

interface Inputs {
  readonly keys: Uint8Array[];
  readonly message: Uint8Array;
}

type Mac = (message: Uint8Array, key: Uint8Array) => ReturnType<Call>;

export function poly1305Ops(apis: Apis): OpDefinition<unknown>[] {
  const entries: OpEntry<Inputs>[] = [];
  const add = (library: string, mac: Mac) =>
    entries.push({
      library,
      bind: perKey(
        ({ keys, message }) =>
          (k) =>
            mac(message, keys[k]!),
      ),
    });

  const fourfold = apis.fourfold?.poly1305?.poly1305;
  if (fourfold !== undefined) {
    add('fourfold', fourfold);
    add('fourfold-js', fourfold);
  }
  const parallel = apis.fourfold?.parallel?.poly1305;
  if (parallel !== undefined) {
    add(PARALLEL, parallel);
    // The message on a SharedArrayBuffer, which the workers read directly (a MAC has no output to reuse).
    if (hasSharedMemory()) {
      entries.push({
        library: PARALLEL_SHARED,
        bind: perKey(({ keys, message }) => {
          const input = sharedBuffer(message.length, { size: message.length, offset: message.byteOffset, keys: 1 }, message);
          return (k) => parallel(input, keys[k]!);
        }),
      });
    }
  }
  add('noble', apis.noble.poly1305.poly1305 as Mac);
  const onetimeauth = (apis.sodium as unknown as { crypto_onetimeauth?: Mac } | undefined)?.crypto_onetimeauth;
  if (onetimeauth !== undefined) add('sodium', onetimeauth);

  const inputs = (shape: Shape): Inputs => ({ keys: keySet('poly1305 key', shape.keys), message: messageOf('poly1305 message', shape) });
  return [defineOp<Inputs>({ op: 'poly1305', inputs, entries })];
}
