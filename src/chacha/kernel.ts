/**
 * ChaCha kernel generator (RFC 8439 §2.1-2.4), with Poly1305 and the AEAD
 * of §2.8 in the same module so that one call encrypts and authenticates a
 * slice while it is in cache.
 *
 * The SIMD path is inter-block: v128 local x_w holds word w of four
 * consecutive blocks (lane i = block counter + i), so each quarter round
 * does four blocks' work with no lane shuffles. Only the output pass
 * transposes, in registers, and XORs the keystream straight into the data.
 * Long inputs run two such groups interleaved (8 blocks an iteration); a
 * remainder of 3 blocks runs as one padded group, 1 or 2 blocks through a
 * scalar block function.
 */
import { BLOCK, PAGES, POLY, REST, STATE, TAIL } from './layout.js';
import { poly1305Functions } from '../poly1305/kernel.js';
import * as P from '../poly1305/layout.js';
import {
  type ByteRotation, type Expr, declare, func, get, i32, i32x4, i64, ifThen, memoryCopy, memoryFill, module, op, regs, rotlLanes, set, transpose4, v128, whileLoop, wipeFunction,
} from '../wasm/wat.js';

/** Rotation styles for the two byte-multiple rotations, 16 and 8. */
export interface RotationStyle {
  r16: ByteRotation;
  r8: ByteRotation;
}


/** The operations a quarter round needs, for 4-lane vectors or scalar words. */
interface Arith {
  add(a: Expr, b: Expr): Expr;
  xor(a: Expr, b: Expr): Expr;
  rotl(a: Expr, bits: number): Expr;
}

const vectorArith = (style: RotationStyle): Arith => ({
  add: i32x4.add,
  xor: v128.xor,
  rotl: (a, bits) => rotlLanes(a, bits, bits === 16 ? style.r16 : style.r8),
});

const scalarArith: Arith = { add: i32.add, xor: i32.xor, rotl: i32.rotl };

/** RFC 8439 §2.1: the quarter round on locals a, b, c, d. */
function quarterRound(m: Arith, x: string[], a: number, b: number, c: number, d: number): Expr[] {
  const step = (p: number, q: number, r: number, bits: number) => [
    set(x[p], m.add(get(x[p]), get(x[q]))),
    set(x[r], m.rotl(m.xor(get(x[r]), get(x[p])), bits)),
  ];
  return [...step(a, b, d, 16), ...step(c, d, b, 12), ...step(a, b, d, 8), ...step(c, d, b, 7)];
}

/** Round structure: each quarter round whole, or the four of a round advanced step by step together. */
export type RoundOrder = 'sequential' | 'interleaved';

/** RFC 8439 §2.2: the quarter rounds' words in a column round and in a diagonal round. */
const COLUMNS = [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]];
const DIAGONALS = [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]];

/** RFC 8439 §2.3: a column round then a diagonal round, repeated `doubleRounds` times. */
function rounds(m: Arith, x: string[], counter: string, order: RoundOrder = 'sequential'): Expr {
  const round = (qs: number[][]): Expr[] => {
    const each = qs.map(([a, b, c, d]) => quarterRound(m, x, a, b, c, d));
    if (order === 'sequential') return each.flat();
    // Step k of every quarter round, then step k + 1: independent work side by side.
    return each[0].flatMap((_, k) => each.map((q) => q[k]));
  };
  return whileLoop('round', get(counter), [
    ...round(COLUMNS),
    ...round(DIAGONALS),
    set(counter, i32.sub(get(counter), i32.const(1))),
  ]);
}

const stateWord = (w: number): Expr => i32.load(i32.const(STATE), 4 * w);
/** Words 12..13 as one 64-bit block counter (the original ChaCha layout; the IETF caller never carries). */
const counter64 = (): Expr => i64.load(i32.const(STATE), 48);
const advanceCounter = (blocks: number): Expr => i64.store(i32.const(STATE), i64.add(counter64(), i64.const(blocks)), 48);

/**
 * Four blocks at `ptr`: state words splatted into lanes, the counter
 * lanes ctr + 0..3 with the carry into word 13 where the low word wraps.
 */
function initialVectors(x: string[], first = 0): Expr[] {
  return x.map((n, w) => {
    if (w === 12) return set(n, i32x4.add(v128.splat32(i32.const(STATE), 48), v128.const32(first, first + 1, first + 2, first + 3)));
    // A lane whose low counter word wrapped is below the splatted start: lt_u gives -1 there.
    if (w === 13) return set(n, i32x4.sub(v128.splat32(i32.const(STATE), 52), i32x4.ltU(get(x[12]), v128.splat32(i32.const(STATE), 48))));
    return set(n, v128.splat32(i32.const(STATE), 4 * w));
  });
}

/** XOR four blocks of keystream (x, after the feed-forward) into the 256 bytes at `ptr`. */
function xorOut(x: string[], t: string[], at = 0): Expr[] {
  const code: Expr[] = [];
  for (let group = 0; group < 4; group++) {
    const words = x.slice(4 * group, 4 * group + 4);
    // After the transpose, words[i] holds words 4*group..4*group+3 of block i.
    code.push(...transpose4(words, t, words.map(get)));
    for (let blk = 0; blk < 4; blk++) {
      const offset = at + 64 * blk + 16 * group;
      code.push(v128.store(get('ptr'), v128.xor(v128.load(get('ptr'), offset), get(words[blk])), offset));
    }
  }
  return code;
}

/** Feed-forward (RFC 8439 §2.3): add the input state, reloaded rather than kept in 16 more registers. */
function feedForward(x: string[], t: string[], first = 0): Expr[] {
  return [
    ...x.map((n, w) => (w === 12 || w === 13 ? '' : set(n, i32x4.add(get(n), v128.splat32(i32.const(STATE), 4 * w))))),
    set(t[0], i32x4.add(v128.splat32(i32.const(STATE), 48), v128.const32(first, first + 1, first + 2, first + 3))),
    set(x[12], i32x4.add(get(x[12]), get(t[0]))),
    set(x[13], i32x4.add(get(x[13]), i32x4.sub(v128.splat32(i32.const(STATE), 52), i32x4.ltU(get(t[0]), v128.splat32(i32.const(STATE), 48))))),
  ];
}

/**
 * chacha_group8_<name>(ptr, doubleRounds): two 4-wide groups (8 blocks,
 * 512 bytes) with their quarter rounds interleaved step by step. Though
 * 32 state vectors cannot stay in 16 registers, the independent second
 * chain hides the spills' latency: measured on 512 bytes against two
 * single groups, 1,470 vs 1,200 MB/s in Node 20 (V8 11.3), 1,160 vs
 * 1,130 in Deno 2.9, 810 vs 630 in Bun 1.4 (JSC).
 */
function group8(variant: Variant): string {
  const x = regs('x', 16), y = regs('y', 16), t = regs('t', 4);
  const m = vectorArith(variant);
  const both = (q: number[]) => {
    const a = quarterRound(m, x, q[0], q[1], q[2], q[3]), b = quarterRound(m, y, q[0], q[1], q[2], q[3]);
    return a.flatMap((e, i) => [e, b[i]]);
  };
  return func({
    name: `chacha_group8_${variant.name}`,
    params: [['ptr', 'i32'], ['doubleRounds', 'i32']],
    locals: { ...declare([...x, ...y, ...t], 'v128'), i: 'i32' },
    body: [
      ...initialVectors(x, 0), ...initialVectors(y, 4),
      set('i', get('doubleRounds')),
      whileLoop('round', get('i'), [...COLUMNS.flatMap(both), ...DIAGONALS.flatMap(both), set('i', i32.sub(get('i'), i32.const(1)))]),
      ...feedForward(x, t, 0), ...xorOut(x, t, 0),
      ...feedForward(y, t, 4), ...xorOut(y, t, 256),
    ],
  });
}

/** chacha_group_<name>(ptr, doubleRounds): four blocks of keystream XORed into the 256 bytes at `ptr`; the counter is not advanced. */
function group(variant: Variant): string {
  const x = regs('x', 16), t = regs('t', 4);
  const m = vectorArith(variant);
  return func({
    name: `chacha_group_${variant.name}`,
    params: [['ptr', 'i32'], ['doubleRounds', 'i32']],
    locals: { ...declare([...x, ...t], 'v128'), i: 'i32' },
    body: [
      ...initialVectors(x),
      set('i', get('doubleRounds')),
      rounds(m, x, 'i', variant.order),
      ...feedForward(x, t),
      ...xorOut(x, t),
    ],
  });
}

/**
 * chacha_xor_<name>(ptr, len, doubleRounds): pairs of 4-block groups
 * while 512 bytes remain, then one group if 256 do. A remainder of more than 2 blocks costs less as one more
 * group over a zero-padded copy in TAIL than as scalar blocks; up to 2
 * blocks go to the scalar function (measured in V8: a group ~240 ns, a
 * scalar block ~100 ns).
 */
function vectorXor(variant: Variant): string {
  const callGroup = `(call $chacha_group_${variant.name} ${get('ptr')} ${get('doubleRounds')})`;
  return func({
    name: `chacha_xor_${variant.name}`,
    exported: true,
    params: [['ptr', 'i32'], ['len', 'i32'], ['doubleRounds', 'i32']],
    locals: { tail: 'i32' },
    body: [
      whileLoop('pair', i32.geU(get('len'), i32.const(512)), [
        `(call $chacha_group8_${variant.name} ${get('ptr')} ${get('doubleRounds')})`,
        advanceCounter(8),
        set('ptr', i32.add(get('ptr'), i32.const(512))),
        set('len', i32.sub(get('len'), i32.const(512))),
      ]),
      whileLoop('group', i32.geU(get('len'), i32.const(256)), [
        callGroup,
        advanceCounter(4),
        set('ptr', i32.add(get('ptr'), i32.const(256))),
        set('len', i32.sub(get('len'), i32.const(256))),
      ]),
      ifThen(i32.gtU(get('len'), i32.const(128)), [
        set('tail', get('ptr')),
        memoryCopy(i32.const(TAIL), get('tail'), get('len')),
        memoryFill(i32.add(i32.const(TAIL), get('len')), i32.sub(i32.const(256), get('len'))),
        set('ptr', i32.const(TAIL)),
        callGroup,
        memoryCopy(get('tail'), i32.const(TAIL), get('len')),
        memoryFill(i32.const(TAIL), i32.const(256)),
        // Blocks used: ceil(len / 64).
        i64.store(i32.const(STATE), i64.add(counter64(), i64.extend(i32.shr(i32.add(get('len'), i32.const(63)), 6))), 48),
        set('len', i32.const(0)),
      ]),
      `(call $chacha_xor_scalar ${get('ptr')} ${get('len')} ${get('doubleRounds')})`,
    ],
  });
}

/** One block's keystream into scalar locals y0..y15 (with the feed-forward when `feedForward`). */
function scalarBlock(y: string[], feedForward: boolean): Expr[] {
  return [
    ...y.map((n, w) => set(n, stateWord(w))),
    set('i', get('doubleRounds')),
    rounds(scalarArith, y, 'i'),
    ...(feedForward ? y.map((n, w) => set(n, i32.add(get(n), stateWord(w)))) : []),
  ];
}

/** Whole blocks XORed a word at a time; a final partial block through BLOCK. */
function scalarXor(): string {
  const y = regs('y', 16);
  return func({
    name: 'chacha_xor_scalar',
    params: [['ptr', 'i32'], ['len', 'i32'], ['doubleRounds', 'i32']],
    locals: { ...declare(y, 'i32'), i: 'i32' },
    body: [
      whileLoop('block', i32.geU(get('len'), i32.const(64)), [
        ...scalarBlock(y, true),
        ...y.map((n, w) => i32.store(get('ptr'), i32.xor(i32.load(get('ptr'), 4 * w), get(n)), 4 * w)),
        advanceCounter(1),
        set('ptr', i32.add(get('ptr'), i32.const(64))),
        set('len', i32.sub(get('len'), i32.const(64))),
      ]),
      ifThen(get('len'), [
        ...scalarBlock(y, true),
        ...y.map((n, w) => i32.store(i32.const(BLOCK), get(n), 4 * w)),
        set('i', i32.const(0)),
        whileLoop('byte', i32.ltU(get('i'), get('len')), [
          i32.store8(i32.add(get('ptr'), get('i')), i32.xor(i32.load8(i32.add(get('ptr'), get('i'))), i32.load8(i32.add(get('i'), i32.const(BLOCK))))),
          set('i', i32.add(get('i'), i32.const(1))),
        ]),
        advanceCounter(1),
      ]),
    ],
  });
}

/**
 * HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2): the state holds the key and
 * the 16-byte nonce in words 12..15; rounds without the feed-forward, then
 * words 0..3 and 12..15 are the subkey, written to BLOCK.
 */
function hchacha(): string {
  const y = regs('y', 16);
  return func({
    name: 'hchacha',
    exported: true,
    params: [['doubleRounds', 'i32']],
    locals: { ...declare(y, 'i32'), i: 'i32' },
    body: [
      ...scalarBlock(y, false),
      ...[0, 1, 2, 3, 12, 13, 14, 15].map((w, k) => i32.store(i32.const(BLOCK), get(y[w]), 4 * k)),
    ],
  });
}

/**
 * XChaCha20 setup (draft-irtf-cfrg-xchacha-03 §2.3): the state holds the
 * key and the first 16 nonce bytes; BLOCK + 48 holds what words 12..15
 * become (the counter and the last 8 nonce bytes). The HChaCha20 subkey
 * replaces the key in place, so the subkey never leaves linear memory.
 */
function hchachaRekey(): string {
  return func({
    name: 'hchacha_rekey',
    exported: true,
    body: [
      `(call $hchacha ${i32.const(10)})`,
      memoryCopy(i32.const(STATE + 16), i32.const(BLOCK), i32.const(32)),
      memoryCopy(i32.const(STATE + 48), i32.const(BLOCK + 48), i32.const(16)),
    ],
  });
}

/**
 * The body of a crypt function (params ptr, len; local i) after aead_init:
 * a first slice of at most `short` bytes is XORed with the keystream
 * aead_init left in TAIL from `keystream` on, 16 bytes at a time (bytes
 * past `len` are scratch); any other slice goes through chacha_xor from
 * the state's counter.
 */
function cryptAfterInit(keystream: number, short: number): Expr[] {
  return [
    ifThen(i32.and('(global.get $fresh)', i32.leU(get('len'), i32.const(short))), [
      set('i', i32.const(0)),
      whileLoop('short', i32.ltU(get('i'), get('len')), [
        v128.store(i32.add(get('ptr'), get('i')), v128.xor(v128.load(i32.add(get('ptr'), get('i'))), v128.load(get('i'), keystream))),
        set('i', i32.add(get('i'), i32.const(16))),
      ]),
      '(global.set $fresh (i32.const 0))',
      '(return)',
    ]),
    '(global.set $fresh (i32.const 0))',
    `(call $chacha_xor ${get('ptr')} ${get('len')} ${i32.const(10)})`,
  ];
}

/**
 * AEAD_CHACHA20_POLY1305 (RFC 8439 §2.8). aead_init computes blocks 0..3
 * as one 4-wide group into TAIL: block 0 gives the one-time Poly1305 key
 * (§2.6), and a message of at most 3 blocks is encrypted with the rest, so
 * a short message costs one group instead of two or more scalar blocks.
 * Longer messages start over at counter 1. seal and open then take one
 * slice each, encrypting and authenticating it in one call; slices are
 * multiples of 16 bytes but the last, which pad16 pads.
 */
function aead(variant: Variant): string[] {
  const SHORT = 192;
  const init = func({
    name: 'aead_init',
    exported: true,
    body: [
      memoryFill(i32.const(TAIL), i32.const(256)),
      `(call $chacha_group_${variant.name} ${i32.const(TAIL)} ${i32.const(10)})`,
      memoryCopy(i32.const(POLY + P.KEY), i32.const(TAIL), i32.const(32)),
      `(call $poly_init)`,
      i32.store(i32.const(STATE), i32.const(1), 48),
      '(global.set $fresh (i32.const 1))',
    ],
  });
  /** The first slice, if short: XOR with blocks 1..3 from TAIL. */
  const crypt = cryptAfterInit(TAIL + 64, SHORT);
  const slice = (name: string, body: Expr[]) =>
    func({ name: `${name}_crypt`, params: [['ptr', 'i32'], ['len', 'i32']], locals: { i: 'i32' }, body });
  const seal = func({
    name: 'aead_seal',
    exported: true,
    params: [['ptr', 'i32'], ['len', 'i32']],
    body: [`(call $aead_crypt ${get('ptr')} ${get('len')})`, `(call $poly_pad16 ${get('ptr')} ${get('len')})`],
  });
  const open = func({
    name: 'aead_open',
    exported: true,
    params: [['ptr', 'i32'], ['len', 'i32']],
    body: [`(call $poly_pad16 ${get('ptr')} ${get('len')})`, `(call $aead_crypt ${get('ptr')} ${get('len')})`],
  });
  // The last Poly1305 block (§2.8): both lengths as little-endian 64-bit
  // numbers. They arrive as f64, exact below 2^53, so JavaScript needs no BigInt.
  const finish = func({
    name: 'aead_finish',
    exported: true,
    params: [['aadLength', 'f64'], ['dataLength', 'f64'], ['tag', 'i32']],
    body: [
      i64.store(i32.const(POLY + P.SCRATCH), op('i64.trunc_f64_u')(get('aadLength'))),
      i64.store(i32.const(POLY + P.SCRATCH), op('i64.trunc_f64_u')(get('dataLength')), 8),
      `(call $poly_blocks_scalar ${i32.const(POLY + P.SCRATCH)} ${i32.const(16)} ${i32.const(P.HIBIT)})`,
      `(call $poly_finish)`,
      v128.store(get('tag'), v128.load(i32.const(POLY + P.TAG))),
    ],
  });
  return [init, slice('aead', crypt), seal, open, finish];
}

/**
 * libsodium's crypto_secretstream_xchacha20poly1305 message (libsodium
 * documentation, "Encrypted streams and file encryption"; the algorithm
 * section there): under the stream's key and 12-byte nonce, ChaCha20
 * (IETF) block 0 keys Poly1305, block 1 encrypts a 64-byte block whose
 * first byte is the tag, blocks 2.. encrypt the message, and the MAC covers
 *   aad || pad16(aad) || block || c || zeros(mlen mod 16) || le64(aadlen) || le64(64 + mlen).
 * The message padding is libsodium's, not RFC 8439's: its length is
 * (0x10 - 64 + mlen) & 15 = mlen mod 16 rather than -mlen mod 16, so the
 * length block is 16-byte aligned only when mlen mod 16 is 0 or 8. That is
 * why aead_seal/aead_open (which pad the last slice) and aead_finish
 * (which MACs an aligned length block) cannot end a message; aead_init
 * (blocks 0..3 and the Poly1305 key) and poly_pad16 (the aad) are reused.
 *
 * Per message: aead_init, poly_pad16 over the aad, stream_block, then
 * stream_seal or stream_open per slice (all but the last a multiple of 64
 * bytes), then stream_finish.
 */
function secretstream(): string[] {
  /** Message bytes the keystream blocks 2 and 3, left in TAIL by aead_init, cover. */
  const SHORT = 128;
  // The tag block is keystream block 1 (TAIL + 64) with byte 0 the ciphertext
  // byte: tag ^ ks[0] when sealing, the received byte when opening (bytes
  // 1..63 encrypt zeros, so they are the keystream itself). Returns the other
  // one of tag and ciphertext byte, byte0 ^ ks[0]. The message starts at block 2.
  const block = func({
    name: 'stream_block',
    exported: true,
    params: [['byte0', 'i32'], ['encrypt', 'i32']],
    result: 'i32',
    locals: { other: 'i32' },
    body: [
      set('other', i32.xor(get('byte0'), i32.load8(i32.const(TAIL + 64)))),
      i32.store8(i32.const(TAIL + 64), `(select ${get('other')} ${get('byte0')} ${get('encrypt')})`),
      `(call $poly_blocks_scalar ${i32.const(TAIL + 64)} ${i32.const(64)} ${i32.const(P.HIBIT)})`,
      i32.store(i32.const(STATE), i32.const(2), 48),
      get('other'),
    ],
  });
  // A message of at most SHORT bytes is encrypted with blocks 2..3 from
  // TAIL, longer ones through chacha_xor from counter 2.
  const crypt = func({ name: 'stream_crypt', params: [['ptr', 'i32'], ['len', 'i32']], locals: { i: 'i32' }, body: cryptAfterInit(TAIL + 128, SHORT) });
  // Whole 16-byte blocks of ciphertext into the MAC; a last partial block
  // waits in REST for stream_finish (only a message's last slice has one).
  const mac = func({
    name: 'stream_mac',
    params: [['ptr', 'i32'], ['len', 'i32']],
    locals: { full: 'i32' },
    body: [
      set('full', i32.and(get('len'), i32.const(~15))),
      `(call $poly_blocks ${get('ptr')} ${get('full')} ${i32.const(P.HIBIT)})`,
      memoryCopy(i32.const(REST), i32.add(get('ptr'), get('full')), i32.and(get('len'), i32.const(15))),
    ],
  });
  const slice = (name: string, calls: string[]) =>
    func({ name, exported: true, params: [['ptr', 'i32'], ['len', 'i32']], body: calls.map((f) => `(call $${f} ${get('ptr')} ${get('len')})`) });
  // REST: [the r = macLength mod 16 waiting bytes][r zeros][le64 aad length]
  // [le64 macLength], then Poly1305's own final-block padding (RFC 8439
  // §2.5.1: a 0x01 byte, zeros, no 2^128 bit) when that is not whole blocks.
  // Lengths arrive as f64, exact below 2^53, as in aead_finish.
  const finish = func({
    name: 'stream_finish',
    exported: true,
    params: [['aadLength', 'f64'], ['macLength', 'f64'], ['tag', 'i32']],
    locals: { rest: 'i32', total: 'i32' },
    body: [
      set('rest', i32.and(i32.wrap(op('i64.trunc_f64_u')(get('macLength'))), i32.const(15))),
      memoryFill(i32.add(i32.const(REST), get('rest')), i32.sub(i32.const(48), get('rest'))),
      i64.store(i32.add(i32.const(REST), i32.shl(get('rest'), 1)), op('i64.trunc_f64_u')(get('aadLength'))),
      i64.store(i32.add(i32.const(REST), i32.shl(get('rest'), 1)), op('i64.trunc_f64_u')(get('macLength')), 8),
      set('total', i32.add(i32.shl(get('rest'), 1), i32.const(16))),
      `(call $poly_blocks_scalar ${i32.const(REST)} ${i32.and(get('total'), i32.const(~15))} ${i32.const(P.HIBIT)})`,
      ifThen(i32.and(get('total'), i32.const(15)), [
        i32.store8(i32.add(i32.const(REST), get('total')), i32.const(1)),
        `(call $poly_blocks_scalar ${i32.add(i32.const(REST), i32.and(get('total'), i32.const(~15)))} ${i32.const(16)} ${i32.const(0)})`,
      ]),
      `(call $poly_finish)`,
      v128.store(get('tag'), v128.load(i32.const(POLY + P.TAG))),
    ],
  });
  return [block, crypt, mac, slice('stream_seal', ['stream_crypt', 'stream_mac']), slice('stream_open', ['stream_mac', 'stream_crypt']), finish];
}

/** One exported 4-wide kernel: how it rotates and orders its quarter rounds. */
export interface Variant extends RotationStyle {
  name: string;
  order: RoundOrder;
}

/**
 * The variants the module exports. Measured on data in linear memory
 * (32 KiB, 10 double rounds, 8 blocks an iteration, medians of interleaved
 * samples, 2026-11, machine shared with other jobs):
 *
 *                      swizzle   shuffle   shift   (MB/s)
 *   Node 20 (V8 11.3)  755-1015   617-739  693-1031
 *   Deno 2.9 (V8 15.0) 890-1142  1063-1261 1058-1246
 *   Bun 1.4 (JSC)       816-860   404-816   326-629
 *
 * Engines disagree: newer V8 prefers i8x16.shuffle, V8 11.3 and
 * JavaScriptCore i8x16.swizzle, and shift/or is never best. Both
 * byte-permutation variants ship and the runtime picks one per engine by
 * timing real calls (runtime/variants.ts), not by user-agent guessing.
 * Interleaving the four quarter rounds step by step instead of one after
 * the other, and binaryen -O0/-O1/-O3, moved nothing beyond noise.
 */
export const chachaVariants: Variant[] = [
  { name: 'swizzle', r16: 'swizzle', r8: 'swizzle', order: 'sequential' },
  { name: 'shuffle', r16: 'shuffle', r8: 'shuffle', order: 'sequential' },
];

/**
 * chacha_xor(ptr, len, doubleRounds) runs the variant `select_variant`
 * chose (the runtime measures them on real calls: runtime/variants.ts); the
 * AEAD uses it too. The choice is public, so branching on it is fine.
 */
function dispatch(variants: Variant[]): string[] {
  const call = (v: Variant) => `(call $chacha_xor_${v.name} ${get('ptr')} ${get('len')} ${get('doubleRounds')})`;
  const chain = (i: number): Expr =>
    i === variants.length - 1 ? call(variants[i]) : `(if (i32.eq (global.get $variant) ${i32.const(i)}) (then ${call(variants[i])}) (else ${chain(i + 1)}))`;
  return [
    func({
      name: 'chacha_xor',
      exported: true,
      params: [['ptr', 'i32'], ['len', 'i32'], ['doubleRounds', 'i32']],
      body: [chain(0)],
    }),
    func({ name: 'select_variant', exported: true, params: [['index', 'i32']], body: ['(global.set $variant (local.get $index))'] }),
    func({ name: 'variant_count', exported: true, result: 'i32', body: [i32.const(variants.length)] }),
  ];
}

export function chachaModule(variants: Variant[] = chachaVariants): string {
  return module(PAGES, [
    ...variants.flatMap((v) => [group(v), group8(v), vectorXor(v)]),
    ...dispatch(variants),
    scalarXor(),
    hchacha(),
    ...poly1305Functions(POLY),
    hchachaRekey(),
    ...aead(variants[0]),
    ...secretstream(),
    wipeFunction(TAIL),
  ], ['(global $fresh (mut i32) (i32.const 0))', '(global $variant (mut i32) (i32.const 0))']);
}
