/**
 * secretstream's kernel functions, linked into the ChaCha/Poly1305 module
 * (src/kernels.ts composes it) as Poly1305's are: they use its state, its
 * keystream, its Poly1305 and its memory (chachapoly/layout.ts), which the
 * ChaCha generator hands in as `ChachaPieces`.
 */
import type { ChachaPieces } from '../chacha/kernel.js';
import { POLY, REST, REST_BYTES } from '../chachapoly/layout.js';
import { polyTagTo, wholeBlocks } from '../poly1305/kernel.js';
import * as P from '../poly1305/layout.js';
import { setStateWord, slicePasses } from '../wasm/stream.js';
import { call, func, get, i32, i64, ifThen, memoryCopy, memoryFill, select, set } from '../wasm/wat.js';

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
 * Per message: aead_init(4), poly_pad16 over the aad, stream_block, then
 * stream_seal or stream_open per slice (all but the last a multiple of 64
 * bytes), then stream_finish.
 */
export function secretstreamFunctions({ cipher, cryptAfterInit, keystreamBlock }: ChachaPieces): string[] {
  // The tag block is keystream block 1 (in TAIL) with byte 0 the ciphertext
  // byte: tag ^ ks[0] when sealing, the received byte when opening (bytes
  // 1..63 encrypt zeros, so they are the keystream itself). Returns the other
  // one of tag and ciphertext byte, byte0 ^ ks[0]. The message starts at block 2.
  const block = func({
    name: 'stream_block',
    exported: true,
    params: [
      ['byte0', 'i32'],
      ['encrypt', 'i32'],
    ],
    result: 'i32',
    locals: { other: 'i32' },
    body: [
      set('other', i32.xor(get('byte0'), i32.load8(i32.const(keystreamBlock(1))))),
      i32.store8(i32.const(keystreamBlock(1)), select(get('other'), get('byte0'), get('encrypt'))),
      call('poly_blocks_scalar', i32.const(keystreamBlock(1)), i32.const(64), i32.const(P.HIBIT)),
      setStateWord(cipher, cipher.counter, i32.const(2)),
      get('other'),
    ],
  });
  // A message of at most 128 bytes is encrypted with blocks 2..3 from TAIL
  // (aead_init(4)), longer ones through chacha_xor from counter 2.
  const crypt = func({
    name: 'stream_crypt',
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    locals: { i: 'i32' },
    body: cryptAfterInit(2),
  });
  // Whole 16-byte blocks of ciphertext into the MAC; a last partial block
  // waits in REST for stream_finish (only a message's last slice has one).
  const mac = func({
    name: 'stream_mac',
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    locals: { full: 'i32' },
    body: [...wholeBlocks(), memoryCopy(i32.const(REST), i32.add(get('ptr'), get('full')), i32.and(get('len'), i32.const(15)))],
  });
  // REST: [the r = macLength mod 16 waiting bytes][r zeros][le64 aad length]
  // [le64 macLength], then Poly1305's own final-block padding (RFC 8439
  // §2.5.1: a 0x01 byte, zeros, no 2^128 bit) when that is not whole blocks.
  // Lengths arrive as f64, exact below 2^53, as in aead_finish.
  const finish = func({
    name: 'stream_finish',
    exported: true,
    params: [
      ['aadLength', 'f64'],
      ['macLength', 'f64'],
      ['tag', 'i32'],
    ],
    locals: { rest: 'i32', total: 'i32' },
    body: [
      set('rest', i32.and(i32.wrap(i64.fromF64(get('macLength'))), i32.const(15))),
      memoryFill(i32.add(i32.const(REST), get('rest')), i32.sub(i32.const(REST_BYTES), get('rest'))),
      i64.store(i32.add(i32.const(REST), i32.shl(get('rest'), 1)), i64.fromF64(get('aadLength'))),
      i64.store(i32.add(i32.const(REST), i32.shl(get('rest'), 1)), i64.fromF64(get('macLength')), 8),
      set('total', i32.add(i32.shl(get('rest'), 1), i32.const(16))),
      call('poly_blocks_scalar', i32.const(REST), i32.and(get('total'), i32.const(~15)), i32.const(P.HIBIT)),
      ifThen(i32.and(get('total'), i32.const(15)), [
        i32.store8(i32.add(i32.const(REST), get('total')), i32.const(1)),
        call('poly_blocks_scalar', i32.add(i32.const(REST), i32.and(get('total'), i32.const(~15))), i32.const(16), i32.const(0)),
      ]),
      ...polyTagTo(POLY, get('tag')),
    ],
  });
  return [block, crypt, mac, slicePasses('stream_seal', ['stream_crypt', 'stream_mac']), slicePasses('stream_open', ['stream_mac', 'stream_crypt']), finish];
}
