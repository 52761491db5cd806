#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"
#include "jpeg_coding.h"
#include "jpeg_output.h"
#include "jpeg_restart_index.h"
#include "jpeg_state.h"

// Spans of restart intervals (see jpeg_restart_index.c): the intervals under the stamps read as a JPEG of their own,
// edited, encoded again with the photo's Huffman tables, and spliced between the untouched intervals of the file.

int sjt_span_open(sjt_state *s, int first, int count, int height, char *message, size_t length) {
  sjt_restarts *r = &s->restarts;
  if (!r->indexed || first < 0 || count < 1 || first + count > r->count || height < 1 || height > 65535)
    return snprintf(message, length, "no such span of restart intervals"), -1;
  // The span must start and end on MCU rows (or at the photo's end), and `height` be those rows' pixels.
  struct jpeg_decompress_struct *d = &s->src;
  long wide = (long) ((d->image_width + 8 * d->max_h_samp_factor - 1) / (8 * d->max_h_samp_factor));
  long mcu_h = 8L * d->max_v_samp_factor;
  long begin = (long) first * d->restart_interval, end = (long) (first + count) * d->restart_interval;
  long photo_h = r->photo_height;
  long top = begin / wide * mcu_h;
  long bottom = first + count == r->count ? photo_h : end / wide * mcu_h;
  if (begin % wide || (first + count < r->count && end % wide) || bottom > photo_h || bottom - top != height)
    return snprintf(message, length, "restart intervals %d ..< %d are not %d whole pixel rows", first, first + count,
             height), -1;
  size_t need = r->header + 2;
  for (int k = first; k < first + count; k++) need += r->end[k] - r->start[k] + 2;
  if (r->mini_capacity < need) {
    unsigned char *grown = realloc(r->mini, need);
    if (!grown) return snprintf(message, length, "out of memory"), -1;
    r->mini = grown;
    r->mini_capacity = need;
  }
  unsigned char *out = r->mini;
  memcpy(out, s->file, r->header);
  out[r->sof_height] = (unsigned char) (height >> 8);
  out[r->sof_height + 1] = (unsigned char) height;
  size_t at = r->header;
  for (int k = first; k < first + count; k++) {
    size_t n = r->end[k] - r->start[k];
    memcpy(out + at, s->file + r->start[k], n);
    at += n;
    out[at++] = 0xFF;
    out[at++] = k + 1 < first + count ? (unsigned char) (0xD0 + (k - first) % 8) : 0xD9;
  }
  r->mini_length = at;
  r->span_first = first;
  r->span_count = count;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  jpeg_abort_decompress(&s->src);
  s->coefficients = NULL;
  s->reading_part = 1;
  jpeg_mem_src(&s->src, r->mini, (unsigned long) r->mini_length);
  jpeg_read_header(&s->src, TRUE);
  s->coefficients = jpeg_read_coefficients(&s->src);
  return 0;
}

static int sjt_span_push(sjt_restarts *r, unsigned char *data, size_t length) {
  if (r->span_total == r->span_capacity) {
    int capacity = r->span_capacity ? r->span_capacity * 2 : 4;
    sjt_span *grown = realloc(r->spans, (size_t) capacity * sizeof *grown);
    if (!grown) return -1;
    r->spans = grown;
    r->span_capacity = capacity;
  }
  sjt_span *span = &r->spans[r->span_total];
  memset(span, 0, sizeof *span);
  span->first = r->span_first;
  span->count = r->span_count;
  span->data = data;
  span->start = malloc((size_t) span->count * sizeof *span->start);
  span->end = malloc((size_t) span->count * sizeof *span->end);
  r->span_total++;  // counted now, so that clearing frees it whatever happens next
  if (!span->start || !span->end) return -1;
  int components = 0;
  if (sjt_headers(data, length, &span->header, &span->sof_height, &components)) return 1;
  if (sjt_intervals(data, length, span->header, span->start, span->end, (size_t) span->count) != span->count)
    return 1;
  return 0;
}

int sjt_span_encode(sjt_state *s, int orientation, char *message, size_t length) {
  sjt_restarts *r = &s->restarts;
  if (!s->coefficients || !r->span_count) return snprintf(message, length, "no span opened"), -1;
  unsigned char *data = NULL;
  unsigned long size = 0;
  unsigned interval = s->src.restart_interval;
  if (sjt_encode_part(s, orientation, interval, (size_t) r->mini_length, &data, &size, message, length)) return -1;
  int pushed = sjt_span_push(r, data, size);
  if (pushed < 0) return snprintf(message, length, "out of memory"), -1;
  if (pushed > 0) return snprintf(message, length, "the span's restart intervals came out unexpectedly"), -1;
  return 0;
}

int sjt_write_spliced(sjt_state *s, int fd, char *message, size_t length) {
  sjt_restarts *r = &s->restarts;
  if (!r->indexed || !r->span_total) return snprintf(message, length, "no span encoded"), -1;
  // The header of the first span's JPEG (the photo's tables, the ICC profile, the orientation) with the whole
  // photo's height.
  const sjt_span *lead = &r->spans[0];
  size_t sof = lead->sof_height, header = lead->header;
  FILE *out = sjt_output_open(&s->out_buffer, fd, message, length);
  if (!out) return -1;
  unsigned char height[2] = {s->file[r->sof_height], s->file[r->sof_height + 1]};
  int failed = fwrite(lead->data, 1, sof, out) != sof || fwrite(height, 1, 2, out) != 2
    || fwrite(lead->data + sof + 2, 1, header - sof - 2, out) != header - sof - 2;
  const sjt_span *next = r->spans;  // spans are encoded top to bottom
  const sjt_span *last = r->spans + r->span_total;
  for (int k = 0; k < r->count && !failed; k++) {
    while (next < last && k >= next->first + next->count) next++;
    const sjt_span *span = next < last && k >= next->first ? next : NULL;
    const unsigned char *bytes;
    size_t n;
    if (span) {
      int i = k - span->first;
      bytes = span->data + span->start[i];
      n = span->end[i] - span->start[i];
    } else {
      bytes = s->file + r->start[k];
      n = r->end[k] - r->start[k];
    }
    unsigned char marker[2] = {0xFF, k + 1 < r->count ? (unsigned char) (0xD0 + k % 8) : 0xD9};
    failed = fwrite(bytes, 1, n, out) != n || fwrite(marker, 1, 2, out) != 2;
  }
  return sjt_output_close(out, failed, message, length);
}
