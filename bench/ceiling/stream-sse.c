/*
 * What 128-bit SIMD allows for ChaCha20 and Salsa20 on this machine, in
 * native code.
 *
 * The block functions (RFC 8439 §2.3; the Salsa20 specification §8) in the
 * layout of fourfold's WebAssembly kernels (src/wasm/stream.ts): one
 * 128-bit register per state word, lane i holding block counter + i, so a
 * quarter round does four blocks' work; 1, 2 or 3 such groups with their
 * steps interleaved, as the kernels' groups do. The compiler allocates the
 * registers (16 xmm, against the 15 V8 leaves a WebAssembly function).
 * WebAssembly SIMD has 128-bit vectors only, so these figures bound what a
 * WebAssembly kernel of this layout can do here; native AVX2 or AVX-512
 * code (libsodium, OpenSSL) is not bound by them.
 *
 * Build and run: bench/ceiling/run.sh.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "timing.h"

#define BUFFER_BYTES 32768

static __m128i rot16_mask, rot8_mask;

static inline __m128i rotl(__m128i v, int bits) {
  return _mm_or_si128(_mm_slli_epi32(v, bits), _mm_srli_epi32(v, 32 - bits));
}

/* RFC 8439 §2.1; rotations by 16 and 8 are byte shuffles, as in the kernel. */
#define CHACHA_QUARTER(x, a, b, c, d)                                                             \
  x[a] = _mm_add_epi32(x[a], x[b]); x[d] = _mm_shuffle_epi8(_mm_xor_si128(x[d], x[a]), rot16_mask); \
  x[c] = _mm_add_epi32(x[c], x[d]); x[b] = rotl(_mm_xor_si128(x[b], x[c]), 12);              \
  x[a] = _mm_add_epi32(x[a], x[b]); x[d] = _mm_shuffle_epi8(_mm_xor_si128(x[d], x[a]), rot8_mask); \
  x[c] = _mm_add_epi32(x[c], x[d]); x[b] = rotl(_mm_xor_si128(x[b], x[c]), 7);

/* RFC 8439 §2.2: a column round, then a diagonal round. */
#define CHACHA_DOUBLE_ROUND(x)                                                                    \
  CHACHA_QUARTER(x, 0, 4, 8, 12) CHACHA_QUARTER(x, 1, 5, 9, 13) CHACHA_QUARTER(x, 2, 6, 10, 14)   \
  CHACHA_QUARTER(x, 3, 7, 11, 15) CHACHA_QUARTER(x, 0, 5, 10, 15) CHACHA_QUARTER(x, 1, 6, 11, 12) \
  CHACHA_QUARTER(x, 2, 7, 8, 13) CHACHA_QUARTER(x, 3, 4, 9, 14)

/* Salsa20 specification §3: no rotation is a whole number of bytes. */
#define SALSA_QUARTER(x, a, b, c, d)                              \
  x[b] = _mm_xor_si128(x[b], rotl(_mm_add_epi32(x[a], x[d]), 7));  \
  x[c] = _mm_xor_si128(x[c], rotl(_mm_add_epi32(x[b], x[a]), 9));  \
  x[d] = _mm_xor_si128(x[d], rotl(_mm_add_epi32(x[c], x[b]), 13)); \
  x[a] = _mm_xor_si128(x[a], rotl(_mm_add_epi32(x[d], x[c]), 18));

/* Salsa20 specification §5-§7: a column round, then a row round. */
#define SALSA_DOUBLE_ROUND(x)                                                                        \
  SALSA_QUARTER(x, 0, 4, 8, 12) SALSA_QUARTER(x, 5, 9, 13, 1) SALSA_QUARTER(x, 10, 14, 2, 6)         \
  SALSA_QUARTER(x, 15, 3, 7, 11) SALSA_QUARTER(x, 0, 1, 2, 3) SALSA_QUARTER(x, 5, 6, 7, 4)           \
  SALSA_QUARTER(x, 10, 11, 8, 9) SALSA_QUARTER(x, 15, 12, 13, 14)

enum cipher { CHACHA, SALSA };

/* The state word holding the block counter's low half (its high half, the next word, is not carried into). */
static const int counter_word[] = {[CHACHA] = 12, [SALSA] = 8};

/*
 * XORs the keystream of 4 * groups blocks from the state's counter into
 * out. The rounds of all groups are written one after the other; the
 * compiler schedules them together.
 */
static inline void groups_xor(enum cipher cipher, const uint32_t state[16], uint8_t *out, int groups) {
  __m128i x[3][16], in[3][16];
  int counter = counter_word[cipher];
  for (int g = 0; g < groups; g++) {
    for (int w = 0; w < 16; w++) in[g][w] = _mm_set1_epi32((int)state[w]);
    in[g][counter] = _mm_add_epi32(in[g][counter], _mm_setr_epi32(4 * g, 4 * g + 1, 4 * g + 2, 4 * g + 3));
    memcpy(x[g], in[g], sizeof in[g]);
  }
  for (int i = 0; i < 10; i++)
    for (int g = 0; g < groups; g++) {
      if (cipher == CHACHA) {
        CHACHA_DOUBLE_ROUND(x[g])
      } else {
        SALSA_DOUBLE_ROUND(x[g])
      }
    }
  for (int g = 0; g < groups; g++)
    for (int q = 0; q < 4; q++) {
      /* Words 4q..4q+3 of the four blocks, transposed from lanes into blocks in registers. */
      __m128i w[4];
      for (int k = 0; k < 4; k++) w[k] = _mm_add_epi32(x[g][4 * q + k], in[g][4 * q + k]);
      __m128i low01 = _mm_unpacklo_epi32(w[0], w[1]), low23 = _mm_unpacklo_epi32(w[2], w[3]);
      __m128i high01 = _mm_unpackhi_epi32(w[0], w[1]), high23 = _mm_unpackhi_epi32(w[2], w[3]);
      __m128i blocks[4] = {_mm_unpacklo_epi64(low01, low23), _mm_unpackhi_epi64(low01, low23),
                           _mm_unpacklo_epi64(high01, high23), _mm_unpackhi_epi64(high01, high23)};
      for (int b = 0; b < 4; b++) {
        __m128i *at = (__m128i *)(out + 256 * g + 64 * b + 16 * q);
        _mm_storeu_si128(at, _mm_xor_si128(_mm_loadu_si128(at), blocks[b]));
      }
    }
}

/* Whole groups over buf; the block counter advances by the blocks used. */
#define XOR_FUNCTION(cipher, groups)                                                                  \
  __attribute__((noinline)) static void cipher##_xor##groups(uint32_t state[16], uint8_t *buf, size_t len) { \
    for (size_t at = 0; at + 256 * groups <= len; at += 256 * groups) {                              \
      groups_xor(cipher, state, buf + at, groups);                                                    \
      state[counter_word[cipher]] += 4 * groups;                                                      \
    }                                                                                                 \
  }
XOR_FUNCTION(CHACHA, 1)
XOR_FUNCTION(CHACHA, 2)
XOR_FUNCTION(CHACHA, 3)
XOR_FUNCTION(SALSA, 1)
XOR_FUNCTION(SALSA, 2)
XOR_FUNCTION(SALSA, 3)

typedef void xor_function(uint32_t state[16], uint8_t *buf, size_t len);

static void from_hex(const char *hex, uint8_t *out, size_t len) {
  for (size_t i = 0; i < len; i++) sscanf(hex + 2 * i, "%2hhx", &out[i]);
}

/* The state of a known-answer block and the block's index in the keystream from that state. */
struct known_block {
  uint32_t state[16];
  int index;
  uint8_t block[64];
};

/* RFC 8439 §2.3.2: key 00..1f, nonce 000000090000004a00000000; block 1 from counter 0. */
static void chacha_known(struct known_block *k) {
  static const uint32_t constants[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  uint8_t key[32], nonce[12];
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)i;
  from_hex("000000090000004a00000000", nonce, 12);
  memcpy(k->state, constants, 16);
  memcpy(k->state + 4, key, 32);
  k->state[12] = 0;
  memcpy(k->state + 13, nonce, 12);
  k->index = 1;
  from_hex("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
           "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e", k->block, 64);
}

/* Salsa20 specification §10's example (k = 1..16, 201..216; n = 101..116): block 0 from its counter. */
static void salsa_known(struct known_block *k) {
  uint8_t key[32], input[16];
  for (int i = 0; i < 16; i++) key[i] = (uint8_t)(1 + i), key[16 + i] = (uint8_t)(201 + i), input[i] = (uint8_t)(101 + i);
  k->state[0] = 0x61707865, k->state[5] = 0x3320646e, k->state[10] = 0x79622d32, k->state[15] = 0x6b206574;
  memcpy(k->state + 1, key, 16);
  memcpy(k->state + 6, input, 16);
  memcpy(k->state + 11, key + 16, 16);
  k->index = 0;
  from_hex("45254427290f6bc1ff8b7a06aae9d9625990b66a1533c841ef31de22d772287e"
           "68c507e1c5991f02664e4cb054f5f6b8b1a0858206489577c0c384ecea67f64a", k->block, 64);
}

/* The known block must come out of a zero buffer at its index (little-endian host). */
static int check(xor_function *f, int groups, const struct known_block *k) {
  uint8_t buf[768] = {0};
  uint32_t state[16];
  memcpy(state, k->state, sizeof state);
  f(state, buf, 256 * (size_t)groups);
  return memcmp(buf + 64 * k->index, k->block, 64) == 0;
}

int main(void) {
  rot16_mask = _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  rot8_mask = _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
  struct {
    const char *name;
    void (*known)(struct known_block *);
    xor_function *functions[3];
  } ciphers[] = {
      {"ChaCha20", chacha_known, {CHACHA_xor1, CHACHA_xor2, CHACHA_xor3}},
      {"Salsa20", salsa_known, {SALSA_xor1, SALSA_xor2, SALSA_xor3}},
  };
  static uint8_t buf[BUFFER_BYTES];
  enum { CALLS = 2000 };
  for (size_t c = 0; c < sizeof ciphers / sizeof ciphers[0]; c++) {
    struct known_block known;
    ciphers[c].known(&known);
    printf("%s, native 128-bit SIMD, %d-byte buffer, median of %d samples of %d calls:\n", ciphers[c].name, BUFFER_BYTES, SAMPLES, CALLS);
    for (int groups = 1; groups <= 3; groups++) {
      xor_function *f = ciphers[c].functions[groups - 1];
      if (!check(f, groups, &known)) {
        fprintf(stderr, "%s, %d blocks: wrong keystream (known-answer block)\n", ciphers[c].name, 4 * groups);
        return 1;
      }
      /* Whole groups only: the largest multiple of the group size in the buffer. */
      size_t len = BUFFER_BYTES / (256 * groups) * (256 * groups);
      uint32_t state[16];
      memcpy(state, known.state, sizeof state);
      double rates[SAMPLES];
      for (int s = 0; s < SAMPLES; s++) {
        double start = seconds();
        for (int call = 0; call < CALLS; call++) f(state, buf, len);
        rates[s] = (double)len * CALLS / (seconds() - start) / 1e6;
      }
      printf("  %2d blocks an iteration:", 4 * groups);
      print_rates(rates);
    }
  }
  return 0;
}
