#include "jpeg_coding.h"

#include <string.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"
#include "jpeg_state.h"

void sjt_write_markers(sjt_state *s, struct jpeg_compress_struct *e, int orientation) {
  if (orientation >= 2 && orientation <= 8) {
    // "Exif\0\0", a big-endian TIFF header, one IFD holding one SHORT: Orientation (0x0112).
    unsigned char exif[32] = {'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1,
      0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, (unsigned char) orientation, 0, 0, 0, 0, 0, 0};
    jpeg_write_marker(e, JPEG_APP0 + 1, exif, sizeof exif);
  }
  if (s->icc) jpeg_write_icc_profile(e, s->icc, s->icc_len);
}

// True when `table` is one of the two standard tables (Annex K) of its class.
static int sjt_standard_table(const JHUFF_TBL *table, const JHUFF_TBL standard[2]) {
  if (!table) return 1;
  int symbols = 0;
  for (int l = 1; l <= 16; l++) symbols += table->bits[l];
  for (int i = 0; i < 2; i++)
    if (!memcmp(table->bits, standard[i].bits, sizeof table->bits)
        && !memcmp(table->huffval, standard[i].huffval, (size_t) (symbols < 256 ? symbols : 256)))
      return 1;
  return 0;
}

void sjt_keep_coding(sjt_state *s, struct jpeg_compress_struct *e) {
  struct jpeg_decompress_struct *d = &s->src;
  jpeg_copy_critical_parameters(d, e);  // quantization, sampling, colour space
  for (int i = 0; i < 2; i++) {
    if (e->dc_huff_tbl_ptrs[i]) *e->dc_huff_tbl_ptrs[i] = s->standard_dc[i];
    if (e->ac_huff_tbl_ptrs[i]) *e->ac_huff_tbl_ptrs[i] = s->standard_ac[i];
  }
  // Progressive stays progressive, in jpegtran's way: libjpeg's own scan script, which is lossless (successive
  // approximation only splits each coefficient's bits) and whose Huffman tables libjpeg always optimizes.
  if (d->progressive_mode) jpeg_simple_progression(e);
  e->arith_code = d->arith_code;
  e->restart_interval = d->restart_interval;
  e->restart_in_rows = 0;
  // A photo written with tables fitted to it (any table other than the standard ones) would grow by some 5 to 10 %
  // with the standard tables: its output gets tables fitted to it too, at the cost of one more pass.
  int optimized = 0;
  for (int c = 0; c < d->num_components; c++) {
    jpeg_component_info *comp = &d->comp_info[c];  // the tables of the last scan that held the component
    int dc = comp->dc_tbl_no, ac = comp->ac_tbl_no;
    if (dc >= 0 && dc < NUM_HUFF_TBLS && !sjt_standard_table(d->dc_huff_tbl_ptrs[dc], s->standard_dc))
      optimized = 1;
    if (ac >= 0 && ac < NUM_HUFF_TBLS && !sjt_standard_table(d->ac_huff_tbl_ptrs[ac], s->standard_ac))
      optimized = 1;
  }
  if (optimized) e->optimize_coding = TRUE;
}

