/* Timing helpers shared by the native reference programs. */
#ifndef CEILING_TIMING_H
#define CEILING_TIMING_H
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

/* Sorts the samples and returns their median. */
static inline double median(double *samples, int count) {
  qsort(samples, (size_t)count, sizeof samples[0], by_value);
  return samples[count / 2];
}
#endif
