#ifndef STAMPCAM_JPEG_CODING_H
#define STAMPCAM_JPEG_CODING_H

// What an output keeps of the photo (jpeg_coding.c): its coding, and the only metadata written.

#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"

/// Puts the standard Huffman tables back in the slots jpeg_set_defaults uses: libjpeg-turbo's leaves a reused
/// compressor whatever tables it held (an earlier file's fitted ones, a region's, a part's copy of its photo's).
/// Call after jpeg_set_defaults (or jpeg_copy_critical_parameters, which calls it) on a reused compressor.
void sjt_standard_huffman(sjt_state *s, struct jpeg_compress_struct *e);

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

/// 1 when libjpeg's encoder can write `coefficients` (laid out as the decompressor `d` read them) with Huffman codes,
/// taken as it takes them (jctrans.c): MCU by MCU, each component's blocks in turn, the blocks past a component's
/// edge written as a copy of the DC before them with no AC coefficient, the predictions starting again every
/// `restart_interval` MCUs (0: never). Every DC difference must be within 11 bits and every AC coefficient within
/// 10, and where `dc_sizes` and `ac_sizes` are given (a component's code lengths by symbol, 0 for none) each symbol
/// must have a code. libjpeg-turbo's encoder writes a symbol beyond either with no code and no error: a corrupt
/// file, which a photo with DC coefficients far outside 8-bit range (libjpeg reads those without a warning) and a
/// stamp beside them would make. Call inside the state's error handling (libjpeg's array access may fail).
int sjt_coefficients_codable(struct jpeg_decompress_struct *d, jvirt_barray_ptr *coefficients,
  unsigned restart_interval, const unsigned char *const dc_sizes[4], const unsigned char *const ac_sizes[4]);

/// The EXIF block an output holds when its orientation is 2 to 8 (the APP1 segment's body, 32 bytes): "Exif\0\0", a
/// big-endian TIFF header, one IFD holding one SHORT, Orientation. 0 for other orientations (no block).
size_t sjt_exif_orientation(int orientation, unsigned char exif[32]);

#endif
