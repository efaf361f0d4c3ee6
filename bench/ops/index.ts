/**
 * The entry table: every op of every family. A new family adds its module
 * here; the harness and the CLI need no change.
 */
import type { BenchEntry } from '../harness.js';
import type { Apis } from '../libraries.js';
import { chachaEntries } from './chacha.js';
import { poly1305Entries } from './poly1305.js';

export function allEntries(apis: Apis): BenchEntry[] {
  return [...chachaEntries(apis), ...poly1305Entries(apis)];
}
