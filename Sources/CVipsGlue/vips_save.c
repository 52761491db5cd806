#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // TEMP_FAILURE_RETRY (unistd.h): a call interrupted by a signal is made again
#endif

#include "CVipsGlue.h"

#include <errno.h>
#include <unistd.h>

#include <vips/vips.h>

// Writing an output through the caller's descriptor.
//
// libvips says only "write error" in its error buffer when a write fails, and that buffer is the process's: with
// two jobs failing at once, one job's text (with the errno's words) is taken by the other and the first is left
// with none. So the saver writes through a target whose writes stampcam makes itself (libvips' custom target,
// called from libvips' write thread): the first errno of this save is kept in the save's own `sink`, for the
// caller to name the cause whatever the buffer holds.

typedef struct {
  int fd;
  int error;
} scv_sink;

static void scv_sink_failed(scv_sink *sink) {
  if (!sink->error) sink->error = errno ? errno : EIO;
}

static gint64 scv_sink_write(VipsTargetCustom *target, const void *data, gint64 length, scv_sink *sink) {
  (void) target;
  gint64 done = 0;
  while (done < length) {
    ssize_t n = TEMP_FAILURE_RETRY(write(sink->fd, (const char *) data + done, (size_t) (length - done)));
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;
      scv_sink_failed(sink);
      return -1;
    }
    done += n;
  }
  return done;
}

static gint64 scv_sink_read(VipsTargetCustom *target, void *buffer, gint64 length, scv_sink *sink) {
  (void) target;
  ssize_t n = TEMP_FAILURE_RETRY(read(sink->fd, buffer, (size_t) length));
  if (n < 0) scv_sink_failed(sink);
  return n;
}

static gint64 scv_sink_seek(VipsTargetCustom *target, gint64 offset, int whence, scv_sink *sink) {
  (void) target;
  off_t at = lseek(sink->fd, (off_t) offset, whence);
  if (at < 0) scv_sink_failed(sink);
  return at;
}

static int scv_sink_end(VipsTargetCustom *target, scv_sink *sink) {
  (void) target;
  (void) sink;
  return 0;
}

// A target writing to `sink->fd` (not closed by it). New reference, or NULL.
static VipsTarget *scv_sink_target(scv_sink *sink) {
  VipsTargetCustom *target = vips_target_custom_new();
  if (!target) return NULL;
  g_signal_connect(target, "write", G_CALLBACK(scv_sink_write), sink);
  g_signal_connect(target, "read", G_CALLBACK(scv_sink_read), sink);
  g_signal_connect(target, "seek", G_CALLBACK(scv_sink_seek), sink);
  g_signal_connect(target, "end", G_CALLBACK(scv_sink_end), sink);
  return VIPS_TARGET(target);
}

int scv_save_descriptor(VipsImage *in, int fd, int format, int quality, int *write_errno) {
  scv_sink sink = {fd, 0};
  if (write_errno) *write_errno = 0;
  VipsTarget *target = scv_sink_target(&sink);
  if (!target) return -1;
  int status;
  switch (format) {
  case 0: status = vips_jpegsave_target(in, target, "Q", quality, NULL); break;
  case 1: status = vips_pngsave_target(in, target, NULL); break;
  case 2: status = vips_webpsave_target(in, target, "Q", quality, NULL); break;
  case 3:
    status = vips_tiffsave_target(in, target, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, NULL);
    break;
  // AVIF and HEIC through libheif (AV1 by its libaom, HEVC by its x265); 8 bits a sample, whatever `in` holds.
  case 4:
    status = vips_heifsave_target(in, target, "Q", quality, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1,
      "bitdepth", 8, NULL);
    break;
  case 5:
    status = vips_heifsave_target(in, target, "Q", quality, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_HEVC,
      "bitdepth", 8, NULL);
    break;
  case 6: status = vips_jxlsave_target(in, target, "Q", quality, NULL); break;
  default: vips_error("stampcam", "unknown output format %d", format); status = -1;
  }
  g_object_unref(target);
  if (write_errno) *write_errno = sink.error;
  return status;
}

int scv_save_descriptor_jpeg(
  VipsImage *in, int fd, int quality, int subsample_mode, int interlace, int *write_errno) {
  scv_sink sink = {fd, 0};
  if (write_errno) *write_errno = 0;
  VipsTarget *target = scv_sink_target(&sink);
  if (!target) return -1;
  int status = vips_jpegsave_target(in, target, "Q", quality, "subsample_mode", subsample_mode, "interlace",
    interlace ? TRUE : FALSE, NULL);
  g_object_unref(target);
  if (write_errno) *write_errno = sink.error;
  return status;
}

// A 16 x 16 grey picture encoded in memory in `format` (as scv_save_descriptor numbers them): whether this
// machine's libvips, and the codec library under it, can write the format at all. libvips leaves out a saver it
// was built without, and libheif an encoder it was built without, and neither says so before a save is tried.
int scv_save_probe(int format) {
  VipsImage *grey = NULL;
  if (vips_black(&grey, 16, 16, "bands", 3, NULL)) return -1;
  void *buffer = NULL;
  size_t length = 0;
  int status;
  switch (format) {
  case 4:
    status = vips_heifsave_buffer(grey, &buffer, &length, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, NULL);
    break;
  case 5:
    status = vips_heifsave_buffer(grey, &buffer, &length, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_HEVC, NULL);
    break;
  case 6: status = vips_jxlsave_buffer(grey, &buffer, &length, NULL); break;
  default: status = 0;
  }
  g_object_unref(grey);
  g_free(buffer);
  return status == 0 && (format < 4 || length > 0) ? 0 : -1;
}
