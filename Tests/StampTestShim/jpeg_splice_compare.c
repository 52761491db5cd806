#include "JPEGSpliceOracle.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

// Test support: two JPEGs' coefficients compared with libjpeg's reading of them, the oracle of the splice.

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char text[JMSG_LENGTH_MAX];
} sjo_error;

static void sjo_fail(j_common_ptr c) {
  sjo_error *e = (sjo_error *) c->err;
  (*c->err->format_message)(c, e->text);
  longjmp(e->jump, 1);
}

// Warnings are counted (num_warnings), not printed: damaged files are expected to make them.
static void sjo_quiet(j_common_ptr c, int level) {
  if (level < 0) c->err->num_warnings++;
}

typedef struct {
  sjo_error error;
  struct jpeg_decompress_struct d[2];
  FILE *f[2];
} sjo_pair;

// True when block (x, y) of a component sampled h x v lies in one of the MCU rectangles.
static int sjo_left_out(const int *rects, int count, int x, int y, int h, int v) {
  int mx = x / h, my = y / v;
  for (int i = 0; i < count; i++) {
    const int *r = rects + 4 * i;
    if (mx >= r[0] && mx - r[0] < r[2] && my >= r[1] && my - r[1] < r[3]) return 1;
  }
  return 0;
}

// 1 when a block's coefficients are outside what 8-bit samples give (baseline's 11-bit DC differences and 10-bit AC
// sizes hold every such block).
static int sjo_out_of_range(const JCOEF *block) {
  if (block[0] < -1024 || block[0] > 1023) return 1;
  for (int k = 1; k < DCTSIZE2; k++)
    if (block[k] < -1023 || block[k] > 1023) return 1;
  return 0;
}

// The frames must describe the same picture for equal coefficients to mean equal pictures: a file whose colour
// space, sampling or quantization tables changed holds another picture in the same numbers.
static int sjo_same_frame(struct jpeg_decompress_struct *a, struct jpeg_decompress_struct *b, char *message,
  size_t length) {
  if (a->image_width != b->image_width || a->image_height != b->image_height)
    return snprintf(message, length, "sizes differ: %ux%u and %ux%u", a->image_width, a->image_height,
             b->image_width, b->image_height),
           0;
  if (a->num_components != b->num_components || a->jpeg_color_space != b->jpeg_color_space)
    return snprintf(message, length, "colour spaces differ: %d components coded as %d, %d coded as %d",
             a->num_components, (int) a->jpeg_color_space, b->num_components, (int) b->jpeg_color_space),
           0;
  for (int c = 0; c < a->num_components; c++) {
    jpeg_component_info *ca = &a->comp_info[c], *cb = &b->comp_info[c];
    if (ca->h_samp_factor != cb->h_samp_factor || ca->v_samp_factor != cb->v_samp_factor)
      return snprintf(message, length, "component %d sampled %dx%d and %dx%d", c, ca->h_samp_factor,
               ca->v_samp_factor, cb->h_samp_factor, cb->v_samp_factor),
             0;
    if (!ca->quant_table || !cb->quant_table
        || memcmp(ca->quant_table->quantval, cb->quant_table->quantval, sizeof ca->quant_table->quantval))
      return snprintf(message, length, "component %d has other quantization tables", c), 0;
  }
  return 1;
}

int sjo_compare(const char *a, const char *b, const int *rects, int count, sjo_difference *difference,
  char *message, size_t length) {
  if (count < 0 || (count > 0 && !rects) || !difference)
    return snprintf(message, length, "bad arguments"), -1;
  sjo_pair *p = calloc(1, sizeof *p);
  if (!p) return snprintf(message, length, "out of memory"), -1;
  volatile int result = -1;
  volatile int reading = 0;
  const char *paths[2] = {a, b};
  jvirt_barray_ptr *arrays[2];
  jpeg_std_error(&p->error.pub);
  p->error.pub.error_exit = sjo_fail;
  p->error.pub.emit_message = sjo_quiet;
  if (setjmp(p->error.jump)) {
    snprintf(message, length, "%s: %s", paths[reading], p->error.text);
    goto done;
  }
  for (int i = 0; i < 2; i++) {
    reading = i;
    p->d[i].err = &p->error.pub;
    jpeg_create_decompress(&p->d[i]);
    p->f[i] = fopen(paths[i], "rb");
    if (!p->f[i]) {
      snprintf(message, length, "%s: cannot open", paths[i]);
      goto done;
    }
    jpeg_stdio_src(&p->d[i], p->f[i]);
    long before = p->error.pub.num_warnings;
    jpeg_read_header(&p->d[i], TRUE);
    // Reads every scan to the end of the file (EOI), so the warnings are the whole file's.
    arrays[i] = jpeg_read_coefficients(&p->d[i]);
    difference->warnings[i] = p->error.pub.num_warnings - before;
  }
  if (!sjo_same_frame(&p->d[0], &p->d[1], message, length)) {
    result = -2;
    goto done;
  }
  difference->compared = difference->differing = 0;
  difference->out_of_range[0] = difference->out_of_range[1] = 0;
  difference->component = difference->x = difference->y = -1;
  for (int c = 0; c < p->d[0].num_components; c++) {
    jpeg_component_info *info = &p->d[0].comp_info[c];
    for (JDIMENSION y = 0; y < info->height_in_blocks; y++) {
      JBLOCKARRAY ra = p->d[0].mem->access_virt_barray((j_common_ptr) &p->d[0], arrays[0][c], y, 1, FALSE);
      JBLOCKARRAY rb = p->d[1].mem->access_virt_barray((j_common_ptr) &p->d[1], arrays[1][c], y, 1, FALSE);
      for (JDIMENSION x = 0; x < info->width_in_blocks; x++) {
        difference->out_of_range[0] += sjo_out_of_range(ra[0][x]);
        difference->out_of_range[1] += sjo_out_of_range(rb[0][x]);
        if (sjo_left_out(rects, count, (int) x, (int) y, info->h_samp_factor, info->v_samp_factor)) continue;
        difference->compared++;
        if (!memcmp(ra[0][x], rb[0][x], sizeof(JBLOCK))) continue;
        if (!difference->differing++) {
          difference->component = c;
          difference->x = (int) x;
          difference->y = (int) y;
        }
      }
    }
  }
  result = 0;
done:
  for (int k = 0; k < 2; k++) {
    jpeg_destroy_decompress(&p->d[k]);
    if (p->f[k]) fclose(p->f[k]);
  }
  free(p);
  return result;
}
