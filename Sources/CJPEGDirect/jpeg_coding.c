#include "jpeg_coding.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"
#include "jpeg_state.h"

size_t sjt_exif_orientation(int orientation, unsigned char exif[32]) {
  if (orientation < 2 || orientation > 8) return 0;
  const unsigned char block[32] = {'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1,
    0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, (unsigned char) orientation, 0, 0, 0, 0, 0, 0};
  memcpy(exif, block, sizeof block);
  return sizeof block;
}

void sjt_write_markers(sjt_state *s, struct jpeg_compress_struct *e, int orientation) {
  unsigned char exif[32];
  size_t n = sjt_exif_orientation(orientation, exif);
  if (n) jpeg_write_marker(e, JPEG_APP0 + 1, exif, (unsigned) n);
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

void sjt_standard_huffman(sjt_state *s, struct jpeg_compress_struct *e) {
  for (int i = 0; i < 2; i++) {
    if (e->dc_huff_tbl_ptrs[i]) *e->dc_huff_tbl_ptrs[i] = s->standard_dc[i];
    if (e->ac_huff_tbl_ptrs[i]) *e->ac_huff_tbl_ptrs[i] = s->standard_ac[i];
  }
}

void sjt_keep_coding(sjt_state *s, struct jpeg_compress_struct *e) {
  struct jpeg_decompress_struct *d = &s->src;
  jpeg_copy_critical_parameters(d, e);  // quantization, sampling, colour space
  sjt_standard_huffman(s, e);
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


// Gives the encoder `e` a copy of the table `from` in the slot `to` (nothing when the photo has none there).
static void sjt_copy_table(struct jpeg_compress_struct *e, JHUFF_TBL **to, const JHUFF_TBL *from) {
  if (!from) return;
  if (!*to) *to = jpeg_alloc_huff_table((j_common_ptr) e);
  memcpy((*to)->bits, from->bits, sizeof from->bits);
  memcpy((*to)->huffval, from->huffval, sizeof from->huffval);
}

int sjt_encode_part(sjt_state *s, int orientation, unsigned restart_interval, size_t source_length,
  unsigned char **data, unsigned long *size, char *message, size_t length) {
  // Our own buffer, roomy enough that libjpeg need not grow it (when it does, it hands back one of its own and
  // leaves ours alone, so ours is always ours to free).
  unsigned long capacity = (unsigned long) source_length * 2 + 65536 + s->icc_len;
  unsigned char *buffer = malloc(capacity);
  if (!buffer) return snprintf(message, length, "out of memory"), -1;
  *data = buffer;
  *size = capacity;
  if (setjmp(s->error.jump)) {
    free(buffer);
    *data = NULL;
    return sjt_report(s, s->error.text, message, length);
  }
  // The region encoder's object (whose small JPEGs put the standard tables back before each use: this leaves the
  // photo's in it): like it, this one writes to memory (libjpeg refuses to switch an object between
  // a file and a memory destination, and the output file's object writes to a file).
  struct jpeg_compress_struct *e = &s->enc;
  struct jpeg_decompress_struct *d = &s->src;
  jpeg_copy_critical_parameters(d, e);
  // The photo's own Huffman tables and table choices, so that the part fits in its scan; no optimizing pass.
  for (int i = 0; i < NUM_HUFF_TBLS; i++) {
    sjt_copy_table(e, &e->dc_huff_tbl_ptrs[i], d->dc_huff_tbl_ptrs[i]);
    sjt_copy_table(e, &e->ac_huff_tbl_ptrs[i], d->ac_huff_tbl_ptrs[i]);
  }
  for (int c = 0; c < d->num_components; c++) {
    e->comp_info[c].dc_tbl_no = d->comp_info[c].dc_tbl_no;
    e->comp_info[c].ac_tbl_no = d->comp_info[c].ac_tbl_no;
  }
  e->optimize_coding = FALSE;
  e->restart_interval = restart_interval;
  e->restart_in_rows = 0;
  if (!sjt_coefficients_codable(d, s->coefficients, restart_interval, NULL, NULL)) {
    free(buffer);
    *data = NULL;
    return snprintf(message, length, "coefficients no baseline JPEG codes (a DC difference past 2047)"), -1;
  }
  jpeg_mem_dest(e, data, size);
  jpeg_write_coefficients(e, s->coefficients);
  sjt_write_markers(s, e, orientation);
  jpeg_finish_compress(e);
  if (*data != buffer) free(buffer);
  return 0;
}

// The order of a block's coefficients in the data (zigzag): the natural index of the k-th one coded.
static const unsigned char sjt_zigzag[64] = {0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33,
  40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58,
  59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

// The bits of a coefficient's magnitude (its size category).
static int sjt_category(long v) {
  unsigned long m = v < 0 ? (unsigned long) -v : (unsigned long) v;
  int n = 0;
  for (; m; m >>= 1) n++;
  return n;
}

int sjt_coefficients_codable(struct jpeg_decompress_struct *d, jvirt_barray_ptr *coefficients,
  unsigned restart_interval, const unsigned char *const dc_sizes[4], const unsigned char *const ac_sizes[4]) {
  int single = d->num_components == 1;
  for (int c = 0; c < d->num_components && c < 4; c++) {
    jpeg_component_info *ci = &d->comp_info[c];
    const unsigned char *dcs = dc_sizes ? dc_sizes[c] : NULL, *acs = ac_sizes ? ac_sizes[c] : NULL;
    // A lone component is coded block by block; an interleaved one MCU by MCU, h x v blocks each.
    int h = single ? 1 : ci->h_samp_factor, v = single ? 1 : ci->v_samp_factor;
    long wide = single ? (long) ci->width_in_blocks
                       : ((long) d->image_width + 8L * d->max_h_samp_factor - 1) / (8L * d->max_h_samp_factor);
    long high = single ? (long) ci->height_in_blocks
                       : ((long) d->image_height + 8L * d->max_v_samp_factor - 1) / (8L * d->max_v_samp_factor);
    long last = 0;
    for (long my = 0; my < high; my++) {
      JBLOCKARRAY rows = (*d->mem->access_virt_barray)(
        (j_common_ptr) d, coefficients[c], (JDIMENSION) (my * v), (JDIMENSION) v, FALSE);
      for (long mx = 0; mx < wide; mx++) {
        if (restart_interval && (my * wide + mx) % (long) restart_interval == 0) last = 0;
        for (int yi = 0; yi < v; yi++)
          for (int xi = 0; xi < h; xi++) {
            long bx = mx * h + xi, by = my * v + yi;
            int real = bx < (long) ci->width_in_blocks && by < (long) ci->height_in_blocks;
            const JCOEF *block = real ? rows[yi][bx] : NULL;
            long dc = real ? block[0] : last;
            int size = sjt_category(dc - last);
            last = dc;
            if (size > 11 || (dcs && !dcs[size])) return 0;
            int run = 0;
            for (int k = 1; k < 64 && real; k++) {
              long z = block[sjt_zigzag[k]];
              if (!z) {
                run++;
                continue;
              }
              for (; run > 15; run -= 16)
                if (acs && !acs[0xF0]) return 0;
              size = sjt_category(z);
              if (size > 10 || (acs && !acs[run << 4 | size])) return 0;
              run = 0;
            }
            if (acs && (run || !real) && !acs[0x00]) return 0;
          }
      }
    }
  }
  return 1;
}
