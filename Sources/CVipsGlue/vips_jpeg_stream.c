// The libvips image over a JPEG photo's libjpeg row reader (CJPEGDirect's jpeg_rows.c): libvips' header and
// metadata for the file, pixels from the reader, asked for strictly in order as libvips' own loader asks.

#include "CVipsGlue.h"

#include <stdlib.h>
#include <string.h>

#include <vips/vips.h>

#include "JPEGRows.h"

struct scv_jpeg_stream {
  sjr_reader *reader;
  GMutex lock;  // libvips' threads ask for rows; the reader serves one at a time
  gint refs;
  int multiscan;
};

void scv_jpeg_stream_release(scv_jpeg_stream *s) {
  if (!s || !g_atomic_int_dec_and_test(&s->refs)) return;
  sjr_free(s->reader);
  g_mutex_clear(&s->lock);
  free(s);
}

scv_jpeg_stream *scv_jpeg_stream_open(int fd, VipsImage *like, size_t max_bytes, const struct sjs_stop *stop) {
  const char *loader = NULL;
  if (!like || vips_image_get_typeof(like, VIPS_META_LOADER) == 0 ||
      vips_image_get_string(like, VIPS_META_LOADER, &loader) || !loader || strncmp(loader, "jpegload", 8) != 0)
    return NULL;
  if (like->BandFmt != VIPS_FORMAT_UCHAR || like->Coding != VIPS_CODING_NONE) return NULL;
  sjr_header header;
  // A header libjpeg cannot read is libvips' to report, in its words: the caller lets libvips decode.
  sjr_reader *reader = sjr_open(fd, max_bytes, stop, &header);
  if (!reader) return NULL;
  // What libvips decodes the same way (libjpeg's defaults, RGB or grey out): CMYK, YCCK (libvips inverts Adobe's
  // samples) and anything not 8-bit stay libvips'.
  if (header.precision != 8 || !(header.rgb || header.grey) || header.width != like->Xsize ||
      header.height != like->Ysize || header.components != like->Bands) {
    sjr_free(reader);
    return NULL;
  }
  scv_jpeg_stream *s = calloc(1, sizeof *s);
  if (!s) {
    sjr_free(reader);
    return NULL;
  }
  s->reader = reader;
  g_mutex_init(&s->lock);
  s->refs = 1;
  s->multiscan = header.multiscan;
  return s;
}

int scv_jpeg_stream_multiscan(scv_jpeg_stream *s) { return s->multiscan; }

int scv_jpeg_stream_use_arrays(scv_jpeg_stream *s, void *arrays) {
  g_mutex_lock(&s->lock);
  int used = sjr_use_arrays(s->reader, arrays);
  g_mutex_unlock(&s->lock);
  return used;
}

void scv_jpeg_stream_end(scv_jpeg_stream *s) {
  g_mutex_lock(&s->lock);
  sjr_end(s->reader);
  g_mutex_unlock(&s->lock);
}

static int scv_stream_generate(VipsRegion *region, void *sequence, void *a, void *b, gboolean *stop) {
  (void) sequence;
  (void) b;
  (void) stop;
  scv_jpeg_stream *s = a;
  VipsRect *r = &region->valid;
  g_mutex_lock(&s->lock);
  int status = sjr_read_rows(s->reader, r->left, r->top, r->width, r->height, VIPS_REGION_ADDR_TOPLEFT(region),
    (size_t) VIPS_REGION_LSKIP(region));
  if (status) vips_error("jpegload", "%s", sjr_message(s->reader));
  g_mutex_unlock(&s->lock);
  return status ? -1 : 0;
}

static void scv_stream_closed(VipsImage *image, void *data) {
  (void) image;
  scv_jpeg_stream *s = data;
  scv_jpeg_stream_end(s);
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
  int failure = sjr_failure(s->reader, message, length);
  g_mutex_unlock(&s->lock);
  return failure;
}
