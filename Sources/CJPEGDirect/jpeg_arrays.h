#ifndef STAMPCAM_JPEG_ARRAYS_H
#define STAMPCAM_JPEG_ARRAYS_H

// The photo's coefficient arrays, served from memory kept from one file to the next (jpeg_arrays.c).

#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

/// One whole-image block array of the photo's.
typedef struct {
  JDIMENSION blocks_per_row, rows;
  JDIMENSION defined;  // rows below this were written (or zeroed) since the array was realized
  boolean pre_zero;
  JBLOCKARRAY row;     // row pointers once realized, NULL before
} sjt_block_array;

/// The photo's arrays: blocks and row pointers kept from one file to the next.
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

/// Has `object` take its whole-image block arrays from `a` (the source decompressor, `serve` 1) or read such arrays
/// through `a` (a compressor that writes them, `serve` 0). Call after jpeg_create_*; `object->client_data` is `a`'s.
void sjt_arrays_adopt(sjt_arrays *a, j_common_ptr object, int serve);
/// Frees the memory the arrays kept.
void sjt_arrays_free(sjt_arrays *a);

#endif
