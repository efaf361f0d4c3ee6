/*
 * What the calling thread of fourfold/parallel pays per 64 MiB, in native
 * code: one copy pass into memory already touched (input into slots, results
 * back), and the first touch of a freshly allocated output (a new
 * Uint8Array's pages are mapped on first write, one page fault per 4 KiB).
 * fourfold/parallel's speedup on n cores is at most W / max((W + C) / n, C),
 * with C the calling thread's share of these; see
 * docs/contributing/performance-history.md.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include "timing.h"

enum { BYTES = 64 << 20 };

static uint8_t *fresh(void) {
  /* As a large new ArrayBuffer: anonymous zero pages, mapped on first touch. */
  void *p = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) exit(1);
  return p;
}

static void print_ms(const char *what, double *ms) {
  qsort(ms, SAMPLES, sizeof ms[0], by_value);
  printf("%-52s %6.1f ms (quartiles %.1f-%.1f)\n", what, ms[SAMPLES / 2], ms[SAMPLES / 4], ms[3 * SAMPLES / 4]);
}

struct half { uint8_t *dst, *src; size_t n; };

static void *copy_half(void *arg) {
  struct half *h = arg;
  memcpy(h->dst, h->src, h->n);
  return NULL;
}

int main(void) {
  uint8_t *src = fresh(), *warm = fresh();
  memset(src, 7, BYTES);
  memset(warm, 1, BYTES);
  double ms[SAMPLES];

  for (int i = 0; i < SAMPLES; i++) {
    double t = seconds();
    memcpy(warm, src, BYTES);
    ms[i] = (seconds() - t) * 1e3;
  }
  print_ms("copy 64 MiB into touched memory", ms);

  for (int i = 0; i < SAMPLES; i++) {
    uint8_t *dst = fresh();
    double t = seconds();
    memcpy(dst, src, BYTES);
    ms[i] = (seconds() - t) * 1e3;
    munmap(dst, BYTES);
  }
  print_ms("copy 64 MiB into a fresh mapping (first touch)", ms);

  for (int i = 0; i < SAMPLES; i++) {
    uint8_t *dst = fresh();
    double t = seconds();
    memset(dst, 0, BYTES);
    ms[i] = (seconds() - t) * 1e3;
    munmap(dst, BYTES);
  }
  print_ms("first touch alone (memset of a fresh mapping)", ms);

  for (int i = 0; i < SAMPLES; i++) {
    uint8_t *dst = fresh();
    struct half a = { dst, src, BYTES / 2 }, b = { dst + BYTES / 2, src + BYTES / 2, BYTES / 2 };
    pthread_t other;
    double t = seconds();
    pthread_create(&other, NULL, copy_half, &b);
    copy_half(&a);
    pthread_join(other, NULL);
    ms[i] = (seconds() - t) * 1e3;
    munmap(dst, BYTES);
  }
  print_ms("copy into a fresh mapping, two threads, half each", ms);
  return 0;
}
