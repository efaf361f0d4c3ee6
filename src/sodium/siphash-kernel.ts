/**
 * SipHash-2-4 kernel generator (Aumasson and Bernstein, 2012; libsodium's
 * crypto_shorthash and its 128-bit variant, _siphashx24): 64-bit
 * add-rotate-xor, which WebAssembly's i64 locals run one instruction a
 * step, where JavaScript needs two 32-bit halves and a carry (siphash.ts,
 * the js tier: 0.2x libsodium.js's speed). A module of its own, so that
 * fourfold/blake2's pages do not carry it (in the BLAKE2b module it cost
 * them 535 bytes gzip).
 *
 * Memory (siphash-layout.ts): the state v0..v3, the key (k0, k1) and then
 * the output, the message's words in the buffer; all of it secret, wiped
 * by the caller (siphash-simd.ts) before each call returns. Nothing
 * depends on the data but the data: the loop runs on the length.
 */
import { SIP_KEY, SIP_PAGES, SIP_STATE } from './siphash-layout.js';
import { type Expr, func, get, i32, i64, ifThen, module, set, whileLoop, wipeFunction } from '../wasm/wat.js';

const V = ['v0', 'v1', 'v2', 'v3'];
const rotl = (x: Expr, n: number): Expr => i64.rotr(x, 64 - n);

/** One SipRound on the locals v0..v3. */
function sipRound(): Expr[] {
  const [a, b, c, d] = V;
  return [
    set(a, i64.add(get(a), get(b))),
    set(b, i64.xor(rotl(get(b), 13), get(a))),
    set(a, rotl(get(a), 32)),
    set(c, i64.add(get(c), get(d))),
    set(d, i64.xor(rotl(get(d), 16), get(c))),
    set(a, i64.add(get(a), get(d))),
    set(d, i64.xor(rotl(get(d), 21), get(a))),
    set(c, i64.add(get(c), get(b))),
    set(b, i64.xor(rotl(get(b), 17), get(c))),
    set(c, rotl(get(c), 32)),
  ];
}

const rounds = (n: number): Expr[] => Array.from({ length: n }, sipRound).flat();
const load = (): Expr[] => V.map((v, i) => set(v, i64.load(i32.const(SIP_STATE), 8 * i)));
const store = (): Expr[] => V.map((v, i) => i64.store(i32.const(SIP_STATE), get(v), 8 * i));
const locals = Object.fromEntries(V.map((v) => [v, 'i64' as const]));

/** sipStart(wide): the state from the key at SIP_KEY ("somepseudorandomlygeneratedbytes"), v1 ^= 0xee for the 128-bit output. */
const sipStart = (): string =>
  func({
    name: 'sipStart',
    exported: true,
    params: [['wide', 'i32']],
    locals: { k0: 'i64', k1: 'i64' },
    body: [
      set('k0', i64.load(i32.const(SIP_KEY))),
      set('k1', i64.load(i32.const(SIP_KEY), 8)),
      i64.store(i32.const(SIP_STATE), i64.xor(get('k0'), i64.const(0x736f6d6570736575n)), 0),
      i64.store(i32.const(SIP_STATE), i64.xor(i64.xor(get('k1'), i64.const(0x646f72616e646f6dn)), i64.mul(i64.extend(get('wide')), i64.const(0xee))), 8),
      i64.store(i32.const(SIP_STATE), i64.xor(get('k0'), i64.const(0x6c7967656e657261n)), 16),
      i64.store(i32.const(SIP_STATE), i64.xor(get('k1'), i64.const(0x7465646279746573n)), 24),
    ],
  });

/** One message word at ptr + `offset` into the state (the SipHash paper, §2: v3 ^= m, two SipRounds, v0 ^= m). */
const word = (offset: number): Expr[] => [
  set('m', i64.load(get('ptr'), offset)),
  set('v3', i64.xor(get('v3'), get('m'))),
  ...rounds(2),
  set('v0', i64.xor(get('v0'), get('m'))),
];

/**
 * sipAbsorb(ptr, len): the words at [ptr, ptr + len) (len a multiple of 8),
 * two SipRounds each; two words a turn of the loop, then the odd one, which
 * lets V8 schedule a word's load past the loop's test
 * (docs/contributing/performance-history.md#shorthash).
 */
const sipAbsorb = (): string =>
  func({
    name: 'sipAbsorb',
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    locals: { ...locals, m: 'i64', end: 'i32', pairs: 'i32' },
    body: [
      ...load(),
      set('end', i32.add(get('ptr'), get('len'))),
      set('pairs', i32.add(get('ptr'), i32.and(get('len'), i32.const(-16)))),
      whileLoop('pairs', i32.ne(get('ptr'), get('pairs')), [...word(0), ...word(8), set('ptr', i32.add(get('ptr'), i32.const(16)))]),
      ifThen(i32.ne(get('ptr'), get('end')), word(0)),
      ...store(),
    ],
  });

/** sipEnd(wide): v2 ^= 0xff (0xee when wide), four SipRounds, v0 ^ v1 ^ v2 ^ v3 at SIP_KEY; when wide, v1 ^= 0xdd, four more, the second half at SIP_KEY + 8. */
const sipEnd = (): string => {
  const out = (): Expr => i64.xor(i64.xor(get('v0'), get('v1')), i64.xor(get('v2'), get('v3')));
  return func({
    name: 'sipEnd',
    exported: true,
    params: [['wide', 'i32']],
    locals,
    body: [
      ...load(),
      set('v2', i64.xor(get('v2'), i64.sub(i64.const(0xff), i64.mul(i64.extend(get('wide')), i64.const(0x11))))),
      ...rounds(4),
      i64.store(i32.const(SIP_KEY), out()),
      ifThen(get('wide'), [set('v1', i64.xor(get('v1'), i64.const(0xdd))), ...rounds(4), i64.store(i32.const(SIP_KEY), out(), 8)]),
    ],
  });
};

/** The module: sipStart, sipAbsorb, sipEnd and wipe, on a fixed memory of SIP_PAGES pages. */
export const siphashModule = (): string => module(SIP_PAGES, [sipStart(), sipAbsorb(), sipEnd(), wipeFunction()]);
