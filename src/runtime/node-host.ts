/**
 * What Node (and Bun, Deno) gives natively where the portable way costs a
 * fresh process milliseconds: hexadecimal decoded by node:buffer (a
 * kernel's 25 KB through a cold JavaScript loop takes 5 to 9 ms).
 * package.json's "browser" field swaps this file for node-host-none.ts in
 * browser bundles, which then carry none of it.
 */

interface NodeProcess {
  getBuiltinModule?: (id: string) => unknown;
}

const nodeProcess = (globalThis as { process?: NodeProcess }).process;

/** node:buffer's Buffer, as far as hexadecimal goes. */
type HexBuffers = { Buffer: { from(text: string, encoding: 'hex'): Uint8Array } };

/**
 * The bytes of hexadecimal text, decoded by node:buffer, where the runtime
 * has built-in modules (undefined where it has not that one): a plain
 * array of its own, as a small Buffer is a view of a shared pool, which a
 * worker would be sent whole.
 */
export const nodeHex: ((hex: string) => ReturnType<Uint8Array['slice']> | undefined) | undefined =
  typeof nodeProcess?.getBuiltinModule === 'function'
    ? (hex) => {
        const buffers = nodeProcess.getBuiltinModule!('node:buffer') as HexBuffers | undefined;
        return buffers === undefined ? undefined : new Uint8Array(buffers.Buffer.from(hex, 'hex'));
      }
    : undefined;
