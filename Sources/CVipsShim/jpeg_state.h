#ifndef STAMPCAM_JPEG_STATE_H
#define STAMPCAM_JPEG_STATE_H

// The transplant's state, shared by jpeg_transplant.c and jpeg_restart.c (not part of the module's interface).

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"

/// One run of re-encoded restart intervals: a whole JPEG written to memory, and where its intervals lie in it.
typedef struct {
  int first, count;     // interval indices in the photo
  unsigned char *data;  // the JPEG libjpeg wrote for the span
  size_t header;        // bytes before its entropy-coded data
  size_t sof_height;    // offset of its frame header's height field
  size_t *start, *end;  // interval i's entropy bytes: data[start[i] ..< end[i]], markers excluded
} sjt_span;

/// Where the opened file's restart intervals lie, and the spans re-encoded so far.
typedef struct {
  int indexed;          // 1 once sjt_restart_index succeeded for the opened file
  int count;            // intervals in the scan
  size_t header;        // bytes of the file before its entropy-coded data
  size_t sof_height;    // offset of the frame header's height field
  size_t *start, *end;  // interval k's entropy bytes in the file, markers excluded
  size_t capacity;      // entries allocated in start/end
  unsigned char *mini;  // the current span as a JPEG of its own (header + its intervals), read as the source
  size_t mini_length, mini_capacity;
  int span_first, span_count;  // the intervals of the span being edited
  sjt_span *spans;
  int span_total, span_capacity;
} sjt_restarts;

/// One whole-image block array of the photo's, served by jpeg_arrays.c.
typedef struct {
  JDIMENSION blocks_per_row, rows;
  JDIMENSION defined;  // rows below this were written (or zeroed) since the array was realized
  boolean pre_zero;
  JBLOCKARRAY row;     // row pointers once realized, NULL before
} sjt_block_array;

/// The photo's coefficient arrays (see jpeg_arrays.c): blocks and row pointers kept from one file to the next.
typedef struct {
  sjt_block_array arrays[MAX_COMPONENTS];
  int count;
  JBLOCK *blocks;
  size_t block_capacity;
  JBLOCKROW *rows;
  size_t row_capacity;
  int small_streak;  // images in a row that needed under a quarter of the blocks kept
  // libjpeg's own methods, for every other array and pool
  jvirt_barray_ptr (*request)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
  void (*realize)(j_common_ptr);
  JBLOCKARRAY (*access)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);
  void (*free_pool)(j_common_ptr, int);
} sjt_arrays;

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char text[JMSG_LENGTH_MAX];
  int damage;  // set by a corrupt-data warning of the file opened last: 1 it ends early, 2 other damage
} sjt_error;

struct sjt_state {
  sjt_error error;
  struct jpeg_decompress_struct src;  // the photo being edited
  struct jpeg_decompress_struct aux;  // small region JPEGs, read back
  struct jpeg_compress_struct enc;    // small region JPEGs, written to memory
  struct jpeg_compress_struct dst;    // the output file
  jvirt_barray_ptr *coefficients;     // the photo's, once read
  unsigned char *file;                // the photo's bytes, buffer reused across jobs
  size_t file_cap, file_len;
  unsigned char *mem, *mem_out;       // a region JPEG, buffer reused across jobs
  unsigned long mem_cap, mem_len;
  unsigned char *icc;
  unsigned int icc_len;
  FILE *out;
  char *out_buffer;                   // stdio's buffer for outputs (see sjt_create_output), reused across jobs
  int opened;
  struct jpeg_progress_mgr progress;  // checks `stop` (sjt_set_stop) as libjpeg works
  const volatile int *stop;
  sjt_restarts restarts;  // the opened file's restart intervals, once indexed (jpeg_restart.c)
  sjt_arrays arrays;      // the photo's coefficient arrays (jpeg_arrays.c)
  // The standard Huffman tables (luma, chroma), kept from a fresh compressor: libjpeg-turbo's jpeg_set_defaults
  // leaves a reused compressor the tables an earlier file optimized, so sjt_keep_coding puts these back.
  JHUFF_TBL standard_dc[2], standard_ac[2];
};


/// After a longjmp: hands the message over and resets every libjpeg object, so the state serves the next job.
int sjt_report(sjt_state *s, const char *text, char *message, size_t length);

/// Writes the only metadata an output keeps, between jpeg_write_coefficients and the first scan: an EXIF block
/// holding the orientation when it is not 1, and the photo's ICC profile.
void sjt_write_markers(sjt_state *s, struct jpeg_compress_struct *e, int orientation);

/// Readies `e` to write the coefficients of the photo (the source decompressor) in the photo's own coding: its
/// quantization, sampling and colour space, progressive or not, arithmetic or Huffman, its restart interval, and
/// Huffman tables optimized when the photo's were not the standard ones. Call before jpeg_write_coefficients.
void sjt_keep_coding(sjt_state *s, struct jpeg_compress_struct *e);

/// Opens a stream over a duplicate of `fd` (the caller keeps owning `fd`) with a buffer of a megabyte owned by the
/// state (stdio's own is 4 KB: a 5 MB photo was some 470 write calls). Close it before the state writes another file; NULL with errno set on failure.
FILE *sjt_create_output(sjt_state *s, int fd);

/// Has `object` take its whole-image block arrays from the state's own memory (the source decompressor, `serve`
/// 1) or read such arrays through the state (the output compressor, `serve` 0). Call after jpeg_create_*.
void sjt_arrays_adopt(sjt_state *s, j_common_ptr object, int serve);
/// Frees the memory the arrays kept.
void sjt_arrays_free(sjt_arrays *a);

/// Forgets the restart index and frees the re-encoded spans; buffers stay for the next file.
void sjt_restarts_clear(sjt_restarts *r);
/// Frees everything the restart index holds.
void sjt_restarts_free(sjt_restarts *r);

#endif
