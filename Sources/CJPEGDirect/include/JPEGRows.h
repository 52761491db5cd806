#ifndef STAMPCAM_JPEGROWS_H
#define STAMPCAM_JPEGROWS_H

// A JPEG's pixels decoded by libjpeg (jpeg_rows.c) top to bottom in one pass that also reads the data to its end:
// damage libjpeg finds only past the last row (which a decoder that stops at the last row never reads) fails the
// decode. Decoded with libjpeg's defaults (RGB or grey out, libjpeg's own IDCT and upsampling).
//
// libjpeg's errors and warnings (corrupt or truncated data) end the decode; nothing crosses into the caller but a
// status and the message. One thread at a time uses a reader.

#include <stddef.h>

#include "JPEGStop.h"

/// Opaque.
typedef struct sjr_reader sjr_reader;

/// What the header says the decode gives.
typedef struct {
  int width, height, components;  // of the decoded pixels
  int precision;                  // bits per sample in the file
  int rgb;                        // 1 when the pixels come out RGB, 3 components
  int grey;                       // 1 when they come out grey, 1 component
  int multiscan;                  // 1 when the data is several scans (progressive): decoded whole first
} sjr_header;

/// A reader over the file open on `fd` (duplicated: the caller keeps owning `fd`; read with pread from its start,
/// the offset untouched), reading at most `max_bytes` of it and stopping once `stop` is raised (when `stop` is not
/// NULL; the reader holds a reference to it, sjs_stop_retain, until sjr_free). Reads the header into `*header`. NULL when out of memory, `fd`
/// cannot be duplicated, or libjpeg cannot read the header. The caller frees it with sjr_free.
sjr_reader *sjr_open(int fd, size_t max_bytes, const sjs_stop *stop, sjr_header *header);

/// Decodes rows top ..< top + height (clipped to the picture) into `pixels` (the caller's: row y at
/// `pixels + (y - top) * stride`), which must be whole rows (`left` 0, `width` the picture's) that follow the rows
/// decoded before; after the last row it reads the data to its end and lets go of the file. 0 on success; -1 when
/// the decode fails or failed before (sjr_message says why; every later call fails too).
int sjr_read_rows(sjr_reader *r, int left, int top, int width, int height, unsigned char *pixels, size_t stride);

/// Has a photo of several scans (header `multiscan`) decoded into `arrays` (sjt_arrays_of: a codec's, kept from
/// photo to photo) instead of coefficient arrays libjpeg allocates for it alone. Call before the first row; `arrays`
/// must stay the reader's until sjr_end. 1 when they will be used; 0 when the photo is one scan or rows were read.
int sjr_use_arrays(sjr_reader *r, void *arrays);

/// The message of the last failure ("" when none). Owned by the reader, valid until its next call.
const char *sjr_message(const sjr_reader *r);

/// What stopped the decode: 0 nothing, 1 the data ends early, 2 other corrupt data, 3 anything else (a read error,
/// a stop, rows asked out of order); the message is copied to `message` (`length` bytes) when not 0.
int sjr_failure(const sjr_reader *r, char *message, size_t length);

/// Lets go of libjpeg's memory and the file; the reader stays, for sjr_failure (later reads fail).
void sjr_end(sjr_reader *r);

/// sjr_end, then frees the reader. NULL: nothing.
void sjr_free(sjr_reader *r);

#endif
