/**
 * libsodium-wrappers' `ready`, in a module of its own so that importing it
 * keeps no call in a bundle (everything.ts, the default export, imports it).
 */

/**
 * Resolved: fourfold's calls work at once (each kernel compiles in the
 * background on first use, the calls running in JavaScript meanwhile).
 * `await sodium.ready` as with libsodium-wrappers.
 */
export const ready: Promise<void> = /*#__PURE__*/ Promise.resolve();
