#define _GNU_SOURCE  // RTLD_DEFAULT
#include "jpeg_dct.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "jpeg_errors.h"
#include "jpeg_modules.h"

// libjpeg's transforms, block by block. Measured on one 1200 x 900 photo's 16,950 luma blocks (one core): libjpeg's
// exported C inverse DCT 143-162 ns a block, its C forward DCT with the quantization below 390-450 ns; FFTW's
// REDFT01/REDFT10 (one plan over every block, doubles) 1,300-1,600 ns for both, and its rounded samples differed
// from libjpeg's in 1.3 % of them (by 1 level, before colour conversion widens it), where libjpeg's own functions
// give its decode exactly. libjpeg's DCT modules (its SIMD code on this CPU) are faster still: see sjt_dct_modules.

// The post-IDCT range limit libjpeg's decompressor builds (jdmaster.c): indexed by the transform's output, masked
// to 10 bits, it gives the level-shifted sample clamped to 0..255, values from -512 to 511 wrapping around.
static void sjt_dct_range(sjt_dct *d) {
  unsigned char *table = d->range + 1536;  // libjpeg reads from sample_range_limit + 128 onwards
  for (int i = 0; i < 1024; i++) {
    int x = (i < 512 ? i : i - 1024) + CENTERJSAMPLE;
    table[i] = (unsigned char) (x < 0 ? 0 : x > MAXJSAMPLE ? MAXJSAMPLE : x);
  }
  d->limits.sample_range_limit = table - CENTERJSAMPLE;
}

int sjt_dct_table_set(const sjt_dct *d, sjt_dct_table *t, const UINT16 *quantval) {
  memset(t, 0, sizeof *t);
  for (int i = 0; i < DCTSIZE2; i++) {
    unsigned int q = quantval[i];
    if (q < 1 || q > 255) return -1;
    t->quantval[i] = (UINT16) q;
    // The width libjpeg's inverse DCT reads them in (16-bit in the SIMD builds).
    if (d->usable == 2) t->multipliers.wide[i] = (int) q;
    else t->multipliers.narrow[i] = (short) q;
    // Rounding division of |x| by 8q (libjpeg's forward DCT leaves a factor of 8) as a multiply and a shift:
    // r = 16 + floor(log2 8q), m = 2^r / 8q rounded to the side that keeps (|x| + c) * m >> r exact. Checked
    // against (|x| + 4q) / 8q for every |x| up to 32,767 and every q from 1 to 255.
    unsigned int divisor = q << 3, bits = 0;
    while ((divisor >> (bits + 1)) != 0) bits++;
    unsigned int r = 16 + bits;
    unsigned long long power = 1ULL << r;
    unsigned int m = (unsigned int) (power / divisor), rest = (unsigned int) (power % divisor);
    unsigned int c = divisor / 2;
    if (rest == 0) {
      m >>= 1;
      r--;
    } else if (rest <= divisor / 2) {
      c++;
    } else {
      m++;
    }
    t->reciprocal[i] = m;
    t->correction[i] = c;
    t->shift[i] = r;
  }
  t->component.dct_table = &t->multipliers;
  return 0;
}

void sjt_dct_inverse(sjt_dct *d, sjt_dct_table *t, JCOEFPTR block, unsigned char *out, size_t stride) {
  JSAMPROW rows[DCTSIZE];
  for (int r = 0; r < DCTSIZE; r++) rows[r] = out + (size_t) r * stride;
  d->idct(&d->limits, &t->component, block, rows, 0);
}

// Rounds x / (8q) half away from zero as libjpeg's quantizer does, with `t`'s multiply and shift for entry i (32
// bits suffice: |x| + c < 2^16 and the multiplier is at most 2^16).
static inline JCOEF sjt_quantize(const sjt_dct_table *t, int i, int x) {
  unsigned int a = (unsigned int) (x < 0 ? -x : x);
  int q = (int) (((a + t->correction[i]) * t->reciprocal[i]) >> t->shift[i]);
  return (JCOEF) (x < 0 ? -q : q);
}

void sjt_dct_forward_table(sjt_dct *d, const sjt_dct_table *t) {
#if SJT_MODULES
  // The module quantizes with the divisors its start_pass made from table 0 (allocated by the first start_pass, so
  // this cannot fail).
  if (d->fwd_made) {
    memcpy(d->fwd.quant_tbl_ptrs[0]->quantval, t->quantval, sizeof t->quantval);
    d->fwd.fdct->start_pass(&d->fwd);
  }
#else
  (void) d, (void) t;
#endif
}

void sjt_dct_forward(sjt_dct *d, const sjt_dct_table *t, const unsigned char *in, size_t stride,
  JCOEFPTR block) {
#if SJT_MODULES
  if (d->fwd_made) {
    JSAMPROW rows[DCTSIZE];
    for (int r = 0; r < DCTSIZE; r++) rows[r] = (JSAMPROW) (in + (size_t) r * stride);
    d->fwd.fdct->forward_DCT(&d->fwd, &d->fwd.comp_info[0], rows, (JBLOCKROW) block, 0, 0, 1);
    return;
  }
#endif
  if (d->usable == 2) {
    int w[DCTSIZE2];
    for (int r = 0; r < DCTSIZE; r++)
      for (int c = 0; c < DCTSIZE; c++) w[r * DCTSIZE + c] = in[(size_t) r * stride + c] - CENTERJSAMPLE;
    d->fdct(w);
    for (int i = 0; i < DCTSIZE2; i++) block[i] = sjt_quantize(t, i, w[i]);
    return;
  }
  // 16-bit, with room for 32 (an unchecked build reads that much; see sjt_dct).
  union {
    short narrow[DCTSIZE2];
    int wide[DCTSIZE2];
  } w;
  for (int r = 0; r < DCTSIZE; r++)
    for (int c = 0; c < DCTSIZE; c++) w.narrow[r * DCTSIZE + c] = (short) (in[(size_t) r * stride + c] - CENTERJSAMPLE);
  d->fdct(&w);
  for (int i = 0; i < DCTSIZE2; i++) block[i] = sjt_quantize(t, i, w.narrow[i]);
}

// A picture with detail and clipping in every block: the probe's.
static unsigned char sjt_probe_sample(int x, int y) {
  if ((x * 3 + y * 5) % 11 == 0) return (x & 1) ? 255 : 0;
  return (unsigned char) ((x * 53 + y * 97 + x * y * 11) % 256);
}

enum { PROBE_W = 32, PROBE_H = 16 };

// 1 when libjpeg's transforms, called as `d` calls them with the given width (`d->usable` 1 narrow, 2 wide), give
// exactly libjpeg's own encode and decode of the probe picture at `quality`; 0 otherwise (or on any libjpeg error).
static int sjt_dct_check(sjt_dct *d, int quality) {
  sjt_errors error;
  memset(&error, 0, sizeof error);
  sjt_errors_init(&error);
  struct jpeg_compress_struct enc;
  struct jpeg_decompress_struct dec;
  memset(&enc, 0, sizeof enc);
  memset(&dec, 0, sizeof dec);
  enc.err = dec.err = &error.pub;
  unsigned char *volatile file = NULL;
  unsigned long length = 0;
  volatile int made = 0, same = 1;
  if (setjmp(error.jump)) {
    same = 0;
  } else {
    jpeg_create_compress(&enc);
    jpeg_create_decompress(&dec);
    made = 1;
    unsigned char pixels[PROBE_W * PROBE_H], decoded[PROBE_W * PROBE_H], mine[PROBE_W * PROBE_H];
    for (int i = 0; i < PROBE_W * PROBE_H; i++) pixels[i] = sjt_probe_sample(i % PROBE_W, i / PROBE_W);
    unsigned char *out = NULL;
    jpeg_mem_dest(&enc, &out, &length);
    enc.image_width = PROBE_W;
    enc.image_height = PROBE_H;
    enc.input_components = 1;
    enc.in_color_space = JCS_GRAYSCALE;
    jpeg_set_defaults(&enc);
    jpeg_set_quality(&enc, quality, TRUE);
    enc.dct_method = JDCT_ISLOW;
    jpeg_start_compress(&enc, TRUE);
    while (enc.next_scanline < enc.image_height) {
      JSAMPROW row = pixels + (size_t) enc.next_scanline * PROBE_W;
      jpeg_write_scanlines(&enc, &row, 1);
    }
    jpeg_finish_compress(&enc);
    file = out;
    // libjpeg's coefficients against the forward transform's.
    jpeg_mem_src(&dec, file, length);
    jpeg_read_header(&dec, TRUE);
    jvirt_barray_ptr *arrays = jpeg_read_coefficients(&dec);
#if SJT_MODULES
    if (d->fwd_made && !d->idct) {
      // The inverse transform libjpeg's decode of this picture would run (DCT_scaled_size 8, JDCT_ISLOW).
      dec.dct_method = JDCT_ISLOW;
      jinit_inverse_dct(&dec);
      dec.idct->start_pass(&dec);
      d->idct = dec.idct->inverse_DCT[0];
    }
#endif
    if (!d->idct) sjt_errors_throw(&error, "no inverse transform");
    sjt_dct_table table;
    JQUANT_TBL *q = dec.comp_info[0].quant_table;
    if (!q || sjt_dct_table_set(d, &table, q->quantval)) sjt_errors_throw(&error, "unusable probe table");
    sjt_dct_forward_table(d, &table);
    JBLOCK blocks[(PROBE_W / 8) * (PROBE_H / 8)];
    for (int by = 0; by < PROBE_H / 8; by++) {
      JBLOCKARRAY row = dec.mem->access_virt_barray((j_common_ptr) &dec, arrays[0], (JDIMENSION) by, 1, FALSE);
      for (int bx = 0; bx < PROBE_W / 8; bx++) {
        JBLOCK computed;
        sjt_dct_forward(d, &table, pixels + (size_t) by * 8 * PROBE_W + bx * 8, PROBE_W, computed);
        memcpy(blocks[by * (PROBE_W / 8) + bx], row[0][bx], sizeof(JBLOCK));
        if (memcmp(computed, row[0][bx], sizeof(JBLOCK))) same = 0;
        sjt_dct_inverse(d, &table, blocks[by * (PROBE_W / 8) + bx], mine + (size_t) by * 8 * PROBE_W + bx * 8,
          PROBE_W);
      }
    }
    jpeg_abort_decompress(&dec);
    // libjpeg's decoded samples against the inverse transform's of the same coefficients.
    jpeg_mem_src(&dec, file, length);
    jpeg_read_header(&dec, TRUE);
    dec.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&dec);
    while (dec.output_scanline < dec.output_height) {
      JSAMPROW row = decoded + (size_t) dec.output_scanline * PROBE_W;
      jpeg_read_scanlines(&dec, &row, 1);
    }
    jpeg_finish_decompress(&dec);
    if (memcmp(decoded, mine, sizeof decoded)) same = 0;
  }
  if (made) {
    jpeg_destroy_compress(&enc);
    jpeg_destroy_decompress(&dec);
  }
  free(file);
  return same;
}

// libjpeg's DCT modules: the forward one on a compressor of its own (kept), the inverse one's method taken from the
// probe's decompressor by the first sjt_dct_check. 1 when made. Measured on scripts/bench's photo workload (AVX2,
// three runs each, in turns): the exported C functions took 5.3 % of the batch's CPU time; with the modules the
// batch used 9 % less CPU in all (4.3 -> 3.9 s), every output byte-identical.
static int sjt_dct_modules(sjt_dct *d) {
#if SJT_MODULES
  memset(&d->fwd_errors, 0, sizeof d->fwd_errors);
  sjt_errors_init(&d->fwd_errors);
  d->fwd.err = &d->fwd_errors.pub;
  if (setjmp(d->fwd_errors.jump)) {
    sjt_dct_free(d);
    return 0;
  }
  jpeg_create_compress(&d->fwd);
  d->fwd_made = 1;
  d->fwd.in_color_space = JCS_GRAYSCALE;
  d->fwd.input_components = 1;
  jpeg_set_defaults(&d->fwd);
  d->fwd.dct_method = JDCT_ISLOW;
  jinit_forward_dct(&d->fwd);
  d->fwd.fdct->start_pass(&d->fwd);
  return 1;
#else
  (void) d;
  return 0;
#endif
}

// libjpeg-turbo's exported C transforms, looked up by name. 1 when both were found.
static int sjt_dct_exported(sjt_dct *d) {
  *(void **) &d->idct = dlsym(RTLD_DEFAULT, "jpeg_idct_islow");
  *(void **) &d->fdct = dlsym(RTLD_DEFAULT, "jpeg_fdct_islow");
  return d->idct && d->fdct;
}

void sjt_dct_init(sjt_dct *d) {
  memset(d, 0, sizeof *d);
  sjt_dct_range(d);
  // libjpeg's modules first, then its exported functions; 16-bit multipliers first (libjpeg-turbo with its SIMD
  // code, as Debian and Homebrew build it), then 32-bit.
  for (int way = 0; way < 2; way++) {
    if (way == 0 ? !sjt_dct_modules(d) : !sjt_dct_exported(d)) continue;
    for (int width = 1; width <= 2; width++) {
      d->usable = width;
      if (sjt_dct_check(d, 50) && sjt_dct_check(d, 97)) return;
    }
    d->usable = 0;
    sjt_dct_free(d);
  }
}

void sjt_dct_free(sjt_dct *d) {
  if (d->fwd_made) jpeg_destroy_compress(&d->fwd);
  d->fwd_made = 0;
  d->idct = NULL;
  d->fdct = NULL;
}
