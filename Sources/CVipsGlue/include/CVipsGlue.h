#ifndef STAMPCAM_CVIPSGLUE_H
#define STAMPCAM_CVIPSGLUE_H

// Fixed-arity wrappers over libvips' variadic calls, which Swift cannot make.
//
// Ownership: every `VipsImage **out` argument receives a NEW reference that the caller owns and must release
// with g_object_unref (the Swift image handle does it in deinit). Input images are borrowed: a wrapper never
// takes or drops a reference to its inputs. On failure a wrapper returns non-zero (or NULL), leaves `*out`
// untouched, and libvips' message is in the thread's error buffer (scv_error_take).

#include <vips/vips.h>

/// Starts libvips once per process; returns 0 on success. Safe to call from several threads.
int scv_init(void);

/// Gives each libvips pipeline started from now on ceil(cores / jobs) worker threads (at least one), so that `jobs`
/// jobs in flight share the cores instead of each starting one thread per core; leaves libvips' setting alone when
/// the VIPS_CONCURRENCY environment variable gave it. Returns the threads per pipeline, or -1 when libvips does not
/// start.
int scv_share_cores(int jobs, int cores);

/// Copies libvips' error buffer into a new malloc'd string the caller frees, and clears the buffer (in one step,
/// under libvips' lock). The buffer is the process's: with other threads failing at once the text may hold their
/// messages too; scv_check_file gives a file's own. Takes the gate's shared side itself: call it outside one.
char *scv_error_take(void);

/// The shared side of the error gate: every libvips call that can fail runs between these two, never nested, so
/// that scv_check_file can run alone. Safe from any thread.
void scv_gate_enter(void);
void scv_gate_leave(void);

/// Opens and decodes every pixel of the file at `path` (sequentially, `fail_on` a VipsFailOn value) while no other
/// libvips call is in flight. NULL when it decodes; otherwise a new malloc'd string the caller frees: the libvips
/// errors and warnings of this check alone, one per line. `loader` (the caller's buffer of `loader_size` bytes)
/// receives the nickname of the loader the file's first bytes select ("jpegload", "pngload"), or "" when none does.
/// Must not be called inside the gate's shared side.
char *scv_check_file(const char *path, int fail_on, char *loader, size_t loader_size);

/// How many tiles libvips failed to compute so far, process-wide. libvips 8.14's tile cache hands a tile whose
/// computation failed to the other threads waiting for it as black, without the error: an evaluation during which
/// this count moved may have succeeded over a damaged input (or another job's failed meanwhile).
int scv_tile_errors(void);

/// Why scv_load_descriptor refused a file before libvips read it; callers decide by this code, never by the text.
typedef enum scv_load_refusal {
  /// Not refused: the image was opened, or libvips itself failed (its message is in the shared buffer).
  SCV_LOAD_NOT_REFUSED = 0,
  /// The file could not be opened again on a descriptor of its own (the text carries errno's words).
  SCV_LOAD_CANNOT_REOPEN = 1,
  /// No loader knows the file's first bytes.
  SCV_LOAD_UNKNOWN_FORMAT = 2,
  /// A loader knows it, but the policy does not allow that loader (the text names it).
  SCV_LOAD_LOADER_NOT_ALLOWED = 3,
} scv_load_refusal;

/// Opens an image lazily (the header is read, pixels are not decoded until needed) from the regular file open on
/// `fd` (borrowed: the image reads a descriptor of its own on the same file, from its start, so several images
/// may come from one `fd`). Only JPEG, PNG, WebP, TIFF, GIF and HEIF are read unless `any_loader`.
/// `sequential` selects top-to-bottom access; `fail_on` is a VipsFailOn value. Returns a new reference or NULL.
/// When the file is refused before libvips reads it (no loader knows it, or the policy does not allow its loader),
/// `*refusal` says why and the reason in words is written to `why` (of `why_size` bytes), not to libvips' shared
/// error buffer, so that it cannot be taken by another thread's failure; otherwise `*refusal` is
/// SCV_LOAD_NOT_REFUSED, `why` is left empty and on failure the buffer holds libvips' message.
/// A JPEG is decoded `jpeg_shrink` (1, 2, 4 or 8) times smaller each way by libjpeg's scaled decoding when that is
/// above 1 (other formats ignore it).
VipsImage *scv_load_descriptor(
  int fd, int sequential, int fail_on, int any_loader, int jpeg_shrink, scv_load_refusal *refusal, char *why,
  size_t why_size);

/// Lets libvips' untrusted loaders run (1) or blocks them again (0, the default). Process-wide.
void scv_allow_untrusted(int allow);

/// The EXIF orientation (1..8) recorded in the header, 1 when there is none.
int scv_orientation(VipsImage *in);

/// Rotates/flips to upright per the EXIF orientation and resets the tag. `*out` is a new reference.
int scv_autorot(VipsImage *in, VipsImage **out);

/// Converts to sRGB (8-bit, with or without alpha as the input had). `*out` is a new reference.
int scv_to_srgb(VipsImage *in, VipsImage **out);

/// Converts to 16-bit RGB (RGB16, ushort; with or without alpha as the input had). `*out` is a new reference.
int scv_to_rgb16(VipsImage *in, VipsImage **out);

/// An 8-bit image (premultiplied or not) as 16-bit RGB16, every sample times 257. `*out` is a new reference.
int scv_widen_to_rgb16(VipsImage *in, VipsImage **out);

/// Appends an opaque alpha band (255) when there is none; otherwise a new reference to a copy. `*out` is new.
int scv_ensure_alpha(VipsImage *in, VipsImage **out);

/// Premultiplies colour by alpha; the result is float. `*out` is a new reference.
int scv_premultiply(VipsImage *in, VipsImage **out);

/// Divides colour by alpha (the inverse of scv_premultiply); the result is float. `*out` is a new reference.
int scv_unpremultiply(VipsImage *in, VipsImage **out);

/// Affine transform X = a*x + b*y + odx, Y = c*x + d*y + ody (libvips coordinates: pixel centres at integers),
/// generating the output area [0, 0, width, height], with the named interpolator ("bicubic", "bilinear", ...)
/// and transparent black outside the input. `premultiplied` says the input's alpha is already premultiplied.
/// `*out` is a new reference.
int scv_affine(
  VipsImage *in, VipsImage **out, double a, double b, double c, double d, double odx, double ody, int width,
  int height, const char *interpolator, int premultiplied);

/// Separable Lanczos-3 reduction by the given factors (>= 1). `*out` is a new reference.
int scv_reduce(VipsImage *in, VipsImage **out, double hshrink, double vshrink);

/// Averages each `factor` x `factor` block (a box filter, libvips' shrink): the image is first padded with
/// zeros (transparent, for premultiplied pixels) to whole blocks, at the right and bottom, or at the left
/// (`pad_left`) and top (`pad_top`), so that output pixel i covers input [i * factor, (i + 1) * factor) of the
/// padded image exactly. Reads its input top to bottom once. `*out` is a new reference.
int scv_box_shrink(VipsImage *in, VipsImage **out, int factor, int pad_left, int pad_top);

/// Composites n images (in[0] is the base) with the blend mode `mode` for each overlay, placing overlay i at
/// (x[i-1], y[i-1]) on the base. `premultiplied` says every input is premultiplied. `*out` is a new reference.
int scv_composite(
  VipsImage **in, int n, int mode, const int *x, const int *y, int premultiplied, VipsImage **out);

/// `main` with `sub` (the same bands and format, lying wholly inside it) in place of its pixels from (x, y). `*out`
/// is a new reference.
int scv_insert(VipsImage *main, VipsImage *sub, int x, int y, VipsImage **out);


/// Marks (`sequential` 1) or unmarks (0) `in` as a top-to-bottom pipeline (libvips' "vips-sequential" field) on a
/// copy. Unmarked, libvips' inserts (and joins) do not minimise their inputs when a request passes them by 1024 rows,
/// which in a sequential pipeline empties the loader's line cache that the other crops of the same photo still read
/// from.
/// `*out` is a new reference the caller owns.
int scv_mark_sequential(VipsImage *in, VipsImage **out, int sequential);

/// Casts to the given band format, rounding to nearest. `*out` is a new reference.
int scv_cast(VipsImage *in, VipsImage **out, VipsBandFormat format);

/// Bands first ..< first + n of the input. `*out` is a new reference.
int scv_extract_bands(VipsImage *in, VipsImage **out, int first, int n);

/// Crops the rectangle; `*out` is a new reference.
int scv_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height);

/// Copies the image into memory (decoding it once). `*out` is a new reference.
int scv_copy_memory(VipsImage *in, VipsImage **out);

/// A copy whose metadata is stripped of everything but the ICC profile (and the orientation tag when
/// `keep_orientation`). `*out` is a new reference.
int scv_strip_metadata(VipsImage *in, VipsImage **out, int keep_icc, int keep_orientation);

/// Writes `in` to the open file `fd` (which the caller keeps owning) in `format`: 0 JPEG (at `quality`), 1 PNG,
/// 2 WebP (lossy, at `quality`), 3 TIFF (deflate), 4 AVIF, 5 HEIC, 6 JPEG XL (at `quality`); 0 on success, -1 with the libvips error buffer set and
/// `*write_errno` the errno of this save's first failed write, read or seek on `fd` (0 when none failed: the
/// encoder or its input did).
int scv_save_descriptor(VipsImage *in, int fd, int format, int quality, int *write_errno);

/// 0 when a small picture encodes in `format` (numbered as in scv_save_descriptor), -1 with the libvips error
/// buffer set when this machine's libvips or its codec library cannot write it.
int scv_save_probe(int format);

/// Writes `in` as JPEG to the open file `fd` (still the caller's) with a chroma `subsample_mode` (a
/// VipsForeignSubsample: 1 4:2:0, 2 4:4:4) and, when `interlace`, progressive; returns as scv_save_descriptor.
int scv_save_descriptor_jpeg(
  VipsImage *in, int fd, int quality, int subsample_mode, int interlace, int *write_errno);

/// Creates a new image from raw 8-bit interleaved pixels (copied). New reference or NULL.
VipsImage *scv_new_from_memory_copy(const void *data, size_t length, int width, int height, int bands);

/// An image over raw 8-bit interleaved pixels the caller keeps alive and unchanged for the image's lifetime (not
/// copied). New reference or NULL.
VipsImage *scv_new_from_memory(const void *data, size_t length, int width, int height, int bands);

/// Computes `in` (8-bit, width x height x bands) into `data`, `length` bytes the caller owns: in the calling thread
/// when each pipeline gets one thread (scv_share_cores), with libvips' workers when there are more. 0 or -1.
int scv_write_to_memory(VipsImage *in, void *data, size_t length);

/// Renders SVG text (copied) to an 8-bit sRGB image with alpha. `*out` is a new reference.
int scv_svg(const char *svg, size_t length, VipsImage **out);

/// A JPEG photo's pixels decoded by libjpeg in one pass that also reads the data to its end (CJPEGDirect's row
/// reader; the image over it is vips_jpeg_stream.c): damage libjpeg finds only past the last row, which libvips'
/// loader never reads, fails the decode instead of needing a second read of the file. Referenced by the caller and by
/// each image made from it.
typedef struct scv_jpeg_stream scv_jpeg_stream;

/// The job's stop flag: CJPEGDirect's (JPEGStop.h), passed through to its row reader.
struct sjs_stop;

/// A stream over the file open on `fd` (duplicated: the caller keeps owning `fd`) whose header libvips read as
/// `like`, reading at most `max_bytes` of it and stopping once `stop` is raised (when `stop` is not NULL; its reader
/// holds a reference to the flag for as long as the stream and every image over it live). NULL
/// when `like` is not libvips' JPEG loader's, or libjpeg would not decode it as libvips does (CMYK, YCCK, not 8
/// bits), or libjpeg cannot read its header: libvips then decodes it.
scv_jpeg_stream *scv_jpeg_stream_open(int fd, VipsImage *like, size_t max_bytes, const struct sjs_stop *stop);

/// The photo as an image with `like`'s header and metadata, decoded top to bottom once when evaluated (it must be
/// read in order, as a sequential libvips load); it fails at any libjpeg warning. `*out` is a new reference.
int scv_jpeg_stream_image(scv_jpeg_stream *stream, VipsImage *like, VipsImage **out);

/// What stopped the decode: 0 nothing, 1 the data ends early, 2 other corrupt data, 3 anything else (a read error,
/// a stop, rows asked out of order); libjpeg's or the reader's message is copied to `message`.
int scv_jpeg_stream_failure(scv_jpeg_stream *stream, char *message, size_t length);

/// 1 when the photo is several scans (progressive): decoded whole into coefficient arrays before its first row.
int scv_jpeg_stream_multiscan(scv_jpeg_stream *stream);

/// Has such a photo decoded into `arrays` (a codec's kept arrays: sjt_arrays_of), which must stay the stream's
/// until scv_jpeg_stream_end; before the image is evaluated. 1 when they will be used.
int scv_jpeg_stream_use_arrays(scv_jpeg_stream *stream, void *arrays);

/// Ends the decode (libjpeg's memory and the file let go; later rows fail), waiting for a read in flight: after it
/// the arrays lent are free again.
void scv_jpeg_stream_end(scv_jpeg_stream *stream);

/// Lets go of the caller's reference.
void scv_jpeg_stream_release(scv_jpeg_stream *stream);

#endif
