/*
 * What 128-bit SIMD allows for ChaCha20 on this machine, in native code.
 *
 * RFC 8439 §2.3's block function in the layout of fourfold's WebAssembly
 * kernel (src/wasm/stream.ts): one 128-bit register per state word, lane i
 * holding block counter + i, so a quarter round does four blocks' work; 1, 2
 * or 3 such groups with their steps interleaved, as the kernel's groups do.
 * The compiler allocates the registers (16 xmm, against the 15 V8 leaves a
 * WebAssembly function). WebAssembly SIMD has 128-bit vectors only, so
 * these figures bound what any WebAssembly ChaCha20 can do here; native
 * AVX2 or AVX-512 code (libsodium, OpenSSL) is not bound by them.
 *
 * Build and run: bench/ceiling/run.sh.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "timing.h"

#define BUFFER_BYTES 32768

static __m128i rot16_mask, rot8_mask;

static inline __m128i rotl(__m128i v, int bits) {
  return _mm_or_si128(_mm_slli_epi32(v, bits), _mm_srli_epi32(v, 32 - bits));
}

/* RFC 8439 §2.1; rotations by 16 and 8 are byte shuffles, as in the kernel. */
#define QUARTER(x, a, b, c, d)                                                             \
  x[a] = _mm_add_epi32(x[a], x[b]); x[d] = _mm_shuffle_epi8(_mm_xor_si128(x[d], x[a]), rot16_mask); \
  x[c] = _mm_add_epi32(x[c], x[d]); x[b] = rotl(_mm_xor_si128(x[b], x[c]), 12);              \
  x[a] = _mm_add_epi32(x[a], x[b]); x[d] = _mm_shuffle_epi8(_mm_xor_si128(x[d], x[a]), rot8_mask); \
  x[c] = _mm_add_epi32(x[c], x[d]); x[b] = rotl(_mm_xor_si128(x[b], x[c]), 7);

/*
 * XORs the keystream of 4 * groups blocks from the state's counter into
 * out. The quarter rounds of all groups are written one after the other;
 * the compiler schedules them together.
 */
static inline void groups_xor(const uint32_t state[16], uint8_t *out, int groups) {
  __m128i x[3][16], in[3][16];
  for (int g = 0; g < groups; g++) {
    for (int w = 0; w < 16; w++) in[g][w] = _mm_set1_epi32((int)state[w]);
    in[g][12] = _mm_add_epi32(in[g][12], _mm_setr_epi32(4 * g, 4 * g + 1, 4 * g + 2, 4 * g + 3));
    memcpy(x[g], in[g], sizeof in[g]);
  }
  for (int i = 0; i < 10; i++) {
    for (int g = 0; g < groups; g++) { QUARTER(x[g], 0, 4, 8, 12) QUARTER(x[g], 1, 5, 9, 13) QUARTER(x[g], 2, 6, 10, 14) QUARTER(x[g], 3, 7, 11, 15) }
    for (int g = 0; g < groups; g++) { QUARTER(x[g], 0, 5, 10, 15) QUARTER(x[g], 1, 6, 11, 12) QUARTER(x[g], 2, 7, 8, 13) QUARTER(x[g], 3, 4, 9, 14) }
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

/* The block counter (RFC 8439 §2.3 word 12) advances by the blocks used. */
#define XOR_FUNCTION(groups)                                                        \
  __attribute__((noinline)) static void xor##groups(uint32_t state[16], uint8_t *buf, size_t len) { \
    for (size_t at = 0; at + 256 * groups <= len; at += 256 * groups) {            \
      groups_xor(state, buf + at, groups);                                          \
      state[12] += 4 * groups;                                                      \
    }                                                                               \
  }
XOR_FUNCTION(1)
XOR_FUNCTION(2)
XOR_FUNCTION(3)

typedef void xor_function(uint32_t state[16], uint8_t *buf, size_t len);

/* RFC 8439 §2.3.2: key 00..1f, nonce 000000090000004a00000000, counter 1. */
static const char *rfc_block = "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                               "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e";

static void rfc_state(uint32_t state[16], uint32_t counter) {
  static const uint8_t nonce[12] = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0};
  uint8_t key[32];
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)i;
  state[0] = 0x61707865; state[1] = 0x3320646e; state[2] = 0x79622d32; state[3] = 0x6b206574;
  memcpy(state + 4, key, 32);
  state[12] = counter;
  memcpy(state + 13, nonce, 12);
}

/* Block 1 of the keystream from counter 0 must be the RFC's block (little-endian host). */
static int check(xor_function *f, int groups) {
  uint8_t buf[768] = {0}, expected[64];
  uint32_t state[16];
  rfc_state(state, 0);
  f(state, buf, 256 * (size_t)groups);
  for (int i = 0; i < 64; i++) sscanf(rfc_block + 2 * i, "%2hhx", &expected[i]);
  return memcmp(buf + 64, expected, 64) == 0;
}

int main(void) {
  rot16_mask = _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  rot8_mask = _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
  xor_function *functions[] = {xor1, xor2, xor3};
  static uint8_t buf[BUFFER_BYTES];
  enum { SAMPLES = 21, CALLS = 2000 };
  printf("ChaCha20, native 128-bit SIMD, %d-byte buffer, median of %d samples of %d calls:\n", BUFFER_BYTES, SAMPLES, CALLS);
  for (int groups = 1; groups <= 3; groups++) {
    xor_function *f = functions[groups - 1];
    if (!check(f, groups)) {
      fprintf(stderr, "%d-block kernel: wrong keystream (RFC 8439 §2.3.2)\n", 4 * groups);
      return 1;
    }
    /* Whole groups only: the largest multiple of the group size in the buffer. */
    size_t len = BUFFER_BYTES / (256 * groups) * (256 * groups);
    uint32_t state[16];
    rfc_state(state, 0);
    double rates[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
      double start = seconds();
      for (int c = 0; c < CALLS; c++) f(state, buf, len);
      rates[s] = (double)len * CALLS / (seconds() - start) / 1e6;
    }
    double middle = median(rates, SAMPLES);
    printf("  %2d blocks an iteration: %5.0f MB/s (quartiles %.0f-%.0f)\n", 4 * groups, middle, rates[SAMPLES / 4], rates[3 * SAMPLES / 4]);
  }
  return 0;
}
