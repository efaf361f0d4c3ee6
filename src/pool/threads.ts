/**
 * node:worker_threads, for the pool (spawn.ts) and its workers (serve.ts),
 * typed here: the package's declaration files then compile without
 * @types/node, for browser projects too. Reached through
 * process.getBuiltinModule (host.ts), so a bundler sees no node: import.
 */
import { builtinModule } from '../runtime/host.js';

export interface WorkerThreads {
  Worker: new (
    url: URL,
    options: { execArgv: string[] },
  ) => {
    on(event: 'message', listener: (message: never) => void): unknown;
    on(event: 'error', listener: (error: Error) => void): unknown;
    on(event: 'exit', listener: (code: number) => void): unknown;
    postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
    ref(): void;
    unref(): void;
    terminate(): Promise<number>;
  };
  parentPort: {
    postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
    on(event: 'message', listener: (message: never) => void): unknown;
  } | null;
}

/** node:worker_threads where the runtime has it (Node, Bun, Deno). */
export const workerThreads = (): WorkerThreads | undefined => builtinModule<WorkerThreads>('node:worker_threads');
