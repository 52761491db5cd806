#include "JPEGStop.h"

#include <stdatomic.h>
#include <stdlib.h>

struct sjs_stop {
  atomic_int raised;
};

sjs_stop *sjs_stop_create(void) {
  sjs_stop *stop = malloc(sizeof *stop);
  if (stop) atomic_init(&stop->raised, 0);
  return stop;
}

void sjs_stop_raise(sjs_stop *stop) { atomic_store_explicit(&stop->raised, 1, memory_order_release); }

int sjs_stop_raised(const sjs_stop *stop) {
  // C11 takes a pointer to non-const for atomic_load in older compilers' headers; the object is not written here.
  return atomic_load_explicit((atomic_int *) &stop->raised, memory_order_acquire);
}

void sjs_stop_destroy(sjs_stop *stop) { free(stop); }
