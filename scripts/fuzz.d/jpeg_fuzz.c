// libFuzzer harness for the JPEG transplant's C (scripts/fuzz-jpeg): every input is scanned by the baseline entropy
// scanner (jpeg_scan.c), then written to a file, and goes
// through what a job does with a JPEG base (baseline or progressive, grey or colour, any sampling): the header, the
// restart-interval index, a span opened over every interval, a region decoded (straight from its coefficients and
// through a small JPEG, which must give the same pixels) and encoded again (one way or the other, chosen by a byte
// of the input), the span encoded and the file spliced; and, apart, the whole coefficients read, a region redrawn
// and the file written in the photo's coding. Rectangles, masks and spans that do not fit, taken from the input's last bytes, go to every entry
// point too, which must refuse them. And the reader of the libvips path (jpeg_rows.c, through its libvips image in
// vips_jpeg_stream.c) decodes the input's pixels to its end, as a PNG or `quality` job does. Errors are expected; a
// crash, an address error or a hang is a bug.
//
// The spliced path (sjt_splice_*), which copies MCUs as bits with stampcam's own scanner, has libjpeg as its oracle
// (Tests/StampTestShim/jpeg_splice_edit.c and jpeg_splice_compare.c): every input is edited both ways, spliced and on
// the whole photo's coefficients, in rectangles taken from its bytes, and the harness aborts when the index takes
// rectangles it must refuse or a file libjpeg finds damaged, when a spliced output libjpeg reads with a warning or
// whose coefficients in any real block differ from the whole-photo edit's (or, outside the rectangles, from the
// photo's), when the whole-photo edit's output reads otherwise than the photo outside the rectangles, and when a call
// out of order is not refused; each disagreement is said on one line ("splice oracle: ...") before the abort.
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "CVipsGlue.h"
#include "JPEGScan.h"
#include "JPEGSpliceOracle.h"
#include "JPEGTransplant.h"

static sjt_state *state;
static char in_path[512], out_path[512], spliced_path[512], whole_path[512];

static unsigned char rgb[64 * 64 * 3];

// Blocks of a component in `pixels` pixels of the region, as libjpeg counts them.
static size_t blocks(int pixels, int samp, int max) { return ((size_t) pixels * samp + 8 * max - 1) / (8 * max); }

// Which way the redrawn blocks are encoded: straight to coefficients (1) or through a small JPEG (0).
static int direct = 1;

static void redraw(const sjt_header *header, int hmax, int vmax) {
  char message[512];
  int w = header->width < 8 * hmax ? header->width : 8 * hmax;
  int h = header->height < 8 * vmax ? header->height : 8 * vmax;
  if (w > 64 || h > 64) return;
  // Straight from the coefficients and through a small JPEG: libjpeg's decode both ways, so the same pixels.
  static unsigned char other[64 * 64 * 3];
  sjt_set_direct(state, 0);
  int failed = sjt_decode_region(state, 0, 0, w, h, other, message, sizeof message);
  sjt_set_direct(state, 1);
  if (failed) return;
  if (sjt_decode_region(state, 0, 0, w, h, rgb, message, sizeof message)) return;
  if (memcmp(rgb, other, (size_t) w * h * 3)) abort();
  sjt_set_direct(state, direct);
  for (int i = 0; i < w * h * 3; i += 7) rgb[i] ^= 0x5A;
  static unsigned char mask[64];
  memset(mask, 1, sizeof mask);
  const unsigned char *masks[4] = {mask, mask, mask, mask};
  size_t lengths[4] = {0};
  for (int c = 0; c < header->components && c < 4; c++)
    lengths[c] = blocks(w, header->h[c], hmax) * blocks(h, header->v[c], vmax);
  sjt_replace_blocks(state, 0, 0, w, h, rgb, masks, lengths, header->components, message, sizeof message);
}

// A rectangle, a mask length and a span from the input's last 8 bytes: mostly ones that do not fit.
static void misfits(const uint8_t *data, size_t size) {
  if (size < 8) return;
  const uint8_t *t = data + size - 8;
  char message[512];
  int x = (int8_t) t[0] * 8, y = (int8_t) t[1] * 8, w = t[2] % 65, h = t[3] % 65;
  if (sjt_decode_region(state, x, y, w, h, rgb, message, sizeof message) == 0) {
    static unsigned char mask[64 * 64];
    memset(mask, t[4] & 3, sizeof mask);
    const unsigned char *masks[4] = {mask, mask, mask, mask};
    size_t lengths[4] = {t[5] % 65, t[5] % 65, t[5] % 65, t[5] % 65};
    sjt_replace_blocks(state, x, y, w, h, rgb, masks, lengths, t[6] % 5, message, sizeof message);
  }
}

// Writes the output file through a descriptor, as a job does: the spliced intervals, or the whole coefficients.
static void write_to_output(int spliced, char *message, size_t length) {
  int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return;
  if (spliced) sjt_write_spliced(state, fd, message, length);
  else sjt_write(state, fd, 3, message, length);
  close(fd);
}

static void quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
  (void) domain;
  (void) level;
  (void) message;
  (void) data;
}

// The libvips path's reader: libvips reads the header, stampcam's reader decodes every row and reads to the end.
static void stream_pixels(size_t size) {
  static int started;
  if (!started) {
    if (VIPS_INIT("stampcam-jpeg-fuzz")) abort();
    vips_cache_set_max(0);
    // Damaged inputs are the point: libvips' warnings about them would drown libFuzzer's own lines.
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, quiet, NULL);
    started = 1;
  }
  int fd = open(in_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  VipsImage *like = vips_image_new_from_file(in_path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
  scv_jpeg_stream *stream = NULL;
  if (like && (long) like->Xsize * like->Ysize <= 1 << 20)
    stream = scv_jpeg_stream_open(fd, like, size + 1, NULL);
  close(fd);  // the reader holds its own duplicate
  VipsImage *pixels = NULL;
  if (stream && scv_jpeg_stream_image(stream, like, &pixels) == 0) {
    size_t length = 0;
    g_free(vips_image_write_to_memory(pixels, &length));
    g_object_unref(pixels);
  }
  char message[256];
  if (stream) scv_jpeg_stream_failure(stream, message, sizeof message);
  scv_jpeg_stream_release(stream);
  if (like) g_object_unref(like);
  vips_error_clear();
}

// The baseline entropy scanner straight over the input's bytes (it must read none outside them), every MCU's start
// kept or every 3rd, into a buffer that may be too small; what it reports must hold together.
static void scan_bytes(const uint8_t *data, size_t size) {
  static sjs_point points[4096];
  long stride = size && (data[size - 1] & 1) ? 3 : 1;
  size_t capacity = size ? data[0] * 16 : 0;
  sjs_result result;
  int status = sjs_scan(data, size, stride, points, capacity, &result);
  if (status != result.status || status < SJS_OK || status > SJS_NOT_HANDLED) abort();
  if ((size_t) result.points > capacity) abort();
  for (long i = 0; i < result.points; i++)
    if (points[i].bit > (uint64_t) size * 8 || (i && points[i].bit <= points[i - 1].bit)) abort();
  if (status == SJS_OK && (result.mcus_scanned != result.mcu_count || result.entropy_end >= size)) abort();
  if (status == SJS_DAMAGED && (result.damage_mcu < 0 || result.damage_mcu > result.mcu_count)) abort();
}

// A disagreement with libjpeg: said on one line (what, and each path's last step), then a crash for libFuzzer.
static void finding(const char *what, const sjo_outcome *o) {
  fprintf(stderr, "splice oracle: %s (index %d; splice: %s returned %d: %s; whole-photo edit: %s returned %d: %s)\n",
    what, o->index, o->splice_step, o->spliced, o->splice_message, o->transcode_step, o->transcoded,
    o->transcode_message);
  abort();
}

// The photo's MCU grid, from its header; 0 when the file is not one to edit (as RenderPath.choose decides).
static int splice_grid(int *wide, int *high) {
  char message[512];
  sjt_header header;
  int fd = open(in_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  int opened = sjt_open(state, fd, 1 << 20, &header, message, sizeof message);
  close(fd);
  sjt_close(state);
  if (opened || (long) header.width * header.height > 1 << 20 || header.precision != 8 || !header.quantization_ok
      || (header.components != 1 && header.components != 3))
    return 0;
  int hmax = 1, vmax = 1;
  for (int c = 0; c < header.components; c++) {
    if (header.h[c] < 1 || header.v[c] < 1) return 0;
    if (header.h[c] > hmax) hmax = header.h[c];
    if (header.v[c] > vmax) vmax = header.v[c];
  }
  for (int c = 0; c < header.components; c++)
    if (hmax % header.h[c] || vmax % header.v[c]) return 0;
  *wide = (header.width + 8 * hmax - 1) / (8 * hmax);
  *high = (header.height + 8 * vmax - 1) / (8 * vmax);
  return *wide > 0 && *high > 0;
}

// Up to three rectangles from 12 bytes: inside the grid, the ones that overlap a kept one dropped, sorted by top then
// left, as the splice takes them.
static int splice_rects(const uint8_t *t, int wide, int high, int *rects) {
  int count = 0;
  for (int k = 0; k < 3; k++) {
    const uint8_t *b = t + 4 * k;
    int left = b[0] % wide, top = b[1] % high;
    int r[4] = {left, top, 1 + b[2] % (wide - left), 1 + b[3] % (high - top)};
    int overlaps = 0;
    for (int j = 0; j < count; j++) {
      const int *q = rects + 4 * j;
      if (r[0] < q[0] + q[2] && q[0] < r[0] + r[2] && r[1] < q[1] + q[3] && q[1] < r[1] + r[3]) overlaps = 1;
    }
    if (overlaps) continue;
    int at = count++;
    while (at > 0 && (rects[4 * (at - 1) + 1] > r[1] || (rects[4 * (at - 1) + 1] == r[1] && rects[4 * (at - 1)] > r[0]))) {
      memcpy(rects + 4 * at, rects + 4 * (at - 1), 4 * sizeof *rects);
      at--;
    }
    memcpy(rects + 4 * at, r, sizeof r);
  }
  return count;
}

// The oracle. The input's last 20 bytes choose the rectangles (12 bytes; with an odd byte 12, taken as they are,
// mostly ones the index must refuse), the edit, the mask, the seed, the orientation, whether the region edited starts
// inside each rectangle, and whether the whole-photo edit follows the splice on the same opened file.
static void splice_against_libjpeg(const uint8_t *data, size_t size) {
  int wide, high;
  if (size < 20 || !splice_grid(&wide, &high)) return;
  const uint8_t *t = data + size - 20;
  int rects[12];
  int count;
  if (t[12] & 1) {
    count = 1 + t[13] % 3;
    for (int i = 0; i < 4 * count; i++) rects[i] = (int8_t) t[i];
  } else {
    count = splice_rects(t, wide, high, rects);
  }
  sjo_edit edit = {.edit = t[14] % 4, .mask = t[15] % 3, .seed = t[16], .orientation = 1 + t[17] % 8,
    .inset = t[14] >> 4 & 1, .whole_after_splice = t[15] >> 4 & 1};
  sjo_outcome outcome;
  if (sjo_edit_both_ways(state, in_path, rects, count, &edit, spliced_path, whole_path, &outcome)) return;
  if (outcome.bad_rects_taken) finding("the index took rectangles it must refuse", &outcome);
  char message[512];
  sjo_difference source, whole, same, outside;
  // libjpeg's reading of the photo: its warnings, and whether its coefficients are ones 8-bit samples give. Outside
  // that range libjpeg's encoder writes what the edits make (DC differences past 2047, AC sizes past 10) with codes
  // no table has, on every path that encodes with it; the tests record that as a known issue, and here only the
  // splice's own output is held to the photo.
  int readable = sjo_compare(in_path, in_path, NULL, 0, &source, message, sizeof message) == 0;
  int in_range = readable && source.out_of_range[0] == 0;
  // The whole-photo edit reads the photo with libjpeg, which warned of nothing (a warning fails it): its output
  // must read as cleanly, and as the photo outside the rectangles.
  if (outcome.transcoded == 0 && in_range) {
    if (sjo_compare(whole_path, in_path, rects, count, &whole, message, sizeof message) || whole.warnings[0])
      finding("the whole-photo edit wrote a file libjpeg reads with a warning", &outcome);
    if (whole.differing) finding("the whole-photo edit changed blocks outside the rectangles", &outcome);
  }
  if (outcome.index != 0) return;
  // The index took the file: libjpeg must read it without a warning (damage must be refused).
  if (!readable || source.warnings[0]) finding("the index took a file libjpeg finds damaged", &outcome);
  // A step's 1 leaves the photo to the whole-photo edit, its -1 to the pixel path: neither writes a spliced file.
  if (outcome.spliced || outcome.transcoded) return;
  if (outcome.pixels_differ) finding("the splice decoded a rectangle's pixels otherwise", &outcome);
  if (sjo_compare(spliced_path, in_path, rects, count, &outside, message, sizeof message))
    finding("libjpeg refuses the spliced output", &outcome);
  if (outside.warnings[0]) finding("libjpeg warns reading the spliced output", &outcome);
  if (outside.differing) finding("the spliced output differs from the photo outside the rectangles", &outcome);
  if (in_range && (sjo_compare(spliced_path, whole_path, NULL, 0, &same, message, sizeof message) || same.differing))
    finding("spliced and whole-photo edits differ in a block", &outcome);
}

// Calls out of order on an indexed file: each must be refused (-1), and nothing written.
static void splice_out_of_order(const uint8_t *data, size_t size) {
  int wide, high;
  if (size < 20 || !splice_grid(&wide, &high)) return;
  const uint8_t *t = data + size - 20;
  int rects[12];
  int count = splice_rects(t, wide, high, rects);
  char message[512];
  sjt_header header;
  int fd = open(in_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  int opened = sjt_open(state, fd, 1 << 20, &header, message, sizeof message);
  close(fd);
  if (opened == 0 && sjt_splice_index(state, rects, count, message, sizeof message) == 0) {
    if (sjt_splice_open(state, count + t[18] % 3, message, sizeof message) != -1) abort();
    if (sjt_splice_open(state, -1 - t[19] % 3, message, sizeof message) != -1) abort();
    int out = open(spliced_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out >= 0) {
      if (sjt_splice_write(state, out, 1, message, sizeof message) != -1) abort();
      if (lseek(out, 0, SEEK_END) != 0) abort();
      close(out);
    }
  }
  sjt_close(state);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!state) {
    // The straight path calls libjpeg's C inverse DCT, its definition. libjpeg-turbo's SIMD one computes in 16 bits
    // and saturates where the C one wraps, so the two differ on coefficients no 8-bit picture gives (crafted or
    // damaged inputs; found by this harness): the comparison below is with libjpeg's C code, as every decode of the
    // harness then is. On pictures both give the same pixels (JPEGDirectTests).
    setenv("JSIMD_FORCENONE", "1", 1);
    state = sjt_new();
    const char *tmp = getenv("STAMPCAM_FUZZ_TMP");
    snprintf(in_path, sizeof in_path, "%s/in-%d.jpg", tmp ? tmp : "/tmp", (int) getpid());
    snprintf(out_path, sizeof out_path, "%s/out-%d.jpg", tmp ? tmp : "/tmp", (int) getpid());
    snprintf(spliced_path, sizeof spliced_path, "%s/spliced-%d.jpg", tmp ? tmp : "/tmp", (int) getpid());
    snprintf(whole_path, sizeof whole_path, "%s/whole-%d.jpg", tmp ? tmp : "/tmp", (int) getpid());
  }
  scan_bytes(data, size);
  FILE *f = fopen(in_path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  char message[512];
  sjt_header header;
  direct = size < 4 || !(data[size - 4] & 0x10);
  sjt_set_direct(state, direct);
  // Every other input is read through the smallest window instead of whole (all but the tiniest files): the
  // splice's scan, cut and copy then read it in pieces, under the same oracle.
  sjt_set_window(state, size < 3 || !(data[size - 3] & 0x20) ? 0 : SJT_WINDOW_MINIMUM);
  stream_pixels(size);
  // The check before the libvips path reads every JPEG to its end, whatever its coding.
  int checked = open(in_path, O_RDONLY | O_CLOEXEC);
  if (checked >= 0) {
    if (sjt_open(state, checked, 1 << 20, &header, message, sizeof message) == 0
        && (long) header.width * header.height <= 1 << 20)
      sjt_skim(state, message, sizeof message);
    sjt_close(state);
    close(checked);
  }
  splice_against_libjpeg(data, size);
  splice_out_of_order(data, size);
  for (int pass = 0; pass < 2; pass++) {
    int fd = open(in_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    // A limit under the input's size must refuse it before reading it.
    if (sjt_open(state, fd, size ? size - 1 : 0, &header, message, sizeof message) != (size ? 2 : 1)) abort();
    int opened = sjt_open(state, fd, 1 << 20, &header, message, sizeof message);
    close(fd);
    if (opened != 0) return 0;
    // Big pictures only make the run slow; the shapes that matter fit in a few thousand pixels.
    if ((long) header.width * header.height > 1 << 20) break;
    // What RenderPath.choose lets through to the transplant: 8-bit grey, YCbCr or RGB, sampling in whole ratios,
    // usable quantization tables.
    int gray = header.color_space == SJT_GRAY;
    if (header.precision != 8 || !header.quantization_ok || header.components != (gray ? 1 : 3)
        || (!gray && header.color_space != SJT_YCBCR && header.color_space != SJT_RGB))
      break;
    int hmax = 1, vmax = 1, whole = 1;
    for (int c = 0; c < header.components; c++) {
      if (header.h[c] > hmax) hmax = header.h[c];
      if (header.v[c] > vmax) vmax = header.v[c];
    }
    for (int c = 0; c < header.components; c++)
      if (header.h[c] < 1 || header.v[c] < 1 || hmax % header.h[c] || vmax % header.v[c]) whole = 0;
    if (!whole) break;
    if (pass == 0) {
      // Every interval: the count of MCUs over the interval length, rounded up.
      int interval = 0;
      long mcus = (long) ((header.width + 8 * hmax - 1) / (8 * hmax)) * ((header.height + 8 * vmax - 1) / (8 * vmax));
      int indexed = sjt_restart_index(state, &interval, message, sizeof message) == 0;
      // A span from the input's last bytes first: mostly one that is not whole rows, which must be refused.
      if (indexed && size >= 8)
        sjt_span_open(state, data[size - 1] % 4 - 1, data[size - 2] % 3, data[size - 3] * 4, message, sizeof message);
      if (indexed
          && sjt_span_open(state, 0, (int) ((mcus + interval - 1) / interval), header.height, message, sizeof message)
               == 0) {
        redraw(&header, hmax, vmax);
        misfits(data, size);
        if (sjt_span_encode(state, 6, message, sizeof message) == 0)
          write_to_output(1, message, sizeof message);
      }
    } else if (sjt_read_coefficients(state, message, sizeof message) == 0) {
      redraw(&header, hmax, vmax);
      misfits(data, size);
      write_to_output(0, message, sizeof message);
    }
    sjt_close(state);
  }
  sjt_close(state);
  return 0;
}
