#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"
#include "jpeg_coding.h"
#include "jpeg_direct.h"
#include "jpeg_errors.h"
#include "jpeg_state.h"

// A rectangle of the photo's blocks: decoded to pixels, and blocks of it replaced by those of redrawn pixels. Both
// go straight between coefficients and pixels with libjpeg's own transforms (jpeg_direct.c) when the photo allows
// it; otherwise through a small JPEG in memory (the region encoder writes it, the auxiliary decompressor reads it
// back), as libjpeg has no public way between coefficients and pixels.

// Blocks of a component across `pixels` image pixels, as libjpeg counts them.
static JDIMENSION sjt_blocks(int pixels, int samp, int max) {
  return (JDIMENSION) (((long) pixels * samp + max * DCTSIZE - 1) / (max * DCTSIZE));
}

static JDIMENSION sjt_round_up(JDIMENSION n, int m) { return (n + m - 1) / m * m; }

// Points the region encoder at the reusable memory buffer, grown to `need` bytes first.
static void sjt_mem_dest(sjt_state *s, unsigned long need) {
  if (s->mem_cap < need) {
    free(s->mem);
    s->mem = malloc(need);
    s->mem_cap = s->mem ? need : 0;
    if (!s->mem) sjt_errors_throw(&s->error, "out of memory");
  }
  s->mem_out = s->mem;
  s->mem_len = s->mem_cap;
  jpeg_mem_dest(&s->enc, &s->mem_out, &s->mem_len);
}

// After the region encoder finished: adopts the buffer libjpeg grew into, if it had to.
static void sjt_mem_done(sjt_state *s) {
  if (s->mem_out != s->mem) {
    free(s->mem);
    s->mem = s->mem_out;
    s->mem_cap = s->mem_len;
  }
}

static void sjt_region_origin(sjt_state *s, int c, int x, int y, JDIMENSION *bx, JDIMENSION *by) {
  jpeg_component_info *comp = &s->src.comp_info[c];
  *bx = (JDIMENSION) (x / (DCTSIZE * s->src.max_h_samp_factor) * comp->h_samp_factor);
  *by = (JDIMENSION) (y / (DCTSIZE * s->src.max_v_samp_factor) * comp->v_samp_factor);
}

// 0 when (x, y, width, height) lies in the image being edited, starts on its iMCU grid and ends on it or at the
// image's right and bottom edges; -1 with the message set otherwise (nothing is read or written then).
static int sjt_check_region(sjt_state *s, int x, int y, int width, int height, char *message, size_t length) {
  struct jpeg_decompress_struct *d = &s->src;
  long mcu_w = 8L * d->max_h_samp_factor, mcu_h = 8L * d->max_v_samp_factor;
  long image_w = (long) d->image_width, image_h = (long) d->image_height;
  long right = (long) x + width, bottom = (long) y + height;
  if (x < 0 || y < 0 || width < 1 || height < 1 || x % mcu_w || y % mcu_h || right > image_w || bottom > image_h
      || (right < image_w && right % mcu_w) || (bottom < image_h && bottom % mcu_h)) {
    snprintf(message, length, "region %dx%d at (%d, %d) does not fit the %ldx%ld image and its %ldx%ld grid", width,
      height, x, y, image_w, image_h, mcu_w, mcu_h);
    return -1;
  }
  return 0;
}

int sjt_decode_region(
  sjt_state *s, int x, int y, int width, int height, unsigned char *rgb, char *message, size_t length) {
  if (!s->coefficients) return snprintf(message, length, "no coefficients read"), -1;
  if (!rgb) return snprintf(message, length, "no pixel buffer"), -1;
  if (sjt_check_region(s, x, y, width, height, message, length)) return -1;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  if (sjt_direct_fits(&s->direct, &s->src)) {
    sjt_direct_decode(&s->direct, &s->src, s->coefficients, x, y, width, height, rgb);
    return 0;
  }
  struct jpeg_compress_struct *e = &s->enc;
  jpeg_copy_critical_parameters(&s->src, e);
  sjt_standard_huffman(s, e);
  e->image_width = (JDIMENSION) width;
  e->image_height = (JDIMENSION) height;
  // Tables fitted to the region: libjpeg's pass that fits them refuses a coefficient no baseline code carries (a
  // photo's may lie out of range: libjpeg reads AC sizes up to 15), which its encoder with fixed tables would write
  // with no code, and the region would decode as other pixels.
  e->optimize_coding = TRUE;
  sjt_mem_dest(s, (unsigned long) width * height * 3 + 65536);
  jvirt_barray_ptr arrays[MAX_COMPONENTS];
  JDIMENSION wide[MAX_COMPONENTS], high[MAX_COMPONENTS];
  for (int c = 0; c < s->src.num_components; c++) {
    jpeg_component_info *comp = &s->src.comp_info[c];
    wide[c] = sjt_round_up(sjt_blocks(width, comp->h_samp_factor, s->src.max_h_samp_factor), comp->h_samp_factor);
    high[c] = sjt_round_up(sjt_blocks(height, comp->v_samp_factor, s->src.max_v_samp_factor), comp->v_samp_factor);
    arrays[c] = e->mem->request_virt_barray(
      (j_common_ptr) e, JPOOL_IMAGE, FALSE, wide[c], high[c], (JDIMENSION) comp->v_samp_factor);
  }
  e->mem->realize_virt_arrays((j_common_ptr) e);
  for (int c = 0; c < s->src.num_components; c++) {
    JDIMENSION bx, by;
    sjt_region_origin(s, c, x, y, &bx, &by);
    for (JDIMENSION r = 0; r < high[c]; r++) {
      JBLOCKARRAY from = s->src.mem->access_virt_barray((j_common_ptr) &s->src, s->coefficients[c], by + r, 1, FALSE);
      JBLOCKARRAY to = e->mem->access_virt_barray((j_common_ptr) e, arrays[c], r, 1, TRUE);
      memcpy(to[0], from[0] + bx, wide[c] * sizeof(JBLOCK));
    }
  }
  jpeg_write_coefficients(e, arrays);
  jpeg_finish_compress(e);
  sjt_mem_done(s);
  jpeg_mem_src(&s->aux, s->mem, s->mem_len);
  jpeg_read_header(&s->aux, TRUE);
  s->aux.out_color_space = JCS_RGB;
  s->aux.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&s->aux);
  if (s->aux.output_width != (JDIMENSION) width || s->aux.output_height != (JDIMENSION) height
      || s->aux.output_components != 3)
    return sjt_report(s, "region decoded to an unexpected size", message, length);
  while (s->aux.output_scanline < s->aux.output_height) {
    JSAMPROW row = rgb + (size_t) s->aux.output_scanline * width * 3;
    jpeg_read_scanlines(&s->aux, &row, 1);
  }
  jpeg_finish_decompress(&s->aux);
  return 0;
}

// 0 when `masks` holds one mask per component, `lengths[c]` bytes that are one 0 or 1 per block of the region.
static int sjt_check_masks(sjt_state *s, int width, int height, const unsigned char *const *masks,
  const size_t *lengths, int count, char *message, size_t length) {
  if (!masks || !lengths || count != s->src.num_components)
    return snprintf(message, length, "%d block masks for %d components", masks && lengths ? count : 0,
             s->src.num_components), -1;
  for (int c = 0; c < s->src.num_components; c++) {
    jpeg_component_info *comp = &s->src.comp_info[c];
    size_t blocks = (size_t) sjt_blocks(width, comp->h_samp_factor, s->src.max_h_samp_factor)
      * sjt_blocks(height, comp->v_samp_factor, s->src.max_v_samp_factor);
    if (!masks[c] || lengths[c] != blocks)
      return snprintf(message, length, "component %d's mask has %zu entries, not the region's %zu blocks", c,
               masks[c] ? lengths[c] : 0, blocks), -1;
    for (size_t i = 0; i < blocks; i++)
      if (masks[c][i] > 1) return snprintf(message, length, "component %d's mask holds %d", c, masks[c][i]), -1;
  }
  return 0;
}

int sjt_replace_blocks(sjt_state *s, int x, int y, int width, int height, const unsigned char *rgb,
  const unsigned char *const *masks, const size_t *mask_lengths, int mask_count, char *message, size_t length) {
  if (!s->coefficients) return snprintf(message, length, "no coefficients read"), -1;
  if (!rgb) return snprintf(message, length, "no pixel buffer"), -1;
  if (sjt_check_region(s, x, y, width, height, message, length)) return -1;
  if (sjt_check_masks(s, width, height, masks, mask_lengths, mask_count, message, length)) return -1;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  if (sjt_direct_fits(&s->direct, &s->src)) {
    sjt_direct_replace(&s->direct, &s->src, s->coefficients, x, y, width, height, rgb, masks);
    return 0;
  }
  struct jpeg_compress_struct *e = &s->enc;
  jpeg_copy_critical_parameters(&s->src, e);
  sjt_standard_huffman(s, e);
  e->image_width = (JDIMENSION) width;
  e->image_height = (JDIMENSION) height;
  e->input_components = 3;
  e->in_color_space = JCS_RGB;
  e->dct_method = JDCT_ISLOW;
  sjt_mem_dest(s, (unsigned long) width * height * 3 + 65536);
  jpeg_start_compress(e, TRUE);
  while (e->next_scanline < e->image_height) {
    JSAMPROW row = (JSAMPROW) (rgb + (size_t) e->next_scanline * width * 3);
    jpeg_write_scanlines(e, &row, 1);
  }
  jpeg_finish_compress(e);
  sjt_mem_done(s);
  jpeg_mem_src(&s->aux, s->mem, s->mem_len);
  jpeg_read_header(&s->aux, TRUE);
  jvirt_barray_ptr *fresh = jpeg_read_coefficients(&s->aux);
  for (int c = 0; c < s->src.num_components; c++) {
    jpeg_component_info *comp = &s->src.comp_info[c];
    JDIMENSION wide = sjt_blocks(width, comp->h_samp_factor, s->src.max_h_samp_factor);
    JDIMENSION high = sjt_blocks(height, comp->v_samp_factor, s->src.max_v_samp_factor);
    JDIMENSION bx, by;
    sjt_region_origin(s, c, x, y, &bx, &by);
    for (JDIMENSION r = 0; r < high; r++) {
      const unsigned char *marks = masks[c] + (size_t) r * wide;
      if (!memchr(marks, 1, wide)) continue;
      JBLOCKARRAY from = s->aux.mem->access_virt_barray((j_common_ptr) &s->aux, fresh[c], r, 1, FALSE);
      JBLOCKARRAY to = s->src.mem->access_virt_barray((j_common_ptr) &s->src, s->coefficients[c], by + r, 1, TRUE);
      for (JDIMENSION b = 0; b < wide; b++)
        if (marks[b]) memcpy(to[0][bx + b], from[0][b], sizeof(JBLOCK));
    }
  }
  jpeg_finish_decompress(&s->aux);
  return 0;
}

