/**
 * What a kernel's generator declares for the constant-time check
 * (scripts/constant-time/): which of its memory and parameters hold only
 * public values, and the few findings it allows, each argued. Everything
 * else in linear memory is secret; parameters are pointers, lengths and
 * counts, and so public, unless declared secret.
 */

export type ConstantTimeRule = 'branch' | 'select' | 'address' | 'variable-time' | 'public-memory';

export interface ConstantTimeException {
  function: string;
  rule: ConstantTimeRule;
  instruction: string;
  count: number;
  why: string;
}

export interface KernelSecrets {
  /** Byte ranges [start, end) holding public values only (lengths, counters), each saying what; read and written at fixed addresses. */
  publicMemory?: { start: number; end: number; holds: string }[];
  /** Parameters that carry secrets, by function name (indices from 0). */
  secretParams?: Record<string, number[]>;
  /**
   * Loads whose values are public though memory is taken as secret
   * (exactly `count` of that instruction in the function): a table the
   * kernel computes from public values alone and reads at varying
   * addresses, each saying what it holds.
   */
  publicLoads?: { function: string; instruction: string; count: number; holds: string }[];
  /** Findings a function may have (exactly `count` of them, of one rule and instruction), and why they are no leak. */
  exceptions?: ConstantTimeException[];
}

/** Declarations of the modules made of several generators, merged. */
export function mergeSecrets(...parts: KernelSecrets[]): KernelSecrets {
  return {
    publicMemory: parts.flatMap((p) => p.publicMemory ?? []),
    secretParams: Object.assign({}, ...parts.map((p) => p.secretParams ?? {})),
    publicLoads: parts.flatMap((p) => p.publicLoads ?? []),
    exceptions: parts.flatMap((p) => p.exceptions ?? []),
  };
}
