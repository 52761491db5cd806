#ifndef STAMPCAM_JPEG_STATE_H
#define STAMPCAM_JPEG_STATE_H

// The coefficient path's state (jpeg_state.c), shared by its files (not part of the module's interface).

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"
#include "jpeg_arrays.h"
#include "jpeg_direct.h"
#include "jpeg_errors.h"
#include "jpeg_restart_index.h"
#include "jpeg_splice.h"

struct sjt_state {
  sjt_errors error;  // first: every libjpeg object's `err` leads back to it; its progress monitor checks the stop
  struct jpeg_decompress_struct src;  // the photo being edited
  struct jpeg_decompress_struct aux;  // small region JPEGs, read back
  struct jpeg_compress_struct enc;    // small region JPEGs, written to memory
  struct jpeg_compress_struct dst;    // the output file
  jvirt_barray_ptr *coefficients;     // the photo's, once read
  unsigned char *file;                // the photo's bytes, buffer reused across jobs
  size_t file_cap, file_len;          // file_len: the whole file's, or while `whole` is 0 its header's
  // The opened photo's file while only its header is held (a duplicate of the caller's descriptor, the state's own
  // until the whole file is read or the state closed; -1: none), what fstat said of it when it was opened, and the
  // limit it was opened with.
  int fd;
  struct stat identity;
  size_t file_size, max_bytes;
  // 1 when `file` holds the whole file; 0 when it holds the file's first bytes through its scan's header, and the
  // splice reads the rest through a window of `window` bytes (sjt_set_window; 0: never) into `window_buf`.
  int whole;
  // 1 once a read found the opened file changed since it was opened (sjt_photo_changed).
  int changed;
  size_t window;
  unsigned char *window_buf;
  size_t window_cap;
  unsigned char *mem, *mem_out;       // a region JPEG, buffer reused across jobs
  unsigned long mem_cap, mem_len;
  unsigned char *icc;
  unsigned int icc_len;
  FILE *out;                          // the output file's stream while sjt_write writes it
  char *out_buffer;                   // stdio's buffer for outputs (see sjt_output_open), reused across jobs
  int opened;
  sjt_restarts restarts;  // the opened file's restart intervals, once indexed (jpeg_restart_index.c)
  sjt_splice splice;      // the opened file's splice, once indexed (jpeg_splice_parts.c)
  // 1 when the source decompressor holds a part of the photo (a restart span, a splice rectangle), not the photo.
  int reading_part;
  sjt_arrays arrays;      // the photo's coefficient arrays (jpeg_arrays.c)
  sjt_direct direct;      // regions straight between coefficients and pixels (jpeg_direct.c)
  // The standard Huffman tables (luma, chroma), kept from a fresh compressor: libjpeg-turbo's jpeg_set_defaults
  // leaves a reused compressor the tables an earlier file optimized, so sjt_keep_coding puts these back.
  JHUFF_TBL standard_dc[2], standard_ac[2];
  // Whole reads of the photo's data by libjpeg only to check it (sjt_skim, sjt_restart_check after the scanner
  // could not clear it): what tests count to tell that the scanner spared one (sjt_libjpeg_checks).
  unsigned long libjpeg_checks;
};

/// After a longjmp: hands the message over and resets every libjpeg object, so the state serves the next job.
int sjt_report(sjt_state *s, const char *text, char *message, size_t length);

/// Reads a started-or-not decompressor's data to its end keeping nothing: libjpeg-turbo decodes the skipped rows'
/// Huffman symbols (it must, to stay in step) and drops them, so no coefficient is kept, transformed or converted;
/// only the last row is transformed, and every restart marker and warning is met as a whole-photo decode meets it.
/// Errors and warnings longjmp through the state's error manager, as every libjpeg call here does.
void sjt_read_to_end(struct jpeg_decompress_struct *d);

/// 1 when the baseline scanner (JPEGScan.h) reads the opened file's entropy-coded data to the end without finding
/// damage and only EOI follows the scan: libjpeg's read of it to the end would then warn of nothing, and is skipped
/// (the scan costs three quarters of that read on a 4:4:4 photo). 0 sends the caller to that read, whose warning (in
/// libjpeg's words, with its kind) or silence decides, as before the scanner: damage the scanner found, a coding it
/// does not handle, its two readings stricter than libjpeg's (see jpeg_scan.c), segments after the scan (libjpeg
/// reads them and may warn), and a stop raised (libjpeg's progress monitor then fails the read as "stopped").
int sjt_scan_clean(const sjt_state *s);

/// Reads the rest of the opened file, when only its header is held, and points the decompressor at the whole file
/// (its header read again). Fails ("the photo changed while it was read", the state closed) when the file is not
/// what was opened (sjt_changed). Every path but the splice starts here.
int sjt_whole(sjt_state *s, char *message, size_t length);

/// Fails a call because the opened file changed since it was opened: the message says so, sjt_photo_changed says 1
/// until the next open. Returns -1.
int sjt_fail_changed(sjt_state *s, char *message, size_t length);

/// Closes the state's descriptor of the opened file, if it holds one.
void sjt_let_go(sjt_state *s);

/// 1 when the opened file is no longer what was opened: another size, inode, or modification or change time
/// (fstat; but a change time with another link count: a link made or removed, the bytes kept). Reads through a
/// window are checked with it.
int sjt_changed(const sjt_state *s);

/// The count of libjpeg's whole reads made only to check the data (sjt_state's `libjpeg_checks`). For tests alone:
/// declared here and in the test shim, not in the module's interface.
unsigned long sjt_libjpeg_checks(const sjt_state *s);
/// 1 when the opened file is held whole in memory, 0 when only its header is (tests alone, as above).
int sjt_holds_whole(const sjt_state *s);

#endif
