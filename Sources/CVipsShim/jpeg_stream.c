// A JPEG photo's pixels for the libvips path, decoded by libjpeg top to bottom in one pass that also reads the data
// to its end: libvips' own loader stops at the last pixel row, where libjpeg has not yet seen damage such as
// "N extraneous bytes before marker" (the decoder lost step and stopped short of the data), so finding that took a
// second entropy decoding of the whole file. Decoded with libjpeg's defaults, as libvips decodes: the same pixels.

#include "CVipsShim.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jerror.h>
#include <jpeglib.h>

enum { SCV_STREAM_BUFFER = 1 << 16 };

struct scv_jpeg_stream {
  struct jpeg_error_mgr pub;  // first: every callback's libjpeg object leads back to the stream
  jmp_buf jump;
  char text[JMSG_LENGTH_MAX];
  int damage;  // 0 none, 1 the data ends early, 2 other corrupt data (libjpeg's warning in `text`)
  struct jpeg_decompress_struct d;
  struct jpeg_source_mgr source;
  struct jpeg_progress_mgr progress;
  int created;    // d is a live decompressor
  int fd;         // a duplicate of the caller's, read with pread only (libvips reads the same file)
  off_t offset;   // where the next read starts
  size_t limit;   // bytes read at most: a file that grows is read no further
  JOCTET *buffer;
  int started, failed;
  int next_row;   // the first row not yet handed out
  const volatile int *stop;
  GMutex lock;
  gint refs;
};

static void scv_stream_fail(j_common_ptr c) {
  scv_jpeg_stream *s = (scv_jpeg_stream *) c->err;
  (*c->err->format_message)(c, s->text);
  longjmp(s->jump, 1);
}

// Any warning is damage here (the stream is used only when corrupt data fails the job): the first stops the read.
static void scv_stream_emit(j_common_ptr c, int level) {
  if (level >= 0) return;
  scv_jpeg_stream *s = (scv_jpeg_stream *) c->err;
  s->damage = c->err->msg_code == JWRN_JPEG_EOF ? 1 : 2;
  scv_stream_fail(c);
}

static void scv_stream_progress(j_common_ptr c) {
  scv_jpeg_stream *s = (scv_jpeg_stream *) c->err;
  if (s->stop && *s->stop) {
    snprintf(s->text, sizeof s->text, "stopped");
    longjmp(s->jump, 1);
  }
}

static void scv_stream_init_source(j_decompress_ptr d) { (void) d; }

static boolean scv_stream_fill(j_decompress_ptr d) {
  scv_jpeg_stream *s = (scv_jpeg_stream *) d->err;
  size_t want = SCV_STREAM_BUFFER;
  if ((size_t) s->offset >= s->limit) want = 0;
  else if (s->limit - (size_t) s->offset < want) want = s->limit - (size_t) s->offset;
  ssize_t got;
  do got = want ? pread(s->fd, s->buffer, want, s->offset) : 0;
  while (got < 0 && errno == EINTR);
  if (got < 0) {
    snprintf(s->text, sizeof s->text, "read error: %s", strerror(errno));
    longjmp(s->jump, 1);
  }
  if (got == 0) {
    // The data ends before the image does: warned (and so failed) as libjpeg's own readers do.
    WARNMS(d, JWRN_JPEG_EOF);
    s->buffer[0] = 0xFF;
    s->buffer[1] = JPEG_EOI;
    got = 2;
  } else {
    s->offset += got;
  }
  d->src->next_input_byte = s->buffer;
  d->src->bytes_in_buffer = (size_t) got;
  return TRUE;
}

static void scv_stream_skip(j_decompress_ptr d, long count) {
  while (count > 0) {
    if ((size_t) count <= d->src->bytes_in_buffer) {
      d->src->next_input_byte += count;
      d->src->bytes_in_buffer -= (size_t) count;
      return;
    }
    count -= (long) d->src->bytes_in_buffer;
    d->src->bytes_in_buffer = 0;
    scv_stream_fill(d);
  }
}

static void scv_stream_term_source(j_decompress_ptr d) { (void) d; }

// Lets go of libjpeg's memory (a progressive photo's coefficient arrays among it) and the file; the stream itself
// stays while referenced, for its damage report.
static void scv_stream_end(scv_jpeg_stream *s) {
  if (s->created) jpeg_destroy_decompress(&s->d);
  s->created = 0;
  if (s->fd >= 0) close(s->fd);
  s->fd = -1;
  free(s->buffer);
  s->buffer = NULL;
}

void scv_jpeg_stream_release(scv_jpeg_stream *s) {
  if (!s || !g_atomic_int_dec_and_test(&s->refs)) return;
  scv_stream_end(s);
  g_mutex_clear(&s->lock);
  free(s);
}

scv_jpeg_stream *scv_jpeg_stream_open(int fd, VipsImage *like, size_t max_bytes, const volatile int *stop) {
  const char *loader = NULL;
  if (!like || vips_image_get_typeof(like, VIPS_META_LOADER) == 0 ||
      vips_image_get_string(like, VIPS_META_LOADER, &loader) || !loader || strncmp(loader, "jpegload", 8) != 0)
    return NULL;
  if (like->BandFmt != VIPS_FORMAT_UCHAR || like->Coding != VIPS_CODING_NONE) return NULL;
  scv_jpeg_stream *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  g_mutex_init(&s->lock);
  s->refs = 1;
  s->stop = stop;
  s->limit = max_bytes;
  s->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  s->buffer = malloc(SCV_STREAM_BUFFER);
  if (s->fd < 0 || !s->buffer) {
    scv_jpeg_stream_release(s);
    return NULL;
  }
  jpeg_std_error(&s->pub);
  s->pub.error_exit = scv_stream_fail;
  s->pub.emit_message = scv_stream_emit;
  s->d.err = &s->pub;
  if (setjmp(s->jump)) {
    // A header libjpeg cannot read is libvips' to report, in its words: the caller lets libvips decode.
    scv_jpeg_stream_release(s);
    return NULL;
  }
  jpeg_create_decompress(&s->d);
  s->created = 1;
  s->progress.progress_monitor = scv_stream_progress;
  s->d.progress = &s->progress;
  s->source.init_source = scv_stream_init_source;
  s->source.fill_input_buffer = scv_stream_fill;
  s->source.skip_input_data = scv_stream_skip;
  s->source.resync_to_restart = jpeg_resync_to_restart;
  s->source.term_source = scv_stream_term_source;
  s->d.src = &s->source;
  jpeg_read_header(&s->d, TRUE);
  jpeg_calc_output_dimensions(&s->d);
  // What libvips decodes the same way (libjpeg's defaults, RGB or grey out): CMYK, YCCK (libvips inverts Adobe's
  // samples) and anything not 8-bit stay libvips'.
  int colour = s->d.out_color_space == JCS_RGB && s->d.output_components == 3;
  int grey = s->d.out_color_space == JCS_GRAYSCALE && s->d.output_components == 1;
  if (s->d.data_precision != 8 || !(colour || grey) || (int) s->d.output_width != like->Xsize ||
      (int) s->d.output_height != like->Ysize || s->d.output_components != like->Bands) {
    scv_jpeg_stream_release(s);
    return NULL;
  }
  return s;
}

// Hands out rows r->top ..< r->top + r->height, in order; after the last, reads the data to its end.
static int scv_stream_rows(scv_jpeg_stream *s, VipsRegion *region) {
  VipsRect *r = &region->valid;
  // Every failure is kept (`failed`, with its text): libvips may hand a failed strip on as black without the error.
  if (!s->failed && !s->created) snprintf(s->text, sizeof s->text, "rows asked for after the last");
  else if (!s->failed && (r->left != 0 || r->width != (int) s->d.output_width || r->top != s->next_row))
    snprintf(s->text, sizeof s->text, "out of order read at line %d", s->next_row);
  else if (!s->failed) s->text[0] = '\0';
  if (s->failed || s->text[0]) {
    s->failed = 1;
    vips_error("jpegload", "%s", s->text);
    return -1;
  }
  if (setjmp(s->jump)) {
    s->failed = 1;
    vips_error("jpegload", "%s", s->text);
    return -1;
  }
  if (!s->started) {
    // A progressive photo's scans are all read here (into libjpeg's coefficient arrays), as libvips does.
    jpeg_start_decompress(&s->d);
    s->started = 1;
  }
  int end = r->top + r->height;
  if (end > (int) s->d.output_height) end = (int) s->d.output_height;
  for (int y = r->top; y < end; y++) {
    JSAMPROW row = (JSAMPROW) VIPS_REGION_ADDR(region, 0, y);
    if (jpeg_read_scanlines(&s->d, &row, 1) != 1) {
      snprintf(s->text, sizeof s->text, "libjpeg gave no row %d", y);
      longjmp(s->jump, 1);
    }
  }
  s->next_row = end;
  if (end == (int) s->d.output_height) {
    // Past the last row: reading up to EOI finds what libvips' loader never reads.
    jpeg_finish_decompress(&s->d);
    scv_stream_end(s);
  }
  return 0;
}

static int scv_stream_generate(VipsRegion *region, void *sequence, void *a, void *b, gboolean *stop) {
  (void) sequence;
  (void) b;
  (void) stop;
  scv_jpeg_stream *s = a;
  g_mutex_lock(&s->lock);
  int status = scv_stream_rows(s, region);
  g_mutex_unlock(&s->lock);
  return status;
}

static void scv_stream_closed(VipsImage *image, void *data) {
  (void) image;
  scv_jpeg_stream *s = data;
  g_mutex_lock(&s->lock);
  scv_stream_end(s);
  g_mutex_unlock(&s->lock);
  scv_jpeg_stream_release(s);
}

int scv_jpeg_stream_image(scv_jpeg_stream *s, VipsImage *like, VipsImage **out) {
  VipsImage *raw = vips_image_new();
  // The header and metadata are libvips' own for this file (EXIF, ICC, orientation, resolution).
  if (vips_image_pipelinev(raw, VIPS_DEMAND_STYLE_FATSTRIP, like, NULL)) {
    g_object_unref(raw);
    return -1;
  }
  g_atomic_int_inc(&s->refs);
  g_signal_connect(raw, "close", G_CALLBACK(scv_stream_closed), s);
  VipsImage *in_order = NULL;
  // As libvips' loader: a line cache that asks for rows strictly in order, cropped after it (the cache may ask for
  // a last strip past the bottom).
  int status = vips_image_generate(raw, NULL, scv_stream_generate, NULL, s, NULL) ||
    vips_sequential(raw, &in_order, "tile_height", 8, NULL) ||
    vips_extract_area(in_order, out, 0, 0, raw->Xsize, raw->Ysize, NULL);
  if (in_order) g_object_unref(in_order);
  g_object_unref(raw);
  return status ? -1 : 0;
}

int scv_jpeg_stream_failure(scv_jpeg_stream *s, char *message, size_t length) {
  g_mutex_lock(&s->lock);
  int failure = s->damage ? s->damage : s->failed ? 3 : 0;
  if (failure && message && length > 0) g_strlcpy(message, s->text, length);
  g_mutex_unlock(&s->lock);
  return failure;
}
