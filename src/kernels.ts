/**
 * The WebAssembly modules the build assembles (scripts/build-kernels.ts),
 * each from its family's generator. The one module made of more than one
 * family is composed here: the ChaCha module links in secretstream's
 * functions, so that one instance (one compile, one memory) serves ChaCha,
 * Poly1305 and secretstream.
 */
import { argon2Module, argon2NoInline, argon2Secrets } from './argon2/kernel.js';
import { blake2Module, blake2NoInline, blake2Secrets } from './blake2/kernel.js';
import { blake3Module, blake3NoInline, blake3Secrets } from './blake3/kernel.js';
import { chachaModule, chachaPieces } from './chacha/kernel.js';
import { salsaModule } from './salsa/kernel.js';
import { scryptModule, scryptSecrets } from './scrypt/kernel.js';
import { secretstreamFunctions } from './secretstream/kernel.js';
import { serpentModule } from './serpent/kernel.js';
import { siphashModule } from './sodium/siphash-kernel.js';
import type { KernelSecrets } from './wasm/secrets.js';

/** Each module's generator, by the name its runtime accessor gives (defineKernel). */
export const KERNELS: Record<string, () => string> = {
  chacha: () => chachaModule(secretstreamFunctions(chachaPieces)),
  blake3: () => blake3Module(),
  blake2: () => blake2Module(),
  serpent: () => serpentModule(),
  salsa: () => salsaModule(),
  scrypt: () => scryptModule(),
  argon2: () => argon2Module(),
  argon2_shared: () => argon2Module(true),
  siphash: () => siphashModule(),
};

/** Function-name patterns binaryen's inliner must leave alone, per module (its generator says why). */
export const NO_INLINE: Record<string, string> = { blake2: blake2NoInline, blake3: blake3NoInline, argon2: argon2NoInline, argon2_shared: argon2NoInline };

/** What each module's generators declare for the constant-time check (wasm/secrets.ts). */
export const KERNEL_SECRETS: Record<string, KernelSecrets> = {
  chacha: {},
  blake3: blake3Secrets,
  blake2: blake2Secrets,
  serpent: {},
  salsa: {},
  scrypt: scryptSecrets,
  argon2: argon2Secrets,
  argon2_shared: argon2Secrets,
  siphash: {},
};
