#include "JPEGTransplant.h"

#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

#include "jpeg_state.h"

static void sjt_fail(j_common_ptr c) {
  sjt_error *e = (sjt_error *) c->err;
  (*c->err->format_message)(c, e->text);
  longjmp(e->jump, 1);
}

// Warnings mean damaged data (a truncated file decodes as grey otherwise): treat them as errors, and say which kind
// (sjt_damage) so the caller can apply the --fail-on policy.
static void sjt_emit(j_common_ptr c, int level) {
  // A malformed ICC_PROFILE chunk sequence only loses the profile (sjt_open drops it).
  if (level >= 0 || c->err->msg_code == JWRN_BOGUS_ICC) return;
  ((sjt_error *) c->err)->damage = c->err->msg_code == JWRN_JPEG_EOF ? 1 : 2;
  sjt_fail(c);
}

int sjt_damage(const sjt_state *s) { return s->error.damage; }

// Called by libjpeg every row or so: a job stopped from another thread (--job-timeout, a signal) fails here.
// The error manager is the state's first member, so every libjpeg object of the state leads back to it.
static void sjt_progress(j_common_ptr c) {
  sjt_state *s = (sjt_state *) c->err;
  if (s->stop && *s->stop) {
    snprintf(s->error.text, sizeof s->error.text, "stopped");
    longjmp(s->error.jump, 1);
  }
}

void sjt_set_stop(sjt_state *s, const volatile int *stop) { s->stop = stop; }

static void sjt_errors(sjt_error *e) {
  jpeg_std_error(&e->pub);
  e->pub.error_exit = sjt_fail;
  e->pub.emit_message = sjt_emit;
}

// After a longjmp: hands the message over and resets every object, so the state serves the next job.
int sjt_report(sjt_state *s, const char *text, char *message, size_t length) {
  snprintf(message, length, "%s", text);
  jpeg_abort_compress(&s->enc);
  jpeg_abort_compress(&s->dst);
  jpeg_abort_decompress(&s->aux);
  if (s->out) fclose(s->out);
  s->out = NULL;
  sjt_close(s);
  return -1;
}

sjt_state *sjt_new(void) {
  sjt_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  sjt_errors(&s->error);
  s->src.err = s->aux.err = s->enc.err = s->dst.err = &s->error.pub;
  if (setjmp(s->error.jump)) {
    sjt_free(s);
    return NULL;
  }
  jpeg_create_decompress(&s->src);
  jpeg_create_decompress(&s->aux);
  jpeg_create_compress(&s->enc);
  jpeg_create_compress(&s->dst);
  sjt_arrays_adopt(s, (j_common_ptr) &s->src, 1);
  s->progress.progress_monitor = sjt_progress;
  s->src.progress = s->aux.progress = &s->progress;
  s->enc.progress = s->dst.progress = &s->progress;
  // Both compressors write the photo's arrays: the output file, and the restart spans (jpeg_restart.c).
  sjt_arrays_adopt(s, (j_common_ptr) &s->dst, 0);
  sjt_arrays_adopt(s, (j_common_ptr) &s->enc, 0);
  s->dst.in_color_space = JCS_RGB;
  s->dst.input_components = 3;
  jpeg_set_defaults(&s->dst);
  for (int i = 0; i < 2; i++) {
    s->standard_dc[i] = *s->dst.dc_huff_tbl_ptrs[i];
    s->standard_ac[i] = *s->dst.ac_huff_tbl_ptrs[i];
  }
  return s;
}

void sjt_free(sjt_state *s) {
  if (!s) return;
  jpeg_destroy_decompress(&s->src);
  jpeg_destroy_decompress(&s->aux);
  jpeg_destroy_compress(&s->enc);
  jpeg_destroy_compress(&s->dst);
  sjt_restarts_free(&s->restarts);
  sjt_arrays_free(&s->arrays);
  free(s->file);
  free(s->mem);
  free(s->icc);
  free(s->out_buffer);
  free(s);
}

void sjt_close(sjt_state *s) {
  if (s->opened) jpeg_abort_decompress(&s->src);
  s->opened = 0;
  s->coefficients = NULL;
  sjt_restarts_clear(&s->restarts);
}

// Reads the whole regular file open on `fd` (from its start, with pread) into the state's buffer; 2 (message set)
// when it holds more than `max_bytes`, found from its size before anything is read (and again while reading: a file
// may grow).
static int sjt_slurp(sjt_state *s, int fd, size_t max_bytes, char *message, size_t length) {
  struct stat info;
  if (fstat(fd, &info) == 0 && info.st_size > 0 && (unsigned long long) info.st_size > max_bytes) {
    snprintf(message, length, "the file is %lld bytes, over the limit of %zu bytes for a photo",
      (long long) info.st_size, max_bytes);
    return 2;
  }
  s->file_len = 0;
  for (;;) {
    if (s->file_len > max_bytes) {
      snprintf(message, length, "the file is over the limit of %zu bytes for a photo", max_bytes);
      return 2;
    }
    if (s->file_len == s->file_cap) {
      size_t cap = s->file_cap ? s->file_cap * 2 : (size_t) 1 << 22;
      // Never more than one byte past the limit: enough to tell that a file that grew is over it.
      if (max_bytes < SIZE_MAX && cap > max_bytes + 1) cap = max_bytes + 1;
      unsigned char *grown = cap > s->file_cap ? realloc(s->file, cap) : NULL;
      if (!grown) return snprintf(message, length, "out of memory"), -1;
      s->file = grown;
      s->file_cap = cap;
    }
    ssize_t n = pread(fd, s->file + s->file_len, s->file_cap - s->file_len, (off_t) s->file_len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return snprintf(message, length, "read error: %s", strerror(errno)), -1;
    if (n == 0) break;
    s->file_len += (size_t) n;
  }
  return 0;
}

int sjt_open(sjt_state *s, int fd, size_t max_bytes, sjt_header *h, char *message, size_t length) {
  sjt_close(s);
  s->error.damage = 0;
  int read = sjt_slurp(s, fd, max_bytes, message, length);
  if (read) return read == 2 ? 2 : -1;
  if (s->file_len < 3 || s->file[0] != 0xFF || s->file[1] != 0xD8 || s->file[2] != 0xFF) {
    snprintf(message, length, "not a JPEG file");
    return 1;
  }
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  // A fresh decompressor for every file: libjpeg keeps the tables an earlier file defined, and a damaged file that
  // names a table it never defines would otherwise be read (and encoded) with another photo's.
  jpeg_destroy_decompress(&s->src);
  s->src.err = &s->error.pub;
  jpeg_create_decompress(&s->src);
  sjt_arrays_adopt(s, (j_common_ptr) &s->src, 1);
  s->src.progress = &s->progress;
  s->opened = 1;
  jpeg_mem_src(&s->src, s->file, (unsigned long) s->file_len);
  jpeg_save_markers(&s->src, JPEG_APP0 + 2, 0xFFFF);
  jpeg_read_header(&s->src, TRUE);
  memset(h, 0, sizeof *h);
  h->width = (int) s->src.image_width;
  h->height = (int) s->src.image_height;
  h->components = s->src.num_components;
  h->precision = s->src.data_precision;
  h->progressive = s->src.progressive_mode;
  h->arithmetic = s->src.arith_code;
  h->restart_interval = (int) s->src.restart_interval;
  h->quantization_ok = 1;
  for (int c = 0; c < s->src.num_components; c++) {
    int n = s->src.comp_info[c].quant_tbl_no;
    JQUANT_TBL *table = n >= 0 && n < NUM_QUANT_TBLS ? s->src.quant_tbl_ptrs[n] : NULL;
    if (!table) h->quantization_ok = 0;
    for (int i = 0; table && i < DCTSIZE2; i++)
      if (table->quantval[i] == 0) h->quantization_ok = 0;
  }
  switch (s->src.jpeg_color_space) {
    case JCS_GRAYSCALE: h->color_space = SJT_GRAY; break;
    case JCS_YCbCr: h->color_space = SJT_YCBCR; break;
    case JCS_RGB: h->color_space = SJT_RGB; break;
    case JCS_CMYK: h->color_space = SJT_CMYK; break;
    case JCS_YCCK: h->color_space = SJT_YCCK; break;
    default: h->color_space = SJT_OTHER;
  }
  for (int c = 0; c < s->src.num_components && c < 4; c++) {
    h->h[c] = s->src.comp_info[c].h_samp_factor;
    h->v[c] = s->src.comp_info[c].v_samp_factor;
  }
  free(s->icc);
  s->icc = NULL;
  s->icc_len = 0;
  // Kept only when well formed: the APP2 chunks in sequence (jpeg_read_icc_profile checks their numbers and
  // count) and the assembled profile sane (sjt_icc_well_formed). Otherwise the output has none.
  if (!jpeg_read_icc_profile(&s->src, &s->icc, &s->icc_len) || !sjt_icc_well_formed(s->icc, s->icc_len)) {
    free(s->icc);
    s->icc = NULL;
    s->icc_len = 0;
  }
  return 0;
}

int sjt_read_coefficients(sjt_state *s, char *message, size_t length) {
  if (!s->opened) return snprintf(message, length, "no file opened"), -1;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  s->coefficients = jpeg_read_coefficients(&s->src);
  return 0;
}

int sjt_skim(sjt_state *s, char *message, size_t length) {
  if (!s->opened) return snprintf(message, length, "no file opened"), -1;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  struct jpeg_decompress_struct *d = &s->src;
  d->dct_method = JDCT_IFAST;  // only the last row is transformed, and its pixels are thrown away
  jpeg_start_decompress(d);
  JSAMPARRAY row = (*d->mem->alloc_sarray)((j_common_ptr) d, JPOOL_IMAGE, d->output_width * d->output_components, 1);
  // Skipped rows are entropy-decoded (libjpeg-turbo must, to stay in step) but neither transformed nor converted;
  // the last row is read so that the decoder reaches the end of the data, and finishing reads up to EOI.
  if (d->output_height > 1) jpeg_skip_scanlines(d, d->output_height - 1);
  while (d->output_scanline < d->output_height) jpeg_read_scanlines(d, row, 1);
  jpeg_finish_decompress(d);
  sjt_close(s);
  return 0;
}

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
    if (!s->mem) {
      snprintf(s->error.text, sizeof s->error.text, "out of memory");
      longjmp(s->error.jump, 1);
    }
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
  struct jpeg_compress_struct *e = &s->enc;
  jpeg_copy_critical_parameters(&s->src, e);
  e->image_width = (JDIMENSION) width;
  e->image_height = (JDIMENSION) height;
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
  struct jpeg_compress_struct *e = &s->enc;
  jpeg_copy_critical_parameters(&s->src, e);
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

#define SJT_OUTPUT_BUFFER (1 << 20)

// A stream over a duplicate of `fd`: the caller keeps owning `fd`, fclose closes only the duplicate.
FILE *sjt_create_output(sjt_state *s, int fd) {
  if (!s->out_buffer && !(s->out_buffer = malloc(SJT_OUTPUT_BUFFER))) return errno = ENOMEM, NULL;
  int copy = dup(fd);
  if (copy < 0) return NULL;
  FILE *f = fdopen(copy, "wb");
  if (!f) {
    int saved = errno;
    close(copy);
    return errno = saved, NULL;
  }
  setvbuf(f, s->out_buffer, _IOFBF, SJT_OUTPUT_BUFFER);
  return f;
}

int sjt_write(sjt_state *s, int fd, int orientation, char *message, size_t length) {
  if (!s->coefficients) return snprintf(message, length, "no coefficients read"), -1;
  s->out = sjt_create_output(s, fd);
  if (!s->out) return snprintf(message, length, "%s", strerror(errno)), -1;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  sjt_keep_coding(s, &s->dst);
  jpeg_stdio_dest(&s->dst, s->out);
  jpeg_write_coefficients(&s->dst, s->coefficients);
  sjt_write_markers(s, &s->dst, orientation);
  jpeg_finish_compress(&s->dst);
  int failed = ferror(s->out);
  if (fclose(s->out)) failed = 1;
  s->out = NULL;
  if (failed) return snprintf(message, length, "write error: %s", strerror(errno)), -1;
  return 0;
}
