/*
 * scrypt's ROMix (RFC 7914 §5) in native code, the reference points for
 * fourfold's kernel (src/scrypt/kernel.ts): with SSE2 in the kernel's
 * layout (one block in four registers, the four quarter rounds of a round
 * in the lanes), with scalar words (x86's rotate instruction, which
 * WebAssembly SIMD lacks: a vector rotation is two shifts and an or), and
 * native libsodium's crypto_pwhash_scryptsalsa208sha256_ll when linked
 * (-DWITH_SODIUM -lsodium), whose PBKDF2 ends are a few microseconds.
 *
 * One lane is one chain: every Salsa20/8 takes the output of the one
 * before, so its time is the latency of a block's rounds, not the
 * throughput of the vector units. Before timing, each ROMix is checked
 * against RFC 7914 §10's known answer.
 */
#include <emmintrin.h>
#include <stdint.h>
#include <string.h>
#include "timing.h"
#ifdef WITH_SODIUM
#include <sodium.h>
#endif

#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

/* ---------------------------------------------------------------- scalar */

static void salsa8_scalar(uint32_t b[16], const uint32_t *in, const uint32_t *v) {
  uint32_t x[16], s[16];
  for (int i = 0; i < 16; i++) s[i] = x[i] = b[i] ^ in[i] ^ (v ? v[i] : 0);
  for (int i = 0; i < 4; i++) {
    x[4] ^= ROTL(x[0] + x[12], 7); x[9] ^= ROTL(x[5] + x[1], 7); x[14] ^= ROTL(x[10] + x[6], 7); x[3] ^= ROTL(x[15] + x[11], 7);
    x[8] ^= ROTL(x[4] + x[0], 9); x[13] ^= ROTL(x[9] + x[5], 9); x[2] ^= ROTL(x[14] + x[10], 9); x[7] ^= ROTL(x[3] + x[15], 9);
    x[12] ^= ROTL(x[8] + x[4], 13); x[1] ^= ROTL(x[13] + x[9], 13); x[6] ^= ROTL(x[2] + x[14], 13); x[11] ^= ROTL(x[7] + x[3], 13);
    x[0] ^= ROTL(x[12] + x[8], 18); x[5] ^= ROTL(x[1] + x[13], 18); x[10] ^= ROTL(x[6] + x[2], 18); x[15] ^= ROTL(x[11] + x[7], 18);
    x[1] ^= ROTL(x[0] + x[3], 7); x[6] ^= ROTL(x[5] + x[4], 7); x[11] ^= ROTL(x[10] + x[9], 7); x[12] ^= ROTL(x[15] + x[14], 7);
    x[2] ^= ROTL(x[1] + x[0], 9); x[7] ^= ROTL(x[6] + x[5], 9); x[8] ^= ROTL(x[11] + x[10], 9); x[13] ^= ROTL(x[12] + x[15], 9);
    x[3] ^= ROTL(x[2] + x[1], 13); x[4] ^= ROTL(x[7] + x[6], 13); x[9] ^= ROTL(x[8] + x[11], 13); x[14] ^= ROTL(x[13] + x[12], 13);
    x[0] ^= ROTL(x[3] + x[2], 18); x[5] ^= ROTL(x[4] + x[7], 18); x[10] ^= ROTL(x[9] + x[8], 18); x[15] ^= ROTL(x[14] + x[13], 18);
  }
  for (int i = 0; i < 16; i++) b[i] = x[i] + s[i];
}

/* BlockMix of src (xor v) into dst, X carried in x. */
static void blockmix_scalar(uint32_t x[16], const uint32_t *src, const uint32_t *v, uint32_t *dst, int r) {
  for (int i = 0; i < 2 * r; i++) {
    salsa8_scalar(x, src + 16 * i, v ? v + 16 * i : 0);
    memcpy(dst + 16 * ((i & 1) * r + (i >> 1)), x, 64);
  }
}

static void romix_scalar(uint32_t *m, int N, int r) {
  const int w = 32 * r;
  uint32_t x[16];
  memcpy(x, m + w - 16, 64);
  for (int i = 0; i < N; i++) blockmix_scalar(x, m + i * w, 0, m + (i + 1) * w, r);
  for (int i = 0; i < N; i++) {
    uint32_t *src = m + (N + (i & 1)) * w, *dst = m + (N + 1 - (i & 1)) * w;
    uint32_t *v = m + (x[0] & (N - 1)) * w;
    for (int k = 0; k < 16; k++) x[k] ^= v[w - 16 + k];
    blockmix_scalar(x, src, v, dst, r);
  }
}

/* ---------------------------------------------------------------- SSE2, the kernel's layout */

static const int LANES[16] = {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11};

#define STEP(t, p, q, n) do { __m128i u = _mm_add_epi32(p, q); t = _mm_xor_si128(t, _mm_or_si128(_mm_slli_epi32(u, n), _mm_srli_epi32(u, 32 - n))); } while (0)

static inline void salsa8_sse(__m128i *a, __m128i *b, __m128i *c, __m128i *d) {
  __m128i s0 = *a, s1 = *b, s2 = *c, s3 = *d, t;
  for (int i = 0; i < 8; i++) {
    STEP(*b, *a, *d, 7); STEP(*c, *b, *a, 9); STEP(*d, *c, *b, 13); STEP(*a, *d, *c, 18);
    t = *b;
    *b = _mm_shuffle_epi32(*d, 0x39);
    *c = _mm_shuffle_epi32(*c, 0x4e);
    *d = _mm_shuffle_epi32(t, 0x93);
  }
  *a = _mm_add_epi32(*a, s0); *b = _mm_add_epi32(*b, s1); *c = _mm_add_epi32(*c, s2); *d = _mm_add_epi32(*d, s3);
}

static void romix_sse(uint32_t *m, int N, int r) {
  const int w = 32 * r;
  __m128i *V = (__m128i *)m;
  const int bw = 8 * r; /* vectors per slot */
  __m128i a = V[bw - 4], b = V[bw - 3], c = V[bw - 2], d = V[bw - 1];
  for (int i = 0; i < N; i++) {
    __m128i *src = V + i * bw, *dst = V + (i + 1) * bw;
    for (int k = 0; k < 2 * r; k++) {
      a = _mm_xor_si128(a, src[4 * k]); b = _mm_xor_si128(b, src[4 * k + 1]); c = _mm_xor_si128(c, src[4 * k + 2]); d = _mm_xor_si128(d, src[4 * k + 3]);
      salsa8_sse(&a, &b, &c, &d);
      __m128i *o = dst + 4 * ((k & 1) * r + (k >> 1));
      o[0] = a; o[1] = b; o[2] = c; o[3] = d;
    }
  }
  for (int i = 0; i < N; i++) {
    __m128i *src = V + (N + (i & 1)) * bw, *dst = V + (N + 1 - (i & 1)) * bw;
    __m128i *v = V + (uint32_t)(_mm_cvtsi128_si32(a) & (N - 1)) * bw;
    a = _mm_xor_si128(a, v[bw - 4]); b = _mm_xor_si128(b, v[bw - 3]); c = _mm_xor_si128(c, v[bw - 2]); d = _mm_xor_si128(d, v[bw - 1]);
    for (int k = 0; k < 2 * r; k++) {
      a = _mm_xor_si128(a, _mm_xor_si128(src[4 * k], v[4 * k])); b = _mm_xor_si128(b, _mm_xor_si128(src[4 * k + 1], v[4 * k + 1]));
      c = _mm_xor_si128(c, _mm_xor_si128(src[4 * k + 2], v[4 * k + 2])); d = _mm_xor_si128(d, _mm_xor_si128(src[4 * k + 3], v[4 * k + 3]));
      salsa8_sse(&a, &b, &c, &d);
      __m128i *o = dst + 4 * ((k & 1) * r + (k >> 1));
      o[0] = a; o[1] = b; o[2] = c; o[3] = d;
    }
  }
  (void)w;
}

static void to_lanes(uint32_t *blk, int blocks, int back) {
  uint32_t t[16];
  for (int k = 0; k < blocks; k++, blk += 16) {
    for (int i = 0; i < 16; i++) t[i] = back ? blk[i] : blk[LANES[i]];
    if (back) for (int i = 0; i < 16; i++) blk[LANES[i]] = t[i];
    else memcpy(blk, t, 64);
  }
}

/* ---------------------------------------------------------------- the check and the timing */

static const uint8_t RFC_IN[128] = {
  0xf7,0xce,0x0b,0x65,0x3d,0x2d,0x72,0xa4,0x10,0x8c,0xf5,0xab,0xe9,0x12,0xff,0xdd,0x77,0x76,0x16,0xdb,0xbb,0x27,0xa7,0x0e,0x82,0x04,0xf3,0xae,0x2d,0x0f,0x6f,0xad,
  0x89,0xf6,0x8f,0x48,0x11,0xd1,0xe8,0x7b,0xcc,0x3b,0xd7,0x40,0x0a,0x9f,0xfd,0x29,0x09,0x4f,0x01,0x84,0x63,0x95,0x74,0xf3,0x9a,0xe5,0xa1,0x31,0x52,0x17,0xbc,0xd7,
  0x89,0x49,0x91,0x44,0x72,0x13,0xbb,0x22,0x6c,0x25,0xb5,0x4d,0xa8,0x63,0x70,0xfb,0xcd,0x98,0x43,0x80,0x37,0x46,0x66,0xbb,0x8f,0xfc,0xb5,0xbf,0x40,0xc2,0x54,0xb0,
  0x67,0xd2,0x7c,0x51,0xce,0x4a,0xd5,0xfe,0xd8,0x29,0xc9,0x0b,0x50,0x5a,0x57,0x1b,0x7f,0x4d,0x1c,0xad,0x6a,0x52,0x3c,0xda,0x77,0x0e,0x67,0xbc,0xea,0xaf,0x7e,0x89};
static const uint8_t RFC_OUT[128] = {
  0x79,0xcc,0xc1,0x93,0x62,0x9d,0xeb,0xca,0x04,0x7f,0x0b,0x70,0x60,0x4b,0xf6,0xb6,0x2c,0xe3,0xdd,0x4a,0x96,0x26,0xe3,0x55,0xfa,0xfc,0x61,0x98,0xe6,0xea,0x2b,0x46,
  0xd5,0x84,0x13,0x67,0x3b,0x99,0xb0,0x29,0xd6,0x65,0xc3,0x57,0x60,0x1f,0xb4,0x26,0xa0,0xb2,0xf4,0xbb,0xa2,0x00,0xee,0x9f,0x0a,0x43,0xd1,0x9b,0x57,0x1a,0x9c,0x71,
  0xef,0x11,0x42,0xe6,0x5d,0x5a,0x26,0x6f,0xdd,0xca,0x83,0x2c,0xe5,0x9f,0xaa,0x7c,0xac,0x0b,0x9c,0xf1,0xbe,0x2b,0xff,0xca,0x30,0x0d,0x01,0xee,0x38,0x76,0x19,0xc4,
  0xae,0x12,0xfd,0x44,0x38,0xf2,0x03,0xa0,0xe4,0xe1,0xc4,0x7e,0xc3,0x14,0x86,0x1f,0x4e,0x90,0x87,0xcb,0x33,0x39,0x6a,0x68,0x73,0xe8,0xf9,0xd2,0x53,0x9a,0x4b,0x8e};

typedef void romix_fn(uint32_t *m, int N, int r);

/* ROMix of `in` (128r bytes) with `fn`, into out; lanes: convert to the kernel's layout around it. */
static void romix(romix_fn *fn, int lanes, uint32_t *m, const uint8_t *in, uint8_t *out, int N, int r) {
  memcpy(m, in, 128 * r);
  if (lanes) to_lanes(m, 2 * r, 0);
  fn(m, N, r);
  if (lanes) to_lanes(m + N * 32 * r, 2 * r, 1);
  memcpy(out, m + N * 32 * r, 128 * r);
}

static void measure(const char *name, romix_fn *fn, int lanes, int logN, int r) {
  const int N = 1 << logN;
  size_t bytes = (size_t)(N + 2) * 128 * r;
  uint32_t *m = aligned_alloc(64, bytes);
  uint8_t out[128 * 16], in[128 * 16];
  memset(in, 7, sizeof in);
  romix(fn, lanes, m, in, out, N, r); /* first touch */
  double ms[SAMPLES];
  for (int s = 0; s < SAMPLES; s++) {
    double t0 = seconds();
    romix(fn, lanes, m, in, out, N, r);
    ms[s] = (seconds() - t0) * 1e3;
  }
  qsort(ms, SAMPLES, sizeof ms[0], by_value);
  printf("%-28s N=2^%d r=%d: %7.1f ms (quartiles %.1f-%.1f), %.1f ns per Salsa20/8\n", name, logN, r, ms[SAMPLES / 2], ms[SAMPLES / 4], ms[3 * SAMPLES / 4],
         ms[SAMPLES / 2] * 1e6 / (4.0 * N * r));
  free(m);
}

int main(void) {
  uint32_t *m = aligned_alloc(64, 18 * 128);
  uint8_t out[128];
  romix(romix_scalar, 0, m, RFC_IN, out, 16, 1);
  if (memcmp(out, RFC_OUT, 128)) { puts("scalar ROMix: wrong answer"); return 1; }
  romix(romix_sse, 1, m, RFC_IN, out, 16, 1);
  if (memcmp(out, RFC_OUT, 128)) { puts("SSE2 ROMix: wrong answer"); return 1; }
  free(m);
  for (int logN = 14; logN <= 17; logN += 3) {
    measure("SSE2, the kernel's layout", romix_sse, 1, logN, 8);
    measure("scalar, with rotates", romix_scalar, 0, logN, 8);
#ifdef WITH_SODIUM
    uint8_t key[32];
    double ms[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
      double t0 = seconds();
      if (crypto_pwhash_scryptsalsa208sha256_ll((const uint8_t *)"pw", 2, (const uint8_t *)"salt", 4, 1ull << logN, 8, 1, key, 32)) return 1;
      ms[s] = (seconds() - t0) * 1e3;
    }
    qsort(ms, SAMPLES, sizeof ms[0], by_value);
    printf("%-28s N=2^%d r=8: %7.1f ms (quartiles %.1f-%.1f), its memory new each call\n", "libsodium (native)", logN, ms[SAMPLES / 2], ms[SAMPLES / 4], ms[3 * SAMPLES / 4]);
#endif
  }
  return 0;
}
