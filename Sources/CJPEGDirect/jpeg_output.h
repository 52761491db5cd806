#ifndef STAMPCAM_JPEG_OUTPUT_H
#define STAMPCAM_JPEG_OUTPUT_H

// The output file's stream, for both writers (the whole photo in its coding, the spliced restart intervals).

#include <stddef.h>
#include <stdio.h>

/// Opens a stream over a duplicate of `fd` (the caller keeps owning `fd`: closing the stream closes only the
/// duplicate) with the megabyte buffer `*buffer`, allocated on first use and owned by the caller, reused across
/// files (stdio's own is 4 KB: a 5 MB photo was some 470 write calls). Close the stream before the buffer writes
/// another file. The caller owns the stream and ends it with sjt_output_close (or fclose after a failure); NULL with
/// the reason in `message` on failure.
FILE *sjt_output_open(char **buffer, int fd, char *message, size_t length);

/// The write tail: closes `out` and returns 0 when everything written reached the file; -1 with the message set when
/// `failed` (a short write the caller saw), the stream's error flag or the close says otherwise.
int sjt_output_close(FILE *out, int failed, char *message, size_t length);

#endif
