#ifndef STAMPCAM_JPEGSPLICEORACLE_H
#define STAMPCAM_JPEGSPLICEORACLE_H

// libjpeg as the oracle of the spliced JPEG path (CJPEGDirect's sjt_splice_*), which copies MCUs as bits and so is
// code of stampcam's own where libjpeg's would otherwise be: a comparison of two JPEGs' coefficients read by libjpeg,
// and one edit made both ways (spliced, and on the whole photo's coefficients), shared by the tests and by the fuzz
// harness (scripts/fuzz.d/jpeg_fuzz.c). Needs libjpeg and CJPEGDirect only.

#include <stddef.h>

struct sjt_state;

/// What sjo_compare found.
typedef struct {
  /// Real blocks compared (outside the rectangles left out), and of those the blocks whose coefficients differ.
  long compared, differing;
  /// The first differing block (components in frame order, then rows, then columns): its component and its column
  /// and row in the component's block grid; -1 when none differs.
  int component, x, y;
  /// libjpeg's warnings (corrupt data) reading each file to its end: 0 for a file it reads cleanly.
  long warnings[2];
  /// Real blocks of each file (every one, the rectangles' too) whose coefficients no 8-bit picture has: a DC outside
  /// -1024 ... 1023 or an AC past 1023 either way. libjpeg reads them without a warning; its encoder writes what
  /// they make (DC differences past 2047, AC sizes past 10) in size categories no baseline table codes.
  long out_of_range[2];
} sjo_difference;

/// Compares the quantized DCT coefficients of the JPEGs `a` and `b`, as libjpeg reads them (jpeg_read_coefficients,
/// each file read to its end), block by block over each component's real blocks: the `width_in_blocks` x
/// `height_in_blocks` that hold the picture. The padding blocks that fill a component's last MCUs are left out: they
/// are not part of the picture, and libjpeg's encoder rewrites them (zero AC, the DC of the row's last real block),
/// so two files with the same picture may differ there. Equal means identical, all 64 coefficients.
///
/// The blocks of the MCUs in `rects` (`count` rectangles, four ints each: left, top, width, height, in MCUs of
/// 8 x max h by 8 x max v pixels; NULL and 0 for none) are left out too.
///
/// Returns 0 and fills `*difference`; -1 (message set) when libjpeg refuses a file or the arguments are wrong; -2
/// (message set) when the two files' frames differ: size, colour space, components, sampling or quantization tables.
int sjo_compare(const char *a, const char *b, const int *rects, int count, sjo_difference *difference,
  char *message, size_t length);

/// How sjo_edit_both_ways changes each rectangle's pixels. Every change is a function of the rectangle's index, the
/// pixel's place in the rectangle and the seed, so both ways make the very same one.
enum {
  /// Every sample XORed with a hash: every block's DC and AC coefficients move.
  SJO_EDIT_PATTERN = 0,
  /// The rectangle's right-most column of MCUs painted white (even seed) or black (odd): a strong change of the DC
  /// of the last blocks of each of its MCU rows, so that the MCU after the rectangle (copied from the photo) must
  /// have its DC difference coded again.
  SJO_EDIT_RIGHT_COLUMN = 1,
  /// The rectangle's first MCU painted white or black: its DC is far from the one the photo's previous MCU predicts.
  SJO_EDIT_FIRST_MCU = 2,
  /// No pixel changed (the blocks the mask marks are still encoded again from their decode).
  SJO_EDIT_NONE = 3,
};

/// Which blocks sjt_replace_blocks replaces.
enum {
  /// Every block of the rectangle.
  SJO_MASK_ALL = 0,
  /// About half, chosen by a hash of the seed, the rectangle, the component and the block; always the first block of
  /// each component.
  SJO_MASK_SOME = 1,
  /// None: the rectangle's own blocks written back.
  SJO_MASK_NONE = 2,
};

/// One edit, made the same way on both paths.
typedef struct {
  int edit, mask;
  unsigned seed;
  /// The EXIF orientation both outputs are written with (1: none).
  int orientation;
  /// 1: the whole-coefficient edit alone, no splice tried (the reference for a transcode that follows a refusal).
  int whole_only;
  /// 1: the whole-coefficient edit follows the splice on the same opened file even when the splice succeeded (as it
  /// does when a seam's DC difference cannot be coded), instead of on the file opened again.
  int whole_after_splice;
  /// 1: the region decoded and replaced in each rectangle starts at its second MCU column and its second MCU row
  /// (where it has them) and runs to its end: at an offset from the rectangle's origin, as a strip of it is.
  int inset;
} sjo_edit;

/// What happened on each path.
typedef struct {
  /// sjt_splice_index's return: 0 indexed; 1 a file the splice does not take; 2 damaged data; -1 other errors.
  int index;
  /// 1 when the index took rectangles it should have refused (outside the photo, overlapping or unsorted); nothing
  /// was then made of them on the spliced path.
  int bad_rects_taken;
  /// 0 when the spliced output was written; otherwise the return of the step named in `splice_step` (the index, or a
  /// rectangle's open, decode, replace or encode, or the write).
  int spliced;
  char splice_step[40];
  char splice_message[256];
  /// 0 when the whole-coefficient output was written; otherwise the return of the step named in `transcode_step`.
  int transcoded;
  char transcode_step[40];
  char transcode_message[256];
  /// 1 when the whole-coefficient edit followed the splice on the same opened file (after a refusal, the index's or a
  /// step's 1, as the product does, or with `whole_after_splice`), 0 when it opened the file again.
  int same_open;
  /// Samples of the rectangles' decoded pixels (before the edit) on which the splice's decode, in the rectangle's
  /// coordinates, differs from the whole photo's, in the photo's: they decode the same blocks, so 0.
  long pixels_differ;
} sjo_outcome;

/// Edits the JPEG `photo` both ways with the same `edit` of each rectangle of `rects` (`count`, as for
/// sjt_splice_index): spliced (sjt_open, sjt_splice_index, then per rectangle sjt_splice_open, sjt_decode_region,
/// the change, sjt_replace_blocks and sjt_splice_encode, then sjt_splice_write to `spliced`), and on the whole
/// photo's coefficients (sjt_read_coefficients, the same regions in the photo's coordinates, sjt_write to
/// `transcoded`). When the splice refuses (the index, or a step returning 1: a code the photo's tables lack), the
/// whole-coefficient edit follows on the same opened file; otherwise it opens the file again. A path that fails
/// leaves its output file removed.
///
/// `state` is used for both (NULL: a state of its own, freed before returning). Only `*outcome` says what each path
/// did; returns 0, or -1 when the edit could not be run at all (the photo cannot be opened, out of memory: message in
/// `outcome->transcode_message`).
int sjo_edit_both_ways(struct sjt_state *state, const char *photo, const int *rects, int count,
  const sjo_edit *edit, const char *spliced, const char *transcoded, sjo_outcome *outcome);

/// Copies the JPEG `photo` to `path` (libjpeg's jpeg_write_coefficients: its standard Huffman tables unless the
/// photo's coding says otherwise) with the DC coefficients of the first `count` blocks of the first block row of
/// `component` set to `dc`: values no 8-bit picture has, whose differences the copy still codes where each is at
/// most 2047 from the one before. 0, or -1 (message set).
int sjo_fixture_set_dc(const char *photo, const char *path, int component, const int *dc, int count, char *message,
  size_t length);

#endif
