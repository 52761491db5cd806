#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"
#include "jpeg_coding.h"
#include "jpeg_output.h"
#include "jpeg_restart_index.h"
#include "jpeg_splice.h"
#include "jpeg_state.h"

// The spliced path (JPEGTransplant.h): the rectangles of MCUs under the stamps are cut out of the photo's scan as
// JPEGs of their own (their MCUs' bits, the first DC difference of each row re-coded), read, edited and encoded
// again by libjpeg with the photo's tables; the output is the photo's scan with those rectangles' MCUs taken from
// their encodings. The rest of the photo is never decoded beyond the scan that finds where its MCUs start.

static unsigned sjt_be16_at(const unsigned char *p) { return (unsigned) p[0] << 8 | p[1]; }

void sjt_splice_clear(sjt_splice *p) {
  for (int k = 0; k < p->part_capacity; k++) {
    free(p->parts[k].data);
    p->parts[k].data = NULL;
    p->parts[k].encoded = 0;
  }
  p->indexed = 0;
  p->count = 0;
  p->open = -1;
}

void sjt_splice_free(sjt_splice *p) {
  sjt_splice_clear(p);
  for (int k = 0; k < p->part_capacity; k++) free(p->parts[k].points);
  free(p->parts);
  free(p->frame);
  free(p->part_frame);
  free(p->rects);
  free(p->marks);
  free(p->rank);
  free(p->points);
  free(p->mini);
  free(p->runs);
  memset(p, 0, sizeof *p);
}

// Grows *buffer to hold `count` items of `size` bytes; 0, or -1 when out of memory (the buffer left as it was).
static int sjt_grow(void **buffer, size_t *capacity, size_t count, size_t size) {
  if (count <= *capacity) return 0;
  if (count > SIZE_MAX / size) return -1;
  void *grown = realloc(*buffer, count * size);
  if (!grown) return -1;
  *buffer = grown;
  *capacity = count;
  return 0;
}

static const int *sjt_rect(const sjt_splice *p, int k) { return p->rects + 4 * k; }

// The start of MCU (x, y) of a marked row (x up to `wide`: the point after the row's last MCU).
static const sjs_point *sjt_point(const sjt_splice *p, long x, long y) {
  return &p->points[(size_t) p->rank[y] * (size_t) (p->wide + 1) + (size_t) x];
}

// Checks the rectangles: inside the photo, sorted by top then left, none overlapping another.
static const char *sjt_rects_wrong(const int *rects, int count, long wide, long high) {
  for (int k = 0; k < count; k++) {
    const int *r = rects + 4 * k;
    if (r[0] < 0 || r[1] < 0 || r[2] < 1 || r[3] < 1 || r[0] > wide - r[2] || r[1] > high - r[3])
      return "a rectangle outside the photo's MCUs";
    if (k && (r[1] < r[-3] || (r[1] == r[-3] && r[0] < r[-4]))) return "rectangles not sorted by top then left";
    for (int j = 0; j < k; j++) {
      const int *o = rects + 4 * j;
      if (r[0] < o[0] + o[2] && o[0] < r[0] + r[2] && r[1] < o[1] + o[3] && o[1] < r[1] + r[3])
        return "overlapping rectangles";
    }
  }
  return NULL;
}

int sjt_splice_index(sjt_state *s, const int *rects, int count, char *message, size_t length) {
  sjt_splice *p = &s->splice;
  sjt_splice_clear(p);
  if (!s->opened) return snprintf(message, length, "no file opened"), -1;
  if (!rects || count < 1 || count > 65536) return snprintf(message, length, "no rectangles, or too many"), -1;
  struct jpeg_decompress_struct *d = &s->src;
  if (s->reading_part) return snprintf(message, length, "a part of the photo is open, not the photo"), -1;
  if (d->progressive_mode) return snprintf(message, length, "progressive"), 1;
  if (d->arith_code) return snprintf(message, length, "arithmetic coding"), 1;
  if (d->restart_interval) return snprintf(message, length, "restart markers"), 1;
  if (d->data_precision != 8) return snprintf(message, length, "not 8-bit samples"), 1;
  if (d->num_components < 1 || d->num_components > 4) return snprintf(message, length, "1 to 4 components"), 1;
  if (d->num_components == 1 && (d->comp_info[0].h_samp_factor != 1 || d->comp_info[0].v_samp_factor != 1))
    return snprintf(message, length, "a grey photo sampled other than 1 x 1"), 1;
  if (!sjt_tables_complete(d)) return snprintf(message, length, "Huffman tables lacking codes an edit may need"), 1;
  p->mcu_width = 8 * d->max_h_samp_factor;
  p->mcu_height = 8 * d->max_v_samp_factor;
  p->wide = ((long) d->image_width + p->mcu_width - 1) / p->mcu_width;
  p->high = ((long) d->image_height + p->mcu_height - 1) / p->mcu_height;
  const char *wrong = sjt_rects_wrong(rects, count, p->wide, p->high);
  if (wrong) return snprintf(message, length, "%s", wrong), -1;
  size_t header = 0;
  int components = 0;
  if (sjt_headers(s->file, s->file_len, &header, &p->sof, &components) || components != d->num_components)
    return snprintf(message, length, "not one scan of every component"), 1;

  size_t rows = (size_t) p->high;
  if (sjt_grow((void **) &p->marks, &p->mark_capacity, rows, 1)
      || sjt_grow((void **) &p->rank, &p->rank_capacity, rows, sizeof *p->rank))
    return snprintf(message, length, "out of memory"), -1;
  memset(p->marks, 0, rows);
  for (int k = 0; k < count; k++)
    for (int y = rects[4 * k + 1]; y < rects[4 * k + 1] + rects[4 * k + 3]; y++) p->marks[y] = 1;
  long marked = 0;
  for (size_t y = 0; y < rows; y++) p->rank[y] = p->marks[y] ? marked++ : -1;
  size_t needed = (size_t) marked * (size_t) (p->wide + 1);
  if (sjt_grow((void **) &p->points, &p->point_capacity, needed, sizeof *p->points)
      || sjt_grow((void **) &p->rects, &p->rect_capacity, (size_t) count * 4, sizeof(int)))
    return snprintf(message, length, "out of memory"), -1;
  memcpy(p->rects, rects, (size_t) count * 4 * sizeof(int));
  if (p->part_capacity < count) {
    sjt_part *grown = realloc(p->parts, (size_t) count * sizeof *grown);
    if (!grown) return snprintf(message, length, "out of memory"), -1;
    memset(grown + p->part_capacity, 0, (size_t) (count - p->part_capacity) * sizeof *grown);
    p->parts = grown;
    p->part_capacity = count;
  }
  if (!p->frame && !(p->frame = malloc(sizeof *p->frame))) return snprintf(message, length, "out of memory"), -1;

  int status = sjs_scan_into(s->file, s->file_len, 1, p->marks, p->high, p->points, p->point_capacity, &p->scan,
    p->frame);
  if (status == SJS_NOT_HANDLED) return snprintf(message, length, "%s", p->scan.reason), 1;
  if (status == SJS_DAMAGED)
    return snprintf(message, length, "corrupt data in MCU %ld at byte %zu", p->scan.damage_mcu,
             p->scan.damage_offset), 2;
  if (p->scan.mcus_wide != p->wide || p->scan.mcus_high != p->high || p->scan.points != (long) needed)
    return snprintf(message, length, "the scan's MCUs are not libjpeg's"), 1;
  p->count = count;
  p->indexed = 1;
  return 0;
}

// A run of the photo's MCUs from the point (fx, fy) to the point (tx, ty): points of marked rows, x up to `wide`
// (the point after the row's last MCU); fy -1 for the scan's start, ty -1 for its end.
static void sjt_photo_run(const sjt_state *s, long fx, long fy, long tx, long ty, sjp_run *run) {
  const sjt_splice *p = &s->splice;
  *run = (sjp_run) {.data = s->file, .length = s->file_len};
  if (fy < 0) {
    run->bit = (uint64_t) p->scan.entropy_start * 8;
  } else {
    const sjs_point *a = sjt_point(p, fx, fy);
    run->bit = a->bit;
    memcpy(run->dc_in, a->dc, sizeof run->dc_in);
  }
  if (ty < 0) {
    run->end = p->scan.end_bit;
    memcpy(run->dc_out, p->scan.end_dc, sizeof run->dc_out);
  } else {
    const sjs_point *b = sjt_point(p, tx, ty);
    run->end = b->bit;
    memcpy(run->dc_out, b->dc, sizeof run->dc_out);
  }
}

int sjt_splice_open(sjt_state *s, int k, char *message, size_t length) {
  sjt_splice *p = &s->splice;
  if (!s->opened || !p->indexed || k < 0 || k >= p->count)
    return snprintf(message, length, "no such splice rectangle"), -1;
  const int *r = sjt_rect(p, k);
  struct jpeg_decompress_struct *d = &s->src;
  // The rectangle's pixels: to the photo's edge where it reaches it.
  long photo_w = (long) sjt_be16_at(s->file + p->sof + 2), photo_h = (long) sjt_be16_at(s->file + p->sof);
  long width = r[0] + r[2] == p->wide ? photo_w - (long) r[0] * p->mcu_width : (long) r[2] * p->mcu_width;
  long height = r[1] + r[3] == p->high ? photo_h - (long) r[1] * p->mcu_height : (long) r[3] * p->mcu_height;
  size_t header = p->scan.entropy_start;
  sjp_writer w;
  if (sjp_init(&w, NULL, header + 65536)) return snprintf(message, length, "out of memory"), -1;
  sjp_bytes(&w, s->file, header);
  w.buf[p->sof] = (unsigned char) (height >> 8);
  w.buf[p->sof + 1] = (unsigned char) height;
  w.buf[p->sof + 2] = (unsigned char) (width >> 8);
  w.buf[p->sof + 3] = (unsigned char) width;
  // Row after row of the rectangle's MCUs, each row's first MCU re-coded against the predictors the row before in
  // the rectangle ends on (0 for the first): the rectangle's JPEG holds the photo's own coefficients.
  int pred[4] = {0, 0, 0, 0};
  int failed = 0;
  for (int y = r[1]; y < r[1] + r[3] && !failed; y++) {
    sjp_run run;
    sjt_photo_run(s, r[0], y, r[0] + r[2], y, &run);
    failed = sjp_put_run(&w, p->frame, &run, pred, 1);
    memcpy(pred, run.dc_out, sizeof pred);
  }
  sjp_pad(&w);
  sjp_bytes(&w, (const unsigned char[]) {0xFF, 0xD9}, 2);
  if (failed || w.failed) {
    sjp_free(&w);
    if (failed == 1) return snprintf(message, length, "a DC difference the photo's table cannot code"), 1;
    return snprintf(message, length, failed ? "the photo's data changed under the splice" : "out of memory"), -1;
  }
  free(p->mini);
  p->mini = w.buf;
  p->mini_length = w.len;
  p->mini_capacity = w.cap;
  p->open = k;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  jpeg_abort_decompress(d);
  s->coefficients = NULL;
  s->reading_part = 1;
  jpeg_mem_src(d, p->mini, (unsigned long) p->mini_length);
  jpeg_read_header(d, TRUE);
  s->coefficients = jpeg_read_coefficients(d);
  return 0;
}

// 1 when two frames code their MCUs alike: the same blocks and, for each component, the same tables.
static int sjt_frames_alike(const sjs_frame *a, const sjs_frame *b) {
  if (a->nf != b->nf || a->count != b->count || memcmp(a->blocks, b->blocks, sizeof a->blocks)) return 0;
  for (int c = 0; c < a->nf; c++)
    for (int t = 0; t < 2; t++) {
      const sjs_table *x = &a->tables[t][t ? a->ac[c] : a->dc[c]], *y = &b->tables[t][t ? b->ac[c] : b->dc[c]];
      if (memcmp(x->maxcode, y->maxcode, sizeof x->maxcode) || memcmp(x->valoffset, y->valoffset, sizeof x->valoffset)
          || memcmp(x->vals, y->vals, sizeof x->vals))
        return 0;
    }
  return 1;
}

int sjt_splice_encode(sjt_state *s, char *message, size_t length) {
  sjt_splice *p = &s->splice;
  if (!s->opened || !p->indexed || p->open < 0 || !s->coefficients)
    return snprintf(message, length, "no splice rectangle opened"), -1;
  sjt_part *part = &p->parts[p->open];
  const int *r = sjt_rect(p, p->open);
  unsigned char *data = NULL;
  unsigned long size = 0;
  if (sjt_encode_part(s, 1, p->mini_length, &data, &size, message, length)) return -1;
  free(part->data);
  part->data = data;
  part->length = size;
  part->encoded = 0;
  size_t mcus = (size_t) r[2] * (size_t) r[3];
  if (sjt_grow((void **) &part->points, &part->capacity, mcus + 1, sizeof *part->points))
    return snprintf(message, length, "out of memory"), -1;
  if (!p->part_frame && !(p->part_frame = malloc(sizeof *p->part_frame)))
    return snprintf(message, length, "out of memory"), -1;
  sjs_result res;
  int status = sjs_scan_into(data, size, 1, NULL, 0, part->points, mcus, &res, p->part_frame);
  if (status != SJS_OK || res.mcus_wide != r[2] || res.mcus_high != r[3] || res.points != (long) mcus
      || !sjt_frames_alike(p->frame, p->part_frame))
    return snprintf(message, length, "the rectangle's encoding is not one the splice can take"), -1;
  part->header = res.entropy_start;
  part->points[mcus].bit = res.end_bit;
  memcpy(part->points[mcus].dc, res.end_dc, sizeof res.end_dc);
  part->encoded = 1;
  return 0;
}

// Lays out the output's runs of MCUs in scan order: the photo's between rectangles, each rectangle's rows from
// its encoding. Returns their count, or -1 when out of memory.
static long sjt_plan(sjt_state *s) {
  sjt_splice *p = &s->splice;
  size_t most = 1;
  for (int k = 0; k < p->count; k++) most += 2 * (size_t) sjt_rect(p, k)[3];
  if (sjt_grow((void **) &p->runs, &p->run_capacity, most, sizeof *p->runs)) return -1;
  long n = 0, m = 0, mx = 0, my = -1;  // the MCU after the last run, and its point (my -1: the scan's start)
  for (long y = 0; y < p->high; y++) {
    if (!p->marks[y]) continue;
    // The rectangles on this row, left to right (they are sorted by top, then left).
    for (long x = 0; x < p->wide;) {
      int next = -1;
      for (int k = 0; k < p->count; k++) {
        const int *r = sjt_rect(p, k);
        if (r[1] <= y && y < r[1] + r[3] && r[0] >= x && (next < 0 || r[0] < sjt_rect(p, next)[0])) next = k;
      }
      if (next < 0) break;
      const int *r = sjt_rect(p, next);
      long start = y * p->wide + r[0];
      if (start > m) sjt_photo_run(s, mx, my, r[0], y, &p->runs[n++]);
      const sjt_part *part = &p->parts[next];
      long row = y - r[1];
      const sjs_point *a = &part->points[row * r[2]], *b = &part->points[(row + 1) * r[2]];
      p->runs[n] = (sjp_run) {.data = part->data, .length = part->length, .bit = a->bit, .end = b->bit};
      memcpy(p->runs[n].dc_in, a->dc, sizeof a->dc);
      memcpy(p->runs[n].dc_out, b->dc, sizeof b->dc);
      n++;
      m = start + r[2];
      x = mx = r[0] + r[2];
      my = y;
    }
  }
  if (m < p->wide * p->high) sjt_photo_run(s, mx, my, 0, -1, &p->runs[n++]);
  return n;
}

// Writes the output's header: the first rectangle's encoding's (the photo's tables and its ICC profile, as libjpeg
// wrote them) with the photo's size, and the EXIF block with the orientation where libjpeg puts its markers (after
// the JFIF or Adobe segment that follows SOI).
static int sjt_splice_header(sjt_state *s, sjp_writer *w, int orientation) {
  const sjt_part *lead = &s->splice.parts[0];
  size_t header = 0, sof = 0;
  int components = 0;
  if (sjt_headers(lead->data, lead->length, &header, &sof, &components) || header != lead->header) return -1;
  size_t at = 2;
  while (at + 4 <= header && lead->data[at] == 0xFF && (lead->data[at + 1] == 0xE0 || lead->data[at + 1] == 0xEE))
    at += 2 + sjt_be16_at(lead->data + at + 2);
  if (at > sof) return -1;
  sjp_bytes(w, lead->data, at);
  unsigned char exif[32];
  size_t n = sjt_exif_orientation(orientation, exif);
  if (n) {
    sjp_bytes(w, (const unsigned char[]) {0xFF, 0xE1, 0, (unsigned char) (n + 2)}, 4);
    sjp_bytes(w, exif, n);
  }
  sjp_bytes(w, lead->data + at, sof - at);
  sjp_bytes(w, s->file + s->splice.sof, 4);  // the photo's height and width
  sjp_bytes(w, lead->data + sof + 4, header - sof - 4);
  return 0;
}

int sjt_splice_write(sjt_state *s, int fd, int orientation, char *message, size_t length) {
  sjt_splice *p = &s->splice;
  if (!s->opened || !p->indexed) return snprintf(message, length, "no splice indexed"), -1;
  for (int k = 0; k < p->count; k++)
    if (!p->parts[k].encoded) return snprintf(message, length, "splice rectangle %d not encoded", k), -1;
  long runs = sjt_plan(s);
  if (runs < 0) return snprintf(message, length, "out of memory"), -1;
  // A dry pass over the first MCU of every run first: a DC difference the photo's table cannot code, or data that
  // no longer decodes, is found before anything is written.
  sjp_writer w;
  if (sjp_init(&w, NULL, 4096)) return snprintf(message, length, "out of memory"), -1;
  int pred[4] = {0, 0, 0, 0}, failed = 0;
  for (long i = 0; i < runs && !failed; i++) {
    w.len = 0;
    w.bits = 0;
    failed = sjp_put_run(&w, p->frame, &p->runs[i], pred, 0);
    memcpy(pred, p->runs[i].dc_out, sizeof pred);
  }
  sjp_free(&w);
  if (failed == 1) return snprintf(message, length, "a DC difference the photo's table cannot code"), 1;
  if (failed) return snprintf(message, length, "the splice's data does not decode"), -1;
  FILE *out = sjt_output_open(&s->out_buffer, fd, message, length);
  if (!out) return -1;
  if (sjp_init(&w, out, 1 << 16)) {
    fclose(out);
    return snprintf(message, length, "out of memory"), -1;
  }
  if (sjt_splice_header(s, &w, orientation)) {
    sjp_free(&w);
    fclose(out);
    return snprintf(message, length, "the rectangle's encoding has an unexpected header"), -1;
  }
  memset(pred, 0, sizeof pred);
  for (long i = 0; i < runs && !failed; i++) {
    failed = sjp_put_run(&w, p->frame, &p->runs[i], pred, 1);
    memcpy(pred, p->runs[i].dc_out, sizeof pred);
  }
  sjp_pad(&w);
  sjp_bytes(&w, (const unsigned char[]) {0xFF, 0xD9}, 2);
  failed = sjp_flush(&w) || failed;
  sjp_free(&w);
  return sjt_output_close(out, failed, message, length);
}
