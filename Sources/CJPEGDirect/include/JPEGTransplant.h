#ifndef STAMPCAM_JPEGTRANSPLANT_H
#define STAMPCAM_JPEGTRANSPLANT_H

// DCT-domain editing of JPEGs with libjpeg (baseline or progressive, Huffman or arithmetic, any sampling libjpeg
// can upsample): keep every block of the source, replace only chosen ones, write the source's own coding back.
//
// libjpeg reports errors by longjmp; every entry point here catches them itself (nothing crosses into Swift),
// returns 0 on success, non-zero on failure, and writes libjpeg's message into the caller's `message` buffer.
// libjpeg warnings (corrupt or truncated data) count as failures: the caller then uses another path. Every
// rectangle and mask an entry point is given is checked against the image before anything is read or written: one
// that does not fit is an error (-1, message set), never an access outside a buffer.

#include <stddef.h>

#include "JPEGStop.h"

/// A reusable set of libjpeg objects and buffers; one job at a time uses it. Opaque.
typedef struct sjt_state sjt_state;

/// Colour spaces as the file declares them.
enum { SJT_OTHER = 0, SJT_GRAY = 1, SJT_YCBCR = 2, SJT_RGB = 3, SJT_CMYK = 4, SJT_YCCK = 5 };

/// What a JPEG's header says: enough to decide whether its blocks can be edited in place.
typedef struct {
  int width, height, components, color_space, precision;
  int progressive, arithmetic;
  /// MCUs per restart interval (0: the file has no restart markers).
  int restart_interval;
  /// 1 when every component's quantization table is present and has no zero entry (libjpeg's decoder accepts a
  /// zero, but its encoder divides by the table and would crash on one).
  int quantization_ok;
  /// Sampling factors of the first four components (0 beyond `components`).
  int h[4], v[4];
} sjt_header;

/// A new state, or NULL when out of memory. The caller frees it with sjt_free.
sjt_state *sjt_new(void);
void sjt_free(sjt_state *s);
/// The coefficient arrays the state keeps from photo to photo, to lend to a row reader (sjr_use_arrays) while the
/// state is closed: valid as long as the state, and the state's own next open takes them back.
void *sjt_arrays_of(sjt_state *s);

/// Reads the file open on `fd` (borrowed for the call; read with pread only, the offset untouched) and its header
/// (not yet its coefficients). A regular file larger than the window (sjt_set_window) is read only as far as its
/// scan's header, and the state keeps a duplicate of `fd` until it is closed: the splice reads the rest through the
/// window, and every other path reads the whole file first. Any other file is read whole now. Returns 2 (message
/// set) when the file holds more than `max_bytes` (checked from its size before it is read), 1 when it does not
/// start like a JPEG, -1 on a libjpeg or I/O error, 0 on success. Keeps the ICC profile for sjt_write.
int sjt_open(sjt_state *s, int fd, size_t max_bytes, sjt_header *header, char *message, size_t length);

/// The window through which the splice reads a photo larger than it, in bytes (SJT_WINDOW_DEFAULT when the state is
/// made; at least SJT_WINDOW_MINIMUM; 0: every photo is read whole). The copy of the photo's MCUs reads pieces of at
/// least 17 KB, whatever the window. A photo read through it is checked for a change
/// (fstat: size, inode, modification and change times; a change time explained by a link made or removed, as a
/// rename over the photo's name does, is not one) after its scan and after its output is written, and a
/// change fails the job ("the photo changed while it was read"). Returns the window set; takes effect at the next
/// open.
enum { SJT_WINDOW_DEFAULT = 1 << 20, SJT_WINDOW_MINIMUM = 1024 };
size_t sjt_set_window(sjt_state *s, size_t bytes);

/// After a failure: 1 when libjpeg found the opened file cut short, 2 when it found other corrupt data (bad Huffman
/// codes, restart markers out of order, stray bytes), 0 when the failure was not a damaged file.
int sjt_damage(const sjt_state *s);

/// Makes every later call fail ("stopped") soon once `stop` is raised (set from another thread); NULL: never.
/// The state holds a reference to the flag (sjs_stop_retain) until the next call or sjt_free.
void sjt_set_stop(sjt_state *s, const sjs_stop *stop);

/// Regions decoded and encoded straight between coefficients and pixels with libjpeg's own transforms (`on` 1, the
/// default) or through a small JPEG each (0: entropy-coded both ways, the same pixels and coefficients). Returns 1
/// when the straight way is available at all (libjpeg's transforms passed their check when the state was made).
/// Photos whose quantization tables are not 8-bit, or change between scans, always take the small JPEG.
int sjt_set_direct(sjt_state *s, int on);

/// Which of libjpeg's own modules the straight way runs (its SIMD code where the CPU has it): SJT_DIRECT_DCT_MODULES
/// when its DCT managers do the transforms (else its exported C functions), SJT_DIRECT_COLOUR_MODULES when its
/// colour converters do YCbCr <-> RGB (else stampcam's code to libjpeg's definitions). Both need jpegint.h at build
/// time and passed their checks when the state was made.
enum { SJT_DIRECT_DCT_MODULES = 1, SJT_DIRECT_COLOUR_MODULES = 2 };
int sjt_direct_modules(const sjt_state *s);

/// Reads every DCT coefficient of the opened file into memory (the whole file again when restart spans or splice
/// rectangles were opened before).
int sjt_read_coefficients(sjt_state *s, char *message, size_t length);

/// Reads the opened file's data to its end without keeping it: entropy-decoded and checked (a corrupt-data warning
/// fails as everywhere else), not transformed, except for one row. For a sequential JPEG no coefficient array is
/// made. A baseline file the entropy scanner (JPEGScan.h) reads to its end undamaged is not read by libjpeg at all;
/// any other is, so that what fails, fails in libjpeg's words. Closes the file.
int sjt_skim(sjt_state *s, char *message, size_t length);

/// Decodes the stored-frame pixel rectangle (x, y, width, height) to interleaved RGB in `rgb` (width*height*3
/// bytes, owned by the caller). x and y are multiples of the iMCU size; the rectangle ends at an iMCU boundary or
/// the image's edge (else -1).
/// The pixels are libjpeg's decode of the rectangle's own blocks (its accurate integer inverse DCT, its default
/// upsampling), the rectangle's edges taken as the picture's.
int sjt_decode_region(sjt_state *s, int x, int y, int width, int height, unsigned char *rgb, char *message,
  size_t length);

/// Encodes the RGB pixels of a rectangle (as for sjt_decode_region) with the source's quantization tables and
/// sampling as libjpeg's encoder would (accurate integer DCT, no smoothing), and copies into the source the blocks marked in `masks[c]` (component c's blocks of the
/// rectangle, row-major, ceil(width * h_c / (8 * hmax)) per row; 1 = replace, 0 = keep). Other blocks stay as they
/// are. `mask_count` masks, `mask_lengths[c]` bytes each: a count other than the components', a length other than
/// the rectangle's block count, or an entry other than 0 or 1 is an error. The caller owns every buffer.
int sjt_replace_blocks(sjt_state *s, int x, int y, int width, int height, const unsigned char *rgb,
  const unsigned char *const *masks, const size_t *mask_lengths, int mask_count, char *message, size_t length);

/// Writes the (edited) coefficients to the open file `fd` in the source's coding (see sjt_keep_coding: its
/// quantization tables and sampling; progressive as libjpeg's simple progression when the source was progressive;
/// its restart interval; Huffman tables optimized when the source's were not the standard ones), the ICC profile,
/// and an EXIF block holding only the orientation when it is not 1. Nothing else of the source's. The caller keeps
/// owning `fd` (a duplicate is written through and closed).
int sjt_write(sjt_state *s, int fd, int orientation, char *message, size_t length);

/// Restart intervals (files with restart markers): untouched intervals are copied byte for byte.
///
/// sjt_restart_index finds the opened file's intervals (`*interval` MCUs each) and returns 0; 1 when the file has
/// no restart markers, its scan is not the single interleaved one they need, they are out of order, or its Huffman
/// tables lack a code an edit may need. sjt_span_open makes `count` intervals from `first` (which start and end on
/// MCU rows, `height` pixels of them, else -1) the source whose coefficients sjt_decode_region and
/// sjt_replace_blocks edit, in the span's own coordinates. sjt_span_encode encodes the edited span with the
/// file's Huffman tables and keeps it (with the ICC profile and, when not 1, the orientation). sjt_write_spliced
/// writes the whole file: the spans' intervals where they were encoded, every other interval copied from the
/// source, to the open file `fd`, which the caller keeps owning.
int sjt_restart_index(sjt_state *s, int *interval, char *message, size_t length);
/// Checks every interval of the indexed file as libjpeg reads them in a whole-photo decode (their Huffman symbols
/// decoded and dropped, every restart marker read), so that intervals sjt_write_spliced copies unread are no less
/// checked than the pixel path's: 0 when libjpeg finds nothing wrong, -1 when it warns (corrupt data: sjt_damage
/// says which kind) or fails. The entropy scanner (JPEGScan.h) reads them first; libjpeg reads them only when the
/// scanner cannot clear them. The index and the file stay for sjt_span_open.
int sjt_restart_check(sjt_state *s, char *message, size_t length);
int sjt_span_open(sjt_state *s, int first, int count, int height, char *message, size_t length);
int sjt_span_encode(sjt_state *s, int orientation, char *message, size_t length);
int sjt_write_spliced(sjt_state *s, int fd, char *message, size_t length);

/// The spliced path, for baseline files without restart markers (jpeg_splice_parts.c): only the MCUs under the
/// stamps are read, edited and encoded again; every other MCU is copied as bits from the photo, shifted to its new
/// place, with byte stuffing redone, and the DC difference of the first block of each component re-coded where an
/// MCU follows one from another source. No coefficient array is made for the whole photo.
///
/// sjt_splice_index scans the opened file's entropy-coded data (jpeg_scan.c: every Huffman symbol decoded, every
/// byte checked) and keeps where each MCU of the rows the rectangles cover starts. `rects` holds `count` rectangles
/// of whole MCUs, four ints each (left, top, width, height, in MCUs of the interleaved scan: 8 x max h by 8 x max v
/// pixels), inside the photo, not overlapping, sorted by top then left. Returns 0; 1 when the file is not one the
/// splice takes (progressive, arithmetic, restart markers, several scans, Huffman tables libjpeg's encoder cannot
/// encode with, a grey photo sampled other than 1 x 1, ...: `message` says which; nothing was changed, so the
/// whole-coefficient edit can follow); 2 when the scan found the entropy-coded data damaged (`message` says what and
/// where; the caller reads the file with libjpeg to report it in libjpeg's words); -1 on other errors.
int sjt_splice_index(sjt_state *s, const int *rects, int count, char *message, size_t length);
/// Makes rectangle `k` (of those indexed) a JPEG of its own, whose coefficients sjt_decode_region and
/// sjt_replace_blocks then edit in the rectangle's coordinates (its top-left pixel is (0, 0)).
int sjt_splice_open(sjt_state *s, int k, char *message, size_t length);
/// Encodes the opened rectangle with the photo's Huffman tables and keeps the result for sjt_splice_write. Returns 1
/// (nothing encoded) when those tables, fitted to the photo, lack a code the edited blocks need: the caller then
/// takes the whole-coefficient edit (sjt_read_coefficients reads the whole photo again).
int sjt_splice_encode(sjt_state *s, char *message, size_t length);
/// Writes the whole photo to `fd` (which the caller keeps owning): the photo's header as an output's (its tables,
/// the ICC profile, an EXIF block with the orientation when it is not 1, nothing else), every MCU outside the
/// rectangles copied from the photo and every rectangle's from its encoding, which each rectangle must have.
/// Returns 1, with nothing written, when a DC difference at a seam needs a code the photo's table lacks.
int sjt_splice_write(sjt_state *s, int fd, int orientation, char *message, size_t length);

/// 1 when the last call failed because the opened photo's file changed while it was read (another size, inode,
/// modification or change time than when it was opened, a change time that came with a link made or removed aside;
/// a read that came short), until the next open.
int sjt_photo_changed(const sjt_state *s);

/// Drops the opened file and its coefficients; the state's buffers stay for the next job.
void sjt_close(sjt_state *s);

#endif
