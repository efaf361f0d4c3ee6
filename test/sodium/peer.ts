/**
 * libsodium-wrappers-sumo as the peer of fourfold/sodium's tests, and the
 * comparison they all make: one call, by name, with the same arguments, on
 * both; the same bytes, strings, objects and booleans back, or the same
 * error (its class and message).
 */
import { before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ready, tier } from 'fourfold';
import * as ours from 'fourfold/sodium';
import { ENGINE_HAS_SIMD, NO_SODIUM } from '../helpers.js';

type Lib = Record<string, unknown>;
let theirs: Lib | undefined;

/** Loads libsodium-wrappers-sumo; call (and await) in a `before` hook. Nothing where NO_SODIUM. */
export async function loadSumo(): Promise<void> {
  if (NO_SODIUM || theirs !== undefined) return;
  const m = (await import('libsodium-wrappers-sumo')) as unknown as { default?: Lib } & Lib;
  const lib = (m.default ?? m) as Lib & { ready: Promise<void> };
  await lib.ready;
  theirs = lib;
}

/** The loaded peer. */
export function peer(): Lib {
  assert.ok(theirs, 'call loadSumo() first');
  return theirs;
}

/** fourfold/sodium as a table of calls by name. */
export const mine = ours as unknown as Lib;

/** What a call gave, comparable with deepEqual: bytes as hex, an object field by field (its state handles left out), or the error. */
export type Outcome = { value: unknown } | { error: string };

function normal(value: unknown): unknown {
  if (value instanceof Uint8Array) return `bytes:${Buffer.from(value.buffer, value.byteOffset, value.length).toString('hex')}`;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'state')
        .map(([k, v]) => [k, normal(v)]),
    );
  }
  return value;
}

/** Calls `f` and describes its outcome. */
export function outcome(f: () => unknown): Outcome {
  try {
    return { value: normal(f()) };
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
}

/** Calls `name` on both with `args` (copied for each); asserts the same outcome and returns fourfold's raw result. */
export function same(name: string, args: readonly unknown[], label = ''): unknown {
  const copy = () => args.map((arg) => (arg instanceof Uint8Array ? arg.slice() : arg));
  const fn = mine[name] as ((...a: unknown[]) => unknown) | undefined;
  assert.equal(typeof fn, 'function', `fourfold/sodium has ${name}`);
  let raw: unknown;
  const a = outcome(() => (raw = fn!(...copy())));
  const b = outcome(() => (peer()[name] as (...a: unknown[]) => unknown)(...copy()));
  assert.deepEqual(a, b, `${name} ${label}`);
  return raw;
}

/** The output formats, and none. */
export const FORMATS = [undefined, null, 'uint8array', 'hex', 'base64', 'text'] as const;

/** Message lengths: empty, one byte, around the 64-byte block, a few blocks, and 1 MiB. */
export const LENGTHS = [0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 1000, 4096, 1 << 20];

/**
 * A call where fourfold/sodium follows libsodium.js's current source, which
 * changed it after the 0.8.4 release on npm: asserts fourfold's outcome
 * (`now`, an error as outcome() writes it) and that 0.8.4's differs, so
 * that each difference is stated here and listed in docs/api.md.
 */
export function newer(name: string, args: readonly unknown[], now: string, label = ''): void {
  const copy = () => args.map((arg) => (arg instanceof Uint8Array ? arg.slice() : arg));
  const a = outcome(() => (mine[name] as (...a: unknown[]) => unknown)(...copy()));
  const b = outcome(() => (peer()[name] as (...a: unknown[]) => unknown)(...copy()));
  assert.deepEqual(a, { error: now }, `${name} ${label}: as libsodium.js's current source`);
  assert.notDeepEqual(b, a, `${name} ${label}: 0.8.4 differs`);
}

/** The peer's Emscripten module: libsodium's C calls, its heap. */
type Native = { _malloc(n: number): number; _free(address: number): void; HEAPU8: Uint8Array } & Record<string, (...a: number[]) => number>;

/**
 * Calls libsodium's C functions in the peer's WebAssembly (libsodium 1.0.20
 * or later under 0.8.4's wrappers): `body` gets the module and `put`, which
 * copies bytes into its heap and gives their address; `read` copies bytes
 * out. Where a wrapper of 0.8.4 cannot say what the C call does (a 64-bit
 * counter, a return code), the C call is the reference.
 */
export function native<T>(body: (c: Native, put: (bytes: Uint8Array) => number, read: (address: number, length: number) => Uint8Array) => T): T {
  const c = peer().libsodium as Native;
  const held: number[] = [];
  const put = (bytes: Uint8Array): number => {
    const address = c._malloc(Math.max(1, bytes.length));
    held.push(address);
    c.HEAPU8.set(bytes, address);
    return address;
  };
  const read = (address: number, length: number): Uint8Array => c.HEAPU8.slice(address, address + length);
  try {
    return body(c, put, read);
  } finally {
    for (const address of held) c._free(address);
  }
}

type CurveCrypto = {
  createPrivateKey(input: unknown): unknown;
  createPublicKey(input: unknown): unknown;
  diffieHellman(options: { privateKey: unknown; publicKey: unknown }): Uint8Array;
};

/**
 * Whether node:crypto has X25519 here, from the raw keys fourfold/sodium
 * hands it (a JWK, or PKCS #8 where the runtime refuses a JWK without its
 * public half): the skip reason where it has not (browsers, Hermes).
 */
const NO_NODE_CURVES: false | string = (() => {
  const c = (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.('node:crypto') as CurveCrypto | undefined;
  if (c === undefined) return 'not applicable: no node:crypto in this engine';
  try {
    const x = 'CQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const der = Uint8Array.from([
      0x30,
      0x2e,
      0x02,
      0x01,
      0x00,
      0x30,
      0x05,
      0x06,
      0x03,
      0x2b,
      0x65,
      0x6e,
      0x04,
      0x22,
      0x04,
      0x20,
      ...new Uint8Array(32).fill(1),
    ]);
    const privateKey = c.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    c.diffieHellman({ privateKey, publicKey: c.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x }, format: 'jwk' }) });
    return false;
  } catch (e) {
    return `not applicable: node:crypto has no X25519 here (${(e as Error).message})`;
  }
})();

/** The paths fourfold/sodium's curves and SHA-2 take: node:crypto's, and @noble's. */
export type Path = 'native' | 'noble';

/** Runs `body` inside a `describe` on `path`, made active first and checked: tier() after a curve call and a hash. */
function onPath(title: string, path: Path, body: (path: Path) => void): void {
  describe(`${title} (${path})`, { skip: path === 'native' ? NO_NODE_CURVES : false }, () => {
    before(async () => {
      await ready(path === 'native' ? undefined : { tier: ENGINE_HAS_SIMD ? 'simd' : 'js' });
      ours.crypto_scalarmult_base(new Uint8Array(32).fill(3));
      ours.crypto_hash_sha256(new Uint8Array(3));
      assert.equal(tier() === 'native', path === 'native', `the ${path} path: tier() after a curve call and a hash`);
    });
    body(path);
  });
}

/**
 * Runs `body` on the native path: ready() naming no tier, where node:crypto
 * has the curves; for files that run `body` on each tier (forEachTier),
 * which is the @noble path.
 */
export const onNativePath = (title: string, body: (path: Path) => void): void => onPath(title, 'native', body);

/** Runs `body` once per path: 'native' (onNativePath), and 'noble', a tier named (nothing then goes to node:crypto). */
export function forEachPath(title: string, body: (path: Path) => void): void {
  onPath(title, 'native', body);
  onPath(title, 'noble', body);
}
