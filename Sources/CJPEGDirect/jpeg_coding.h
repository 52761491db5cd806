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

/// Encodes the source decompressor's coefficients (a part of the photo: restart intervals, a splice rectangle) to
/// memory with the photo's own Huffman tables and table choices, no optimizing pass, a restart marker every
/// `restart_interval` MCUs (0: none), and the markers sjt_write_markers writes. `source_length` (the part's bytes)
/// sizes the first buffer. On success *data (the caller frees it) holds *size bytes; -1 with the message set
/// otherwise.
int sjt_encode_part(sjt_state *s, int orientation, unsigned restart_interval, size_t source_length,
  unsigned char **data, unsigned long *size, char *message, size_t length);

/// The EXIF block an output holds when its orientation is 2 to 8 (the APP1 segment's body, 32 bytes): "Exif\0\0", a
/// big-endian TIFF header, one IFD holding one SHORT, Orientation. 0 for other orientations (no block).
size_t sjt_exif_orientation(int orientation, unsigned char exif[32]);

#endif
