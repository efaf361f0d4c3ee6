/**
 * The shape of a fuzzing property (properties.ts, hash-, kdf-,
 * secretstream-, async- and age-properties.ts): its name, its budget of
 * cases in npm test's run, the tiers its calls can take, its setup.
 */
import type fc from 'fast-check';
import type { CallTier } from '../helpers.js';

/** A property of the fuzzing. */
export interface FuzzProperty {
  /** Its name, for --only and the report. */
  name: string;
  /** Cases per tier in npm test's run. */
  cases: number;
  /** The tiers its calls can take here (each runs the property). */
  tiers: readonly CallTier[];
  /** Loads what the peers need (once). */
  setup?(): Promise<void>;
  property(): fc.IAsyncProperty<never> | fc.IAsyncProperty<unknown[]>;
}
