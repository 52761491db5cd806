#include "JPEGSpliceOracle.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

// Test support: a JPEG whose DC coefficients no 8-bit picture has, written by libjpeg from another's coefficients.

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char text[JMSG_LENGTH_MAX];
} sjo_dc_error;

static void sjo_dc_fail(j_common_ptr c) {
  sjo_dc_error *e = (sjo_dc_error *) c->err;
  (*c->err->format_message)(c, e->text);
  longjmp(e->jump, 1);
}

int sjo_fixture_set_dc(const char *photo, const char *path, int component, const int *dc, int count, char *message,
  size_t length) {
  sjo_dc_error error;
  struct jpeg_decompress_struct d;
  struct jpeg_compress_struct c;
  memset(&d, 0, sizeof d);
  memset(&c, 0, sizeof c);
  d.err = c.err = jpeg_std_error(&error.pub);
  error.pub.error_exit = sjo_dc_fail;
  FILE *volatile in = NULL, *volatile out = NULL;
  if (setjmp(error.jump)) {
    snprintf(message, length, "%s", error.text);
    jpeg_destroy_compress(&c);
    jpeg_destroy_decompress(&d);
    if (in) fclose(in);
    if (out) fclose(out);
    return -1;
  }
  jpeg_create_decompress(&d);
  jpeg_create_compress(&c);
  in = fopen(photo, "rb");
  out = fopen(path, "wb");
  if (!in || !out) {
    snprintf(message, length, "cannot open %s", in ? path : photo);
    jpeg_destroy_compress(&c);
    jpeg_destroy_decompress(&d);
    if (in) fclose(in);
    if (out) fclose(out);
    return -1;
  }
  jpeg_stdio_src(&d, in);
  jpeg_read_header(&d, TRUE);
  jvirt_barray_ptr *arrays = jpeg_read_coefficients(&d);
  if (component < 0 || component >= d.num_components || count < 0
      || (JDIMENSION) count > d.comp_info[component].width_in_blocks) {
    snprintf(message, length, "no such blocks");
    jpeg_destroy_compress(&c);
    jpeg_destroy_decompress(&d);
    fclose(in);
    fclose(out);
    return -1;
  }
  JBLOCKARRAY row = d.mem->access_virt_barray((j_common_ptr) &d, arrays[component], 0, 1, TRUE);
  for (int x = 0; x < count; x++) row[0][x][0] = (JCOEF) dc[x];
  jpeg_copy_critical_parameters(&d, &c);
  jpeg_stdio_dest(&c, out);
  jpeg_write_coefficients(&c, arrays);
  jpeg_finish_compress(&c);
  jpeg_finish_decompress(&d);
  jpeg_destroy_compress(&c);
  jpeg_destroy_decompress(&d);
  fclose(in);
  fclose(out);
  return 0;
}
