/* Timing helpers shared by the native reference programs. */
#ifndef CEILING_TIMING_H
#define CEILING_TIMING_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static inline int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Samples per measurement. */
enum { SAMPLES = 21 };

/* Sorts the SAMPLES rates (MB/s) and prints their median and quartiles, ending the line. */
static inline void print_rates(double *rates) {
  qsort(rates, SAMPLES, sizeof rates[0], by_value);
  printf(" %6.0f MB/s (quartiles %.0f-%.0f)\n", rates[SAMPLES / 2], rates[SAMPLES / 4], rates[3 * SAMPLES / 4]);
}
#endif
