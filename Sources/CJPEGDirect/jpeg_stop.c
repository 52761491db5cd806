#include "JPEGStop.h"

#include <stdatomic.h>
#include <stdlib.h>

struct sjs_stop {
  atomic_int raised;
  atomic_int references;  // the flag's holders; the last to let go frees it
};

sjs_stop *sjs_stop_create(void) {
  sjs_stop *stop = malloc(sizeof *stop);
  if (!stop) return NULL;
  atomic_init(&stop->raised, 0);
  atomic_init(&stop->references, 1);
  return stop;
}

void sjs_stop_raise(sjs_stop *stop) { atomic_store_explicit(&stop->raised, 1, memory_order_release); }

int sjs_stop_raised(const sjs_stop *stop) {
  // C11 takes a pointer to non-const for atomic_load in older compilers' headers; the object is not written here.
  return atomic_load_explicit((atomic_int *) &stop->raised, memory_order_acquire);
}

const sjs_stop *sjs_stop_retain(const sjs_stop *stop) {
  // The count is the flag's own bookkeeping, not its value: holders that only read the flag still count.
  if (stop) atomic_fetch_add_explicit((atomic_int *) &stop->references, 1, memory_order_relaxed);
  return stop;
}

void sjs_stop_release(const sjs_stop *stop) {
  if (!stop) return;
  // The last holder frees it, after every other holder's reads (acquire-release, as a shared pointer's count).
  if (atomic_fetch_sub_explicit((atomic_int *) &stop->references, 1, memory_order_acq_rel) == 1) free((void *) stop);
}
