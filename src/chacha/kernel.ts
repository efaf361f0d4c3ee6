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
 * scalar block function. Those groups and loops are wasm/stream.ts's,
 * shared with Salsa20; this file holds what is ChaCha's (the quarter
 * round, the rounds, the state layout) and the AEADs.
 */
import { BLOCK, BUFFER, COUNTER_WORD, KEY_WORD, NONCE24, PAGES, POLY, REST, REST_BYTES, STATE, TAIL } from '../chachapoly/layout.js';
import { poly1305Functions, polyKeyFrom, polyTagTo } from '../poly1305/kernel.js';
import * as P from '../poly1305/layout.js';
import { type Arith, COLUMNS, DIAGONALS, scalarArith, vectorArith } from '../wasm/arx.js';
import {
  DOUBLE_ROUNDS,
  type StreamCipher,
  addState,
  group8Function,
  groupFunction,
  loadState,
  roundLoop,
  scalarXorFunction,
  setStateWord,
  slicePasses,
  stateAddress,
  stateWord,
  subkeyFunction,
  twoChains,
  vectorXorFunction,
  xorFromMemory,
} from '../wasm/stream.js';
import {
  type ByteRotation,
  type Expr,
  call,
  callVariant,
  declare,
  func,
  get,
  getGlobal,
  i32,
  i64,
  ifElse,
  ifThen,
  memoryCopy,
  memoryFill,
  module,
  mutableGlobal,
  regs,
  ret,
  set,
  setGlobal,
  variantFunctions,
  variantGlobal,
  wipeFunction,
} from '../wasm/wat.js';

/** RFC 8439 §2.1: the quarter round on the locals x at words a, b, c, d. */
function quarterRound(m: Arith, x: string[], [a, b, c, d]: number[]): Expr[] {
  const step = (p: number, q: number, r: number, bits: number) => [
    set(x[p], m.add(get(x[p]), get(x[q]))),
    set(x[r], m.rotl(m.xor(get(x[r]), get(x[p])), bits)),
  ];
  return [...step(a, b, d, 16), ...step(c, d, b, 12), ...step(a, b, d, 8), ...step(c, d, b, 7)];
}

/**
 * RFC 8439 §2.3: the state is 16 words, the constants in 0..3, the key in
 * 4..11, the block counter in 12 and the nonce in 13..15. The kernel counts
 * blocks in words 12..13 as one 64-bit number (the original ChaCha layout;
 * the IETF caller never carries into 13). A double round (§2.3) is a column
 * round then a diagonal round (§2.2).
 */
const CHACHA: StreamCipher = {
  state: STATE,
  counter: COUNTER_WORD,
  block: BLOCK,
  tail: TAIL,
  quarterRound,
  doubleRound: [...COLUMNS, ...DIAGONALS],
};

/**
 * One variant's XOR functions (wasm/stream.ts): chacha_group_<v> (4
 * blocks), chacha_group8_<v> (8 blocks, the quarter-round steps of two
 * groups interleaved), chacha_xor_<v> over a buffer. Each 4-wide block
 * is §2.3's block function too: the state in lanes, the rounds, the
 * feed-forward, then §2.4's XOR with the data.
 */
function vectorFunctions(variant: ByteRotation): string[] {
  const m = vectorArith(variant);
  const [group, group8] = [`chacha_group_${variant}`, `chacha_group8_${variant}`];
  return [
    groupFunction(CHACHA, group, m),
    group8Function(CHACHA, group8, m),
    vectorXorFunction(CHACHA, `chacha_xor_${variant}`, { group, group8, scalar: 'chacha_xor_scalar' }),
  ];
}

/**
 * HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2): the state holds the key and
 * the 16-byte nonce in words 12..15; rounds without the feed-forward, then
 * words 0..3 and 12..15 are the subkey, written to BLOCK.
 */
const hchacha = (): string => subkeyFunction(CHACHA, 'hchacha', [0, 1, 2, 3, 12, 13, 14, 15], BLOCK);

/**
 * XChaCha20 setup (draft-irtf-cfrg-xchacha-03 §2.3): the state holds the
 * key, NONCE24 the 24-byte nonce. HChaCha20 of the first 16 nonce bytes
 * gives the subkey, which replaces the key in place, so it never leaves
 * linear memory; words 12..15 become the block counter and the last 8
 * nonce bytes.
 */
function hchachaRekey(): string {
  return func({
    name: 'hchacha_rekey',
    exported: true,
    params: [
      ['counterLow', 'i32'],
      ['counterHigh', 'i32'],
    ],
    body: [
      memoryCopy(stateAddress(CHACHA, COUNTER_WORD), i32.const(NONCE24), i32.const(16)),
      call('hchacha', i32.const(DOUBLE_ROUNDS)),
      memoryCopy(stateAddress(CHACHA, KEY_WORD), i32.const(BLOCK), i32.const(32)),
      setStateWord(CHACHA, COUNTER_WORD, get('counterLow')),
      setStateWord(CHACHA, COUNTER_WORD + 1, get('counterHigh')),
      memoryCopy(stateAddress(CHACHA, COUNTER_WORD + 2), i32.const(NONCE24 + 16), i32.const(8)),
    ],
  });
}

/** Where aead_init leaves keystream block n (0..3) of a message: in TAIL. */
const keystreamBlock = (n: number): number => TAIL + 64 * n;

/**
 * The body of a crypt function (params ptr, len; local i) after aead_init:
 * a first slice that the keystream blocks aead_init left in TAIL cover
 * from block `first` on is XORed with them, 16 bytes at a time (bytes past
 * `len` are scratch); any other slice goes through chacha_xor from the
 * state's counter.
 */
function cryptAfterInit(first: number): Expr[] {
  // $fresh is the number of blocks aead_init computed, 0 once they are used:
  // then the signed comparison with a negative byte count fails.
  const available = i32.shl(i32.sub(getGlobal('fresh'), i32.const(first)), 6);
  return [
    ifThen(i32.leS(get('len'), available), [...xorFromMemory(keystreamBlock(first), get('len')), setGlobal('fresh', i32.const(0)), ret()]),
    setGlobal('fresh', i32.const(0)),
    call('chacha_xor', get('ptr'), get('len'), i32.const(DOUBLE_ROUNDS)),
  ];
}

/**
 * AEAD_CHACHA20_POLY1305 (RFC 8439 §2.8). aead_init(blocks) computes the
 * first keystream blocks into TAIL: block 0 gives the one-time Poly1305
 * key (§2.6) and the rest encrypt a short message, so it costs no second
 * call. With blocks = 4 they are one 4-wide group (messages up to 3
 * blocks), otherwise chacha20_two_blocks (up to 1 block). Longer messages
 * start over at counter 1. seal and open then take one slice each,
 * encrypting and authenticating it in one call; slices are multiples of
 * 16 bytes but the last, which pad16 pads. Encryption and MAC are two
 * passes over the slice: Poly1305 stitched into the ChaCha round loop (as
 * OpenSSL's stitched AEADs do) was faster only on an idle host
 * (docs/contributing/performance-history.md#chacha).
 */
function aead(variant: ByteRotation): string[] {
  const init = func({
    name: 'aead_init',
    exported: true,
    params: [['blocks', 'i32']],
    body: [
      ifElse(
        i32.eq(get('blocks'), i32.const(4)),
        [
          memoryFill(i32.const(TAIL), i32.const(256)),
          call(`chacha_group_${variant}`, i32.const(TAIL), i32.const(DOUBLE_ROUNDS)),
          setGlobal('fresh', i32.const(4)),
        ],
        [call('chacha20_two_blocks', i32.const(TAIL)), setGlobal('fresh', i32.const(2))],
      ),
      ...polyKeyFrom(POLY, i32.const(keystreamBlock(0))),
      setStateWord(CHACHA, COUNTER_WORD, i32.const(1)),
    ],
  });
  /** The first slice, if short: XOR with the blocks from 1 on in TAIL. Exported for libsodium's original construction (chacha/original.ts). */
  const crypt = cryptAfterInit(1);
  const slice = (name: string, body: Expr[]) =>
    func({
      name: `${name}_crypt`,
      exported: true,
      params: [
        ['ptr', 'i32'],
        ['len', 'i32'],
      ],
      locals: { i: 'i32' },
      body,
    });
  // The last Poly1305 block (§2.8): both lengths as little-endian 64-bit
  // numbers. They arrive as f64, exact below 2^53, so JavaScript needs no BigInt.
  const finish = func({
    name: 'aead_finish',
    exported: true,
    params: [
      ['aadLength', 'f64'],
      ['dataLength', 'f64'],
      ['tag', 'i32'],
    ],
    body: [
      i64.store(i32.const(POLY + P.SCRATCH), i64.fromF64(get('aadLength'))),
      i64.store(i32.const(POLY + P.SCRATCH), i64.fromF64(get('dataLength')), 8),
      call('poly_blocks_scalar', i32.const(POLY + P.SCRATCH), i32.const(16), i32.const(P.HIBIT)),
      ...polyTagTo(POLY, get('tag')),
    ],
  });
  return [init, slice('aead', crypt), slicePasses('aead_seal', ['aead_crypt', 'poly_pad16']), slicePasses('aead_open', ['poly_pad16', 'aead_crypt']), finish];
}

/**
 * The variants the module exports, each named by how it rotates by 16 and
 * 8 bits (wasm/wat.ts rotlLanes). Engines disagree on the fastest byte
 * rotation (newer V8 i8x16.shuffle, V8 11.3 and JavaScriptCore
 * i8x16.swizzle; shift/or is never best), so both byte-permutation
 * variants ship and the runtime picks one per engine by timing real calls
 * (runtime/variants.ts), not by user-agent guessing. The measurements,
 * and the round shapes tried and not kept: docs/contributing/performance-history.md#chacha.
 */
export const chachaVariants: ByteRotation[] = ['swizzle', 'shuffle'];

/**
 * chacha_xor(ptr, len, doubleRounds) runs the variant the runtime chose
 * (it measures them on real calls: runtime/variants.ts); the AEAD uses it
 * too.
 */
function dispatch(variants: ByteRotation[]): string[] {
  return [
    func({
      name: 'chacha_xor',
      exported: true,
      params: [
        ['ptr', 'i32'],
        ['len', 'i32'],
        ['doubleRounds', 'i32'],
      ],
      body: [callVariant(variants, 'chacha_xor', [get('ptr'), get('len'), get('doubleRounds')])],
    }),
    ...variantFunctions(variants.length),
  ];
}

/**
 * chacha20_two_blocks(ptr): the keystream of blocks counter and counter + 1
 * (RFC 8439 §2.3, 10 double rounds) stored at ptr, the two blocks' steps
 * interleaved so that one fills the other's latency: cheaper than a 4-wide
 * group or two scalar blocks (docs/contributing/performance-history.md#chacha). A short AEAD
 * message needs only these two: the Poly1305 key and one block of keystream.
 */
function twoBlocks(): string {
  const y = regs('y', 16),
    z = regs('z', 16);
  // Word w of the second block's input: the state's, but the counter + 1 in words 12..13.
  const second = (w: number): Expr => (w === COUNTER_WORD ? get('low') : w === COUNTER_WORD + 1 ? get('high') : stateWord(CHACHA, w));
  return func({
    name: 'chacha20_two_blocks',
    params: [['ptr', 'i32']],
    locals: { ...declare([...y, ...z, 'low', 'high'], 'i32'), i: 'i32' },
    body: [
      set('low', i32.add(stateWord(CHACHA, COUNTER_WORD), i32.const(1))),
      set('high', i32.add(stateWord(CHACHA, COUNTER_WORD + 1), i32.eqz(get('low')))),
      ...loadState(CHACHA, y),
      ...z.map((n, w) => set(n, second(w))),
      set('i', i32.const(DOUBLE_ROUNDS)),
      roundLoop('i', twoChains(CHACHA, scalarArith, y, z)),
      ...addState(CHACHA, y),
      ...y.map((n, w) => i32.store(get('ptr'), get(n), 4 * w)),
      ...z.map((n, w) => i32.store(get('ptr'), i32.add(get(n), second(w)), 64 + 4 * w)),
    ],
  });
}

/**
 * What a family whose functions are linked into the module builds on
 * (secretstream/kernel.ts): the cipher, the crypt body after aead_init, and
 * where aead_init leaves keystream block n.
 */
export interface ChachaPieces {
  readonly cipher: StreamCipher;
  readonly cryptAfterInit: (first: number) => Expr[];
  readonly keystreamBlock: (n: number) => number;
}

export const chachaPieces: ChachaPieces = { cipher: CHACHA, cryptAfterInit, keystreamBlock };

/**
 * The module: ChaCha, Poly1305 and the AEAD, with `linked`, the functions
 * of a family built on them (secretstream's: src/kernels.ts composes the
 * two), so that one instance serves ChaCha, Poly1305 and secretstream.
 */
export function chachaModule(linked: readonly string[]): string {
  if (REST + REST_BYTES > BUFFER) throw new Error('chacha layout: REST overlaps BUFFER');
  if (POLY + P.SIZE > REST) throw new Error('chacha layout: the Poly1305 state overlaps REST');
  return module(
    PAGES,
    [
      ...chachaVariants.flatMap(vectorFunctions),
      ...dispatch(chachaVariants),
      scalarXorFunction(CHACHA, 'chacha_xor_scalar'),
      hchacha(),
      twoBlocks(),
      ...poly1305Functions(POLY),
      hchachaRekey(),
      ...aead(chachaVariants[0]),
      ...linked,
      wipeFunction(TAIL),
    ],
    [mutableGlobal('fresh'), variantGlobal],
  );
}
