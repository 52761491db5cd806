#ifndef STAMPCAM_JPEG_HUFFMAN_H
#define STAMPCAM_JPEG_HUFFMAN_H

// The baseline scanner's Huffman tables, bit reader and frame (jpeg_scan.c), shared with the splicer
// (jpeg_splice.c), which decodes a few MCUs with them and encodes DC differences again. Not part of the module's
// interface.

#include <stddef.h>
#include <stdint.h>

#include "JPEGScan.h"

enum { SJS_LOOKAHEAD = 10, SJS_EOB = 127, SJS_MULTI = 12 };

typedef struct {
  int defined;
  long maxcode[18];  // largest code of each length, -1 when none
  int valoffset[18];  // index into vals of a length's first code, less that code
  unsigned char vals[256];
  // The code of each symbol (its first, when a table lists one twice) and its length (0: the table has none), to
  // write symbols again.
  unsigned short code[256];
  unsigned char size[256];
  unsigned short fast[1 << SJS_LOOKAHEAD];  // (length << 8 | symbol) of the code a 10-bit prefix starts, 0: longer
  // AC tables: for the code a 10-bit prefix starts, the bits it and its magnitude take (low 5 bits) and how far it
  // moves the coefficient index (SJS_EOB for an end of block), 0 when longer. The magnitude is skipped unread, so
  // one look-up is a whole coefficient.
  unsigned short skip[1 << SJS_LOOKAHEAD];
  // AC tables: the whole coefficients (code and magnitude) a 12-bit prefix holds, one after another: the bits they
  // take (bits 0-3), how far they move the index (bits 4-10), 1 in bit 11 when the last is an end of block; 0 when
  // not even one fits. Each symbol of a Huffman decode waits on the one before; taking several a look-up shortens
  // that chain (reading, scanning and writing a 100-MP photo took 0.35 s of user time with one symbol a look-up,
  // 0.23 with this).
  unsigned short multi[1 << SJS_MULTI];
} sjs_table;

/// A file read through a window of its bytes (pread at file offsets), for a scan that does not hold the whole file.
typedef struct {
  int fd;
  size_t size;  // the file's size when it was opened: nothing past it is read
  unsigned char *buf;  // the window
  size_t cap;
  int failed;  // a read failed or came short of `size` (the file changed under the scan)
} sjs_window;

/// Where a scan reads the file: all of it in memory (`fd` -1), or its first bytes, through the scan's header, in
/// memory and the rest through windows of `window` bytes.
typedef struct {
  const unsigned char *data;
  size_t length;
  int fd;
  size_t size, window;
} sjs_source;

typedef struct {
  const unsigned char *data;  // the bytes held: the whole file, or the window (win->buf)
  size_t length, pos;  // pos: the next byte to load; positions index `data`
  size_t origin;  // the file offset of data[0] (0 in memory)
  sjs_window *win;  // NULL: `data` is all there is
  uint64_t acc;  // the loaded bits not yet used are the low `bits` bits
  int bits;
  int marker;  // 1 once a marker stops the loading (pos stays on its first 0xFF)
  int ended;  // 1 once the buffer ends before a marker
  int fill;  // 1 once fill bytes inside the data stop the loading as a marker does (see sjs_fill)
  size_t loaded;  // bytes loaded since the reader was reset
  size_t offsets[16];  // file offset of loaded byte i, at i % 16 (at most 8 loaded bytes are unused at a time)
} sjs_reader;

typedef struct {
  int width, height, nf;
  int id[4], h[4], v[4];
  int ns;
  int order[4];  // the frame component of the scan's i-th component
  int dc[4], ac[4];  // the scan's tables, by frame component
  long restart;
  // The blocks of one MCU in coding order, by frame component, and their count (set by the scan).
  int blocks[10], count;
  sjs_table tables[2][4];
} sjs_frame;

/// Scans as sjs_scan does, into a frame the caller provides (its tables stay there for sjs_recode), storing points
/// either every `stride`-th MCU's or, when `rows` is not NULL, those of the MCU rows it marks (`rows[y]` non-zero for
/// y < row_count): for the k-th marked row, its MCUs' starts at points[k * (mcus_wide + 1) + x] and the point after
/// its last MCU (before a restart marker that follows it) at points[k * (mcus_wide + 1) + mcus_wide]. A marked row whose points do not fit in `capacity` is
/// not stored (check `result->points`, the count of entries written).
int sjs_scan_into(const unsigned char *data, size_t length, long stride, const unsigned char *rows, long row_count,
  sjs_point *points, size_t capacity, sjs_result *result, sjs_frame *frame);

/// As sjs_scan_into with `rows` (stride 1), of the file `source` holds or reads through windows (one for each thread),
/// in two threads when that pays: a second one scans from the middle of the file (from byte `split_at`; 0: the
/// middle, and only with two processors or more and 2 MB of file or more; SIZE_MAX: one thread) and the results are
/// the same as one thread's, bit for bit (see jpeg_scan.c).
int sjs_scan_split(const sjs_source *source, const unsigned char *rows, long row_count, sjs_point *points,
  size_t capacity, sjs_result *result, sjs_frame *frame, size_t split_at);

/// Reads file bytes [at, at + n) of `fd` into `into` with pread, a call interrupted by a signal made again; the count
/// read (short: the file ended, or a read failed and errno says why).
size_t sjs_pread(int fd, unsigned char *into, size_t n, size_t at);

/// Places the reader at file bit `bit` of `data` (a point of a scan).
void sjs_seek(sjs_reader *r, const unsigned char *data, size_t length, uint64_t bit);
/// Places the reader at file bit `bit` of the file `w` reads: its window moves there unless it holds that byte.
/// Reads that fail or come short set `w->failed`; the reader then finds the data ended.
void sjs_seek_window(sjs_reader *r, sjs_window *w, uint64_t bit);
/// Decodes one symbol; 0, or a damage kind.
int sjs_decode(sjs_reader *r, const sjs_table *t, int *symbol);
/// Takes n (at most 16) magnitude bits; 0, or a damage kind.
int sjs_take(sjs_reader *r, int n, unsigned *value);
/// The file bit offset of the reader's next unused bit.
uint64_t sjs_position(const sjs_reader *r);

#endif
