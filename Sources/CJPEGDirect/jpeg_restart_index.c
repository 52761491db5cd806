#include "jpeg_restart_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"
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

int sjt_headers(const unsigned char *data, size_t length, size_t *header, size_t *sof, int *components) {
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

int sjt_intervals(const unsigned char *data, size_t length, size_t from, size_t *start, size_t *end,
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

// Marks in `seen` the symbols `table` codes; 0 when it codes one twice (libjpeg's decoder takes such a table, its
// encoder refuses it), else 1.
static int sjt_symbols(const JHUFF_TBL *table, unsigned char seen[256]) {
  memset(seen, 0, 256);
  int n = 0;
  for (int l = 1; l <= 16; l++) n += table->bits[l];
  for (int i = 0; i < n && i < 256; i++) {
    if (seen[table->huffval[i]]) return 0;
    seen[table->huffval[i]] = 1;
  }
  return 1;
}

// Component c's DC and AC tables as its scan names them; 0 when a number is out of range or a table is missing (the
// scan header's table numbers are not checked by libjpeg until it decodes: they may be up to 15).
static int sjt_component_tables(struct jpeg_decompress_struct *d, int c, JHUFF_TBL **dc, JHUFF_TBL **ac) {
  int dc_no = d->comp_info[c].dc_tbl_no, ac_no = d->comp_info[c].ac_tbl_no;
  if (dc_no < 0 || dc_no >= NUM_HUFF_TBLS || ac_no < 0 || ac_no >= NUM_HUFF_TBLS) return 0;
  *dc = d->dc_huff_tbl_ptrs[dc_no];
  *ac = d->ac_huff_tbl_ptrs[ac_no];
  return *dc && *ac;
}

int sjt_tables_encodable(struct jpeg_decompress_struct *d) {
  unsigned char seen[256];
  JHUFF_TBL *dc, *ac;
  for (int c = 0; c < d->num_components; c++)
    if (!sjt_component_tables(d, c, &dc, &ac) || !sjt_symbols(dc, seen) || !sjt_symbols(ac, seen)) return 0;
  return 1;
}

int sjt_tables_complete(struct jpeg_decompress_struct *d) {
  unsigned char seen[256];
  JHUFF_TBL *dc, *ac;
  for (int c = 0; c < d->num_components; c++) {
    if (!sjt_component_tables(d, c, &dc, &ac) || !sjt_symbols(dc, seen)) return 0;
    for (int v = 0; v <= 11; v++)
      if (!seen[v]) return 0;
    if (!sjt_symbols(ac, seen)) return 0;
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
  if (d->restart_interval && sjt_whole(s, message, length)) return -1;
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
  r->photo_height = (long) sjt_be16(s->file + r->sof_height);
  r->indexed = 1;
  *interval = (int) d->restart_interval;
  return 0;
}


int sjt_restart_check(sjt_state *s, char *message, size_t length) {
  sjt_restarts *r = &s->restarts;
  if (!s->opened || !r->indexed) return snprintf(message, length, "no restart intervals indexed"), -1;
  // The scanner checks every interval for less than libjpeg's read costs; libjpeg reads them only when it cannot
  // clear them, so that whatever fails does so in libjpeg's words (sjt_scan_clean).
  if (sjt_scan_clean(s)) return 0;
  s->libjpeg_checks++;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  // The whole file again from its start, whatever the decompressor read last (a span): the index and the file's
  // bytes are all the spans need afterwards, and each span is read from a source of its own.
  struct jpeg_decompress_struct *d = &s->src;
  jpeg_abort_decompress(d);
  s->coefficients = NULL;
  jpeg_mem_src(d, s->file, (unsigned long) s->file_len);
  jpeg_read_header(d, TRUE);
  sjt_read_to_end(d);
  return 0;
}
