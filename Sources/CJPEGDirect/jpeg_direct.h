#ifndef STAMPCAM_JPEG_DIRECT_H
#define STAMPCAM_JPEG_DIRECT_H

// A region of the photo's blocks straight to RGB pixels and back (jpeg_direct.c): libjpeg's own transforms on the
// photo's coefficients with its quantization tables, and its colour conversion and sampling, with no entropy
// coding in between. The result is what libjpeg's own decode and encode of the same blocks give.

#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

#include "jpeg_colour.h"
#include "jpeg_dct.h"
#include "jpeg_sampling.h"

typedef struct {
  sjt_dct dct;
  sjt_ycc_tables ycc;
  sjt_colour colour;  // libjpeg's own converters, when usable
  int enabled;  // 1 unless turned off (sjt_set_direct)
  unsigned char *buffer;  // planes, reused from one region to the next
  size_t capacity;
} sjt_direct;

void sjt_direct_init(sjt_direct *p);
void sjt_direct_free(sjt_direct *p);

/// 1 when the photo being read by `src` can take this path: libjpeg's transforms passed their check, it is grey,
/// YCbCr or RGB, and each component's quantization table is the one its blocks were read with and has 8-bit values.
int sjt_direct_fits(const sjt_direct *p, j_decompress_ptr src);

/// Decodes the region (x, y, width, height) of `arrays` (checked by the caller: on the iMCU grid, inside the image)
/// to interleaved RGB, as sjt_decode_region promises. libjpeg errors, and running out of memory, go to `src`'s
/// error manager.
void sjt_direct_decode(sjt_direct *p, j_decompress_ptr src, jvirt_barray_ptr *arrays, int x, int y, int width,
  int height, unsigned char *rgb);

/// Encodes `rgb` (the region's new pixels) and puts the blocks marked in `masks` into `arrays`, as
/// sjt_replace_blocks promises (masks checked by the caller).
void sjt_direct_replace(sjt_direct *p, j_decompress_ptr src, jvirt_barray_ptr *arrays, int x, int y, int width,
  int height, const unsigned char *rgb, const unsigned char *const *masks);

#endif
