#include "jpeg_arrays.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

// The photo's coefficient arrays, kept by the state from one file to the next.
//
// libjpeg allocates a photo's coefficients afresh for every file (72 MB for 12 megapixels in 4:4:4) and frees them
// when the file is done. With two jobs in flight the freed space is soon cut up by smaller allocations, the next
// photo's arrays no longer fit in it, and the heap grows: peak RSS at --jobs 2 went from about 275 MB to over 300 MB
// in one run in four. jpeglib.h makes the memory manager's methods public, so the source decompressor's whole-image
// block arrays are served here from one buffer per state, which every later file reuses (grown when a photo needs
// more, shrunk after several needed far less), and both compressors read them through the same accessor. Rows are
// zeroed when first reached, as libjpeg does, so the zeroing stays next to the decoding that follows it.

static sjt_arrays *sjt_owner(j_common_ptr object) { return (sjt_arrays *) object->client_data; }

static sjt_block_array *sjt_ours(sjt_arrays *a, jvirt_barray_ptr pointer) {
  for (int i = 0; i < a->count; i++)
    if ((jvirt_barray_ptr) (void *) &a->arrays[i] == pointer) return &a->arrays[i];
  return NULL;
}

static jvirt_barray_ptr sjt_request(j_common_ptr object, int pool, boolean pre_zero, JDIMENSION blocks_per_row,
  JDIMENSION rows, JDIMENSION max_access) {
  sjt_arrays *a = sjt_owner(object);
  if (pool != JPOOL_IMAGE || a->count == MAX_COMPONENTS)
    return a->request(object, pool, pre_zero, blocks_per_row, rows, max_access);
  sjt_block_array *array = &a->arrays[a->count++];
  *array = (sjt_block_array) {.blocks_per_row = blocks_per_row, .rows = rows, .pre_zero = pre_zero};
  return (jvirt_barray_ptr) (void *) array;
}

static void sjt_realize(j_common_ptr object) {
  sjt_arrays *a = sjt_owner(object);
  a->realize(object);
  size_t blocks = 0, rows = 0;
  int realized = 0;
  for (int i = 0; i < a->count; i++) {
    realized += a->arrays[i].row != NULL;
    blocks += (size_t) a->arrays[i].blocks_per_row * a->arrays[i].rows;
    rows += a->arrays[i].rows;
  }
  if (realized == a->count) return;
  // libjpeg realizes every array at once; one requested after that would need memory already handed out.
  if (realized) ERREXIT(object, JERR_VIRTUAL_BUG);
  // Grown when an image needs more; given back only after several in a row needed far less (a restart span is a
  // small image, and a batch that alternates between spans and whole photos would otherwise pay page faults on
  // the whole buffer every time).
  a->small_streak = blocks < a->block_capacity / 4 ? a->small_streak + 1 : 0;
  if (blocks > a->block_capacity || a->small_streak >= 8) {
    a->small_streak = 0;
    free(a->blocks);
    a->block_capacity = 0;
    if (blocks > SIZE_MAX / sizeof(JBLOCK) || !(a->blocks = malloc(blocks * sizeof(JBLOCK))))
      ERREXIT1(object, JERR_OUT_OF_MEMORY, 20);
    a->block_capacity = blocks;
  }
  if (rows > a->row_capacity) {
    free(a->rows);
    a->row_capacity = 0;
    if (!(a->rows = malloc(rows * sizeof(JBLOCKROW)))) ERREXIT1(object, JERR_OUT_OF_MEMORY, 21);
    a->row_capacity = rows;
  }
  JBLOCK *next_block = a->blocks;
  JBLOCKROW *next_row = a->rows;
  for (int i = 0; i < a->count; i++) {
    sjt_block_array *array = &a->arrays[i];
    array->row = next_row;
    for (JDIMENSION r = 0; r < array->rows; r++, next_block += array->blocks_per_row) *next_row++ = next_block;
    array->defined = 0;
  }
}

static JBLOCKARRAY sjt_access(
  j_common_ptr object, jvirt_barray_ptr pointer, JDIMENSION start, JDIMENSION count, boolean writable) {
  sjt_arrays *a = sjt_owner(object);
  sjt_block_array *array = sjt_ours(a, pointer);
  if (!array) return a->access(object, pointer, start, count, writable);
  JDIMENSION end = start + count;
  if (!array->row || end < start || end > array->rows) ERREXIT(object, JERR_BAD_VIRTUAL_ACCESS);
  if (end > array->defined) {
    // A writer goes top to bottom without gaps; a reader may look ahead only where the rows read as zero.
    if (writable ? start > array->defined : !array->pre_zero) ERREXIT(object, JERR_BAD_VIRTUAL_ACCESS);
    if (array->pre_zero)
      for (JDIMENSION r = start > array->defined ? start : array->defined; r < end; r++)
        memset(array->row[r], 0, (size_t) array->blocks_per_row * sizeof(JBLOCK));
    if (writable) array->defined = end;
  }
  return array->row + start;
}

static void sjt_free_pool(j_common_ptr object, int pool) {
  sjt_arrays *a = sjt_owner(object);
  a->free_pool(object, pool);
  // The arrays go with the image; their memory stays for the next file.
  if (pool == JPOOL_IMAGE) a->count = 0;
}

void sjt_arrays_adopt(sjt_arrays *a, j_common_ptr object, int serve) {
  struct jpeg_memory_mgr *mem = object->mem;
  object->client_data = a;
  // libjpeg's own methods, the same functions for every object (kept once: never our own in their place).
  if (mem->access_virt_barray != sjt_access) a->access = mem->access_virt_barray;
  if (mem->request_virt_barray != sjt_request) a->request = mem->request_virt_barray;
  if (mem->realize_virt_arrays != sjt_realize) a->realize = mem->realize_virt_arrays;
  if (mem->free_pool != sjt_free_pool) a->free_pool = mem->free_pool;
  mem->access_virt_barray = sjt_access;
  if (!serve) return;
  a->count = 0;
  mem->request_virt_barray = sjt_request;
  mem->realize_virt_arrays = sjt_realize;
  mem->free_pool = sjt_free_pool;
}

void sjt_arrays_free(sjt_arrays *a) {
  free(a->blocks);
  free(a->rows);
  *a = (sjt_arrays) {0};
}
