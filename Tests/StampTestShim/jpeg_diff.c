#include "StampTestShim.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

// Test support: which blocks of two JPEGs differ.

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char text[JMSG_LENGTH_MAX];
} sjt_diff_error;

typedef struct {
  sjt_diff_error error;
  struct jpeg_decompress_struct d[2];
  FILE *f[2];
} sjt_pair;

static void sjt_diff_fail(j_common_ptr c) {
  sjt_diff_error *e = (sjt_diff_error *) c->err;
  (*c->err->format_message)(c, e->text);
  longjmp(e->jump, 1);
}

int sjt_diff_blocks(const char *a, const char *b, int component, unsigned char *mask, size_t capacity,
  int *blocks_wide, int *blocks_high, char *message, size_t length) {
  sjt_pair *p = calloc(1, sizeof *p);
  if (!p) return snprintf(message, length, "out of memory"), -1;
  volatile int result = -1;
  jpeg_std_error(&p->error.pub);
  p->error.pub.error_exit = sjt_diff_fail;
  if (setjmp(p->error.jump)) {
    snprintf(message, length, "%s", p->error.text);
    goto done;
  }
  const char *paths[2] = {a, b};
  jvirt_barray_ptr *arrays[2];
  for (int i = 0; i < 2; i++) {
    p->d[i].err = &p->error.pub;
    jpeg_create_decompress(&p->d[i]);
    p->f[i] = fopen(paths[i], "rb");
    if (!p->f[i]) {
      snprintf(message, length, "%s: %s", paths[i], strerror(errno));
      goto done;
    }
    jpeg_stdio_src(&p->d[i], p->f[i]);
    jpeg_read_header(&p->d[i], TRUE);
    arrays[i] = jpeg_read_coefficients(&p->d[i]);
  }
  if (component < 0 || component >= p->d[0].num_components || component >= p->d[1].num_components) {
    result = -2;
    goto done;
  }
  jpeg_component_info *ca = &p->d[0].comp_info[component], *cb = &p->d[1].comp_info[component];
  if (ca->width_in_blocks != cb->width_in_blocks || ca->height_in_blocks != cb->height_in_blocks) {
    result = -2;
    goto done;
  }
  JDIMENSION wide = ca->width_in_blocks, high = ca->height_in_blocks;
  *blocks_wide = (int) wide;
  *blocks_high = (int) high;
  int count = 0;
  for (JDIMENSION r = 0; r < high; r++) {
    JBLOCKARRAY ra = p->d[0].mem->access_virt_barray((j_common_ptr) &p->d[0], arrays[0][component], r, 1, FALSE);
    JBLOCKARRAY rb = p->d[1].mem->access_virt_barray((j_common_ptr) &p->d[1], arrays[1][component], r, 1, FALSE);
    for (JDIMENSION c = 0; c < wide; c++) {
      int differs = memcmp(ra[0][c], rb[0][c], sizeof(JBLOCK)) != 0;
      count += differs;
      if ((size_t) r * wide + c < capacity) mask[(size_t) r * wide + c] = (unsigned char) differs;
    }
  }
  result = count;
done:
  for (int i = 0; i < 2; i++) {
    jpeg_destroy_decompress(&p->d[i]);
    if (p->f[i]) fclose(p->f[i]);
  }
  free(p);
  return result;
}
