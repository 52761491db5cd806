#ifndef STAMPCAM_JPEG_DCT_H
#define STAMPCAM_JPEG_DCT_H

// libjpeg's own 8 x 8 transforms (its accurate integer ones, JDCT_ISLOW, as every decode and encode of stampcam's
// uses), called block by block so that redrawn blocks go from coefficients to samples and back without being
// entropy-coded (jpeg_dct.c).

#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

#include "jpeg_errors.h"

/// The transforms come from libjpeg's own DCT modules where its jpegint.h is installed (Debian's libjpeg-dev has
/// it): jinit_inverse_dct and jinit_forward_dct (exported, declared there) pick the code libjpeg's own decode and
/// encode run, its SIMD code on CPUs that have it. Without that header, libjpeg-turbo's exported C functions
/// jpeg_idct_islow and jpeg_fdct_islow are looked up at run time (declared in no header). Two of the types they take
/// depend on how libjpeg was built (16-bit with its SIMD code, 32-bit without), so they are given buffers wide
/// enough for either width. Either way they are checked once against libjpeg's own encode and decode of a small
/// picture: `usable` is 1 (16-bit) or 2 (32-bit) when both gave exactly libjpeg's results, 0 otherwise (regions then
/// go through a small JPEG, see jpeg_region.c).
typedef struct {
  void (*idct)(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION);
  void (*fdct)(void *);  // without the modules
  /// libjpeg's range-limit table after its inverse DCT (its only read of the decompressor), with room either side.
  unsigned char range[4096];
  struct jpeg_decompress_struct limits;  // zeroed but for sample_range_limit: never created, never used otherwise
  int usable;
  /// With the modules: a one-component compressor holding libjpeg's forward-DCT module (transform and
  /// quantization), its table 0 loaded with the table in use; `fwd_made` once it was created.
  struct jpeg_compress_struct fwd;
  sjt_errors fwd_errors;
  int fwd_made;
} sjt_dct;

/// One quantization table readied for both directions.
typedef struct {
  union {
    short narrow[DCTSIZE2];
    int wide[DCTSIZE2];  // the room a 32-bit build would read
  } multipliers;         // dequantization, as libjpeg's inverse DCT reads it
  jpeg_component_info component;  // zeroed but for dct_table
  UINT16 quantval[DCTSIZE2];       // the table, for the forward module
  unsigned int reciprocal[DCTSIZE2], correction[DCTSIZE2], shift[DCTSIZE2];  // quantization
} sjt_dct_table;

/// Finds libjpeg's transforms and checks them (sets `usable`). `d` must stay where it is until sjt_dct_free.
void sjt_dct_init(sjt_dct *d);

/// Frees what sjt_dct_init made.
void sjt_dct_free(sjt_dct *d);

/// Readies `t` for a table of 8-bit values (1 to 255, natural order) and `d`'s widths; 0, or -1 for a value outside
/// that range.
int sjt_dct_table_set(const sjt_dct *d, sjt_dct_table *t, const UINT16 *quantval);

/// Dequantizes and inverse-transforms one block into 8 rows of 8 samples at `out` (rows `stride` apart), level
/// shifted and clamped, exactly as libjpeg decodes it.
void sjt_dct_inverse(sjt_dct *d, sjt_dct_table *t, JCOEFPTR block, unsigned char *out, size_t stride);

/// Readies the forward transform for `t`: libjpeg's module holds one table's divisors at a time, so call it once
/// after sjt_dct_table_set, before the blocks sjt_dct_forward transforms with that table.
void sjt_dct_forward_table(sjt_dct *d, const sjt_dct_table *t);

/// Transforms 8 rows of 8 samples at `in` (rows `stride` apart) and quantizes them into `block` with `t` (the table
/// last readied by sjt_dct_forward_table), exactly as libjpeg encodes them.
void sjt_dct_forward(sjt_dct *d, const sjt_dct_table *t, const unsigned char *in, size_t stride,
  JCOEFPTR block);

#endif
