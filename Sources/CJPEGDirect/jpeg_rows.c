// A JPEG photo's pixels for the libvips path, decoded by libjpeg top to bottom in one pass that also reads the data
// to its end: libvips' own loader stops at the last pixel row, where libjpeg has not yet seen damage such as
// "N extraneous bytes before marker" (the decoder lost step and stopped short of the data), so finding that took a
// second entropy decoding of the whole file. Decoded with libjpeg's defaults, as libvips decodes: the same pixels.
// The libvips image over it is CVipsGlue's (vips_jpeg_stream.c).

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // TEMP_FAILURE_RETRY (unistd.h): a call interrupted by a signal is made again
#endif

#include "JPEGRows.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

#include "jpeg_arrays.h"
#include "jpeg_errors.h"

enum { SJR_BUFFER = 1 << 16 };

struct sjr_reader {
  sjt_errors error;  // first: every callback's libjpeg object leads back to the reader
  struct jpeg_decompress_struct d;
  struct jpeg_source_mgr source;
  int created;    // d is a live decompressor
  int fd;         // a duplicate of the caller's, read with pread only (libvips reads the same file)
  off_t offset;   // where the next read starts
  size_t limit;   // bytes read at most: a file that grows is read no further
  JOCTET *buffer;
  int started, failed;
  int next_row;   // the first row not yet handed out
};

static void sjr_init_source(j_decompress_ptr d) { (void) d; }

static boolean sjr_fill(j_decompress_ptr d) {
  sjr_reader *r = (sjr_reader *) d->err;
  size_t want = SJR_BUFFER;
  if ((size_t) r->offset >= r->limit) want = 0;
  else if (r->limit - (size_t) r->offset < want) want = r->limit - (size_t) r->offset;
  ssize_t got = want ? TEMP_FAILURE_RETRY(pread(r->fd, r->buffer, want, r->offset)) : 0;
  if (got < 0) sjt_errors_throw(&r->error, "read error: %s", strerror(errno));
  if (got == 0) {
    // The data ends before the image does: warned (and so failed) as libjpeg's own readers do.
    WARNMS(d, JWRN_JPEG_EOF);
    r->buffer[0] = 0xFF;
    r->buffer[1] = JPEG_EOI;
    got = 2;
  } else {
    r->offset += got;
  }
  d->src->next_input_byte = r->buffer;
  d->src->bytes_in_buffer = (size_t) got;
  return TRUE;
}

static void sjr_skip(j_decompress_ptr d, long count) {
  while (count > 0) {
    if ((size_t) count <= d->src->bytes_in_buffer) {
      d->src->next_input_byte += count;
      d->src->bytes_in_buffer -= (size_t) count;
      return;
    }
    count -= (long) d->src->bytes_in_buffer;
    d->src->bytes_in_buffer = 0;
    sjr_fill(d);
  }
}

static void sjr_term_source(j_decompress_ptr d) { (void) d; }

void sjr_end(sjr_reader *r) {
  if (r->created) jpeg_destroy_decompress(&r->d);
  r->created = 0;
  if (r->fd >= 0) close(r->fd);
  r->fd = -1;
  free(r->buffer);
  r->buffer = NULL;
}

void sjr_free(sjr_reader *r) {
  if (!r) return;
  sjr_end(r);
  sjs_stop_release(r->error.stop);
  free(r);
}

sjr_reader *sjr_open(int fd, size_t max_bytes, const sjs_stop *stop, sjr_header *header) {
  sjr_reader *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  // A reference of its own: the reader may outlive whoever handed the flag over (see JPEGStop.h).
  r->error.stop = sjs_stop_retain(stop);
  r->limit = max_bytes;
  r->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  r->buffer = malloc(SJR_BUFFER);
  if (r->fd < 0 || !r->buffer) {
    sjr_free(r);
    return NULL;
  }
  sjt_errors_init(&r->error);
  r->d.err = &r->error.pub;
  if (setjmp(r->error.jump)) {
    // A header libjpeg cannot read is the caller's other decoder's to report, in its words.
    sjr_free(r);
    return NULL;
  }
  jpeg_create_decompress(&r->d);
  r->created = 1;
  r->d.progress = &r->error.progress;
  r->source.init_source = sjr_init_source;
  r->source.fill_input_buffer = sjr_fill;
  r->source.skip_input_data = sjr_skip;
  r->source.resync_to_restart = jpeg_resync_to_restart;
  r->source.term_source = sjr_term_source;
  r->d.src = &r->source;
  jpeg_read_header(&r->d, TRUE);
  jpeg_calc_output_dimensions(&r->d);
  memset(header, 0, sizeof *header);
  header->width = (int) r->d.output_width;
  header->height = (int) r->d.output_height;
  header->components = r->d.output_components;
  header->precision = r->d.data_precision;
  header->rgb = r->d.out_color_space == JCS_RGB && r->d.output_components == 3;
  header->grey = r->d.out_color_space == JCS_GRAYSCALE && r->d.output_components == 1;
  header->multiscan = jpeg_has_multiple_scans(&r->d) ? 1 : 0;
  return r;
}

int sjr_use_arrays(sjr_reader *r, void *arrays) {
  if (!arrays || !r->created || r->started || r->failed || !jpeg_has_multiple_scans(&r->d)) return 0;
  // The arrays are requested and realized by jpeg_start_decompress (the first rows), through these methods.
  sjt_arrays_adopt((sjt_arrays *) arrays, (j_common_ptr) &r->d, 1);
  return 1;
}

int sjr_read_rows(sjr_reader *r, int left, int top, int width, int height, unsigned char *pixels, size_t stride) {
  // Every failure is kept (`failed`, with its text): the caller's pipeline may hand a failed strip on as black
  // without the error.
  if (!r->failed && !r->created) snprintf(r->error.text, sizeof r->error.text, "rows asked for after the last");
  else if (!r->failed && (left != 0 || width != (int) r->d.output_width || top != r->next_row))
    snprintf(r->error.text, sizeof r->error.text, "out of order read at line %d", r->next_row);
  else if (!r->failed) r->error.text[0] = '\0';
  if (r->failed || r->error.text[0]) {
    r->failed = 1;
    return -1;
  }
  if (setjmp(r->error.jump)) {
    r->failed = 1;
    return -1;
  }
  if (!r->started) {
    // A progressive photo's scans are all read here (into libjpeg's coefficient arrays), as libvips does.
    jpeg_start_decompress(&r->d);
    r->started = 1;
  }
  int end = top + height;
  if (end > (int) r->d.output_height) end = (int) r->d.output_height;
  for (int y = top; y < end; y++) {
    JSAMPROW row = (JSAMPROW) (pixels + (size_t) (y - top) * stride);
    if (jpeg_read_scanlines(&r->d, &row, 1) != 1) sjt_errors_throw(&r->error, "libjpeg gave no row %d", y);
  }
  r->next_row = end;
  if (end == (int) r->d.output_height) {
    // Past the last row: reading up to EOI finds what libvips' loader never reads.
    jpeg_finish_decompress(&r->d);
    sjr_end(r);
  }
  return 0;
}

const char *sjr_message(const sjr_reader *r) { return r->error.text; }

int sjr_failure(const sjr_reader *r, char *message, size_t length) {
  int failure = r->error.damage ? r->error.damage : r->failed ? 3 : 0;
  if (failure && message && length > 0) snprintf(message, length, "%s", r->error.text);
  return failure;
}
