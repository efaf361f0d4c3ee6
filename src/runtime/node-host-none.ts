/**
 * node-host.ts as browser bundles see it (package.json's "browser" field
 * puts this file in its place): no node:buffer.
 */
import type * as NodeHost from './node-host.js';

export const nodeHex: typeof NodeHost.nodeHex = undefined;
