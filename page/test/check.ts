/**
 * What a finished run of the page must hold, as CI checks it in each
 * browser: a verified fourfold figure for every op and size (both tiers,
 * each checked against a peer's bytes), a figure for every peer that has
 * the op (timed, or capped with its cost per call), the same for scrypt's, Argon2id's
 * and age's shapes with fourfold/parallel's column where the all-cores part ran
 * (Argon2id's: its four lanes only), and
 * in the all-cores part one point per thread count whose workers started.
 * Returns the problems, none when the run is as it must be.
 *
 * Two bad situations, made with a Content-Security-Policy, must end as
 * the page says they do: with Workers refused ('no-workers'), the page
 * measures by itself, every figure but the all-cores ones; with
 * WebAssembly refused ('no-wasm'), fourfold's js tier against the peers
 * that are plain JavaScript, and a notice for each peer that did not load.
 */
import { isThrow } from '../../bench/core/errors.js';
import { PARALLEL, parseWorkerColumn } from '../../bench/core/libraries.js';
import type { Report } from '../../bench/report/json.js';
import {
  argon2Pooled,
  argon2Shapes,
  opsOf,
  REFERENCE_OPS,
  SCALING_OPS,
  SCALING_SIZE,
  scryptShapes,
  ageShapes,
  SIZES,
  threadCounts,
  type Mode,
} from '../app/plan.js';

/**
 * The peers that have each op, as the page bundles them: their columns
 * must be there. Fixed here rather than read from the run, so that a peer
 * that silently failed to load fails the check.
 */
export const PEERS_OF: Record<string, readonly string[]> = {
  chacha20: ['noble', 'sodium'],
  'xchacha20poly1305-encrypt': ['noble', 'sodium'],
  'xchacha20poly1305-decrypt': ['noble', 'sodium'],
  'chacha20poly1305-encrypt': ['noble', 'sodium'],
  'chacha20poly1305-decrypt': ['noble', 'sodium'],
  poly1305: ['noble', 'sodium'],
  salsa20: ['noble', 'sodium'],
  'xsalsa20poly1305-encrypt': ['noble', 'sodium'],
  'xsalsa20poly1305-decrypt': ['noble', 'sodium'],
  'secretstream-push': ['sodium'],
  'serpent-ctr-encrypt': ['mipher'],
  'serpent-ctr-decrypt': ['mipher'],
  'serpent-cbc-encrypt': ['mipher'],
  'serpent-cbc-decrypt': ['mipher'],
  blake3: ['noble-hashes', 'hash-wasm'],
  scrypt: ['noble-hashes', 'hash-wasm', 'sodium'],
  'scrypt-p4': ['noble-hashes', 'hash-wasm', 'sodium'],
  // libsodium's Argon2id has one lane only.
  'argon2id-t2': ['noble-hashes', 'hash-wasm', 'sodium'],
  'argon2id-t3': ['noble-hashes', 'hash-wasm', 'sodium'],
  'argon2id-t3-p4': ['noble-hashes', 'hash-wasm'],
  'age-encrypt': ['typage'],
  'age-decrypt': ['typage'],
  'age-encrypt-stream': ['typage'],
  'age-decrypt-stream': ['typage'],
  'aes-256-gcm-encrypt': ['noble', 'webcrypto'],
  'sha-256': ['noble-hashes', 'webcrypto'],
};

export type Situation = 'normal' | 'no-workers' | 'no-wasm';

export interface Expected {
  readonly mode: Mode;
  /** Whether the page was served cross-origin isolated. */
  readonly isolated: boolean;
  /** 'normal' unless said. */
  readonly situation?: Situation;
}

/** The peers that need WebAssembly. */
const WASM_PEERS = ['sodium', 'hash-wasm'];

export function checkResults(report: Report | undefined, expected: Expected): string[] {
  if (report === undefined) return ['no window.benchResults'];
  const problems: string[] = [];
  if (report.schema !== 'fourfold-bench/3') problems.push(`schema ${report.schema}`);
  if (report.status !== 'complete') problems.push(`status ${report.status}`);
  const page = report.page;
  if (page === undefined) return [...problems, 'no page section'];
  if (page.mode !== expected.mode) problems.push(`mode ${page.mode}, expected ${expected.mode}`);
  const env = page.environment;
  if (!env.webAssembly || !env.simd) problems.push(`the browser reports no WebAssembly SIMD (webAssembly ${env.webAssembly}, simd ${env.simd})`);
  if (!expected.isolated && env.crossOriginIsolated) problems.push('served plain, yet the page says it is cross-origin isolated');
  if (expected.isolated && !env.crossOriginIsolated) problems.push('served with COOP and COEP, yet the page says it is not cross-origin isolated');
  const engine = report.engines[0];
  if (engine === undefined) return [...problems, 'no engine result'];
  const situation = expected.situation ?? 'normal';
  const noWasm = situation === 'no-wasm';
  const said = (pattern: RegExp, what: string) => page.notices.some((n) => pattern.test(n)) || problems.push(`no notice that ${what}`);
  if (noWasm) {
    said(/could not compile its kernels/, "fourfold's simd tier could not be used");
    said(/peer did not load.*libsodium-wrappers/, 'libsodium did not load');
    said(/peer did not load.*hash-wasm/, 'hash-wasm did not load');
  }
  if (situation === 'no-workers') said(/Worker could not start/, 'the measuring Worker could not start');

  const find = (op: string, size: number, library: string) =>
    engine.cases.find((c) => c.part === 'sizes' && c.op === op && c.size === size && c.library === library && c.offset === 0 && c.keys === 1);
  /**
   * Whether `peer` gave a checked figure somewhere in the run: a peer that works here and throws on
   * some calls is the peer's fault, shown in its cell (typage's WebCrypto X25519 on WebKitGTK refuses
   * some of its random ephemeral scalars), where one that never gives a figure is a broken page.
   */
  const timedSomewhere = (peer: string) => engine.cases.some((c) => c.library === peer && c.ns !== undefined && c.checkedBy !== undefined);
  /** fourfold's columns (`ours`: timed, checked against a peer) and every peer's (a figure, or a throw where it gave figures elsewhere) at one op and size. */
  const checkColumns = (op: string, size: number, ours: readonly string[]) => {
    const where = `${op} ${size} B`;
    for (const tier of ours) {
      const c = find(op, size, tier);
      if (c === undefined) problems.push(`${where}: no ${tier} column`);
      else if (c.ns === undefined) problems.push(`${where}: ${tier} not timed (${c.error ?? (c.capped !== undefined ? 'capped' : 'no samples')})`);
      else if (c.checkedBy === undefined || c.checkedBy === tier) problems.push(`${where}: ${tier}'s output was not checked against a peer`);
    }
    for (const peer of (PEERS_OF[op] ?? []).filter((p) => !noWasm || !WASM_PEERS.includes(p))) {
      const c = find(op, size, peer);
      if (c === undefined) problems.push(`${where}: no ${peer} column`);
      else if (c.error !== undefined) {
        if (!(isThrow(c.error) && timedSomewhere(peer))) problems.push(`${where}: ${peer}: ${c.error}`);
      } else if (c.ns === undefined && c.capped === undefined) problems.push(`${where}: ${peer} has neither samples nor a capped estimate`);
      else if (c.ns !== undefined && c.checkedBy === undefined && !REFERENCE_OPS.includes(op)) problems.push(`${where}: ${peer}'s output was not checked`);
    }
  };
  const tiers = noWasm ? ['fourfold-js'] : ['fourfold', 'fourfold-js'];
  for (const op of opsOf(expected.mode)) {
    for (const size of SIZES) {
      // Without libsodium nothing checks secretstream's bytes: not timed, and said so.
      if (noWasm && op === 'secretstream-push') {
        if (engine.cases.some((c) => c.op === op)) problems.push(`${op} ${size} B: timed without libsodium to check it`);
        continue;
      }
      checkColumns(op, size, REFERENCE_OPS.includes(op) ? [] : tiers);
    }
  }
  // scrypt: fourfold/parallel's column too where the all-cores part ran (its workers started, on the simd tier).
  const pooled = situation === 'normal' && page.scaling.error === undefined;
  for (const [op, size] of [...scryptShapes(expected.mode), ...ageShapes(expected.mode)]) checkColumns(op, size, pooled ? [...tiers, PARALLEL] : tiers);
  for (const [op, size] of argon2Shapes(expected.mode)) checkColumns(op, size, pooled && argon2Pooled(op) ? [...tiers, PARALLEL] : tiers);

  if (noWasm && engine.cases.some((c) => c.library === 'fourfold' || c.library === PARALLEL || WASM_PEERS.includes(c.library)))
    problems.push('WebAssembly was refused, yet a column that needs it was timed');

  // The all-cores part: one point per thread count whose workers started (the pool's ready workers, and the measuring thread).
  const scaling = page.scaling;
  if (situation === 'no-workers') {
    if (!/without Web Workers/.test(scaling.error ?? '') || scaling.threads.length > 0)
      problems.push(`all cores: expected none without Workers, got ${JSON.stringify(scaling)}`);
    return problems;
  }
  if (noWasm) {
    if (!/simd tier is not available/.test(scaling.error ?? ''))
      problems.push(`all cores: expected none without the simd tier, got ${JSON.stringify(scaling)}`);
    return problems;
  }
  const asked = threadCounts(env.cores);
  if (JSON.stringify(scaling.threads) !== JSON.stringify(asked))
    problems.push(`all cores: thread counts ${scaling.threads.join(',')}, expected ${asked.join(',')} for ${env.cores} cores`);
  if (scaling.error !== undefined) return [...problems, `all cores: not measured (${scaling.error})`];
  const ready = scaling.pool?.ready ?? 0;
  const started = asked.filter((n) => n - 1 <= ready);
  if (started.length === 0) problems.push('all cores: no thread count could start');
  const shared = env.sharedMemory && scaling.pool?.shared === true;
  const points = scaling.points ?? [];
  for (const op of SCALING_OPS) {
    const sync = find(op, SCALING_SIZE, 'fourfold');
    if (sync?.ns === undefined || sync.checkedBy !== 'fourfold') problems.push(`all cores, ${op}: no timed synchronous reference`);
    for (const memory of shared ? [false, true] : [false]) {
      for (const n of started) {
        const c = engine.cases.find(
          (x) => x.op === op && x.size === SCALING_SIZE && parseWorkerColumn(x.library)?.workers === n - 1 && parseWorkerColumn(x.library)?.shared === memory,
        );
        const what = `all cores, ${op}, ${n} thread${n === 1 ? '' : 's'}${memory ? ', SharedArrayBuffer' : ''}`;
        if (c?.ns === undefined) problems.push(`${what}: no point${c?.error !== undefined ? ` (${c.error})` : ''}`);
        else if (c.checkedBy !== 'fourfold') problems.push(`${what}: bytes not checked against the synchronous function`);
        else if (!points.some((p) => p.op === op && p.shared === memory && p.threads === n && p.speedup > 0 && Number.isFinite(p.speedup)))
          problems.push(`${what}: timed, but no speedup from its case`);
      }
    }
    if (!shared && engine.cases.some((x) => x.op === op && parseWorkerColumn(x.library)?.shared === true))
      problems.push(`all cores, ${op}: SharedArrayBuffer points on a page that cannot share memory`);
  }
  return problems;
}
