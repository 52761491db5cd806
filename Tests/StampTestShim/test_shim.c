#include "StampTestShim.h"

int scv_save_jpeg(VipsImage *in, const char *path, int quality) {
  return vips_jpegsave(in, path, "Q", quality, NULL);
}

int scv_save_jpeg_options(VipsImage *in, const char *path, int quality, int subsample_mode, int interlace,
  int restart_interval, int optimize_coding) {
  return vips_jpegsave(in, path, "Q", quality, "subsample_mode", subsample_mode, "interlace", interlace ? TRUE : FALSE,
    "restart_interval", restart_interval, "optimize_coding", optimize_coding ? TRUE : FALSE, NULL);
}

int scv_save_png(VipsImage *in, const char *path) { return vips_pngsave(in, path, NULL); }

int scv_save_tiff(VipsImage *in, const char *path) {
  return vips_tiffsave(in, path, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, NULL);
}

int scv_set_orientation(VipsImage *in, VipsImage **out, int orientation) {
  if (vips_copy(in, out, NULL)) return -1;
  vips_image_set_int(*out, VIPS_META_ORIENTATION, orientation);
  return 0;
}

int scv_attach_srgb_profile(VipsImage *in, VipsImage **out) {
  return vips_icc_transform(in, out, "srgb", "input_profile", "srgb", "embedded", FALSE, NULL);
}

int scv_set_string(VipsImage *in, VipsImage **out, const char *field, const char *value) {
  if (vips_copy(in, out, NULL)) return -1;
  vips_image_set_string(*out, field, value);
  return 0;
}

int scv_has_field(VipsImage *in, const char *field) { return vips_image_get_typeof(in, field) != 0; }
