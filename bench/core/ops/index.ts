/**
 * The op table: every op of every family. A new family (Salsa20, BLAKE3,
 * ...) writes its module and adds it here; the harness, the runner and the
 * report need no change.
 */
import type { Apis } from '../libraries.js';
import { ageOps } from './age.js';
import { argon2Ops } from './argon2.js';
import { blake2Ops } from './blake2.js';
import { blake3Ops } from './blake3.js';
import { chachaOps } from './chacha.js';
import { poly1305Ops } from './poly1305.js';
import { serpentOps } from './serpent.js';
import { salsaOps } from './salsa.js';
import { scryptOps } from './scrypt.js';
import { secretstreamOps } from './secretstream.js';
import { sodiumOps } from './sodium.js';
import type { OpDefinition } from './types.js';
import { webcryptoOps } from './webcrypto.js';

/** In the order the report lists the families. */
const FAMILIES = [chachaOps, poly1305Ops, blake3Ops, blake2Ops, secretstreamOps, salsaOps, serpentOps, scryptOps, argon2Ops, ageOps, webcryptoOps, sodiumOps];

export function allOps(apis: Apis): OpDefinition<unknown>[] {
  return FAMILIES.flatMap((family) => family(apis));
}
