/**
 * decryptRange, encryptFile and decryptFile on a set of runners (this
 * thread's, or fourfold/parallel's pool), as wrappers that import their
 * code at the first call: range.ts, files.ts and what they read and write
 * with (file-ends.ts, output-file.ts, output-path.ts, blob-files.ts). A
 * page that encrypts bytes and streams does not download the file calls.
 * Each call was async already: a wrong argument rejects, as it did. The
 * specifiers are in parentheses to keep Vite's preload helper out, as
 * keys.ts explains.
 */
import type { AgeRunners } from './codec.js';
import type { decryptFileWith, encryptFileWith } from './files.js';
import type { decryptRangeWith } from './range.js';

/** The arguments of a call on runners, after the runners. */
type After<Call> = Call extends (runners: AgeRunners, ...rest: infer Rest) => unknown ? Rest : never;

// biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
const rangeCode = () => import(('./range.js'));
// biome-ignore format: as above
const filesCode = () => import(('./files.js'));

/** decryptRange on `runners` (range.ts decryptRangeWith), its code imported first. */
export const decryptRangeOn = async (runners: AgeRunners, ...args: After<typeof decryptRangeWith>) => (await rangeCode()).decryptRangeWith(runners, ...args);

/** encryptFile on `runners` (files.ts encryptFileWith), its code imported first. */
export const encryptFileOn = async (runners: AgeRunners, ...args: After<typeof encryptFileWith>) => (await filesCode()).encryptFileWith(runners, ...args);

/** decryptFile on `runners` (files.ts decryptFileWith), its code imported first. */
export const decryptFileOn = async (runners: AgeRunners, ...args: After<typeof decryptFileWith>) => (await filesCode()).decryptFileWith(runners, ...args);
