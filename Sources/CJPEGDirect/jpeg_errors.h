#ifndef STAMPCAM_JPEG_ERRORS_H
#define STAMPCAM_JPEG_ERRORS_H

// The one libjpeg error manager of every libjpeg object stampcam makes (the coefficient path's and the row
// reader's): libjpeg's errors and its warnings (corrupt or truncated data, which would otherwise decode as grey)
// jump back to the entry point's setjmp with libjpeg's message in `text`, and a stop set from another thread fails
// the work soon, through libjpeg's progress monitor.

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

#include "JPEGStop.h"

typedef struct {
  struct jpeg_error_mgr pub;  // first: every libjpeg object's `err` leads back to the whole manager
  jmp_buf jump;
  char text[JMSG_LENGTH_MAX];
  int damage;  // set by a corrupt-data warning: 1 the data ends early, 2 other damage
  struct jpeg_progress_mgr progress;
  const sjs_stop *stop;  // a reference held (sjs_stop_retain) by the state or reader; NULL: never stopped
} sjt_errors;

/// Readies `e` (zeroed by the caller) before the objects that use it are created: point each object's `err` at
/// `&e->pub` before jpeg_create_*, and its `progress` at `&e->progress` after (jpeg_create_* clears it).
void sjt_errors_init(sjt_errors *e);

/// Fails the current entry point with `text` (printf-style) as the message, like a libjpeg error: jumps to the last
/// setjmp on `e->jump`.
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
void sjt_errors_throw(sjt_errors *e, const char *format, ...);

#endif
