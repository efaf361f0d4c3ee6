/**
 * fourfold/argon2: Argon2id, Argon2i and Argon2d (RFC 9106), and password
 * hashes in the PHC string format that other implementations read, and
 * the stored hashes a server holds (those and bcrypt strings) verified.
 */
export { argon2d, argon2dAsync, argon2i, argon2iAsync, argon2id, argon2idAsync, type Argon2AsyncOpts, type Argon2Opts } from './argon2.js';
export { argon2dHash, argon2idHash, argon2iHash, argon2Verify, needsRehash, type Argon2HashOpts, type Argon2VerifyOpts } from './phc.js';
