#ifndef STAMPCAM_JPEG_STOP_H
#define STAMPCAM_JPEG_STOP_H

// A job's stop flag: raised once by the thread that stops the job (--job-timeout, a signal), read by libjpeg's
// progress monitor on the job's own thread. An atomic int in C, so that the write and the reads are ordered without
// a lock (Swift's Atomic cannot lend a stable address to C).

/// Opaque: made by `sjs_stop_create`.
typedef struct sjs_stop sjs_stop;

/// A flag not yet raised, owned by the caller (free it with `sjs_stop_destroy`); NULL when out of memory.
sjs_stop *sjs_stop_create(void);

/// Raises the flag; any thread, any number of times.
void sjs_stop_raise(sjs_stop *stop);

/// 1 once raised, else 0.
int sjs_stop_raised(const sjs_stop *stop);

/// Frees a flag made by `sjs_stop_create`; nothing may read it after. NULL does nothing.
void sjs_stop_destroy(sjs_stop *stop);

#endif
