#ifndef STAMPCAM_JPEG_SPLICE_H
#define STAMPCAM_JPEG_SPLICE_H

// The spliced path's bits (jpeg_splice.c) and its state (jpeg_splice_parts.c). Not part of the module's interface.
//
// A baseline scan without restart markers is one stream of bits: MCU after MCU, each block's DC coded as its
// difference from the DC of the component's block before (the predictor), byte-stuffed (a 0xFF data byte is
// followed by a 0x00). A run of MCUs can be moved to another bit position and kept as it is, except for the first
// block of each component in its first MCU when what comes before it now ends on another DC: that difference is
// coded again. That is all the splice does to the MCUs it copies.

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "JPEGScan.h"
#include "jpeg_huffman.h"

/// Entropy-coded bits being written: to memory (the buffer grows) or through a stream (the buffer is flushed).
typedef struct {
  unsigned char *buf;
  size_t len, cap;
  FILE *out;  // NULL: memory
  int failed;  // out of memory, or a short write
  uint64_t acc;  // the low `bits` bits are pending (fewer than 8 between calls)
  int bits;
} sjp_writer;

/// A writer into a buffer of its own (`out` NULL: memory) or flushed to `out`. Returns -1 when out of memory.
int sjp_init(sjp_writer *w, FILE *out, size_t capacity);
void sjp_free(sjp_writer *w);
/// Puts n (at most 32) bits, most significant first, stuffing a 0x00 after every 0xFF byte completed.
void sjp_put(sjp_writer *w, uint64_t value, int n);
/// Pads the last byte with ones, as an encoder ends a scan.
void sjp_pad(sjp_writer *w);
/// Puts bytes as they are (headers, markers); only on a byte boundary.
void sjp_bytes(sjp_writer *w, const void *bytes, size_t n);
/// Flushes what is buffered to the stream (nothing for memory). 0, or -1 when a write failed before or now.
int sjp_flush(sjp_writer *w);

/// A run of MCUs to write: bits [bit, end) of data[0 ..< length] (points of a scan), whose first MCU was coded
/// against the predictors dc_in, and which ends on the DCs dc_out.
typedef struct {
  const unsigned char *data;
  size_t length;
  uint64_t bit, end;
  int dc_in[4], dc_out[4];
} sjp_run;

/// 1 when a run's first MCU must be coded again after MCUs that end on the predictors `pred` (they differ from its
/// dc_in), 0 when its bits go as they are (or it is empty).
int sjp_recodes(const sjs_frame *f, const sjp_run *run, const int pred[4]);
/// Writes a run whose frame (tables, MCU blocks) is `f`, re-coding its first MCU's DC differences against `pred`
/// where it differs from dc_in; with `whole` 0, only that first MCU, and nothing when it needs no re-coding (a dry
/// run). 0; 1 when a difference needs a size category the DC table has no code for (or above 11); 2 when the first
/// MCU does not decode (the data is not what its scan found).
int sjp_put_run(sjp_writer *w, const sjs_frame *f, const sjp_run *run, const int pred[4], int whole);

/// A rectangle's encoding: the JPEG libjpeg wrote for it (from its entropy-coded data on, but for the first
/// rectangle's, whose header the output's is made from), and where each of its MCUs starts in it.
typedef struct {
  unsigned char *data;
  size_t length;
  size_t header;  // bytes before its entropy-coded data (0 but for the first rectangle, whose header is kept)
  sjs_point *points;  // every MCU's start, then the point after the last
  size_t capacity;  // entries allocated in points
  int encoded;
} sjt_part;

/// The opened file's splice: its scan, the rectangles, their encodings.
typedef struct {
  int indexed;  // 1 once sjt_splice_index succeeded for the opened file
  int complete;  // 1 when the photo's tables code every symbol an edit can need (else each rectangle is checked)
  sjs_frame *frame;  // the photo's tables and MCU (kept across files)
  sjs_frame *part_frame;  // a rectangle encoding's, checked against the photo's
  sjs_result scan;
  long wide, high;  // MCUs
  int mcu_width, mcu_height;  // pixels
  size_t sof;  // offset of the photo's frame header's height field
  int *rects;  // 4 ints a rectangle: left, top, width, height (MCUs)
  int count;
  size_t rect_capacity;  // ints
  unsigned char *marks;  // per MCU row: 1 when a rectangle covers it
  long *rank;  // per MCU row: its place among the marked rows
  size_t mark_capacity, rank_capacity;
  sjs_point *points;  // (mcus wide + 1) a marked row, see sjs_scan_into
  size_t point_capacity;
  unsigned char *mini;  // the open rectangle as a JPEG of its own, read as the source
  size_t mini_length, mini_capacity;
  int open;  // the rectangle opened (-1: none)
  sjt_part *parts;
  int part_capacity;
  sjp_run *runs;  // the output's runs of MCUs, in order
  size_t run_capacity;
} sjt_splice;

/// Forgets the opened file's splice (buffers stay); frees everything.
void sjt_splice_clear(sjt_splice *p);
void sjt_splice_free(sjt_splice *p);

#endif
