/** BLAKE2b's engine on each tier. */
import type { Blake2bEngine } from './engine.js';
import { jsBlake2b } from './js.js';

/** The engine of the tier a call on this thread runs on (index.ts). */
export const engine = (): Blake2bEngine => jsBlake2b;
