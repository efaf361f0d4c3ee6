import fc from 'fast-check';
import { scrypt, scryptAsync } from 'fourfold/scrypt';
import { argon2d, argon2i, argon2id } from 'fourfold/argon2';
import { scrypt as nobleScrypt } from '@noble/hashes/scrypt.js';
import { argon2d as nobleArgon2d, argon2i as nobleArgon2i, argon2id as nobleArgon2id } from '@noble/hashes/argon2.js';
import { equal, lengthArb, tiersOf } from './gen.js';
import type { FuzzProperty } from './property.js';

export const scrypts: FuzzProperty = {
  name: 'scrypt',
  cases: 50,
  tiers: tiersOf(false),
  property: () =>
    fc.asyncProperty(
      fc.record({
        logN: fc.integer({ min: 1, max: 10 }),
        r: fc.integer({ min: 1, max: 8 }),
        p: fc.integer({ min: 1, max: 3 }),
        dkLen: lengthArb(200, [32, 64]).filter((n) => n > 0),
        password: fc.oneof(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 80 })),
        salt: fc.oneof(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 80 })),
        async: fc.boolean(),
      }),
      async (c) => {
        const opts = { N: 2 ** c.logN, r: c.r, p: c.p, dkLen: c.dkLen };
        const expected = nobleScrypt(c.password, c.salt, opts);
        const got = c.async ? await scryptAsync(c.password, c.salt, opts) : scrypt(c.password, c.salt, opts);
        return equal(got, expected);
      },
    ),
};

// ------------------------------------------------------------------ Argon2

export type Argon2Type = 'argon2id' | 'argon2i' | 'argon2d';
export const ARGON2_TYPES: readonly Argon2Type[] = ['argon2id', 'argon2i', 'argon2d'];
export const nobleArgon2 = { argon2id: nobleArgon2id, argon2i: nobleArgon2i, argon2d: nobleArgon2d } as const;

/** An Argon2 call's parameters and inputs as drawn (argon2Case makes the call's options of them). */
export interface Argon2Draw {
  type: Argon2Type;
  t: number;
  p: number;
  /** An edge of m for this p (argon2Edges), or any m from 8p to ARGON2_MAX_M. */
  m: { edge: boolean; n: number };
  dkLen: number;
  version: 0x10 | 0x13 | undefined;
  password: string | Uint8Array;
  salt: string | Uint8Array;
  key: Uint8Array | undefined;
  personalization: Uint8Array | undefined;
}

/** The largest m drawn, in KiB: segments of up to 150 blocks a lane, the second block of addresses (128) among them. */
const ARGON2_MAX_M = 600;

/**
 * The edges of m for p lanes: 8p (segments of 2 blocks), m not a multiple
 * of 4p (m' rounds down, H0 takes m as given), and segments of 127, 128
 * and 129 blocks, where argon2i and argon2id's second block of addresses
 * starts; those within ARGON2_MAX_M.
 */
function argon2Edges(p: number): number[] {
  const edges = [8 * p, 8 * p + 1, 12 * p - 1, 12 * p, 16 * p + 3, ...[127, 128, 129].map((q) => 4 * q * p), 4 * 129 * p + 1];
  return edges.filter((m) => m <= Math.max(ARGON2_MAX_M, 8 * p));
}

/** Bytes or (one time in four) a string, of 0 to `max` bytes or UTF-16 units. */
const textOrBytes = (min: number, max: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.uint8Array({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: max }) },
  );

/** Bytes of 0 to 64, or none. */
const optionalBytes = fc.option(fc.uint8Array({ maxLength: 64 }), { freq: 3, nil: undefined });

export const argon2Arb: fc.Arbitrary<Argon2Draw> = fc.record({
  type: fc.constantFrom(...ARGON2_TYPES),
  t: fc.integer({ min: 1, max: 3 }),
  p: fc.integer({ min: 1, max: 4 }),
  m: fc.record({ edge: fc.boolean(), n: fc.nat() }),
  dkLen: fc.oneof(fc.constantFrom(4, 5, 31, 32, 33, 63, 64, 65, 80), fc.integer({ min: 4, max: 80 })),
  version: fc.constantFrom(0x10 as const, 0x13 as const, undefined),
  password: textOrBytes(0, 64),
  salt: textOrBytes(8, 64),
  key: optionalBytes,
  personalization: optionalBytes,
});

/** The m a draw names, for its p. */
export function argon2M(d: Argon2Draw): number {
  if (d.m.edge) {
    const edges = argon2Edges(d.p);
    return edges[d.m.n % edges.length]!;
  }
  return 8 * d.p + (d.m.n % (Math.max(ARGON2_MAX_M, 8 * d.p) - 8 * d.p + 1));
}

/** A draw's options, as fourfold's calls and @noble/hashes' take them (the same names); the options left out are the defaults. */
export function argon2Options(d: Argon2Draw): {
  t: number;
  m: number;
  p: number;
  dkLen: number;
  version?: number;
  key?: Uint8Array;
  personalization?: Uint8Array;
} {
  return {
    t: d.t,
    m: argon2M(d),
    p: d.p,
    dkLen: d.dkLen,
    ...(d.version === undefined ? {} : { version: d.version }),
    ...(d.key === undefined ? {} : { key: d.key }),
    ...(d.personalization === undefined ? {} : { personalization: d.personalization }),
  };
}

/** argon2id, argon2i and argon2d against @noble/hashes: every type and version, 1 to 4 lanes, m from 8p to 600 KiB and its edges. */
export const argon2s: FuzzProperty = {
  name: 'argon2',
  cases: 40,
  tiers: tiersOf(false),
  property: () =>
    fc.asyncProperty(argon2Arb, async (d) => {
      const opts = argon2Options(d);
      const expected = nobleArgon2[d.type](d.password, d.salt, opts);
      const call = { argon2id, argon2i, argon2d }[d.type];
      return equal(call(d.password, d.salt, opts), expected);
    }),
};
