#include "jpeg_colour.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "jpeg_modules.h"

// Measured on scripts/bench's photo workload (AVX2): jpeg_sampling.c's conversions took 2.4 % of the batch's CPU
// time, libjpeg's modules too little to show in the profile.

static int sjt_colour_make(sjt_colour *k) {
#if SJT_MODULES
  memset(&k->errors, 0, sizeof k->errors);
  sjt_errors_init(&k->errors);
  k->enc.err = k->dec.err = &k->errors.pub;
  if (setjmp(k->errors.jump)) return 0;
  jpeg_create_compress(&k->enc);
  jpeg_create_decompress(&k->dec);
  k->made = 1;
  k->enc.in_color_space = JCS_RGB;
  k->enc.input_components = 3;
  jpeg_set_defaults(&k->enc);  // YCbCr, three components
  jinit_color_converter(&k->enc);
  k->enc.cconvert->start_pass(&k->enc);
  // libjpeg's range limit (jdmaster.c): 0 below the samples, 255 above, for the C code's sums.
  for (int i = 0; i < (int) sizeof k->clamp; i++)
    k->clamp[i] = (unsigned char) (i < 384 ? 0 : i > 384 + 255 ? 255 : i - 384);
  k->dec.sample_range_limit = k->clamp + 384;
  k->dec.jpeg_color_space = JCS_YCbCr;
  k->dec.num_components = 3;
  k->dec.out_color_space = JCS_RGB;
  k->dec.quantize_colors = FALSE;
  jinit_color_deconverter(&k->dec);
  k->dec.cconvert->start_pass(&k->dec);
  return 1;
#else
  (void) k;
  return 0;
#endif
}

int sjt_colour_to_rgb(sjt_colour *k, const sjt_plane *planes, int width, int height, unsigned char *rgb) {
#if SJT_MODULES
  if (!k->usable) return 0;
  JSAMPROW y[1], cb[1], cr[1], out[1];
  JSAMPARRAY in[3] = {y, cb, cr};
  k->dec.output_width = (JDIMENSION) width;
  for (int r = 0; r < height; r++) {
    y[0] = planes[0].data + (size_t) r * planes[0].stride;
    cb[0] = planes[1].data + (size_t) r * planes[1].stride;
    cr[0] = planes[2].data + (size_t) r * planes[2].stride;
    out[0] = rgb + (size_t) r * width * 3;
    k->dec.cconvert->color_convert(&k->dec, in, 0, out, 1);
  }
  return 1;
#else
  (void) k, (void) planes, (void) width, (void) height, (void) rgb;
  return 0;
#endif
}

int sjt_colour_from_rgb(sjt_colour *k, const unsigned char *rgb, int width, int height, const sjt_plane *planes) {
#if SJT_MODULES
  if (!k->usable) return 0;
  JSAMPROW in[1], y[1], cb[1], cr[1];
  JSAMPARRAY out[3] = {y, cb, cr};
  k->enc.image_width = (JDIMENSION) width;
  for (int r = 0; r < height; r++) {
    in[0] = (JSAMPROW) (rgb + (size_t) r * width * 3);
    y[0] = planes[0].data + (size_t) r * planes[0].stride;
    cb[0] = planes[1].data + (size_t) r * planes[1].stride;
    cr[0] = planes[2].data + (size_t) r * planes[2].stride;
    k->enc.cconvert->color_convert(&k->enc, in, out, 0, 1);
  }
  return 1;
#else
  (void) k, (void) rgb, (void) width, (void) height, (void) planes;
  return 0;
#endif
}

// A picture with every level in each channel, and widths that end mid-vector: both ways against jpeg_sampling.c's.
enum { PROBE_W = 83, PROBE_H = 4 };

static int sjt_colour_check(sjt_colour *k, const sjt_ycc_tables *t) {
  enum { STRIDE = PROBE_W + SJT_COLOUR_SLACK };
  unsigned char rgb[PROBE_W * PROBE_H * 3], back[PROBE_W * PROBE_H * 3], mine[PROBE_W * PROBE_H * 3];
  unsigned char theirs[3][STRIDE * PROBE_H + SJT_COLOUR_SLACK], ours[3][STRIDE * PROBE_H + SJT_COLOUR_SLACK];
  for (int i = 0; i < PROBE_W * PROBE_H * 3; i++)
    rgb[i] = (unsigned char) ((i * 37 + (i / 3) * 101 + (i % 7 == 0) * 255) % 256);
  rgb[0] = rgb[1] = rgb[2] = 255;
  rgb[3] = rgb[4] = rgb[5] = 0;
  sjt_plane a[3], b[3];
  for (int c = 0; c < 3; c++) {
    a[c] = (sjt_plane) {theirs[c], STRIDE, PROBE_W, PROBE_H};
    b[c] = (sjt_plane) {ours[c], STRIDE, PROBE_W, PROBE_H};
  }
  k->usable = 1;
  sjt_colour_from_rgb(k, rgb, PROBE_W, PROBE_H, a);
  sjt_from_rgb(SJT_PIXELS_YCC, rgb, PROBE_W, PROBE_H, b);
  int same = 1;
  for (int c = 0; c < 3; c++)
    for (int r = 0; r < PROBE_H; r++)
      same &= !memcmp(theirs[c] + (size_t) r * STRIDE, ours[c] + (size_t) r * STRIDE, PROBE_W);
  // Every YCbCr triple the probe holds, back to RGB both ways.
  sjt_colour_to_rgb(k, b, PROBE_W, PROBE_H, back);
  sjt_to_rgb(t, SJT_PIXELS_YCC, b, PROBE_W, PROBE_H, mine);
  same &= !memcmp(back, mine, sizeof back);
  k->usable = same;
  return same;
}

void sjt_colour_init(sjt_colour *k, const sjt_ycc_tables *t) {
  memset(k, 0, sizeof *k);
  if (sjt_colour_make(k)) sjt_colour_check(k, t);
  if (!k->usable) sjt_colour_free(k);
}

void sjt_colour_free(sjt_colour *k) {
#if SJT_MODULES
  if (k->made) {
    jpeg_destroy_compress(&k->enc);
    jpeg_destroy_decompress(&k->dec);
  }
#endif
  k->made = 0;
  k->usable = 0;
}
