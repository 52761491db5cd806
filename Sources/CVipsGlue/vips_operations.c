#include "CVipsGlue.h"

#include <string.h>

#include <vips/vips.h>

// The fixed-arity wrappers over libvips' variadic operations.

int scv_orientation(VipsImage *in) {
  int orientation = 1;
  if (vips_image_get_typeof(in, VIPS_META_ORIENTATION) && !vips_image_get_int(in, VIPS_META_ORIENTATION, &orientation)
      && orientation >= 1 && orientation <= 8)
    return orientation;
  return 1;
}

int scv_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }

int scv_to_srgb(VipsImage *in, VipsImage **out) {
  VipsImage *t = NULL;
  if (vips_colourspace(in, &t, VIPS_INTERPRETATION_sRGB, NULL)) return -1;
  if (t->BandFmt == VIPS_FORMAT_UCHAR) {
    *out = t;
    return 0;
  }
  int result = vips_cast(t, out, VIPS_FORMAT_UCHAR, NULL);
  g_object_unref(t);
  return result;
}

int scv_to_rgb16(VipsImage *in, VipsImage **out) {
  VipsImage *t = NULL;
  if (vips_colourspace(in, &t, VIPS_INTERPRETATION_RGB16, NULL)) return -1;
  if (t->BandFmt == VIPS_FORMAT_USHORT) {
    *out = t;
    return 0;
  }
  int result = vips_cast(t, out, VIPS_FORMAT_USHORT, NULL);
  g_object_unref(t);
  return result;
}

int scv_widen_to_rgb16(VipsImage *in, VipsImage **out) {
  // x * 257 maps 0...255 onto 0...65535 exactly (255 * 257 = 65535), alpha included.
  VipsImage *scaled = NULL, *wide = NULL;
  if (vips_linear1(in, &scaled, 257.0, 0.0, NULL)) return -1;
  int result = vips_cast(scaled, &wide, VIPS_FORMAT_USHORT, NULL);
  g_object_unref(scaled);
  if (result) return -1;
  result = vips_copy(wide, out, "interpretation", VIPS_INTERPRETATION_RGB16, NULL);
  g_object_unref(wide);
  return result;
}

int scv_ensure_alpha(VipsImage *in, VipsImage **out) {
  if (vips_image_hasalpha(in)) return vips_copy(in, out, NULL);
  return vips_bandjoin_const1(in, out, 255.0, NULL);
}

int scv_premultiply(VipsImage *in, VipsImage **out) { return vips_premultiply(in, out, NULL); }

int scv_unpremultiply(VipsImage *in, VipsImage **out) { return vips_unpremultiply(in, out, NULL); }

int scv_affine(
  VipsImage *in, VipsImage **out, double a, double b, double c, double d, double odx, double ody, int width,
  int height, const char *interpolator, int premultiplied) {
  VipsInterpolate *interpolate = vips_interpolate_new(interpolator);
  if (!interpolate) return -1;
  VipsArrayInt *area = vips_array_int_newv(4, 0, 0, width, height);
  // Outside the input: zero in every band (transparent, premultiplied or not). libvips pads the input for the
  // interpolator with `extend` and paints points outside it with `background` (its default, 0). Padding with
  // "black" is those same zeros, but with "background" libvips 8.14 works out the padding's pixel by building and
  // running a one-pixel pipeline (vips__vector_to_ink) each time an affine is made: 0.26 of its 0.6 ms.
  int result = vips_affine(
    in, out, a, b, c, d, "interpolate", interpolate, "oarea", area, "odx", odx, "ody", ody, "premultiplied",
    premultiplied ? TRUE : FALSE, "extend", VIPS_EXTEND_BLACK, NULL);
  vips_area_unref(VIPS_AREA(area));
  g_object_unref(interpolate);
  return result;
}

int scv_reduce(VipsImage *in, VipsImage **out, double hshrink, double vshrink) {
  return vips_reduce(in, out, hshrink, vshrink, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
}

int scv_box_shrink(VipsImage *in, VipsImage **out, int factor, int pad_left, int pad_top) {
  if (factor < 1) factor = 1;
  int width = (in->Xsize + factor - 1) / factor * factor;
  int height = (in->Ysize + factor - 1) / factor * factor;
  int left = pad_left ? width - in->Xsize : 0;
  int top = pad_top ? height - in->Ysize : 0;
  VipsImage *padded = NULL;
  if (vips_embed(in, &padded, left, top, width, height, "extend", VIPS_EXTEND_BLACK, NULL)) return -1;
  int result = vips_shrink(padded, out, (double) factor, (double) factor, NULL);
  g_object_unref(padded);
  return result;
}

int scv_composite(
  VipsImage **in, int n, int mode, const int *x, const int *y, int premultiplied, VipsImage **out) {
  if (n < 2) return vips_copy(in[0], out, NULL);
  int *modes = g_new(int, n - 1);
  for (int i = 0; i < n - 1; i++) modes[i] = mode;
  VipsArrayInt *xs = vips_array_int_new(x, n - 1);
  VipsArrayInt *ys = vips_array_int_new(y, n - 1);
  int result = vips_composite(
    in, out, n, modes, "x", xs, "y", ys, "premultiplied", premultiplied ? TRUE : FALSE, NULL);
  vips_area_unref(VIPS_AREA(xs));
  vips_area_unref(VIPS_AREA(ys));
  g_free(modes);
  return result;
}

int scv_insert(VipsImage *main, VipsImage *sub, int x, int y, VipsImage **out) {
  return vips_insert(main, sub, out, x, y, NULL);
}

int scv_mark_sequential(VipsImage *in, VipsImage **out, int sequential) {
  if (vips_copy(in, out, NULL)) return -1;
  if (sequential) {
    vips_image_set_int(*out, VIPS_META_SEQUENTIAL, 1);
  } else {
    vips_image_remove(*out, VIPS_META_SEQUENTIAL);
  }
  return 0;
}

int scv_cast(VipsImage *in, VipsImage **out, VipsBandFormat format) {
  // vips_cast truncates toward zero; add 0.5 first so values round to nearest.
  if (vips_band_format_isint(in->BandFmt)) return vips_cast(in, out, format, NULL);
  VipsImage *t = NULL;
  if (vips_linear1(in, &t, 1.0, 0.5, NULL)) return -1;
  int result = vips_cast(t, out, format, NULL);
  g_object_unref(t);
  return result;
}

int scv_extract_bands(VipsImage *in, VipsImage **out, int first, int n) {
  return vips_extract_band(in, out, first, "n", n, NULL);
}

int scv_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
  return vips_crop(in, out, left, top, width, height, NULL);
}

int scv_copy_memory(VipsImage *in, VipsImage **out) {
  VipsImage *t = vips_image_copy_memory(in);
  if (!t) return -1;
  *out = t;
  return 0;
}

VipsImage *scv_new_from_memory_copy(const void *data, size_t length, int width, int height, int bands) {
  return vips_image_new_from_memory_copy(data, length, width, height, bands, VIPS_FORMAT_UCHAR);
}

VipsImage *scv_new_from_memory(const void *data, size_t length, int width, int height, int bands) {
  return vips_image_new_from_memory(data, length, width, height, bands, VIPS_FORMAT_UCHAR);
}

int scv_write_to_memory(VipsImage *in, void *data, size_t length) {
  if (vips_image_get_format(in) != VIPS_FORMAT_UCHAR) {
    vips_error("stampcam", "%s", "write to memory: not an 8-bit image");
    return -1;
  }
  size_t line = VIPS_IMAGE_SIZEOF_LINE(in);
  if (!data || length / line < (size_t) in->Ysize) {
    vips_error("stampcam", "%s", "write to memory: buffer too small");
    return -1;
  }
  if (vips_concurrency_get() > 1) {
    // Cores to spare (fewer jobs in flight than cores, see scv_share_cores): libvips' workers share the strip,
    // written into the caller's memory (an image over it: vips_image_write fills it in place).
    VipsImage *out = vips_image_new_from_memory(data, length, in->Xsize, in->Ysize, in->Bands, VIPS_FORMAT_UCHAR);
    if (!out) return -1;
    int result = vips_image_write(in, out);
    g_object_unref(out);
    return result;
  }
  // One thread a pipeline (as many jobs in flight as cores, the default): computed in this thread, 32 rows at a
  // time. libvips' thread pool would hand every 128 x 128 tile of the strip to its one worker and back (futex
  // wake-ups, its bookkeeping) for work of a few milliseconds. Rows of 32 keep each stage's buffer under the 1 MB
  // mmap threshold, so they come from the heap, not fresh pages.
  VipsRegion *region = vips_region_new(in);
  if (!region) return -1;
  int result = 0;
  for (int top = 0; top < in->Ysize && !result; top += 32) {
    VipsRect rows = {0, top, in->Xsize, VIPS_MIN(32, in->Ysize - top)};
    result = vips_region_prepare(region, &rows);
    for (int y = top; !result && y < top + rows.height; y++)
      memcpy((unsigned char *) data + (size_t) y * line, VIPS_REGION_ADDR(region, 0, y), line);
  }
  g_object_unref(region);
  return result;
}

int scv_svg(const char *svg, size_t length, VipsImage **out) {
  // svgload_buffer keeps a pointer to the buffer for the image's lifetime: give it a copy the image owns.
  void *copy = g_memdup2(svg, length);
  VipsImage *t = NULL;
  if (vips_svgload_buffer(copy, length, &t, "access", VIPS_ACCESS_SEQUENTIAL, NULL)) {
    g_free(copy);
    return -1;
  }
  g_signal_connect_data(t, "postclose", G_CALLBACK(g_free), copy, NULL, G_CONNECT_SWAPPED);
  *out = t;
  return 0;
}
