/**
 * fourfold/age/typage: the API of typage (npm `age-encryption`, the
 * TypeScript age of age's author), on fourfold's age: a program written
 * for typage changes its import and nothing else. Encrypter and
 * Decrypter, Stanza and the Recipient and Identity interfaces for keys of
 * your own, the key calls, `armor` and `webauthn`; every key type
 * fourfold reads and writes (X25519, post-quantum hybrid, tag, SSH,
 * age-keygen files), chunks on the worker pool where it helps.
 *
 * @example
 * ```ts
 * import { Decrypter, Encrypter, generateIdentity, identityToRecipient } from 'fourfold/age/typage';
 * const identity = await generateIdentity();
 * const e = new Encrypter();
 * e.addRecipient(await identityToRecipient(identity));
 * const file = await e.encrypt('hello');
 * const d = new Decrypter();
 * d.addIdentity(identity);
 * const text = await d.decrypt(file, 'text');
 * ```
 */
export * from './calls.js';
// These two names of calls.ts, with the pool's Web Worker form for pages.
export { Decrypter, Encrypter } from './web-workers.js';
