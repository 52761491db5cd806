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
  if (!rects || count < 1) return snprintf(message, length, "no rectangles"), -1;
  // Checked pairwise below: beyond this many, the whole-coefficient edit.
  if (count > 4096) return snprintf(message, length, "more than 4096 rectangles"), 1;
  struct jpeg_decompress_struct *d = &s->src;
  if (s->reading_part) return snprintf(message, length, "a part of the photo is open, not the photo"), -1;
  if (d->progressive_mode) return snprintf(message, length, "progressive"), 1;
  if (d->arith_code) return snprintf(message, length, "arithmetic coding"), 1;
  if (d->restart_interval) return snprintf(message, length, "restart markers"), 1;
  if (d->data_precision != 8) return snprintf(message, length, "not 8-bit samples"), 1;
  if (d->num_components < 1 || d->num_components > 4) return snprintf(message, length, "1 to 4 components"), 1;
  if (d->num_components == 1 && (d->comp_info[0].h_samp_factor != 1 || d->comp_info[0].v_samp_factor != 1))
    return snprintf(message, length, "a grey photo sampled other than 1 x 1"), 1;
  if (!sjt_tables_encodable(d)) return snprintf(message, length, "Huffman tables libjpeg cannot encode with"), 1;
  // Tables fitted to the photo (an "optimized" JPEG) may lack a code an edit needs: each rectangle is checked
  // before it is encoded (sjt_coefficients_codable).
  p->complete = sjt_tables_complete(d);
  p->mcu_width = 8 * d->max_h_samp_factor;
  p->mcu_height = 8 * d->max_v_samp_factor;
  p->wide = ((long) d->image_width + p->mcu_width - 1) / p->mcu_width;
  p->high = ((long) d->image_height + p->mcu_height - 1) / p->mcu_height;
  const char *wrong = sjt_rects_wrong(rects, count, p->wide, p->high);
  if (wrong) return snprintf(message, length, "%s", wrong), -1;

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

  // The file in memory, or its header there and the rest read through windows (then the file must not have changed
  // since it was opened: the scan's points are of the file as it was).
  sjs_source source = {.data = s->file, .length = s->file_len, .fd = -1};
  if (!s->whole) source = (sjs_source) {s->file, s->file_len, s->fd, s->file_size, s->window};
  int status = sjs_scan_split(&source, p->marks, p->high, p->points, p->point_capacity, &p->scan, p->frame, 0);
  if (!s->whole && sjt_changed(s)) return sjt_fail_changed(s, message, length);
  if (status == SJS_NOT_HANDLED) return snprintf(message, length, "%s", p->scan.reason), 1;
  if (status == SJS_DAMAGED)
    return snprintf(message, length, "corrupt data in MCU %ld at byte %zu", p->scan.damage_mcu,
             p->scan.damage_offset), 2;
  if (p->scan.mcus_wide != p->wide || p->scan.mcus_high != p->high || p->scan.points != (long) needed)
    return snprintf(message, length, "the scan's MCUs are not libjpeg's"), 1;
  p->sof = p->scan.frame_size_at;
  // Segments between the scan and EOI are skipped by the scan and read by libjpeg, which may warn of them (a JFIF
  // segment of another revision): left to libjpeg's read, as damage is.
  if (!p->scan.ends_at_eoi) return snprintf(message, length, "segments after the scan"), 2;
  p->count = count;
  p->indexed = 1;
  return 0;
}

// A run of the photo's MCUs from the point (fx, fy) to the point (tx, ty): points of marked rows, x up to `wide`
// (the point after the row's last MCU); fy -1 for the scan's start, ty -1 for its end.
static void sjt_photo_run(const sjt_state *s, long fx, long fy, long tx, long ty, sjp_run *run) {
  const sjt_splice *p = &s->splice;
  *run = (sjp_run) {.data = NULL};  // the photo's: see sjt_put_photo
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

// Bytes the first MCU of a piece of a run read through the window may take: 10 blocks of 64 codes of up to 16 bits
// and their magnitudes, every byte stuffed; a piece is cut no closer to its start.
enum { SJT_MCU_MOST = 10 * 64 * (16 + 11) / 8 * 2 + 64 };
// The bytes a piece holds at least, whatever the window: a few such MCUs.
enum { SJT_PIECE_LEAST = 4 * SJT_MCU_MOST };

// Writes a run of the photo's MCUs as sjp_put_run does (`whole` 0: only its first MCU, a dry run). From the file in
// memory, or read through the window in pieces: the first holds the run's first MCU whole, and each is cut before a
// data byte (never inside 0xFF 0x00; the splice takes no fill bytes), so that the pieces' bits, copied one after
// another, are the run's. Returns sjp_put_run's 0, 1 or 2; 3 when a read failed or came short (the file changed), 4
// when out of memory.
static int sjt_put_photo(sjt_state *s, sjp_writer *w, sjp_run run, const int pred[4], int whole) {
  if (s->whole) {
    run.data = s->file;
    run.length = s->file_len;
    return sjp_put_run(w, s->splice.frame, &run, pred, whole);
  }
  if (!whole && !sjp_recodes(s->splice.frame, &run, pred)) return 0;  // a dry run with nothing to re-code, or read
  size_t cap = s->window > SJT_PIECE_LEAST ? s->window : SJT_PIECE_LEAST;
  if (!s->window_buf || s->window_cap != cap) {
    free(s->window_buf);
    s->window_cap = 0;
    if (!(s->window_buf = malloc(cap))) return 4;
    s->window_cap = cap;
  }
  uint64_t end = run.end;
  int first = 1;
  while (first || run.bit < end) {
    // Through the byte holding the run's last bit and the one after it: a stuffed zero, when that byte is 0xFF (the
    // reader loads a 0xFF only with the byte after it).
    size_t from = (size_t) (run.bit / 8), last = (size_t) (end / 8) + 2;
    if (last > s->file_size) last = s->file_size;
    size_t n = last - from <= s->window_cap ? last - from : s->window_cap;
    if (!whole && n > SJT_MCU_MOST) n = SJT_MCU_MOST;
    if (sjs_pread(s->fd, s->window_buf, n, from) < n) return 3;
    sjp_run piece = run;
    piece.data = s->window_buf;
    piece.length = n;
    piece.bit = run.bit - (uint64_t) from * 8;
    piece.end = end - (uint64_t) from * 8;
    if (!whole) {
      piece.end = piece.end < (uint64_t) n * 8 ? piece.end : (uint64_t) n * 8;  // its first MCU is all it reads
    } else if (from + n < last) {
      // Cut before the last data byte the piece holds, past its first MCU.
      size_t cut = n - 1;
      while (cut > SJT_MCU_MOST && s->window_buf[cut - 1] == 0xFF) cut--;
      if (cut <= SJT_MCU_MOST) return 2;  // (a window holds far more than an MCU)
      piece.end = (uint64_t) cut * 8;
    }
    // After the first piece, the DCs are the run's own: copied as they are.
    int status = sjp_put_run(w, s->splice.frame, &piece, first ? pred : piece.dc_in, whole);
    if (status || !whole) return status;
    first = 0;
    run.bit = (uint64_t) from * 8 + piece.end;
  }
  return 0;
}

// The geometry of the opened rectangle's coefficient arrays: for component c, its blocks in an MCU (h x v; 1 x 1 in
// a grey photo's scan, which codes block by block) and the rectangle's MCUs (wide x high).
static void sjt_part_grid(const sjt_state *s, int c, int *h, int *v, long *wide, long *high) {
  const struct jpeg_decompress_struct *d = &s->src;
  const int *r = sjt_rect(&s->splice, s->splice.open);
  int single = d->num_components == 1;
  *h = single ? 1 : d->comp_info[c].h_samp_factor;
  *v = single ? 1 : d->comp_info[c].v_samp_factor;
  *wide = r[2];
  *high = r[3];
}

// Adds to the DC of every block of component c in the opened rectangle's MCU row j.
static void sjt_part_add_dc(sjt_state *s, int c, long j, long add) {
  struct jpeg_decompress_struct *d = &s->src;
  int h, v;
  long wide, high;
  sjt_part_grid(s, c, &h, &v, &wide, &high);
  JBLOCKARRAY rows = (*d->mem->access_virt_barray)(
    (j_common_ptr) d, s->coefficients[c], (JDIMENSION) (j * v), (JDIMENSION) v, TRUE);
  for (int y = 0; y < v; y++)
    for (long x = 0; x < wide * h; x++) rows[y][x][0] = (JCOEF) (rows[y][x][0] + add);
}

// The DC of the last block of component c, in coding order, of the opened rectangle's MCU row j.
static long sjt_part_last_dc(sjt_state *s, int c, long j) {
  struct jpeg_decompress_struct *d = &s->src;
  int h, v;
  long wide, high;
  sjt_part_grid(s, c, &h, &v, &wide, &high);
  JBLOCKARRAY rows = (*d->mem->access_virt_barray)(
    (j_common_ptr) d, s->coefficients[c], (JDIMENSION) (j * v), (JDIMENSION) v, FALSE);
  return rows[v - 1][wide * h - 1][0];
}

int sjt_splice_open(sjt_state *s, int k, char *message, size_t length) {
  sjt_splice *p = &s->splice;
  if (!s->opened || !p->indexed || k < 0 || k >= p->count)
    return snprintf(message, length, "no such splice rectangle"), -1;
  const int *r = sjt_rect(p, k);
  struct jpeg_decompress_struct *d = &s->src;
  // The rectangle's pixels: to the photo's edge where it reaches it.
  long photo_w = (long) sjt_be16(s->file + p->sof + 2), photo_h = (long) sjt_be16(s->file + p->sof);
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
  // Row after row of the rectangle's MCUs, their bits as they are: each row's first MCU keeps the DC differences
  // coded against the photo's MCU before it, which libjpeg reads against the row above's last instead. The DCs
  // read are put right below.
  int failed = 0;
  for (int y = r[1]; y < r[1] + r[3] && !failed; y++) {
    sjp_run run;
    sjt_photo_run(s, r[0], y, r[0] + r[2], y, &run);
    failed = sjt_put_photo(s, &w, run, run.dc_in, 1);
  }
  sjp_pad(&w);
  sjp_bytes(&w, (const unsigned char[]) {0xFF, 0xD9}, 2);
  if (failed || w.failed) {
    sjp_free(&w);
    if (failed == 3 || (failed && !s->whole && sjt_changed(s))) return sjt_fail_changed(s, message, length);
    if (!failed || failed == 4) return snprintf(message, length, "out of memory"), -1;
    return snprintf(message, length, "the photo's data does not decode where its scan found MCUs"), -1;
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
  // Row j's blocks were read against the DC of the row above's last block (0 for the first row), not against the
  // photo's block before them: each row moved by the difference.
  for (int c = 0; c < d->num_components; c++) {
    long above = 0;
    for (long j = 0; j < r[3]; j++) {
      long read_last = sjt_part_last_dc(s, c, j);
      sjt_part_add_dc(s, c, j, sjt_point(p, r[0], r[1] + j)->dc[c] - above);
      above = read_last;
    }
  }
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
  struct jpeg_decompress_struct *d = &s->src;
  free(part->data);
  part->data = NULL;
  part->encoded = 0;
  // Each MCU row encoded as a restart interval of its own, its DCs moved by the photo's prediction before the row
  // (its MCU before it): the row's first difference is then the one the photo's data needs there (the photo's own,
  // when the edit left that block alone), and the row's bits go into the photo as they are. The DCs stay small (a
  // difference of two), where moving whole rows along the rectangle's own chain of rows would drift.
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  for (int c = 0; c < d->num_components; c++)
    for (long j = 0; j < r[3]; j++) {
      long before = sjt_point(p, r[0], r[1] + j)->dc[c];
      if (before > 30000 || before < -30000) return snprintf(message, length, "a DC outside the coded range"), 1;
      sjt_part_add_dc(s, c, j, -before);
    }
  if (!p->complete) {
    const unsigned char *dc_sizes[4] = {0}, *ac_sizes[4] = {0};
    for (int c = 0; c < d->num_components; c++) {
      dc_sizes[c] = p->frame->tables[0][p->frame->dc[c]].size;
      ac_sizes[c] = p->frame->tables[1][p->frame->ac[c]].size;
    }
    // A restart marker before every MCU row, as the encoding below has.
    if (!sjt_coefficients_codable(d, s->coefficients, (unsigned) r[2], dc_sizes, ac_sizes))
      return snprintf(message, length, "the photo's Huffman tables lack a code the edit needs"), 1;
  }
  unsigned char *data = NULL;
  unsigned long size = 0;
  if (sjt_encode_part(s, 1, (unsigned) r[2], p->mini_length, &data, &size, message, length)) return -1;
  part->data = data;
  part->length = size;
  size_t rows = (size_t) r[3], points = rows * (size_t) (r[2] + 1);
  unsigned char *marks = malloc(rows);
  if (!marks || sjt_grow((void **) &part->points, &part->capacity, points, sizeof *part->points)) {
    free(marks);
    return snprintf(message, length, "out of memory"), -1;
  }
  memset(marks, 1, rows);
  if (!p->part_frame && !(p->part_frame = malloc(sizeof *p->part_frame))) {
    free(marks);
    return snprintf(message, length, "out of memory"), -1;
  }
  sjs_result res;
  int status = sjs_scan_into(data, size, 1, marks, (long) rows, part->points, points, &res, p->part_frame);
  free(marks);
  if (status != SJS_OK || res.mcus_wide != r[2] || res.mcus_high != r[3] || res.points != (long) points
      || res.restart_interval != r[2] || !sjt_frames_alike(p->frame, p->part_frame))
    return snprintf(message, length, "the rectangle's encoding is not one the splice can take"), -1;
  part->header = res.entropy_start;
  // Only the first rectangle's header is written (the output's is made from it). The others keep their entropy-coded
  // data alone: each header holds the ICC profile (up to 1 MB), and 300 rectangles of a photo with a 1 MB profile
  // held 300 MB until the write. Every buffer gives back the room libjpeg did not use.
  if (p->open > 0) {
    size_t skip = part->header;
    memmove(part->data, part->data + skip, part->length - skip);
    part->length -= skip;
    part->header = 0;
    for (size_t i = 0; i < points; i++) part->points[i].bit -= (uint64_t) skip * 8;
  }
  unsigned char *fitted = realloc(part->data, part->length ? part->length : 1);
  if (fitted) part->data = fitted;
  part->encoded = 1;
  return 0;
}

// Lays out the output's runs of MCUs in scan order: the photo's between rectangles, each rectangle's rows from
// its encoding. Returns their count, or -1 when out of memory.
// A rectangle's row in the output: its MCU row, its first MCU's column, the rectangle.
typedef struct {
  long y, x;
  int k;
} sjt_row;

static int sjt_row_order(const void *a, const void *b) {
  const sjt_row *u = a, *v = b;
  if (u->y != v->y) return u->y < v->y ? -1 : 1;
  return u->x < v->x ? -1 : u->x > v->x;
}

// Writes one of the output's runs: the photo's (data NULL) or a rectangle's encoding's.
static int sjt_put_run(sjt_state *s, sjp_writer *w, const sjp_run *run, const int pred[4], int whole) {
  return run->data ? sjp_put_run(w, s->splice.frame, run, pred, whole) : sjt_put_photo(s, w, *run, pred, whole);
}

static long sjt_plan(sjt_state *s) {
  sjt_splice *p = &s->splice;
  size_t rows = 0;
  for (int k = 0; k < p->count; k++) rows += (size_t) sjt_rect(p, k)[3];
  if (sjt_grow((void **) &p->runs, &p->run_capacity, 2 * rows + 1, sizeof *p->runs)) return -1;
  // Every rectangle's rows in scan order (rectangles side by side share MCU rows).
  sjt_row *order = malloc(rows * sizeof *order);
  if (!order) return -1;
  size_t i = 0;
  for (int k = 0; k < p->count; k++)
    for (int j = 0; j < sjt_rect(p, k)[3]; j++)
      order[i++] = (sjt_row) {.y = sjt_rect(p, k)[1] + j, .x = sjt_rect(p, k)[0], .k = k};
  qsort(order, rows, sizeof *order, sjt_row_order);
  long n = 0, m = 0, mx = 0, my = -1;  // the MCU after the last run, and its point (my -1: the scan's start)
  for (i = 0; i < rows; i++) {
    long y = order[i].y;
    const int *r = sjt_rect(p, order[i].k);
    long start = y * p->wide + r[0];
    if (start > m) sjt_photo_run(s, mx, my, r[0], y, &p->runs[n++]);
    // The rectangle's row, its DCs moved back by the photo's prediction before it (see sjt_splice_encode).
    const sjt_part *part = &p->parts[order[i].k];
    long row = y - r[1];
    const sjs_point *a = &part->points[row * (r[2] + 1)], *b = &part->points[row * (r[2] + 1) + r[2]];
    const int *before = sjt_point(p, r[0], y)->dc;
    sjp_run *run = &p->runs[n++];
    *run = (sjp_run) {.data = part->data, .length = part->length, .bit = a->bit, .end = b->bit};
    for (int c = 0; c < 4; c++) {
      run->dc_in[c] = a->dc[c] + before[c];
      run->dc_out[c] = b->dc[c] + before[c];
    }
    m = start + r[2];
    mx = r[0] + r[2];
    my = y;
  }
  free(order);
  if (m < p->wide * p->high) sjt_photo_run(s, mx, my, 0, -1, &p->runs[n++]);
  return n;
}

// Writes the output's header: the first rectangle's encoding's (the photo's tables and its ICC profile, as libjpeg
// wrote them) without its restart interval, with the photo's size, and the EXIF block with the orientation where
// libjpeg puts its markers (after the JFIF or Adobe segment that follows SOI).
static int sjt_splice_header(sjt_state *s, sjp_writer *w, int orientation) {
  const sjt_part *lead = &s->splice.parts[0];
  const unsigned char *h = lead->data;
  size_t end = lead->header, at = 2;
  int exif_due = 1;
  sjp_bytes(w, h, 2);
  while (at + 4 <= end) {
    if (h[at] != 0xFF) return -1;
    unsigned marker = h[at + 1];
    size_t segment = 2 + sjt_be16(h + at + 2);
    if (segment < 4 || segment > end - at) return -1;
    if (exif_due && marker != 0xE0 && marker != 0xEE) {
      exif_due = 0;
      unsigned char exif[32];
      size_t n = sjt_exif_orientation(orientation, exif);
      if (n) {
        sjp_bytes(w, (const unsigned char[]) {0xFF, 0xE1, 0, (unsigned char) (n + 2)}, 4);
        sjp_bytes(w, exif, n);
      }
    }
    if (marker == 0xC0 || marker == 0xC1) {
      if (segment < 9) return -1;
      sjp_bytes(w, h + at, 5);
      sjp_bytes(w, s->file + s->splice.sof, 4);  // the photo's height and width
      sjp_bytes(w, h + at + 9, segment - 9);
    } else if (marker != 0xDD) {
      sjp_bytes(w, h + at, segment);
    }
    at += segment;
  }
  return at == end ? 0 : -1;
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
    failed = sjt_put_run(s, &w, &p->runs[i], pred, 0);
    memcpy(pred, p->runs[i].dc_out, sizeof pred);
  }
  sjp_free(&w);
  if (failed == 1) return snprintf(message, length, "a DC difference the photo's table cannot code"), 1;
  if (failed == 3 || (!s->whole && sjt_changed(s))) return sjt_fail_changed(s, message, length);
  if (failed == 4) return snprintf(message, length, "out of memory"), -1;
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
    failed = sjt_put_run(s, &w, &p->runs[i], pred, 1);
    memcpy(pred, p->runs[i].dc_out, sizeof pred);
  }
  sjp_pad(&w);
  sjp_bytes(&w, (const unsigned char[]) {0xFF, 0xD9}, 2);
  // A photo read through the window was read twice (scanned, then copied): unchanged since it was opened, or the
  // copy may hold bits of another file at the scan's points.
  int changed = failed == 3 || (!s->whole && sjt_changed(s));
  failed = sjp_flush(&w) || failed || changed;
  sjp_free(&w);
  if (changed) {
    sjt_output_close(out, 1, message, length);
    return sjt_fail_changed(s, message, length);
  }
  return sjt_output_close(out, failed, message, length);
}
