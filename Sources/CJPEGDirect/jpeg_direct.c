#include "jpeg_direct.h"

#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "jpeg_dct.h"
#include "jpeg_errors.h"
#include "jpeg_sampling.h"

// Replaces a small JPEG per region (written and decoded again, entropy coding both ways: about 70 ms a job on
// grainy 12-megapixel photos) with libjpeg's transforms block by block.

void sjt_direct_init(sjt_direct *p) {
  memset(p, 0, sizeof *p);
  sjt_dct_init(&p->dct);
  sjt_ycc_tables_init(&p->ycc);
  sjt_colour_init(&p->colour, &p->ycc);
  p->enabled = 1;
}

void sjt_direct_free(sjt_direct *p) {
  sjt_dct_free(&p->dct);
  sjt_colour_free(&p->colour);
  free(p->buffer);
  p->buffer = NULL;
  p->capacity = 0;
}

int sjt_direct_fits(const sjt_direct *p, j_decompress_ptr src) {
  if (!p->enabled || !p->dct.usable) return 0;
  int count = src->num_components;
  switch (src->jpeg_color_space) {
    case JCS_GRAYSCALE: if (count != 1) return 0; break;
    case JCS_YCbCr:
    case JCS_RGB: if (count != 3) return 0; break;
    default: return 0;
  }
  for (int c = 0; c < count; c++) {
    const jpeg_component_info *comp = &src->comp_info[c];
    int n = comp->quant_tbl_no;
    const JQUANT_TBL *written = n >= 0 && n < NUM_QUANT_TBLS ? src->quant_tbl_ptrs[n] : NULL;
    // The output is written with `written`; the blocks were read with `comp->quant_table` (the table in force
    // when the component's first scan began). A file that redefines a table between them keeps the old path.
    if (!written || !comp->quant_table) return 0;
    for (int i = 0; i < DCTSIZE2; i++) {
      UINT16 q = written->quantval[i];
      if (q < 1 || q > 255 || q != comp->quant_table->quantval[i]) return 0;
    }
    int rh = src->max_h_samp_factor / comp->h_samp_factor, rv = src->max_v_samp_factor / comp->v_samp_factor;
    if (rh * comp->h_samp_factor != src->max_h_samp_factor || rv * comp->v_samp_factor != src->max_v_samp_factor)
      return 0;
  }
  return 1;
}

static int sjt_space(j_decompress_ptr src) {
  return src->jpeg_color_space == JCS_GRAYSCALE ? SJT_PIXELS_GRAY
    : src->jpeg_color_space == JCS_RGB          ? SJT_PIXELS_RGB
                                                : SJT_PIXELS_YCC;
}

// Blocks of a component across `pixels` image pixels, as libjpeg counts them.
static int sjt_count(int pixels, int samp, int max) { return (int) (((long) pixels * samp + max * 8 - 1) / (max * 8)); }

// Room for `bytes` in the reusable buffer.
static unsigned char *sjt_room(sjt_direct *p, j_decompress_ptr src, size_t bytes) {
  if (p->capacity < bytes) {
    free(p->buffer);
    p->buffer = malloc(bytes);
    p->capacity = p->buffer ? bytes : 0;
    if (!p->buffer) sjt_errors_throw((sjt_errors *) src->err, "out of memory");
  }
  return p->buffer;
}

// A component's geometry within a region.
typedef struct {
  int rh, rv;        // pixels per sample across and down
  int wide, high;    // blocks
  int used_w, used_h;  // samples that are the region's (libjpeg's downsampled width and height)
  JDIMENSION bx, by;  // the region's first block in the photo
} sjt_layout;

static sjt_layout sjt_layout_of(j_decompress_ptr src, int c, int x, int y, int width, int height) {
  const jpeg_component_info *comp = &src->comp_info[c];
  int h = comp->h_samp_factor, v = comp->v_samp_factor, hmax = src->max_h_samp_factor, vmax = src->max_v_samp_factor;
  sjt_layout l;
  l.rh = hmax / h;
  l.rv = vmax / v;
  l.wide = sjt_count(width, h, hmax);
  l.high = sjt_count(height, v, vmax);
  l.used_w = (int) (((long) width * h + hmax - 1) / hmax);
  l.used_h = (int) (((long) height * v + vmax - 1) / vmax);
  l.bx = (JDIMENSION) (x / (8 * hmax) * h);
  l.by = (JDIMENSION) (y / (8 * vmax) * v);
  return l;
}

static void sjt_table(sjt_direct *p, j_decompress_ptr src, int c, sjt_dct_table *t) {
  const jpeg_component_info *comp = &src->comp_info[c];
  if (sjt_dct_table_set(&p->dct, t, src->quant_tbl_ptrs[comp->quant_tbl_no]->quantval))
    sjt_errors_throw((sjt_errors *) src->err, "quantization table outside 8 bits");
}

void sjt_direct_decode(sjt_direct *p, j_decompress_ptr src, jvirt_barray_ptr *arrays, int x, int y, int width,
  int height, unsigned char *rgb) {
  int count = src->num_components;
  sjt_layout l[3];
  size_t need = 0;
  for (int c = 0; c < count; c++) {
    l[c] = sjt_layout_of(src, c, x, y, width, height);
    need += (size_t) l[c].wide * 8 * l[c].high * 8;
    if (l[c].rh > 1 || l[c].rv > 1) need += (size_t) width * height;
  }
  unsigned char *at = sjt_room(p, src, need + SJT_COLOUR_SLACK);
  sjt_plane full[3];
  for (int c = 0; c < count; c++) {
    sjt_plane samples = {at, (size_t) l[c].wide * 8, l[c].wide * 8, l[c].high * 8};
    at += samples.stride * samples.height;
    sjt_dct_table table;
    sjt_table(p, src, c, &table);
    for (int r = 0; r < l[c].high; r++) {
      JBLOCKARRAY row = src->mem->access_virt_barray(
        (j_common_ptr) src, arrays[c], l[c].by + (JDIMENSION) r, 1, FALSE);
      for (int b = 0; b < l[c].wide; b++)
        sjt_dct_inverse(&p->dct, &table, row[0][l[c].bx + (JDIMENSION) b],
          samples.data + (size_t) r * 8 * samples.stride + (size_t) b * 8, samples.stride);
    }
    if (l[c].rh == 1 && l[c].rv == 1) {
      full[c] = samples;
      continue;
    }
    full[c] = (sjt_plane) {at, (size_t) width, width, height};
    at += (size_t) width * height;
    sjt_upsample(&samples, l[c].used_w, l[c].used_h, l[c].rh, l[c].rv, &full[c]);
  }
  if (sjt_space(src) != SJT_PIXELS_YCC || !sjt_colour_to_rgb(&p->colour, full, width, height, rgb))
    sjt_to_rgb(&p->ycc, sjt_space(src), full, width, height, rgb);
}

void sjt_direct_replace(sjt_direct *p, j_decompress_ptr src, jvirt_barray_ptr *arrays, int x, int y, int width,
  int height, const unsigned char *rgb, const unsigned char *const *masks) {
  int count = src->num_components;
  int mcu_w = 8 * src->max_h_samp_factor, vmax = src->max_v_samp_factor;
  // libjpeg's encoder repeats the last column across the last blocks, and the last row to whole groups of vmax
  // rows; it downsamples those, then repeats the last downsampled row to the last blocks' bottom.
  int padded_w = (width + mcu_w - 1) / mcu_w * mcu_w, grouped_h = (height + vmax - 1) / vmax * vmax;
  int padded_h = (height + 8 * vmax - 1) / (8 * vmax) * 8 * vmax;
  // Rows with room for libjpeg's converter to write whole vectors past the width.
  size_t stride = (size_t) (padded_w > width + SJT_COLOUR_SLACK ? padded_w : width + SJT_COLOUR_SLACK);
  sjt_layout l[3];
  size_t need = 0;
  for (int c = 0; c < count; c++) {
    l[c] = sjt_layout_of(src, c, x, y, width, height);
    need += stride * padded_h;
    if (l[c].rh > 1 || l[c].rv > 1) need += (size_t) l[c].wide * 8 * l[c].high * 8;
  }
  unsigned char *at = sjt_room(p, src, need);
  sjt_plane full[3] = {{0}};
  for (int c = 0; c < count; c++) {
    full[c] = (sjt_plane) {at, stride, padded_w, padded_h};
    at += stride * padded_h;
  }
  if (sjt_space(src) == SJT_PIXELS_YCC && sjt_colour_from_rgb(&p->colour, rgb, width, height, full))
    sjt_pad_planes(count, width, height, full);
  else
    sjt_from_rgb(sjt_space(src), rgb, width, height, full);
  for (int c = 0; c < count; c++) {
    sjt_plane samples = {at, (size_t) l[c].wide * 8, l[c].wide * 8, l[c].high * 8};
    if (l[c].rh == 1 && l[c].rv == 1) {
      samples = full[c];  // its padding is the last row's and column's, as libjpeg's is
    } else {
      at += samples.stride * samples.height;
      sjt_downsample(&full[c], l[c].rh, l[c].rv, grouped_h / l[c].rv, &samples);
    }
    sjt_dct_table table;
    sjt_table(p, src, c, &table);
    sjt_dct_forward_table(&p->dct, &table);
    for (int r = 0; r < l[c].high; r++) {
      const unsigned char *marks = masks[c] + (size_t) r * l[c].wide;
      if (!memchr(marks, 1, (size_t) l[c].wide)) continue;
      JBLOCKARRAY row = src->mem->access_virt_barray(
        (j_common_ptr) src, arrays[c], l[c].by + (JDIMENSION) r, 1, TRUE);
      for (int b = 0; b < l[c].wide; b++)
        if (marks[b])
          sjt_dct_forward(&p->dct, &table, samples.data + (size_t) r * 8 * samples.stride + (size_t) b * 8,
            samples.stride, row[0][l[c].bx + (JDIMENSION) b]);
    }
  }
}
