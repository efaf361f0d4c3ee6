/**
 * node:fs, where the runtime has it (Node, Deno, Bun), found at run time
 * so that the age entries load where there is none (browsers, Hermes):
 * the one accessor age's file calls, their pieces and decryptRange share.
 * Its type names node:fs, so no exported signature of the package uses it.
 */
import { builtinModule } from '../runtime/host.js';

/** node:fs's module. */
export type NodeFs = typeof import('node:fs');

/** node:fs, or undefined where the runtime has none. */
export const nodeFs = (): NodeFs | undefined => builtinModule<NodeFs>('node:fs');
