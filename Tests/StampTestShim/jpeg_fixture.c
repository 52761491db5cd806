#include "StampTestShim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

// Test support: JPEGs written with any sampling factors, and libjpeg's own decode of a whole file, both with libjpeg
// directly (libvips writes 4:4:4 and 4:2:0 only, and converts what it reads).

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char text[JMSG_LENGTH_MAX];
} sjt_fixture_error;

static void sjt_fixture_fail(j_common_ptr c) {
  sjt_fixture_error *e = (sjt_fixture_error *) c->err;
  (*c->err->format_message)(c, e->text);
  longjmp(e->jump, 1);
}

int sjt_fixture_write(const char *path, const unsigned char *pixels, int width, int height, int components,
  int rgb_coded, const int *h, const int *v, int quality, char *message, size_t length) {
  return sjt_fixture_write_coded(path, pixels, width, height, components, rgb_coded, h, v, quality, 0, 0, message,
    length);
}

int sjt_fixture_write_coded(const char *path, const unsigned char *pixels, int width, int height, int components,
  int rgb_coded, const int *h, const int *v, int quality, int optimize_coding, int restart_interval, char *message,
  size_t length) {
  sjt_fixture_error error;
  struct jpeg_compress_struct c;
  memset(&c, 0, sizeof c);
  c.err = jpeg_std_error(&error.pub);
  error.pub.error_exit = sjt_fixture_fail;
  FILE *volatile file = NULL;
  if (setjmp(error.jump)) {
    snprintf(message, length, "%s", error.text);
    jpeg_destroy_compress(&c);
    if (file) fclose(file);
    return -1;
  }
  jpeg_create_compress(&c);
  file = fopen(path, "wb");
  if (!file) return snprintf(message, length, "cannot open %s", path), jpeg_destroy_compress(&c), -1;
  jpeg_stdio_dest(&c, file);
  c.image_width = (JDIMENSION) width;
  c.image_height = (JDIMENSION) height;
  c.input_components = components;
  c.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 4 ? JCS_CMYK : JCS_RGB;
  jpeg_set_defaults(&c);
  if (rgb_coded) jpeg_set_colorspace(&c, JCS_RGB);
  jpeg_set_quality(&c, quality, TRUE);
  c.dct_method = JDCT_ISLOW;
  c.optimize_coding = optimize_coding == 1 ? TRUE : FALSE;
  if (optimize_coding == 2) {
    // The standard tables' code lengths, their symbols in reverse order: a code for every symbol, as in the standard
    // tables, but not theirs (the longest codes go to the commonest symbols).
    JHUFF_TBL *tables[4] = {c.dc_huff_tbl_ptrs[0], c.dc_huff_tbl_ptrs[1], c.ac_huff_tbl_ptrs[0], c.ac_huff_tbl_ptrs[1]};
    for (int t = 0; t < 4; t++) {
      int n = 0;
      for (int i = 1; i <= 16; i++) n += tables[t]->bits[i];
      for (int i = 0; i < n / 2; i++) {
        UINT8 swap = tables[t]->huffval[i];
        tables[t]->huffval[i] = tables[t]->huffval[n - 1 - i];
        tables[t]->huffval[n - 1 - i] = swap;
      }
    }
  }
  c.restart_interval = (unsigned) restart_interval;
  for (int i = 0; i < components; i++) {
    c.comp_info[i].h_samp_factor = h[i];
    c.comp_info[i].v_samp_factor = v[i];
  }
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    JSAMPROW row = (JSAMPROW) (pixels + (size_t) c.next_scanline * width * components);
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  fclose(file);
  return 0;
}

int sjt_fixture_decode(const char *path, unsigned char *rgb, size_t capacity, int *width, int *height, char *message,
  size_t length) {
  sjt_fixture_error error;
  struct jpeg_decompress_struct d;
  memset(&d, 0, sizeof d);
  d.err = jpeg_std_error(&error.pub);
  error.pub.error_exit = sjt_fixture_fail;
  FILE *volatile file = NULL;
  if (setjmp(error.jump)) {
    snprintf(message, length, "%s", error.text);
    jpeg_destroy_decompress(&d);
    if (file) fclose(file);
    return -1;
  }
  jpeg_create_decompress(&d);
  file = fopen(path, "rb");
  if (!file) return snprintf(message, length, "cannot open %s", path), jpeg_destroy_decompress(&d), -1;
  jpeg_stdio_src(&d, file);
  jpeg_read_header(&d, TRUE);
  d.out_color_space = JCS_RGB;
  d.dct_method = JDCT_ISLOW;  // libjpeg's default; upsampling stays its default ("fancy")
  jpeg_start_decompress(&d);
  *width = (int) d.output_width;
  *height = (int) d.output_height;
  if ((size_t) d.output_width * d.output_height * 3 > capacity) {
    snprintf(message, length, "%ux%u pixels do not fit", d.output_width, d.output_height);
    jpeg_destroy_decompress(&d);
    fclose(file);
    return -1;
  }
  while (d.output_scanline < d.output_height) {
    JSAMPROW row = rgb + (size_t) d.output_scanline * d.output_width * 3;
    jpeg_read_scanlines(&d, &row, 1);
  }
  jpeg_finish_decompress(&d);
  jpeg_destroy_decompress(&d);
  fclose(file);
  return 0;
}

// Warnings are counted, not printed: a damaged copy is expected to make them.
static void sjt_fixture_quiet(j_common_ptr c) { (void) c; }

int sjt_fixture_dc(const unsigned char *data, size_t size, int component, int *dc, size_t capacity, int *wide,
  int *high, long *warnings, char *message, size_t length) {
  sjt_fixture_error error;
  struct jpeg_decompress_struct d;
  memset(&d, 0, sizeof d);
  d.err = jpeg_std_error(&error.pub);
  error.pub.error_exit = sjt_fixture_fail;
  error.pub.output_message = sjt_fixture_quiet;
  if (setjmp(error.jump)) {
    snprintf(message, length, "%s", error.text);
    jpeg_destroy_decompress(&d);
    return -1;
  }
  jpeg_create_decompress(&d);
  jpeg_mem_src(&d, data, (unsigned long) size);
  jpeg_read_header(&d, TRUE);
  jvirt_barray_ptr *arrays = jpeg_read_coefficients(&d);
  if (component < 0 || component >= d.num_components) {
    snprintf(message, length, "no component %d", component);
    jpeg_destroy_decompress(&d);
    return -1;
  }
  jpeg_component_info *info = &d.comp_info[component];
  // The arrays hold the MCUs' padding blocks too: libjpeg rounds them up to whole MCUs of the component.
  JDIMENSION w = (info->width_in_blocks + info->h_samp_factor - 1) / info->h_samp_factor * info->h_samp_factor;
  JDIMENSION h = (info->height_in_blocks + info->v_samp_factor - 1) / info->v_samp_factor * info->v_samp_factor;
  if (d.comps_in_scan == 1 || d.num_components == 1) {
    w = info->width_in_blocks;
    h = info->height_in_blocks;
  }
  *wide = (int) w;
  *high = (int) h;
  for (JDIMENSION r = 0; r < h; r++) {
    JBLOCKARRAY row = d.mem->access_virt_barray((j_common_ptr) &d, arrays[component], r, 1, FALSE);
    for (JDIMENSION c = 0; c < w; c++)
      if ((size_t) r * w + c < capacity) dc[(size_t) r * w + c] = row[0][c][0];
  }
  *warnings = d.err->num_warnings;
  jpeg_finish_decompress(&d);
  *warnings = d.err->num_warnings;
  jpeg_destroy_decompress(&d);
  return 0;
}
