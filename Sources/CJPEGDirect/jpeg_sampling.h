#ifndef STAMPCAM_JPEG_SAMPLING_H
#define STAMPCAM_JPEG_SAMPLING_H

// Colour conversion and chroma up- and down-sampling exactly as libjpeg defines them (jpeg_sampling.c): its
// fixed-point YCbCr <-> RGB, its default ("fancy") triangle-filter upsampling, its box downsampling with alternating
// rounding, and its edge rules. libjpeg has no public way to run them on samples outside a whole decode or encode.

#include <stddef.h>

/// A rectangle of one component's samples: `width` x `height` of them, rows `stride` apart.
typedef struct {
  unsigned char *data;
  size_t stride;
  int width, height;
} sjt_plane;

/// libjpeg's tables for YCbCr -> RGB.
typedef struct {
  int cr_r[256], cb_b[256];
  int cr_g[256], cb_g[256];  // 16 fraction bits; cb_g holds the rounding half
} sjt_ycc_tables;

/// How a file's components relate to RGB.
enum { SJT_PIXELS_GRAY = 1, SJT_PIXELS_YCC = 2, SJT_PIXELS_RGB = 3 };

void sjt_ycc_tables_init(sjt_ycc_tables *t);

/// Upsamples `in` (a component `rh` x `rv` times coarser than the pixels; its first `used_width` x `used_height`
/// samples are the picture's, the rest padding) to fill `out`, as libjpeg's decoder does with its defaults: a
/// triangle filter for 2 x 1, 1 x 2 and 2 x 2 (2 x 1 and 2 x 2 only on components more than 2 samples wide),
/// replication otherwise; the picture's edges repeat its outermost samples.
void sjt_upsample(const sjt_plane *in, int used_width, int used_height, int rh, int rv, const sjt_plane *out);

/// Converts the first `width` x `height` samples of `planes` (1 or 3, full resolution) to interleaved RGB.
void sjt_to_rgb(const sjt_ycc_tables *t, int space, const sjt_plane *planes, int width, int height,
  unsigned char *rgb);

/// Converts interleaved RGB (`width` x `height`) into `planes` (1 or 3), then repeats the last column to each
/// plane's width and the last row to its height.
void sjt_from_rgb(int space, const unsigned char *rgb, int width, int height, const sjt_plane *planes);

/// Repeats the last of the first `width` columns of each of `count` planes to the plane's width, and the last of its
/// first `height` rows to its height (the padding libjpeg's encoder gives the last blocks).
void sjt_pad_planes(int count, int width, int height, const sjt_plane *planes);

/// Downsamples `in` by `rh` x `rv` into `out`'s first `rows` rows and all its columns as libjpeg's encoder does,
/// then repeats the last of those rows to `out`'s height (libjpeg pads a component's last blocks so).
void sjt_downsample(const sjt_plane *in, int rh, int rv, int rows, const sjt_plane *out);

#endif
