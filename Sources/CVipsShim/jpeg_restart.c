#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg_state.h"

// Restart intervals. A baseline JPEG with restart markers codes every interval of `interval` MCUs on its own: the
// DC predictions start again and the interval begins on a byte, after an RSTn marker (n = index mod 8). So the
// intervals no stamp touches can be copied byte for byte, with no Huffman decoding at all; only the intervals
// under the stamps are read (as a JPEG of their own), edited and encoded again, with the photo's own Huffman
// tables so that they fit in its single scan.

// Frees what the spans hold; the index's buffers stay for the next file.
static void sjt_spans_clear(sjt_restarts *r) {
  for (int i = 0; i < r->span_total; i++) {
    free(r->spans[i].data);
    free(r->spans[i].start);
    free(r->spans[i].end);
  }
  r->span_total = 0;
}

void sjt_restarts_clear(sjt_restarts *r) {
  sjt_spans_clear(r);
  r->indexed = 0;
}

void sjt_restarts_free(sjt_restarts *r) {
  sjt_spans_clear(r);
  free(r->spans);
  free(r->start);
  free(r->end);
  free(r->mini);
  memset(r, 0, sizeof *r);
}

static unsigned sjt_be16(const unsigned char *p) { return (unsigned) p[0] << 8 | p[1]; }

// Walks the marker segments of a JPEG from SOI to the end of its first SOS segment. Sets *header to the offset
// of the entropy-coded data, *sof to the offset of the frame header's height field, *components to the count of
// components in the scan. Returns 0, or -1 when the structure is not a plain one.
static int sjt_headers(const unsigned char *data, size_t length, size_t *header, size_t *sof, int *components) {
  if (length < 4 || data[0] != 0xFF || data[1] != 0xD8) return -1;
  size_t at = 2;
  *sof = 0;
  while (at + 4 <= length) {
    if (data[at] != 0xFF) return -1;
    unsigned char marker = data[at + 1];
    if (marker == 0xFF) {  // fill byte
      at++;
      continue;
    }
    size_t segment = sjt_be16(data + at + 2);
    if (segment < 2 || at + 2 + segment > length) return -1;
    if (marker == 0xC0 || marker == 0xC1) {
      if (segment < 8) return -1;
      *sof = at + 5;
    }
    if (marker == 0xDA) {
      if (segment < 3 || !*sof) return -1;
      *components = data[at + 4];
      *header = at + 2 + segment;
      return 0;
    }
    at += 2 + segment;
  }
  return -1;
}

// Finds the intervals of the entropy-coded data that starts at `from`: up to `capacity` (start, end) pairs, the
// markers between them checked to be RST0, RST1, ... in turn. Returns the count found before EOI, or -1 when
// another marker (a second scan, DNL), a wrong RST number or the end of the data comes first.
static int sjt_intervals(const unsigned char *data, size_t length, size_t from, size_t *start, size_t *end,
  size_t capacity) {
  size_t count = 0;
  size_t at = from;
  size_t begin = from;
  for (;;) {
    const unsigned char *ff = memchr(data + at, 0xFF, length - at);
    if (!ff) return -1;
    at = (size_t) (ff - data);
    size_t next = at + 1;
    while (next < length && data[next] == 0xFF) next++;  // fill bytes before a marker
    if (next >= length) return -1;
    unsigned char code = data[next];
    if (code == 0x00) {  // a stuffed 0xFF data byte
      at = next + 1;
      continue;
    }
    if (count == capacity) return -1;
    if (code == 0xD9) {
      start[count] = begin;
      end[count] = at;
      return (int) count + 1;
    }
    if (code != 0xD0 + (count % 8)) return -1;
    start[count] = begin;
    end[count] = at;
    count++;
    at = begin = next + 1;
  }
}

// Marks in `seen` the symbols `table` codes.
static void sjt_symbols(const JHUFF_TBL *table, unsigned char seen[256]) {
  memset(seen, 0, 256);
  int n = 0;
  for (int l = 1; l <= 16; l++) n += table->bits[l];
  for (int i = 0; i < n && i < 256; i++) seen[table->huffval[i]] = 1;
}

// True when every Huffman table the scan uses codes every symbol baseline data can need (DC categories 0-11;
// AC end-of-block, run-of-16 and each run 0-15 with each size 1-10), as the standard tables of cameras and of
// libjpeg's defaults do. Then any edit encodes with the photo's own tables; an optimized table may lack codes.
static int sjt_tables_complete(struct jpeg_decompress_struct *d) {
  unsigned char seen[256];
  for (int c = 0; c < d->num_components; c++) {
    // The scan header's table numbers are not checked by libjpeg until it decodes (they may be up to 15).
    int dc_no = d->comp_info[c].dc_tbl_no, ac_no = d->comp_info[c].ac_tbl_no;
    if (dc_no < 0 || dc_no >= NUM_HUFF_TBLS || ac_no < 0 || ac_no >= NUM_HUFF_TBLS) return 0;
    JHUFF_TBL *dc = d->dc_huff_tbl_ptrs[dc_no];
    JHUFF_TBL *ac = d->ac_huff_tbl_ptrs[ac_no];
    if (!dc || !ac) return 0;
    sjt_symbols(dc, seen);
    for (int v = 0; v <= 11; v++)
      if (!seen[v]) return 0;
    sjt_symbols(ac, seen);
    if (!seen[0x00] || !seen[0xF0]) return 0;
    for (int run = 0; run < 16; run++)
      for (int size = 1; size <= 10; size++)
        if (!seen[run << 4 | size]) return 0;
  }
  return 1;
}

int sjt_restart_index(sjt_state *s, int *interval, char *message, size_t length) {
  sjt_restarts *r = &s->restarts;
  sjt_restarts_clear(r);
  if (!s->opened) return snprintf(message, length, "no file opened"), -1;
  struct jpeg_decompress_struct *d = &s->src;
  if (d->restart_interval == 0 || d->progressive_mode || d->arith_code || !sjt_tables_complete(d)) return 1;
  int components = 0;
  if (sjt_headers(s->file, s->file_len, &r->header, &r->sof_height, &components)) return 1;
  if (components != d->num_components) return 1;  // one interleaved scan holds every component
  int wide = (int) ((d->image_width + 8 * d->max_h_samp_factor - 1) / (8 * d->max_h_samp_factor));
  int high = (int) ((d->image_height + 8 * d->max_v_samp_factor - 1) / (8 * d->max_v_samp_factor));
  long mcus = (long) wide * high;
  size_t expected = (size_t) ((mcus + d->restart_interval - 1) / d->restart_interval);
  if (r->capacity < expected) {
    size_t *start = realloc(r->start, expected * sizeof *start);
    if (start) r->start = start;
    size_t *end = realloc(r->end, expected * sizeof *end);
    if (end) r->end = end;
    if (!start || !end) return snprintf(message, length, "out of memory"), -1;
    r->capacity = expected;
  }
  int found = sjt_intervals(s->file, s->file_len, r->header, r->start, r->end, expected);
  if (found != (int) expected) return 1;
  r->count = found;
  r->indexed = 1;
  *interval = (int) d->restart_interval;
  return 0;
}

int sjt_span_open(sjt_state *s, int first, int count, int height, char *message, size_t length) {
  sjt_restarts *r = &s->restarts;
  if (!r->indexed || first < 0 || count < 1 || first + count > r->count || height < 1 || height > 65535)
    return snprintf(message, length, "no such span of restart intervals"), -1;
  // The span must start and end on MCU rows (or at the photo's end), and `height` be those rows' pixels.
  struct jpeg_decompress_struct *d = &s->src;
  long wide = (long) ((d->image_width + 8 * d->max_h_samp_factor - 1) / (8 * d->max_h_samp_factor));
  long mcu_h = 8L * d->max_v_samp_factor;
  long begin = (long) first * d->restart_interval, end = (long) (first + count) * d->restart_interval;
  // The photo's height from its own header: after a span was opened, the decompressor holds that span's.
  long photo_h = (long) sjt_be16(s->file + r->sof_height);
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

// Gives the encoder `e` a copy of the table `from` in the slot `to` (nothing when the photo has none there).
static void sjt_copy_table(struct jpeg_compress_struct *e, JHUFF_TBL **to, const JHUFF_TBL *from) {
  if (!from) return;
  if (!*to) *to = jpeg_alloc_huff_table((j_common_ptr) e);
  memcpy((*to)->bits, from->bits, sizeof from->bits);
  memcpy((*to)->huffval, from->huffval, sizeof from->huffval);
}

int sjt_span_encode(sjt_state *s, int orientation, char *message, size_t length) {
  sjt_restarts *r = &s->restarts;
  if (!s->coefficients || !r->span_count) return snprintf(message, length, "no span opened"), -1;
  // Our own buffer, roomy enough that libjpeg need not grow it (when it does, it hands back one of its own and
  // leaves ours alone, so ours is always ours to free).
  unsigned long capacity = (unsigned long) r->mini_length * 2 + 65536 + s->icc_len;
  unsigned char *buffer = malloc(capacity);
  if (!buffer) return snprintf(message, length, "out of memory"), -1;
  unsigned char *data = buffer;
  unsigned long size = capacity;
  if (setjmp(s->error.jump)) {
    free(buffer);
    return sjt_report(s, s->error.text, message, length);
  }
  // The region encoder's object: like it, this one writes to memory (libjpeg refuses to switch an object between
  // a file and a memory destination, and the output file's object writes to a file).
  struct jpeg_compress_struct *e = &s->enc;
  struct jpeg_decompress_struct *d = &s->src;
  jpeg_copy_critical_parameters(d, e);
  // The photo's own Huffman tables and table choices, so that the intervals fit its scan; no optimizing pass.
  for (int i = 0; i < NUM_HUFF_TBLS; i++) {
    sjt_copy_table(e, &e->dc_huff_tbl_ptrs[i], d->dc_huff_tbl_ptrs[i]);
    sjt_copy_table(e, &e->ac_huff_tbl_ptrs[i], d->ac_huff_tbl_ptrs[i]);
  }
  for (int c = 0; c < d->num_components; c++) {
    e->comp_info[c].dc_tbl_no = d->comp_info[c].dc_tbl_no;
    e->comp_info[c].ac_tbl_no = d->comp_info[c].ac_tbl_no;
  }
  e->optimize_coding = FALSE;
  e->restart_interval = d->restart_interval;
  e->restart_in_rows = 0;
  jpeg_mem_dest(e, &data, &size);
  jpeg_write_coefficients(e, s->coefficients);
  sjt_write_markers(s, e, orientation);
  jpeg_finish_compress(e);
  if (data != buffer) free(buffer);
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
  FILE *out = sjt_create_output(s, fd);
  if (!out) return snprintf(message, length, "%s", strerror(errno)), -1;
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
  if (ferror(out)) failed = 1;
  if (fclose(out)) failed = 1;
  if (failed) return snprintf(message, length, "write error: %s", strerror(errno)), -1;
  return 0;
}
