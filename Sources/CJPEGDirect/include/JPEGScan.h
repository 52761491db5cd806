#ifndef STAMPCAM_JPEGSCAN_H
#define STAMPCAM_JPEGSCAN_H

// A scanner of a baseline JPEG's entropy-coded data (jpeg_scan.c): it finds where each MCU starts and each
// component's DC predictor there, without building coefficients, and checks every entropy-coded byte on the way.
// It is the first part of a splice that re-encodes only the MCUs under the stamps and copies the rest as bits; libjpeg
// is its oracle (the tests compare its predictors with libjpeg's DC coefficients, and its damage with libjpeg's
// warnings).
//
// Handled: one SOF0 or SOF1 frame of 8-bit samples, 1 to 4 components with sampling factors 1 to 4 and at most 10
// blocks an MCU, Huffman tables whose DC symbols are sizes 0-11 and whose AC symbols are EOB, ZRL or a run with a
// size 1-10, one scan of every component (Ss 0, Se 63, Ah Al 0), with or without restart intervals. Anything else
// (progressive, arithmetic, lossless, 12-bit, several scans, a table outside those bounds, a header that does not
// parse) is SJS_NOT_HANDLED: the caller takes libjpeg's path, the scanner never guesses.
//
// It reads nothing outside [data, data + length), or, through a window (sjs_scan_file), past the file's size.

#include <stddef.h>
#include <stdint.h>

/// The outcome of a scan.
enum {
  /// Every MCU decoded, every restart marker where it belongs, and the scan ended at a marker with no data left over.
  SJS_OK = 0,
  /// The entropy-coded data is damaged; `damage` and `damage_mcu` say what and where.
  SJS_DAMAGED = 1,
  /// The file is not one this scanner handles (see above); `reason` says why.
  SJS_NOT_HANDLED = 2,
};

/// What damage was found (SJS_DAMAGED).
enum {
  SJS_DAMAGE_NONE = 0,
  /// A Huffman code of 16 bits that is not in the table.
  SJS_DAMAGE_BAD_CODE = 1,
  /// An AC run that goes past coefficient 63.
  SJS_DAMAGE_RUN_PAST_END = 2,
  /// An MCU needs bits past a marker: a marker in the middle of the data, or the data cut short before EOI.
  SJS_DAMAGE_HIT_MARKER = 3,
  /// The buffer ends before the scan's data (or before EOI).
  SJS_DAMAGE_ENDED = 4,
  /// Whole bytes of data after the last MCU of an interval or of the scan, before the next marker.
  SJS_DAMAGE_EXTRA_BYTES = 5,
  /// A marker other than the restart marker due at the end of an interval.
  SJS_DAMAGE_WRONG_MARKER = 6,
  /// Fill bytes inside the data (0xFF 0xFF ... 0x00), which libjpeg-turbo reads without a warning but not as one
  /// data byte 0xFF in every MCU.
  SJS_DAMAGE_FILL_IN_DATA = 7,
};

/// Where an MCU starts: the bit offset of its first bit in the file (byte offset * 8 + bits of that byte already
/// used, most significant first), and each component's DC predictor before its first block (0 after a restart).
typedef struct {
  uint64_t bit;
  int dc[4];
} sjs_point;

/// What a scan found.
typedef struct {
  int status;
  /// The frame: size, components (in frame order), sampling factors, MCUs.
  int width, height, components;
  int h[4], v[4];
  long mcus_wide, mcus_high, mcu_count;
  /// MCUs per restart interval (0: none).
  long restart_interval;
  /// Offset of the first entropy-coded byte, and of the marker that ends the scan (SJS_OK only).
  size_t entropy_start, entropy_end;
  /// 1 when that marker is EOI, after fill bytes or none: nothing else follows the scan (SJS_OK only).
  int ends_at_eoi;
  /// Offset of the frame header's height field (its width follows), once the frame header is read.
  size_t frame_size_at;
  /// MCUs decoded whole before the scan stopped (mcu_count when SJS_OK).
  long mcus_scanned;
  /// The bit offset just after the last MCU's last bit, and each component's DC predictor there (once every MCU
  /// was decoded).
  uint64_t end_bit;
  int end_dc[4];
  /// SJS_DAMAGED: what, in which MCU (mcu_count when after the last one), and the file offset reached.
  int damage;
  long damage_mcu;
  size_t damage_offset;
  /// Points stored: every `stride`-th MCU's (MCU 0, stride, 2 stride, ...), up to the capacity given.
  long points;
  /// SJS_NOT_HANDLED: why, in a few words.
  const char *reason;
} sjs_result;

/// Scans the JPEG in data[0 ..< length]. Stores the start of every `stride`-th MCU in `points` (capacity entries;
/// NULL and 0 to store none), so that the memory is the caller's choice: 1 stores every MCU, 64 a point per 64 MCUs
/// from which a splice rescans at most 63. Fills `*result` and returns its status.
int sjs_scan(const unsigned char *data, size_t length, long stride, sjs_point *points, size_t capacity,
  sjs_result *result);

/// Scans as sjs_scan does, storing the starts of the MCUs of the MCU rows `rows` marks (`rows[y]` non-zero, y <
/// row_count): for the k-th marked row, its MCUs' at points[k * (mcus_wide + 1) + x] and the point after its last
/// MCU at points[k * (mcus_wide + 1) + mcus_wide]. With `split_at` between the scan's start and its end, a second
/// thread scans from that byte on, from a guessed state, and the first takes its results from where the two fall in
/// step (SIZE_MAX: one thread; 0: the middle, when there are two processors and 2 MB of data or more). Whatever the
/// threads, the results are the same.
int sjs_scan_marked(const unsigned char *data, size_t length, const unsigned char *rows, long row_count,
  sjs_point *points, size_t capacity, size_t split_at, sjs_result *result);

/// The smallest window sjs_scan_file reads through.
enum { SJS_WINDOW_MINIMUM = 1024 };

/// Scans as sjs_scan_marked does a file of `size` bytes open on `fd` (borrowed, read with pread only) of which
/// head[0 ..< head_length] are the first bytes, through the scan's header: the rest is read through a window of
/// `window` bytes (each thread its own), so the memory is the windows whatever the file's size. Positions are file
/// offsets, and the results are those of sjs_scan_marked over the whole file. A read that fails or ends before
/// `size` makes the scan SJS_NOT_HANDLED ("the file could not be read to its end"): the file changed or was cut
/// under it.
int sjs_scan_file(const unsigned char *head, size_t head_length, int fd, size_t size, size_t window,
  const unsigned char *rows, long row_count, sjs_point *points, size_t capacity, size_t split_at,
  sjs_result *result);

#endif
