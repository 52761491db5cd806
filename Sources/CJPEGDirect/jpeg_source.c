#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // TEMP_FAILURE_RETRY (unistd.h): a call interrupted by a signal is made again
#endif
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <jpeglib.h>

#include "ICCProfile.h"
#include "JPEGScan.h"
#include "JPEGTransplant.h"
#include "jpeg_arrays.h"
#include "jpeg_huffman.h"
#include "jpeg_state.h"

// The photo being edited: its bytes (the whole file, or only its header while the splice reads the rest through a
// window), its header, then its coefficients (or a skim of its data to the end).

// Reads the rest of the file open on `fd` (with pread) into the state's buffer, after the `file_len` bytes it holds
// (0: from the start); 2 (message set) when the file holds more than `max_bytes` (checked again while reading: a file
// may grow).
static int sjt_slurp(sjt_state *s, int fd, size_t max_bytes, char *message, size_t length) {
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
    ssize_t n = TEMP_FAILURE_RETRY(pread(fd, s->file + s->file_len, s->file_cap - s->file_len, (off_t) s->file_len));
    if (n < 0) return snprintf(message, length, "read error: %s", strerror(errno)), -1;
    if (n == 0) break;
    s->file_len += (size_t) n;
  }
  return 0;
}

// Makes the state's buffer hold the file's first `need` bytes (the file has them), reading on after the `file_len`
// it holds, a few at a time. 0, or -1 (message set).
static int sjt_read_more(sjt_state *s, size_t need, char *message, size_t length) {
  size_t have = s->file_len;
  if (need <= have) return 0;
  size_t want = need - have < 65536 ? 65536 : need - have;
  if (want > s->file_size - have) want = s->file_size - have;
  if (have + want > s->file_cap) {
    // Doubled, so that a header of many segments is not copied again for each.
    size_t cap = have + want > 2 * s->file_cap ? have + want : 2 * s->file_cap;
    unsigned char *grown = realloc(s->file, cap);
    if (!grown) return snprintf(message, length, "out of memory"), -1;
    s->file = grown;
    s->file_cap = cap;
  }
  errno = 0;
  size_t got = sjs_pread(s->fd, s->file + have, want, have);
  s->file_len += got;
  if (got == want) return 0;
  // Short: a read failed, or the file ended before the size it had when it was opened.
  if (errno) return snprintf(message, length, "read error: %s", strerror(errno)), -1;
  return sjt_fail_changed(s, message, length);
}

// Reads the file's first bytes, through the header of its first scan, walking its segments from SOI: 0 with
// `file_len` at the scan's first entropy-coded byte; 1 when the walk meets anything but a segment (bytes between
// them, a marker without one, a header cut short), for the caller to read the whole file on from the bytes held
// (`file_len`, at least 4) and libjpeg to judge it; -1 on a read error (message set).
static int sjt_read_head(sjt_state *s, char *message, size_t length) {
  size_t at = 2;
  s->file_len = 0;
  if (sjt_read_more(s, 4, message, length)) return -1;
  if (s->file[0] != 0xFF || s->file[1] != 0xD8) return 1;
  for (;;) {
    if (at + 4 > s->file_size) return 1;
    if (sjt_read_more(s, at + 4, message, length)) return -1;
    const unsigned char *m = s->file + at;
    unsigned code = m[1];
    if (m[0] != 0xFF || code == 0xFF || code == 0 || code == 0x01 || code == 0xD8 || code == 0xD9
        || (code >= 0xD0 && code <= 0xD7))
      return 1;
    size_t segment = sjt_be16(m + 2);
    if (segment < 2 || segment > s->file_size - at - 2) return 1;
    at += 2 + segment;
    if (code == 0xDA) {
      if (sjt_read_more(s, at, message, length)) return -1;
      s->file_len = at;
      return 0;
    }
  }
}

void sjt_let_go(sjt_state *s) {
  if (s->fd >= 0) close(s->fd);
  s->fd = -1;
}

int sjt_fail_changed(sjt_state *s, char *message, size_t length) {
  s->changed = 1;
  snprintf(message, length, "the photo changed while it was read");
  return -1;
}

int sjt_photo_changed(const sjt_state *s) { return s->changed; }

// 1 when the bytes held start like a JPEG: SOI, then a marker.
static int sjt_starts_like_jpeg(const sjt_state *s) {
  return s->file_len >= 3 && s->file[0] == 0xFF && s->file[1] == 0xD8 && s->file[2] == 0xFF;
}

// 1 when the open file is no longer what was opened: another size, inode, or modification or change time. The change
// time moves with every write, a write whose modification time was set back included, but also when a link to the
// file is made or removed: a photo whose name was given to another file by a rename (an editor's save, a sync tool)
// keeps its bytes, which the descriptor still reads, and its link count says why its change time moved. (A write
// with its modification time set back and a link made or removed as well goes unseen.)
int sjt_changed(const sjt_state *s) {
  struct stat now;
  if (fstat(s->fd, &now) != 0) return 1;
  const struct stat *then = &s->identity;
  if (now.st_size != then->st_size || now.st_ino != then->st_ino || now.st_dev != then->st_dev
      || now.st_mtim.tv_sec != then->st_mtim.tv_sec || now.st_mtim.tv_nsec != then->st_mtim.tv_nsec)
    return 1;
  int linked = now.st_nlink != then->st_nlink;
  return !linked && (now.st_ctim.tv_sec != then->st_ctim.tv_sec || now.st_ctim.tv_nsec != then->st_ctim.tv_nsec);
}

// Points the decompressor at the photo's bytes held and reads its header.
static void sjt_read_header(sjt_state *s) {
  jpeg_mem_src(&s->src, s->file, (unsigned long) s->file_len);
  jpeg_read_header(&s->src, TRUE);
}

int sjt_whole(sjt_state *s, char *message, size_t length) {
  if (!s->opened) return snprintf(message, length, "no file opened"), -1;
  if (s->whole) return 0;
  // Read on from the header held; the file must still be the one whose header that is.
  int read = sjt_changed(s) ? 3 : sjt_slurp(s, s->fd, s->max_bytes, message, length);
  if (read == 0 && (s->file_len != s->file_size || sjt_changed(s))) read = 3;
  if (read) {
    sjt_close(s);  // the decompressor's source was the header, which the buffer may no longer hold
    return read == 3 ? sjt_fail_changed(s, message, length) : -1;
  }
  s->whole = 1;
  sjt_let_go(s);
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  jpeg_abort_decompress(&s->src);
  s->coefficients = NULL;
  s->reading_part = 0;
  sjt_read_header(s);
  return 0;
}

size_t sjt_set_window(sjt_state *s, size_t bytes) {
  s->window = bytes && bytes < SJT_WINDOW_MINIMUM ? SJT_WINDOW_MINIMUM : bytes;
  return s->window;
}

int sjt_holds_whole(const sjt_state *s) { return s->whole; }

int sjt_open(sjt_state *s, int fd, size_t max_bytes, sjt_header *h, char *message, size_t length) {
  sjt_close(s);
  s->error.damage = 0;
  s->changed = 0;
  struct stat info;
  if (fstat(fd, &info) != 0) return snprintf(message, length, "cannot examine the file: %s", strerror(errno)), -1;
  if (info.st_size > 0 && (unsigned long long) info.st_size > max_bytes) {
    snprintf(message, length, "the file is %lld bytes, over the limit of %zu bytes for a photo",
      (long long) info.st_size, max_bytes);
    return 2;
  }
  s->identity = info;
  s->file_size = (size_t) (info.st_size > 0 ? info.st_size : 0);
  s->max_bytes = max_bytes;
  // A regular file larger than the splice's window is read as far as its scan's header: the splice reads the rest
  // through the window, and any other path the whole file first (sjt_whole). The state reads it through a
  // descriptor of its own, kept until it is closed: the caller's may be closed, and its number reused, meanwhile.
  s->file_len = 0;
  int windowed = S_ISREG(info.st_mode) && s->window && s->file_size > s->window
    && (s->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) >= 0;
  int head = windowed ? sjt_read_head(s, message, length) : 1;
  if (head < 0) {
    sjt_close(s);
    return -1;
  }
  s->whole = head != 0;
  if (s->whole) {
    sjt_let_go(s);
    // Read on from what the header's walk read; but a large file whose first bytes are not a JPEG's (another format
    // named .jpg) is not read any further.
    int read = !windowed || sjt_starts_like_jpeg(s) ? sjt_slurp(s, fd, max_bytes, message, length) : 0;
    if (read) return read == 2 ? 2 : -1;
  }
  if (!sjt_starts_like_jpeg(s)) {
    snprintf(message, length, "not a JPEG file");
    return 1;
  }
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  // A fresh decompressor for every file: libjpeg keeps the tables an earlier file defined, and a damaged file that
  // names a table it never defines would otherwise be read (and encoded) with another photo's.
  jpeg_destroy_decompress(&s->src);
  s->src.err = &s->error.pub;
  jpeg_create_decompress(&s->src);
  sjt_arrays_adopt(&s->arrays, (j_common_ptr) &s->src, 1);
  s->src.progress = &s->error.progress;
  s->opened = 1;
  jpeg_save_markers(&s->src, JPEG_APP0 + 2, 0xFFFF);
  sjt_read_header(s);
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
  if (sjt_whole(s, message, length)) return -1;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  if (s->reading_part) {
    // A restart span or a splice rectangle was read last: the whole photo again.
    jpeg_abort_decompress(&s->src);
    s->coefficients = NULL;
    sjt_read_header(s);
    s->reading_part = 0;
  }
  s->coefficients = jpeg_read_coefficients(&s->src);
  return 0;
}

void sjt_read_to_end(struct jpeg_decompress_struct *d) {
  d->dct_method = JDCT_IFAST;  // only the last row is transformed, and its pixels are thrown away
  jpeg_start_decompress(d);
  JSAMPARRAY row = (*d->mem->alloc_sarray)((j_common_ptr) d, JPOOL_IMAGE, d->output_width * d->output_components, 1);
  if (d->output_height > 1) jpeg_skip_scanlines(d, d->output_height - 1);
  // The last row takes the decoder to the end of the data; finishing reads up to EOI.
  while (d->output_scanline < d->output_height) jpeg_read_scanlines(d, row, 1);
  jpeg_finish_decompress(d);
}

int sjt_scan_clean(const sjt_state *s) {
  if (!s->whole) return 0;
  sjs_result r;
  if (sjs_scan(s->file, s->file_len, 1, NULL, 0, &r) != SJS_OK) return 0;
  // Raised during the scan or before it: libjpeg's read fails at once, as it did before the scanner.
  if (s->error.stop && sjs_stop_raised(s->error.stop)) return 0;
  // The scan ends at a marker (entropy_end is its first 0xFF); fill bytes, then EOI, and libjpeg reads no further.
  size_t at = r.entropy_end;
  while (at < s->file_len && s->file[at] == 0xFF) at++;
  return at > r.entropy_end && at < s->file_len && s->file[at] == 0xD9;
}

unsigned long sjt_libjpeg_checks(const sjt_state *s) { return s->libjpeg_checks; }

int sjt_skim(sjt_state *s, char *message, size_t length) {
  if (!s->opened) return snprintf(message, length, "no file opened"), -1;
  if (sjt_whole(s, message, length)) return -1;
  if (sjt_scan_clean(s)) {
    sjt_close(s);
    return 0;
  }
  s->libjpeg_checks++;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  sjt_read_to_end(&s->src);
  sjt_close(s);
  return 0;
}

