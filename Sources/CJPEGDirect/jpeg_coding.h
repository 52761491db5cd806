#ifndef STAMPCAM_JPEG_CODING_H
#define STAMPCAM_JPEG_CODING_H

// What an output keeps of the photo (jpeg_coding.c): its coding, and the only metadata written.

#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"

/// Readies `e` to write the coefficients of the photo (the source decompressor) in the photo's own coding: its
/// quantization, sampling and colour space, progressive or not, arithmetic or Huffman, its restart interval, and
/// Huffman tables optimized when the photo's were not the standard ones. Call before jpeg_write_coefficients.
void sjt_keep_coding(sjt_state *s, struct jpeg_compress_struct *e);

/// Writes the only metadata an output keeps, between jpeg_write_coefficients and the first scan: an EXIF block
/// holding the orientation when it is not 1, and the photo's ICC profile.
void sjt_write_markers(sjt_state *s, struct jpeg_compress_struct *e, int orientation);

#endif
