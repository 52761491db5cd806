#include "CVipsGlue.h"

#include <vips/vips.h>

// Writing an output through the caller's descriptor.

int scv_save_descriptor(VipsImage *in, int fd, int format, int quality) {
  VipsTarget *target = vips_target_new_to_descriptor(fd);
  if (!target) return -1;
  int status;
  switch (format) {
  case 0: status = vips_jpegsave_target(in, target, "Q", quality, NULL); break;
  case 1: status = vips_pngsave_target(in, target, NULL); break;
  case 2: status = vips_webpsave_target(in, target, "Q", quality, NULL); break;
  case 3:
    status = vips_tiffsave_target(in, target, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, NULL);
    break;
  default: vips_error("stampcam", "unknown output format %d", format); status = -1;
  }
  g_object_unref(target);
  return status;
}

int scv_save_descriptor_jpeg(VipsImage *in, int fd, int quality, int subsample_mode, int interlace) {
  VipsTarget *target = vips_target_new_to_descriptor(fd);
  if (!target) return -1;
  int status = vips_jpegsave_target(in, target, "Q", quality, "subsample_mode", subsample_mode, "interlace",
    interlace ? TRUE : FALSE, NULL);
  g_object_unref(target);
  return status;
}

