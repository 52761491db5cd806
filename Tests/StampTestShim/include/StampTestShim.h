#ifndef STAMPCAM_STAMPTESTSHIM_H
#define STAMPCAM_STAMPTESTSHIM_H

// C wrappers only the tests use: writers that make fixtures, metadata setters and probes, and a block-by-block
// comparison of two JPEGs' DCT coefficients. The product's wrappers are in CVipsGlue.
//
// Ownership, as in CVipsGlue: every `VipsImage **out` argument receives a NEW reference that the caller owns and
// must release with g_object_unref. Input images are borrowed. On failure a wrapper returns non-zero and leaves
// `*out` untouched, with libvips' message in the thread's error buffer.

#include <stddef.h>
#include <vips/vips.h>

#include "JPEGSpliceOracle.h"

/// Writers. Each writes `in` to `path` in its format whatever the file name; 0 on success.
int scv_save_jpeg(VipsImage *in, const char *path, int quality);
int scv_save_png(VipsImage *in, const char *path);
int scv_save_tiff(VipsImage *in, const char *path);

/// JPEG writer with the choices tests need: `subsample_mode` is a VipsForeignSubsample (0 auto, 1 4:2:0, 2 4:4:4),
/// `interlace` writes a progressive file, `restart_interval` puts a restart marker every so many MCUs (0: none),
/// `optimize_coding` makes Huffman tables fitted to the picture instead of the standard ones.
int scv_save_jpeg_options(VipsImage *in, const char *path, int quality, int subsample_mode, int interlace,
  int restart_interval, int optimize_coding);

/// A copy with the EXIF orientation tag set to `orientation` (pixels unchanged). `*out` is a new reference.
int scv_set_orientation(VipsImage *in, VipsImage **out, int orientation);

/// Attaches libvips' built-in sRGB ICC profile (pixels transformed from sRGB to sRGB). `*out` is a new reference.
int scv_attach_srgb_profile(VipsImage *in, VipsImage **out);

/// Sets a string metadata field on a copy (e.g. an exif-ifd field or xmp). `*out` is a new reference.
int scv_set_string(VipsImage *in, VipsImage **out, const char *field, const char *value);

/// True when the image carries the metadata field.
int scv_has_field(VipsImage *in, const char *field);

/// Compares component `component` of two JPEGs block by block. Sets `*blocks_wide`/`*blocks_high`,
/// fills `mask` (when capacity allows) with 1 for each block whose coefficients differ, and returns the count of
/// differing blocks, or -1 on error (message set), -2 when the two layouts differ.
int sjt_diff_blocks(const char *a, const char *b, int component, unsigned char *mask, size_t capacity,
  int *blocks_wide, int *blocks_high, char *message, size_t length);

/// Writes `pixels` (`components` 1: grey, 3: RGB, or 4: CMYK, interleaved) as a JPEG with libjpeg: component i
/// sampled h[i] x v[i], colour coded as YCbCr or, with `rgb_coded`, as RGB (CMYK as libjpeg codes it: as it is,
/// with an Adobe marker); accurate integer DCT. 0, or -1 (message set).
int sjt_fixture_write(const char *path, const unsigned char *pixels, int width, int height, int components,
  int rgb_coded, const int *h, const int *v, int quality, char *message, size_t length);

/// As `sjt_fixture_write`, with the standard Huffman tables (`optimize_coding` 0), tables fitted to the picture (1),
/// or tables of the file's own that still code every symbol (2: the standard code lengths, the symbols in reverse
/// order), and a restart marker every `restart_interval` MCUs (0: none).
int sjt_fixture_write_coded(const char *path, const unsigned char *pixels, int width, int height, int components,
  int rgb_coded, const int *h, const int *v, int quality, int optimize_coding, int restart_interval, char *message,
  size_t length);

/// libjpeg's quantized DC coefficients of one component of the JPEG in `data` (jpeg_read_coefficients), row by row
/// over `*wide` x `*high` blocks: the component's blocks and, in an interleaved scan, the padding blocks that fill
/// its last MCUs. `*warnings` is libjpeg's count of warnings (corrupt data) over the whole read. 0, or -1 (message
/// set) when libjpeg refuses the file.
int sjt_fixture_dc(const unsigned char *data, size_t size, int component, int *dc, size_t capacity, int *wide,
  int *high, long *warnings, char *message, size_t length);

/// How many times libjpeg read a photo's whole entropy-coded data only to check it (the skim before the pixel path,
/// the restart-interval check), when the entropy scanner could not clear it: `state` is a JPEGCodec's `sjt_state`.
/// Defined in CJPEGDirect and declared only in its private header and here, so that only tests can count.
struct sjt_state;
unsigned long sjt_libjpeg_checks(const struct sjt_state *state);
/// 1 when `state` holds the photo it opened whole in memory, 0 when only its header (the splice reads the rest through
/// a window). Defined and declared as above.
int sjt_holds_whole(const struct sjt_state *state);

/// libjpeg's own decode of a whole JPEG to RGB with its defaults (accurate integer IDCT, fancy upsampling), into
/// `rgb` (`capacity` bytes); sets the size. 0, or -1 (message set).
int sjt_fixture_decode(const char *path, unsigned char *rgb, size_t capacity, int *width, int *height, char *message,
  size_t length);

/// What the lossless JPEG path should write for a colour `photo` that `edited` is an edit of, made with libjpeg
/// alone: the photo's coefficients, except in each block where `edited`'s differ, libjpeg's encoding (the photo's
/// quantization tables and sampling, accurate integer DCT) of `pixels` (RGB, the stored frame, `width` x `height`,
/// as the edit should look). Written to `path`. 0, or -1 (message set).
int sjt_fixture_expected(const char *photo, const char *edited, const unsigned char *pixels, int width, int height,
  const char *path, char *message, size_t length);

#endif
