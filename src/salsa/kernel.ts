/**
 * Salsa20 kernel generator (D. J. Bernstein, "Salsa20 specification",
 * 2005), with HSalsa20 and XSalsa20 ("Extending the Salsa20 nonce", 2008)
 * and NaCl's secretbox, XSalsa20-Poly1305 ("Cryptography in NaCl", 2009,
 * §9), whose Poly1305 comes from poly1305/kernel.ts, so that one call
 * encrypts and authenticates a slice while it is in cache.
 *
 * The SIMD path is wasm/stream.ts's, shared with ChaCha: inter-block
 * groups of four blocks, two groups interleaved for long inputs; this file
 * holds what is Salsa20's (the quarter round, the rounds, the state
 * layout) and the secretbox. Salsa20 rotates by 7, 9, 13 and 18 bits: none is a multiple of 8, so no
 * rotation can be a byte shuffle, and every one is shift, shift, or; with
 * no rotation variants there is nothing for a VariantPicker to choose.
 * Measurements: docs/contributing/performance-history.md#salsa20.
 */
import { COUNTER_WORD, HSALSA_WORDS, KEY_WORDS, NONCE_WORD } from './constants.js';
import { BLOCK, BUFFER, NONCE24, PAGES, POLY, STATE, TAIL } from './layout.js';
import { poly1305Functions, polyKeyFrom, polyTagTo, wholeBlocks } from '../poly1305/kernel.js';
import * as P from '../poly1305/layout.js';
import { SALSA_COLUMNS, SALSA_ROWS, salsaQuarterRound, vectorArith } from '../wasm/arx.js';
import {
  DOUBLE_ROUNDS,
  type StreamCipher,
  advanceCounter,
  group8Function,
  groupFunction,
  scalarXorFunction,
  setStateWord,
  slicePasses,
  stateAddress,
  subkeyFunction,
  vectorXorFunction,
  xorFromMemory,
} from '../wasm/stream.js';
import {
  call,
  func,
  get,
  getGlobal,
  i32,
  i64,
  ifThen,
  memoryCopy,
  memoryFill,
  module,
  mutableGlobal,
  select,
  set,
  setGlobal,
  v128,
  wipeFunction,
} from '../wasm/wat.js';

/**
 * §10: the input is 16 words, constants in 0, 5, 10, 15, the key in 1..4
 * and 11..14, the nonce in 6..7 and the block counter ("block number") in
 * 8..9, one little-endian 64-bit number. §6 doubleround: a column round,
 * then a row round; 10 of them for Salsa20, 6 and 4 for Salsa20/12 and /8.
 */
const SALSA: StreamCipher = {
  state: STATE,
  counter: COUNTER_WORD,
  block: BLOCK,
  tail: TAIL,
  quarterRound: salsaQuarterRound,
  doubleRound: [...SALSA_COLUMNS, ...SALSA_ROWS],
};

/** Four lanes at once, every rotation shift, shift, or (none is a byte permutation). */
const vector = vectorArith('shift');

/**
 * The XOR functions (wasm/stream.ts): salsa_group (4 blocks), salsa_group8
 * (8 blocks, the quarter-round steps of two groups interleaved), salsa_xor
 * over a buffer, salsa_xor_scalar for at most 2 blocks. Each block is §8's
 * Salsa20 hash: the input (in lanes), the rounds, the input added back.
 */
function xorFunctions(): string[] {
  return [
    groupFunction(SALSA, 'salsa_group', vector),
    group8Function(SALSA, 'salsa_group8', vector),
    vectorXorFunction(SALSA, 'salsa_xor', { group: 'salsa_group', group8: 'salsa_group8', scalar: 'salsa_xor_scalar' }),
    scalarXorFunction(SALSA, 'salsa_xor_scalar'),
  ];
}

/**
 * hsalsa(doubleRounds): the state holds the constants, the key and the
 * 16-byte input in words 6..9; the rounds' words HSALSA_WORDS are the
 * subkey, written to BLOCK.
 */
const hsalsa = (): string => subkeyFunction(SALSA, 'hsalsa', HSALSA_WORDS, BLOCK);

/**
 * XSalsa20 setup ("Extending the Salsa20 nonce" §3): the state holds the
 * key, NONCE24 the 24-byte nonce. HSalsa20 of the first 16 nonce bytes
 * (in words 6..9) gives the subkey, which replaces the key (words 1..4 and
 * 11..14) in place, so it never leaves linear memory; words 6..9 become
 * the last 8 nonce bytes and the block counter.
 */
function hsalsaRekey(): string {
  return func({
    name: 'hsalsa_rekey',
    exported: true,
    params: [
      ['counterLow', 'i32'],
      ['counterHigh', 'i32'],
    ],
    body: [
      memoryCopy(stateAddress(SALSA, NONCE_WORD), i32.const(NONCE24), i32.const(16)),
      call('hsalsa', i32.const(DOUBLE_ROUNDS)),
      memoryCopy(stateAddress(SALSA, KEY_WORDS[0]), i32.const(BLOCK), i32.const(16)),
      memoryCopy(stateAddress(SALSA, KEY_WORDS[1]), i32.const(BLOCK + 16), i32.const(16)),
      memoryCopy(stateAddress(SALSA, NONCE_WORD), i32.const(NONCE24 + 16), i32.const(8)),
      setStateWord(SALSA, COUNTER_WORD, get('counterLow')),
      setStateWord(SALSA, COUNTER_WORD + 1, get('counterHigh')),
    ],
  });
}

/**
 * Secretbox ("Cryptography in NaCl" §9; libsodium crypto_secretbox_easy):
 * the first 32 bytes of XSalsa20 keystream are the one-time Poly1305 key,
 * the message is encrypted with the keystream from byte 32 on, and the tag
 * is Poly1305 of the ciphertext alone (no padding, no length block).
 * box_init computes blocks 0..3 as one 4-wide group into TAIL: a message
 * of up to 224 bytes needs no other keystream, and a longer one continues
 * at block 4. box_seal and box_open take one slice each, encrypting and
 * authenticating it in the same call; slices are multiples of 16 bytes but
 * the last.
 */
function secretbox(): string[] {
  // Keystream bytes 0..31 key Poly1305; the message starts at byte 32.
  const POLY_KEY_BYTES = 32;
  const HEAD = 256 - POLY_KEY_BYTES;
  const init = func({
    name: 'box_init',
    exported: true,
    body: [
      memoryFill(i32.const(TAIL), i32.const(256)),
      call('salsa_group', i32.const(TAIL), i32.const(DOUBLE_ROUNDS)),
      ...polyKeyFrom(POLY, i32.const(TAIL)),
      advanceCounter(SALSA, i64.const(4)),
      setGlobal('fresh', i32.const(1)),
    ],
  });
  // The first slice's first 224 bytes take keystream bytes 32..256 from TAIL, 16 at a time
  // (bytes past `len` are scratch); the rest, and later slices, run on from block 4.
  const crypt = func({
    name: 'box_crypt',
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    locals: { i: 'i32', head: 'i32' },
    body: [
      ifThen(getGlobal('fresh'), [
        setGlobal('fresh', i32.const(0)),
        set('head', select(get('len'), i32.const(HEAD), i32.ltU(get('len'), i32.const(HEAD)))),
        ...xorFromMemory(TAIL + POLY_KEY_BYTES, get('head')),
        set('ptr', i32.add(get('ptr'), get('head'))),
        set('len', i32.sub(get('len'), get('head'))),
      ]),
      call('salsa_xor', get('ptr'), get('len'), i32.const(DOUBLE_ROUNDS)),
    ],
  });
  // Poly1305 of a slice as message bytes (RFC 8439 §2.5.1): whole blocks with the 2^128 bit, a
  // last partial block followed by a 1 byte and zeros, without it.
  const mac = func({
    name: 'box_mac',
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    locals: { full: 'i32' },
    body: [
      ...wholeBlocks(),
      ifThen(i32.and(get('len'), i32.const(15)), [
        v128.store(i32.const(POLY + P.SCRATCH), v128.const32(0, 0, 0, 0)),
        memoryCopy(i32.const(POLY + P.SCRATCH), i32.add(get('ptr'), get('full')), i32.and(get('len'), i32.const(15))),
        i32.store8(i32.add(i32.const(POLY + P.SCRATCH), i32.and(get('len'), i32.const(15))), i32.const(1)),
        call('poly_blocks_scalar', i32.const(POLY + P.SCRATCH), i32.const(16), i32.const(0)),
      ]),
    ],
  });
  const finish = func({
    name: 'box_finish',
    exported: true,
    params: [['tag', 'i32']],
    body: polyTagTo(POLY, get('tag')),
  });
  return [init, crypt, mac, slicePasses('box_seal', ['box_crypt', 'box_mac']), slicePasses('box_open', ['box_mac', 'box_crypt']), finish];
}

export function salsaModule(): string {
  if (POLY + P.SIZE > BUFFER) throw new Error('salsa layout: the Poly1305 state overlaps BUFFER');
  return module(PAGES, [...xorFunctions(), hsalsa(), hsalsaRekey(), ...poly1305Functions(POLY), ...secretbox(), wipeFunction(TAIL)], [mutableGlobal('fresh')]);
}
