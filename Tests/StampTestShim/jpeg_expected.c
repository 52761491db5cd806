#include "StampTestShim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

// Test support: what the lossless JPEG path should write, made independently of it with libjpeg alone.

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char text[JMSG_LENGTH_MAX];
} sjt_expected_error;

static void sjt_expected_fail(j_common_ptr c) {
  sjt_expected_error *e = (sjt_expected_error *) c->err;
  (*c->err->format_message)(c, e->text);
  longjmp(e->jump, 1);
}

// The objects of one call, freed together whatever happens.
typedef struct {
  sjt_expected_error error;
  struct jpeg_decompress_struct photo, edited, encoded;
  struct jpeg_compress_struct encoder, writer;
  FILE *files[3];
  unsigned char *memory;
  unsigned long memory_length;
} sjt_expected;

static void sjt_expected_free(sjt_expected *x) {
  jpeg_destroy_decompress(&x->photo);
  jpeg_destroy_decompress(&x->edited);
  jpeg_destroy_decompress(&x->encoded);
  jpeg_destroy_compress(&x->encoder);
  jpeg_destroy_compress(&x->writer);
  for (int i = 0; i < 3; i++)
    if (x->files[i]) fclose(x->files[i]);
  free(x->memory);
  free(x);
}

int sjt_fixture_expected(const char *photo, const char *edited, const unsigned char *pixels, int width, int height,
  const char *path, char *message, size_t length) {
  sjt_expected *x = calloc(1, sizeof *x);
  if (!x) return snprintf(message, length, "out of memory"), -1;
  jpeg_std_error(&x->error.pub);
  x->error.pub.error_exit = sjt_expected_fail;
  x->photo.err = x->edited.err = x->encoded.err = &x->error.pub;
  x->encoder.err = x->writer.err = &x->error.pub;
  // Set before the objects are made (making one can fail too); destroying one never made does nothing.
  if (setjmp(x->error.jump)) {
    snprintf(message, length, "%s", x->error.text);
    sjt_expected_free(x);
    return -1;
  }
  jpeg_create_decompress(&x->photo);
  jpeg_create_decompress(&x->edited);
  jpeg_create_decompress(&x->encoded);
  jpeg_create_compress(&x->encoder);
  jpeg_create_compress(&x->writer);
  const char *inputs[2] = {photo, edited};
  struct jpeg_decompress_struct *readers[2] = {&x->photo, &x->edited};
  jvirt_barray_ptr *arrays[3];
  for (int i = 0; i < 2; i++) {
    x->files[i] = fopen(inputs[i], "rb");
    if (!x->files[i]) return snprintf(message, length, "cannot open %s", inputs[i]), sjt_expected_free(x), -1;
    jpeg_stdio_src(readers[i], x->files[i]);
    jpeg_read_header(readers[i], TRUE);
    arrays[i] = jpeg_read_coefficients(readers[i]);
  }
  struct jpeg_decompress_struct *p = &x->photo;
  if ((int) p->image_width != width || (int) p->image_height != height || p->num_components != 3 ||
      x->edited.num_components != 3)
    return snprintf(message, length, "not a colour photo of %d x %d", width, height), sjt_expected_free(x), -1;
  // The pixels encoded as libjpeg's encoder does, with the photo's quantization tables and sampling.
  struct jpeg_compress_struct *e = &x->encoder;
  jpeg_mem_dest(e, &x->memory, &x->memory_length);
  e->image_width = (JDIMENSION) width;
  e->image_height = (JDIMENSION) height;
  e->input_components = 3;
  e->in_color_space = JCS_RGB;
  jpeg_set_defaults(e);
  e->dct_method = JDCT_ISLOW;
  e->optimize_coding = TRUE;  // any Huffman tables: only the coefficients are kept
  for (int i = 0; i < NUM_QUANT_TBLS; i++) {
    if (!p->quant_tbl_ptrs[i]) continue;
    if (!e->quant_tbl_ptrs[i]) e->quant_tbl_ptrs[i] = jpeg_alloc_quant_table((j_common_ptr) e);
    memcpy(e->quant_tbl_ptrs[i]->quantval, p->quant_tbl_ptrs[i]->quantval, sizeof e->quant_tbl_ptrs[i]->quantval);
  }
  for (int c = 0; c < 3; c++) {
    e->comp_info[c].h_samp_factor = p->comp_info[c].h_samp_factor;
    e->comp_info[c].v_samp_factor = p->comp_info[c].v_samp_factor;
    e->comp_info[c].quant_tbl_no = p->comp_info[c].quant_tbl_no;
  }
  jpeg_start_compress(e, TRUE);
  while (e->next_scanline < e->image_height) {
    JSAMPROW row = (JSAMPROW) (pixels + (size_t) e->next_scanline * width * 3);
    jpeg_write_scanlines(e, &row, 1);
  }
  jpeg_finish_compress(e);
  jpeg_mem_src(&x->encoded, x->memory, x->memory_length);
  jpeg_read_header(&x->encoded, TRUE);
  arrays[2] = jpeg_read_coefficients(&x->encoded);
  // The photo's blocks, but where the edited file changed one, the encoder's.
  for (int c = 0; c < 3; c++) {
    jpeg_component_info *info = &p->comp_info[c], *other = &x->encoded.comp_info[c];
    if (info->width_in_blocks != other->width_in_blocks || info->height_in_blocks != other->height_in_blocks ||
        info->width_in_blocks != x->edited.comp_info[c].width_in_blocks ||
        info->height_in_blocks != x->edited.comp_info[c].height_in_blocks)
      return snprintf(message, length, "the block layouts differ"), sjt_expected_free(x), -1;
    for (JDIMENSION r = 0; r < info->height_in_blocks; r++) {
      JBLOCKROW kept = p->mem->access_virt_barray((j_common_ptr) p, arrays[0][c], r, 1, TRUE)[0];
      JBLOCKROW changed = x->edited.mem->access_virt_barray((j_common_ptr) &x->edited, arrays[1][c], r, 1, FALSE)[0];
      JBLOCKROW made =
        x->encoded.mem->access_virt_barray((j_common_ptr) &x->encoded, arrays[2][c], r, 1, FALSE)[0];
      for (JDIMENSION b = 0; b < info->width_in_blocks; b++)
        if (memcmp(kept[b], changed[b], sizeof(JBLOCK))) memcpy(kept[b], made[b], sizeof(JBLOCK));
    }
  }
  x->files[2] = fopen(path, "wb");
  if (!x->files[2]) return snprintf(message, length, "cannot open %s", path), sjt_expected_free(x), -1;
  jpeg_stdio_dest(&x->writer, x->files[2]);
  jpeg_copy_critical_parameters(p, &x->writer);
  jpeg_write_coefficients(&x->writer, arrays[0]);
  jpeg_finish_compress(&x->writer);
  sjt_expected_free(x);
  return 0;
}
