#include "jpeg_errors.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>

#include <jpeglib.h>
#include <jerror.h>

static void sjt_errors_fail(j_common_ptr c) {
  sjt_errors *e = (sjt_errors *) c->err;
  (*c->err->format_message)(c, e->text);
  longjmp(e->jump, 1);
}

// Warnings mean damaged data (a truncated file decodes as grey otherwise): they fail, and say which kind (`damage`)
// so the caller can apply the --fail-on policy.
static void sjt_errors_emit(j_common_ptr c, int level) {
  // A malformed ICC_PROFILE chunk sequence only loses the profile (jpeg_read_icc_profile, its only source, then
  // gives none).
  if (level >= 0 || c->err->msg_code == JWRN_BOGUS_ICC) return;
  ((sjt_errors *) c->err)->damage = c->err->msg_code == JWRN_JPEG_EOF ? 1 : 2;
  sjt_errors_fail(c);
}

// Called by libjpeg every row or so: a job stopped from another thread (--job-timeout, a signal) fails here.
static void sjt_errors_progress(j_common_ptr c) {
  sjt_errors *e = (sjt_errors *) c->err;
  if (e->stop && sjs_stop_raised(e->stop)) sjt_errors_throw(e, "stopped");
}

void sjt_errors_init(sjt_errors *e) {
  jpeg_std_error(&e->pub);
  e->pub.error_exit = sjt_errors_fail;
  e->pub.emit_message = sjt_errors_emit;
  e->progress.progress_monitor = sjt_errors_progress;
}

void sjt_errors_throw(sjt_errors *e, const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(e->text, sizeof e->text, format, arguments);
  va_end(arguments);
  longjmp(e->jump, 1);
}
