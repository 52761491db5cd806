#ifndef STAMPCAM_JPEG_STOP_H
#define STAMPCAM_JPEG_STOP_H

// A job's stop flag: raised once by the thread that stops the job (--job-timeout, a signal), read by libjpeg's
// progress monitor on the job's own thread. An atomic int in C, so that the write and the reads are ordered without
// a lock (Swift's Atomic cannot lend a stable address to C).
//
// Counted references: whoever reads the flag holds one (the job's control, a codec, a row reader), and the last one
// let go frees it. A row reader lives as long as the libvips image over it, which may outlive the job's control:
// holding a reference, it never reads a flag already freed.

/// Opaque: made by `sjs_stop_create`.
typedef struct sjs_stop sjs_stop;

/// A flag not yet raised, with one reference, the caller's (let go with `sjs_stop_release`); NULL when out of memory.
sjs_stop *sjs_stop_create(void);

/// Takes one more reference to `stop` and returns it (NULL: nothing, NULL returned). Any thread. The flag is
/// written through it only by `sjs_stop_raise`: a reader holds it as const and still counts.
const sjs_stop *sjs_stop_retain(const sjs_stop *stop);

/// Lets go of one reference to `stop`; the last one frees the flag. NULL does nothing. Any thread.
void sjs_stop_release(const sjs_stop *stop);

/// Raises the flag; any thread, any number of times.
void sjs_stop_raise(sjs_stop *stop);

/// 1 once raised, else 0.
int sjs_stop_raised(const sjs_stop *stop);


#endif
