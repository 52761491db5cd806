// For the writer-preferring read-write lock initializer (a GNU extension).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "CVipsGlue.h"
#include "vips_errors.h"

#include <pthread.h>
#include <string.h>

#include <vips/vips.h>

// libvips reports failures twice: as warnings on stderr ("error in tile ...") and in its error buffer. stampcam
// turns the buffer into one message naming the file, so the warnings would only be noise.
//
// libvips 8.14 keeps one error buffer for the whole process, and a failing pipeline appends to it from whichever
// thread hit the failure: with two jobs failing at once, the text either job takes may be the other's. So messages
// that must name their job are made alone: every other libvips call stampcam makes runs inside the gate's shared
// side (scv_gate_enter / scv_gate_leave), and scv_check_file holds the gate exclusively while it decodes a file,
// with no other libvips work in flight, so the buffer (and the warnings, which carry libpng's detail) it takes are
// its own. The gate prefers writers, so a check is not starved by a busy batch; shared sections never nest.
static pthread_rwlock_t scv_gate = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
// The warnings logged during a check (only touched while the gate is held exclusively, and under the mutex, since
// libvips' worker threads log them).
static GMutex scv_warnings_lock;
static GString *scv_warnings = NULL;

// Tiles whose computation failed, counted from libvips' "error in tile" warning: libvips 8.14's tile cache (under
// every in-order read) blacks such a tile out and hands it, without the error, to the other threads waiting for it,
// so an evaluation can succeed with black rows where a damaged input failed. See scv_tile_errors.
static gint scv_tile_error_count = 0;

int scv_tile_errors(void) { return g_atomic_int_get(&scv_tile_error_count); }

void scv_log_warning(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
  (void) domain;
  (void) level;
  (void) data;
  if (message && g_str_has_prefix(message, "error in tile")) g_atomic_int_inc(&scv_tile_error_count);
  g_mutex_lock(&scv_warnings_lock);
  if (scv_warnings && message) g_string_append_printf(scv_warnings, "%s\n", message);
  g_mutex_unlock(&scv_warnings_lock);
}

char *scv_error_take(void) {
  // Copied and cleared in one step under libvips' own lock: reading vips_error_buffer() and then clearing it would
  // race with another thread appending between the two. Inside the gate, so that it cannot empty the buffer under
  // a check.
  pthread_rwlock_rdlock(&scv_gate);
  char *buffer = vips_error_buffer_copy();
  pthread_rwlock_unlock(&scv_gate);
  char *copy = strdup(buffer ? buffer : "");
  g_free(buffer);
  return copy;
}

void scv_gate_enter(void) { pthread_rwlock_rdlock(&scv_gate); }

void scv_gate_leave(void) { pthread_rwlock_unlock(&scv_gate); }

char *scv_check_file(const char *path, int fail_on, char *loader, size_t loader_size) {
  pthread_rwlock_wrlock(&scv_gate);
  vips_error_clear();
  // The loader libvips picks from the file's first bytes names its format (libvips owns the returned name).
  const char *found = vips_foreign_find_load(path);
  const char *nickname = found ? vips_nickname_find(g_type_from_name(found)) : NULL;
  if (loader && loader_size > 0) g_strlcpy(loader, nickname ? nickname : "", loader_size);
  // As scv_load_descriptor: libjpeg's corrupt-data warnings are errors at "error".
  if (fail_on == VIPS_FAIL_ON_ERROR && found && g_str_has_prefix(found, "VipsForeignLoadJpeg"))
    fail_on = VIPS_FAIL_ON_WARNING;
  vips_error_clear();
  g_mutex_lock(&scv_warnings_lock);
  scv_warnings = g_string_new(NULL);
  g_mutex_unlock(&scv_warnings_lock);
  // One worker: no thread waits on a tile another computes, so a failed tile fails the check (see
  // scv_tile_errors). Nothing else runs in libvips while the gate is held exclusively.
  int threads = vips_concurrency_get();
  vips_concurrency_set(1);
  VipsImage *image =
    vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, NULL);
  double mean = 0;
  int failed = !image || vips_avg(image, &mean, NULL) != 0;
  vips_concurrency_set(threads);
  if (image) g_object_unref(image);
  char *message = NULL;
  char *errors = vips_error_buffer_copy();
  g_mutex_lock(&scv_warnings_lock);
  if (failed) message = g_strconcat(errors ? errors : "", scv_warnings->str, NULL);
  g_string_free(scv_warnings, TRUE);
  scv_warnings = NULL;
  g_mutex_unlock(&scv_warnings_lock);
  g_free(errors);
  pthread_rwlock_unlock(&scv_gate);
  if (!message) return NULL;
  char *copy = strdup(message);
  g_free(message);
  return copy;
}

