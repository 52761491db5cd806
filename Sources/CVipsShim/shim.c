// For the writer-preferring read-write lock initializer (a GNU extension).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "CVipsShim.h"

#include <vips/vector.h>

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t scv_once = PTHREAD_ONCE_INIT;
static int scv_init_result = -1;

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

static void scv_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
  (void) domain;
  (void) level;
  (void) data;
  if (message && g_str_has_prefix(message, "error in tile")) g_atomic_int_inc(&scv_tile_error_count);
  g_mutex_lock(&scv_warnings_lock);
  if (scv_warnings && message) g_string_append_printf(scv_warnings, "%s\n", message);
  g_mutex_unlock(&scv_warnings_lock);
}

static void scv_do_init(void) {
#ifdef M_ARENA_MAX
  // glibc gives each new thread its own malloc arena, and libvips starts worker threads for every pipeline:
  // over a long batch the arenas pile up (measured: peak RSS 67 -> 82 MB from 100 to 10,000 jobs; flat with a
  // cap). Two arenas rather than four also keep 12-megapixel batches under 300 MB at no measurable cost in time.
  mallopt(M_ARENA_MAX, 2);
  // Blocks of a megabyte or more (a photo's file, libvips' region buffers) are mapped and unmapped whole. glibc
  // would otherwise raise this threshold to the largest block freed (up to 32 MB) and serve such blocks from the
  // heap, where a large photo's leave holes the next jobs cut up: 121 wallpapers of mixed sizes peaked at 1.4 x
  // their largest job alone at --jobs 1, and at 1.13 x with this. (A malloc_trim after each job brought that to
  // 1.03 x but cost 9-10 % of the wall time of 12-megapixel batches, in page faults: not kept.)
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
  g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, scv_ignore_log, NULL);
  scv_init_result = VIPS_INIT("stampcam");
  if (scv_init_result == 0) {
    // libvips 8.14 builds Orc programs for some uchar operations (vips_reducev among them) and frees them when the
    // pipeline goes; freeing Orc code from two threads at once corrupts the heap (seen: "malloc_consolidate():
    // unaligned fastbin chunk detected", and an ASan SEGV in orc_code_free, when two jobs in flight each shrank an
    // 8-bit stamp). Without Orc the same work runs in plain C.
    vips_vector_set_enabled(FALSE);
    // Stamps are few and small; the operation cache only holds memory in a batch of distinct photos.
    vips_cache_set_max(0);
    // Loaders libvips itself marks untrusted (ImageMagick, PDF, SVG, FITS, Matlab, CSV, raw...) are refused
    // unless the user opts back in (scv_allow_untrusted). The overlay draws its own SVG, made here, not read.
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoadSvgBuffer", FALSE);
  }
}

int scv_init(void) {
  pthread_once(&scv_once, scv_do_init);
  return scv_init_result;
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
  if (fail_on == VIPS_FAIL_ON_ERROR && found && g_str_has_prefix(found, "VipsForeignLoadJpeg")) fail_on = VIPS_FAIL_ON_WARNING;
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

void scv_allow_untrusted(int allow) {
  vips_block_untrusted_set(allow ? FALSE : TRUE);
  vips_operation_block_set("VipsForeignLoadSvgBuffer", FALSE);
}

// The loaders an input may use unless untrusted ones are allowed: the photo formats, with fuzzed decoders.
static const char *const scv_safe_loaders[] = {
  "VipsForeignLoadJpegSource", "VipsForeignLoadPngSource", "VipsForeignLoadWebpSource", "VipsForeignLoadTiffSource",
  "VipsForeignLoadNsgifSource", "VipsForeignLoadHeifSource", NULL};

// A descriptor of its own (own file offset) on the file `fd` is open on: libvips reads a source with read() and
// lseek(), and two sources on dup()ed descriptors would move each other's offset. Reopening through /proc gives
// the same file (the same inode even if its name now points elsewhere); without /proc, a dup from the start.
static int scv_own_descriptor(int fd) {
  char name[64];
  snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
  int copy = open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  struct stat a, b;
  if (copy >= 0 && fstat(fd, &a) == 0 && fstat(copy, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
    fcntl(copy, F_SETFL, fcntl(copy, F_GETFL) & ~O_NONBLOCK);
    return copy;
  }
  if (copy >= 0) close(copy);
  copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy >= 0) lseek(copy, 0, SEEK_SET);
  return copy;
}

// libvips' short name of a loader ("ppmload_source"), or its type name when it has none.
static const char *scv_loader_nickname(const char *loader) {
  const char *nickname = vips_nickname_find(g_type_from_name(loader));
  return nickname ? nickname : loader;
}

VipsImage *scv_load_descriptor(int fd, int sequential, int fail_on, int any_loader, char *why, size_t why_size) {
  if (why && why_size > 0) why[0] = '\0';
  int own = scv_own_descriptor(fd);
  if (own < 0) {
    if (why && why_size > 0) g_snprintf(why, why_size, "cannot reopen the file: %s", g_strerror(errno));
    return NULL;
  }
  VipsSource *source = vips_source_new_from_descriptor(own);
  close(own);  // the source holds its own duplicate
  if (!source) return NULL;
  // Finding the loader only sniffs the first bytes; its "not a known format" goes to the caller alone.
  const char *loader = vips_foreign_find_load_source(source);
  if (!loader) {
    g_object_unref(source);
    if (why && why_size > 0) g_snprintf(why, why_size, "not an image in a known format");
    return NULL;
  }
  int allowed = any_loader;
  for (int i = 0; !allowed && scv_safe_loaders[i]; i++) allowed = strcmp(loader, scv_safe_loaders[i]) == 0;
  if (!allowed) {
    if (why && why_size > 0)
      g_snprintf(why, why_size, "format not allowed (%s; stampcam reads JPEG, PNG, WebP, TIFF, GIF "
        "and HEIF unless --allow-untrusted-loaders is given)", scv_loader_nickname(loader));
    g_object_unref(source);
    return NULL;
  }
  // libvips' JPEG loader takes libjpeg's corrupt-data warnings (bad Huffman codes, missing restart markers,
  // extraneous bytes) as errors only at "warning"; stampcam's "error" includes them, as its JPEG path does.
  if (fail_on == VIPS_FAIL_ON_ERROR && strcmp(loader, "VipsForeignLoadJpegSource") == 0) fail_on = VIPS_FAIL_ON_WARNING;
  // No option string: nothing in a file name is ever read as a loader option.
  VipsImage *image = vips_image_new_from_source(
    source, "", "access", sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM, "fail_on", fail_on, NULL);
  g_object_unref(source);
  return image;
}

int scv_orientation(VipsImage *in) {
  int orientation = 1;
  if (vips_image_get_typeof(in, VIPS_META_ORIENTATION) && !vips_image_get_int(in, VIPS_META_ORIENTATION, &orientation)
      && orientation >= 1 && orientation <= 8)
    return orientation;
  return 1;
}

int scv_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }

int scv_to_srgb(VipsImage *in, VipsImage **out) {
  VipsImage *t = NULL;
  if (vips_colourspace(in, &t, VIPS_INTERPRETATION_sRGB, NULL)) return -1;
  if (t->BandFmt == VIPS_FORMAT_UCHAR) {
    *out = t;
    return 0;
  }
  int result = vips_cast(t, out, VIPS_FORMAT_UCHAR, NULL);
  g_object_unref(t);
  return result;
}

int scv_to_rgb16(VipsImage *in, VipsImage **out) {
  VipsImage *t = NULL;
  if (vips_colourspace(in, &t, VIPS_INTERPRETATION_RGB16, NULL)) return -1;
  if (t->BandFmt == VIPS_FORMAT_USHORT) {
    *out = t;
    return 0;
  }
  int result = vips_cast(t, out, VIPS_FORMAT_USHORT, NULL);
  g_object_unref(t);
  return result;
}

int scv_widen_to_rgb16(VipsImage *in, VipsImage **out) {
  // x * 257 maps 0...255 onto 0...65535 exactly (255 * 257 = 65535), alpha included.
  VipsImage *scaled = NULL, *wide = NULL;
  if (vips_linear1(in, &scaled, 257.0, 0.0, NULL)) return -1;
  int result = vips_cast(scaled, &wide, VIPS_FORMAT_USHORT, NULL);
  g_object_unref(scaled);
  if (result) return -1;
  result = vips_copy(wide, out, "interpretation", VIPS_INTERPRETATION_RGB16, NULL);
  g_object_unref(wide);
  return result;
}

int scv_ensure_alpha(VipsImage *in, VipsImage **out) {
  if (vips_image_hasalpha(in)) return vips_copy(in, out, NULL);
  return vips_bandjoin_const1(in, out, 255.0, NULL);
}

int scv_premultiply(VipsImage *in, VipsImage **out) { return vips_premultiply(in, out, NULL); }

int scv_unpremultiply(VipsImage *in, VipsImage **out) { return vips_unpremultiply(in, out, NULL); }

int scv_affine(
  VipsImage *in, VipsImage **out, double a, double b, double c, double d, double odx, double ody, int width,
  int height, const char *interpolator, int premultiplied) {
  VipsInterpolate *interpolate = vips_interpolate_new(interpolator);
  if (!interpolate) return -1;
  VipsArrayInt *area = vips_array_int_newv(4, 0, 0, width, height);
  double zero[1] = {0.0};
  VipsArrayDouble *background = vips_array_double_new(zero, 1);
  int result = vips_affine(
    in, out, a, b, c, d, "interpolate", interpolate, "oarea", area, "odx", odx, "ody", ody, "background", background,
    "premultiplied", premultiplied ? TRUE : FALSE, "extend", VIPS_EXTEND_BACKGROUND, NULL);
  vips_area_unref(VIPS_AREA(background));
  vips_area_unref(VIPS_AREA(area));
  g_object_unref(interpolate);
  return result;
}

int scv_reduce(VipsImage *in, VipsImage **out, double hshrink, double vshrink) {
  return vips_reduce(in, out, hshrink, vshrink, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
}

int scv_composite(
  VipsImage **in, int n, int mode, const int *x, const int *y, int premultiplied, VipsImage **out) {
  if (n < 2) return vips_copy(in[0], out, NULL);
  int *modes = g_new(int, n - 1);
  for (int i = 0; i < n - 1; i++) modes[i] = mode;
  VipsArrayInt *xs = vips_array_int_new(x, n - 1);
  VipsArrayInt *ys = vips_array_int_new(y, n - 1);
  int result = vips_composite(
    in, out, n, modes, "x", xs, "y", ys, "premultiplied", premultiplied ? TRUE : FALSE, NULL);
  vips_area_unref(VIPS_AREA(xs));
  vips_area_unref(VIPS_AREA(ys));
  g_free(modes);
  return result;
}

int scv_arrayjoin(VipsImage **in, int n, int across, VipsImage **out) {
  // vips_arrayjoin lays images on a grid of equal cells; pieces of different sizes need vips_join, pairwise.
  VipsDirection direction = across > 1 ? VIPS_DIRECTION_HORIZONTAL : VIPS_DIRECTION_VERTICAL;
  VipsImage *joined = in[0];
  g_object_ref(joined);
  for (int i = 1; i < n; i++) {
    VipsImage *t = NULL;
    if (vips_join(joined, in[i], &t, direction, NULL)) {
      g_object_unref(joined);
      return -1;
    }
    g_object_unref(joined);
    joined = t;
  }
  *out = joined;
  return 0;
}

int scv_mark_sequential(VipsImage *in, VipsImage **out, int sequential) {
  if (vips_copy(in, out, NULL)) return -1;
  if (sequential) {
    vips_image_set_int(*out, VIPS_META_SEQUENTIAL, 1);
  } else {
    vips_image_remove(*out, VIPS_META_SEQUENTIAL);
  }
  return 0;
}

int scv_cast(VipsImage *in, VipsImage **out, VipsBandFormat format) {
  // vips_cast truncates toward zero; add 0.5 first so values round to nearest.
  if (vips_band_format_isint(in->BandFmt)) return vips_cast(in, out, format, NULL);
  VipsImage *t = NULL;
  if (vips_linear1(in, &t, 1.0, 0.5, NULL)) return -1;
  int result = vips_cast(t, out, format, NULL);
  g_object_unref(t);
  return result;
}

int scv_extract_bands(VipsImage *in, VipsImage **out, int first, int n) {
  return vips_extract_band(in, out, first, "n", n, NULL);
}

int scv_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
  return vips_crop(in, out, left, top, width, height, NULL);
}

int scv_copy_memory(VipsImage *in, VipsImage **out) {
  VipsImage *t = vips_image_copy_memory(in);
  if (!t) return -1;
  *out = t;
  return 0;
}

typedef struct {
  gchar **names;
  int count;
  int capacity;
  int keep_icc;
  int keep_orientation;
} scv_strip_list;

static void *scv_collect_field(VipsImage *image, const char *field, GValue *value, void *user) {
  scv_strip_list *list = (scv_strip_list *) user;
  (void) image;
  (void) value;
  if (list->keep_icc && strcmp(field, VIPS_META_ICC_NAME) == 0) return NULL;
  if (list->keep_orientation && strcmp(field, VIPS_META_ORIENTATION) == 0) return NULL;
  // Fields libvips itself needs to interpret the pixels are not metadata of the photo.
  if (strcmp(field, "width") == 0 || strcmp(field, "height") == 0 || strcmp(field, "bands") == 0
      || strcmp(field, "format") == 0 || strcmp(field, "coding") == 0 || strcmp(field, "interpretation") == 0
      || strcmp(field, "xoffset") == 0 || strcmp(field, "yoffset") == 0 || strcmp(field, "xres") == 0
      || strcmp(field, "yres") == 0 || strcmp(field, "filename") == 0)
    return NULL;
  if (list->count == list->capacity) {
    list->capacity = list->capacity ? list->capacity * 2 : 32;
    list->names = g_renew(gchar *, list->names, list->capacity);
  }
  list->names[list->count++] = g_strdup(field);
  return NULL;
}

int scv_strip_metadata(VipsImage *in, VipsImage **out, int keep_icc, int keep_orientation) {
  VipsImage *t = NULL;
  if (vips_copy(in, &t, NULL)) return -1;
  scv_strip_list list = {NULL, 0, 0, keep_icc, keep_orientation};
  vips_image_map(t, scv_collect_field, &list);
  for (int i = 0; i < list.count; i++) {
    vips_image_remove(t, list.names[i]);
    g_free(list.names[i]);
  }
  g_free(list.names);
  // A profile that is not a well-formed ICC profile is not kept either (it could carry anything).
  const void *icc = NULL;
  size_t icc_length = 0;
  if (keep_icc && vips_image_get_typeof(t, VIPS_META_ICC_NAME)
      && (vips_image_get_blob(t, VIPS_META_ICC_NAME, &icc, &icc_length)
        || !sjt_icc_well_formed((const unsigned char *) icc, icc_length)))
    vips_image_remove(t, VIPS_META_ICC_NAME);
  *out = t;
  return 0;
}

int scv_save_descriptor(VipsImage *in, int fd, int format, int quality) {
  VipsTarget *target = vips_target_new_to_descriptor(fd);
  if (!target) return -1;
  int status;
  switch (format) {
  case 0: status = vips_jpegsave_target(in, target, "Q", quality, NULL); break;
  case 1: status = vips_pngsave_target(in, target, NULL); break;
  case 2: status = vips_webpsave_target(in, target, "Q", quality, NULL); break;
  case 3:
    status = vips_tiffsave_target(in, target, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, NULL);
    break;
  default: vips_error("stampcam", "unknown output format %d", format); status = -1;
  }
  g_object_unref(target);
  return status;
}

int scv_save_descriptor_jpeg(VipsImage *in, int fd, int quality, int subsample_mode, int interlace) {
  VipsTarget *target = vips_target_new_to_descriptor(fd);
  if (!target) return -1;
  int status = vips_jpegsave_target(in, target, "Q", quality, "subsample_mode", subsample_mode, "interlace",
    interlace ? TRUE : FALSE, NULL);
  g_object_unref(target);
  return status;
}

VipsImage *scv_new_from_memory_copy(const void *data, size_t length, int width, int height, int bands) {
  return vips_image_new_from_memory_copy(data, length, width, height, bands, VIPS_FORMAT_UCHAR);
}

int scv_svg(const char *svg, size_t length, VipsImage **out) {
  // svgload_buffer keeps a pointer to the buffer for the image's lifetime: give it a copy the image owns.
  void *copy = g_memdup2(svg, length);
  VipsImage *t = NULL;
  if (vips_svgload_buffer(copy, length, &t, "access", VIPS_ACCESS_SEQUENTIAL, NULL)) {
    g_free(copy);
    return -1;
  }
  g_signal_connect_data(t, "postclose", G_CALLBACK(g_free), copy, NULL, G_CONNECT_SWAPPED);
  *out = t;
  return 0;
}
