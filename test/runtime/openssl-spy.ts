/**
 * A spy on the bytes fourfold hands OpenSSL to decrypt (the native tier,
 * node:crypto): it counts each Decipher update() and those whose input
 * another thread could change while OpenSSL reads it (a view of a
 * SharedArrayBuffer), and keeps which SharedArrayBuffers those were.
 * OpenSSL reads a ciphertext twice, for the tag and for the plaintext, so
 * it must only ever see a private copy of a caller's shared bytes (or
 * fourfold's own memory, which no thread writes meanwhile). Imported
 * before fourfold: fourfold asks for node:crypto at its first native call,
 * through process.getBuiltinModule, and gets the spied module. Does
 * nothing where the engine has no process.getBuiltinModule.
 */
import type * as NodeCrypto from 'node:crypto';

export const decipherUpdates = { all: 0, shared: 0, sharedBuffers: new WeakSet<ArrayBufferLike>() };

const isSharedView = (data: unknown): boolean =>
  ArrayBuffer.isView(data) && typeof SharedArrayBuffer === 'function' && Object.prototype.toString.call(data.buffer) === '[object SharedArrayBuffer]';

/** node:crypto with each new Decipher's update() counted. */
function spied(crypto: typeof NodeCrypto): typeof NodeCrypto {
  const wrapped = Object.create(crypto) as typeof NodeCrypto;
  wrapped.createDecipheriv = ((...args: Parameters<typeof NodeCrypto.createDecipheriv>) => {
    const decipher = crypto.createDecipheriv(...args);
    const update = decipher.update.bind(decipher) as (data: NodeJS.ArrayBufferView) => Buffer;
    decipher.update = ((data: NodeJS.ArrayBufferView) => {
      decipherUpdates.all++;
      if (isSharedView(data)) {
        decipherUpdates.shared++;
        decipherUpdates.sharedBuffers.add(data.buffer);
      }
      return update(data);
    }) as typeof decipher.update;
    return decipher;
  }) as typeof NodeCrypto.createDecipheriv;
  return wrapped;
}

const host = globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined;
const original = host?.getBuiltinModule;
if (host !== undefined && typeof original === 'function') {
  host.getBuiltinModule = (id: string) => {
    const module = original.call(host, id);
    return id === 'node:crypto' && module !== undefined ? spied(module as typeof NodeCrypto) : module;
  };
}
