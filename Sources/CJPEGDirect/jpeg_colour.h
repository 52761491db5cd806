#ifndef STAMPCAM_JPEG_COLOUR_H
#define STAMPCAM_JPEG_COLOUR_H

// YCbCr <-> RGB for the straight region path by libjpeg's own colour converters (jccolor.c, jdcolor.c, and their
// SIMD code on CPUs that have it), where its module interface is installed (jpeg_modules.h): jinit_color_converter
// and jinit_color_deconverter on a compressor and a decompressor of their own. They are checked once against
// jpeg_sampling.c's conversions (written to libjpeg's definitions, and checked against its decode by the tests);
// where they are missing or differ, those are used instead.

#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

#include "jpeg_errors.h"
#include "jpeg_sampling.h"

/// libjpeg's SIMD converters read (to RGB) and write (from RGB) planes in whole vectors: each plane row may be read
/// up to this many samples past its width, and must have room for that many when written.
enum { SJT_COLOUR_SLACK = 64 };

typedef struct {
  struct jpeg_compress_struct enc;    // its colour converter: RGB -> YCbCr
  struct jpeg_decompress_struct dec;  // its colour deconverter: YCbCr -> RGB
  sjt_errors errors;
  unsigned char clamp[1024];  // the range limit the deconverter's C code reads (its SIMD code does not)
  int made;    // the objects exist
  int usable;  // and passed their check
} sjt_colour;

/// Makes the converters and checks them against sjt_to_rgb and sjt_from_rgb with `t`. `k` must stay where it is
/// until sjt_colour_free.
void sjt_colour_init(sjt_colour *k, const sjt_ycc_tables *t);
void sjt_colour_free(sjt_colour *k);

/// Converts the first `width` x `height` samples of three YCbCr planes to interleaved RGB (exactly `width` x 3
/// bytes a row). 1 when done, 0 when the converters are not usable (nothing written). Each plane row is read up to
/// SJT_COLOUR_SLACK samples past `width`: the memory must be there.
int sjt_colour_to_rgb(sjt_colour *k, const sjt_plane *planes, int width, int height, unsigned char *rgb);

/// Converts interleaved RGB (`width` x `height`) into the first `width` x `height` samples of three YCbCr planes,
/// whose strides must be at least `width` + SJT_COLOUR_SLACK. 1 when done, 0 when not usable (nothing written).
int sjt_colour_from_rgb(sjt_colour *k, const unsigned char *rgb, int width, int height, const sjt_plane *planes);

#endif
