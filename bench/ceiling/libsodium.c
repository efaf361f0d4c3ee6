/*
 * Native libsodium (Debian's libsodium-dev) on the operations and sizes of
 * fourfold's speed targets (docs/contributing/performance-history.md), to
 * compare with libsodium-wrappers (the same C compiled to WebAssembly without SIMD) and
 * with fourfold in
 * `npm run bench`. libsodium picks its implementation at run time: AVX2
 * for ChaCha20 and Salsa20 where the CPU has it (256-bit vectors, eight
 * blocks an instruction), SSE2 for Poly1305 (two 64-bit products an
 * instruction, as WebAssembly's i64x2.extmul gives, but without the lane
 * unpacks V8 adds around each one).
 *
 * Build and run: bench/ceiling/run.sh.
 */
#include <sodium.h>
#include <stdio.h>
#include "timing.h"

#define MAX_BYTES (1 << 20)

static unsigned char message[MAX_BYTES], output[MAX_BYTES + 64];
static unsigned char key[32], nonce[24], tag[16];

typedef void operation(size_t len);

static void chacha20(size_t len) { crypto_stream_chacha20_ietf_xor(output, message, len, nonce, key); }
static void poly1305(size_t len) { crypto_onetimeauth_poly1305(tag, message, len, key); }
static void xchacha20poly1305(size_t len) {
  crypto_aead_xchacha20poly1305_ietf_encrypt(output, NULL, message, len, NULL, 0, NULL, nonce, key);
}
static void chacha20poly1305(size_t len) {
  crypto_aead_chacha20poly1305_ietf_encrypt(output, NULL, message, len, NULL, 0, NULL, nonce, key);
}
static void salsa20(size_t len) { crypto_stream_salsa20_xor(output, message, len, nonce, key); }
static void secretbox(size_t len) { crypto_secretbox_easy(output, message, len, nonce, key); }
static void secretstream_push(size_t len) {
  crypto_secretstream_xchacha20poly1305_state state;
  unsigned char header[crypto_secretstream_xchacha20poly1305_HEADERBYTES];
  crypto_secretstream_xchacha20poly1305_init_push(&state, header, key);
  crypto_secretstream_xchacha20poly1305_push(&state, output, NULL, message, len, NULL, 0, 0);
}

/* Median MB/s of SAMPLES samples of about 20 ms each. */
static void measure(const char *name, operation *f, size_t len) {
  int calls = (int)(20e6 / (double)len) + 1;
  double rates[SAMPLES];
  for (int s = 0; s < SAMPLES; s++) {
    double start = seconds();
    for (int c = 0; c < calls; c++) f(len);
    rates[s] = (double)len * calls / (seconds() - start) / 1e6;
  }
  printf("  %-28s %8zu B", name, len);
  print_rates(rates);
}

int main(void) {
  if (sodium_init() < 0) return 1;
  randombytes_buf(key, sizeof key);
  randombytes_buf(nonce, sizeof nonce);
  randombytes_buf(message, sizeof message);
  printf("native libsodium %s, median of %d samples:\n", sodium_version_string(), SAMPLES);
  measure("chacha20", chacha20, 65536);
  measure("poly1305", poly1305, 65536);
  measure("xchacha20poly1305-encrypt", xchacha20poly1305, 65536);
  measure("chacha20poly1305-encrypt", chacha20poly1305, MAX_BYTES);
  measure("salsa20", salsa20, 65536);
  measure("xsalsa20poly1305-encrypt", secretbox, 65536);
  measure("secretstream-push", secretstream_push, 65536);
  return 0;
}
