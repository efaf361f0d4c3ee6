/**
 * The bound on what a stored password hash (crypto_pwhash_str's,
 * crypto_pwhash_scryptsalsa208sha256_str's) may ask of a verification:
 * its parameters are the stored string's, which whoever wrote the store
 * chose.
 */

/**
 * The most work a stored password hash may ask of a _str_verify call: 4 GiB
 * of memory passes (Argon2's t x memory, scrypt's 128 r N p), as
 * fourfold/argon2's argon2Verify allows by default. libsodium's SENSITIVE
 * limits (Argon2id t = 4 over 1 GiB; scrypt N = 2^20, r = 8) fit; a string
 * that asks for more (t = 2^32 - 1 was hours) is refused before any work.
 */
export const MAX_STORED_WORK = 2 ** 32;

/** Refuses a stored string whose parameters ask for more than MAX_STORED_WORK bytes of memory passes. */
export function boundStoredWork(work: number, what: string): void {
  if (!(work <= MAX_STORED_WORK)) {
    throw new RangeError(`${what}: the stored hash asks for ${(work / 2 ** 30).toFixed(1)} GiB of memory passes, over the 4 GiB a verification may take`);
  }
}
