#include "jpeg_sampling.h"

#include <string.h>

// Fixed point as libjpeg's colour converters use it (jccolor.c, jdcolor.c): 16 fraction bits, constants rounded.
#define SJT_BITS 16
#define SJT_HALF (1LL << (SJT_BITS - 1))
#define SJT_FIX(x) ((long long) ((x) * (1LL << SJT_BITS) + 0.5))
#define SJT_CENTER 128

static inline unsigned char sjt_clamp(int x) { return (unsigned char) (x < 0 ? 0 : x > 255 ? 255 : x); }
static inline int sjt_min(int a, int b) { return a < b ? a : b; }
static inline int sjt_max(int a, int b) { return a > b ? a : b; }

void sjt_ycc_tables_init(sjt_ycc_tables *t) {
  for (int i = 0; i < 256; i++) {
    long long x = i - SJT_CENTER;
    t->cr_r[i] = (int) ((SJT_FIX(1.40200) * x + SJT_HALF) >> SJT_BITS);
    t->cb_b[i] = (int) ((SJT_FIX(1.77200) * x + SJT_HALF) >> SJT_BITS);
    t->cr_g[i] = (int) (-SJT_FIX(0.71414) * x);
    t->cb_g[i] = (int) (-SJT_FIX(0.34414) * x + SJT_HALF);
  }
}

// Triangle filter across (2 x 1): each output sample 3/4 the nearer input and 1/4 the further, rounding 1 and 2
// alternately (libjpeg's h2v1_fancy_upsample).
static void sjt_up_h2v1(const sjt_plane *in, int used_width, const sjt_plane *out) {
  int last = used_width - 1, pairs = (out->width + 1) / 2;
  for (int y = 0; y < out->height; y++) {
    const unsigned char *s = in->data + (size_t) y * in->stride;
    unsigned char *d = out->data + (size_t) y * out->stride;
    for (int i = 0; i < pairs; i++) {
      int near = s[i] * 3, before = s[i > 0 ? i - 1 : 0], after = s[i < last ? i + 1 : last];
      d[2 * i] = (unsigned char) ((near + before + 1) >> 2);
      if (2 * i + 1 < out->width) d[2 * i + 1] = (unsigned char) ((near + after + 2) >> 2);
    }
  }
}

// Triangle filter down (1 x 2): h1v2_fancy_upsample, the row above for even output rows, below for odd ones.
static void sjt_up_h1v2(const sjt_plane *in, int used_height, const sjt_plane *out) {
  for (int y = 0; y < out->height; y++) {
    int r = y >> 1, other = (y & 1) ? sjt_min(r + 1, used_height - 1) : sjt_max(r - 1, 0), bias = (y & 1) ? 2 : 1;
    const unsigned char *near = in->data + (size_t) r * in->stride, *far = in->data + (size_t) other * in->stride;
    unsigned char *d = out->data + (size_t) y * out->stride;
    for (int x = 0; x < out->width; x++) d[x] = (unsigned char) ((near[x] * 3 + far[x] + bias) >> 2);
  }
}

// Both ways (2 x 2): column sums of 3 near + 1 far row, then 3 near + 1 far of those, rounding 8 and 7
// (h2v2_fancy_upsample: 9/16, 3/16, 3/16, 1/16).
static void sjt_up_h2v2(const sjt_plane *in, int used_width, int used_height, const sjt_plane *out) {
  int last = used_width - 1, pairs = (out->width + 1) / 2;
  for (int y = 0; y < out->height; y++) {
    int r = y >> 1, other = (y & 1) ? sjt_min(r + 1, used_height - 1) : sjt_max(r - 1, 0);
    const unsigned char *near = in->data + (size_t) r * in->stride, *far = in->data + (size_t) other * in->stride;
    unsigned char *d = out->data + (size_t) y * out->stride;
    int before = near[0] * 3 + far[0], here = before;
    for (int i = 0; i < pairs; i++) {
      int j = i < last ? i + 1 : last, after = near[j] * 3 + far[j];
      d[2 * i] = (unsigned char) ((here * 3 + before + 8) >> 4);
      if (2 * i + 1 < out->width) d[2 * i + 1] = (unsigned char) ((here * 3 + after + 7) >> 4);
      before = here;
      here = after;
    }
  }
}

// Replication (int_upsample, and h2v1/h2v2 on components of 2 samples or fewer).
static void sjt_up_copy(const sjt_plane *in, int rh, int rv, const sjt_plane *out) {
  for (int y = 0; y < out->height; y++) {
    const unsigned char *s = in->data + (size_t) (y / rv) * in->stride;
    unsigned char *d = out->data + (size_t) y * out->stride;
    for (int x = 0; x < out->width; x++) d[x] = s[x / rh];
  }
}

void sjt_upsample(const sjt_plane *in, int used_width, int used_height, int rh, int rv, const sjt_plane *out) {
  if (rh == 2 && rv == 1 && used_width > 2) sjt_up_h2v1(in, used_width, out);
  else if (rh == 1 && rv == 2) sjt_up_h1v2(in, used_height, out);
  else if (rh == 2 && rv == 2 && used_width > 2) sjt_up_h2v2(in, used_width, used_height, out);
  else sjt_up_copy(in, rh, rv, out);
}

void sjt_to_rgb(const sjt_ycc_tables *t, int space, const sjt_plane *planes, int width, int height,
  unsigned char *rgb) {
  for (int y = 0; y < height; y++) {
    unsigned char *d = rgb + (size_t) y * width * 3;
    const unsigned char *p0 = planes[0].data + (size_t) y * planes[0].stride;
    if (space == SJT_PIXELS_GRAY) {
      for (int x = 0; x < width; x++) d[3 * x] = d[3 * x + 1] = d[3 * x + 2] = p0[x];
      continue;
    }
    const unsigned char *p1 = planes[1].data + (size_t) y * planes[1].stride;
    const unsigned char *p2 = planes[2].data + (size_t) y * planes[2].stride;
    if (space == SJT_PIXELS_RGB) {
      for (int x = 0; x < width; x++) d[3 * x] = p0[x], d[3 * x + 1] = p1[x], d[3 * x + 2] = p2[x];
      continue;
    }
    for (int x = 0; x < width; x++) {
      int luma = p0[x], cb = p1[x], cr = p2[x];
      d[3 * x] = sjt_clamp(luma + t->cr_r[cr]);
      d[3 * x + 1] = sjt_clamp(luma + ((t->cb_g[cb] + t->cr_g[cr]) >> SJT_BITS));
      d[3 * x + 2] = sjt_clamp(luma + t->cb_b[cb]);
    }
  }
}

void sjt_from_rgb(int space, const unsigned char *rgb, int width, int height, const sjt_plane *planes) {
  int count = space == SJT_PIXELS_GRAY ? 1 : 3;
  // 32 bits suffice: the largest sum is under 2^24 (255 x 2^16).
  const int ry = (int) SJT_FIX(0.29900), gy = (int) SJT_FIX(0.58700), by = (int) SJT_FIX(0.11400);
  const int rcb = (int) SJT_FIX(0.16874), gcb = (int) SJT_FIX(0.33126), half = (int) SJT_FIX(0.50000);
  const int gcr = (int) SJT_FIX(0.41869), bcr = (int) SJT_FIX(0.08131);
  // Cb and Cr round with one half less a little, so that 255 stays 255 (jccolor.c).
  const int offset = (SJT_CENTER << SJT_BITS) + (int) SJT_HALF - 1;
  for (int y = 0; y < height; y++) {
    const unsigned char *s = rgb + (size_t) y * width * 3;
    unsigned char *d[3];
    for (int c = 0; c < count; c++) d[c] = planes[c].data + (size_t) y * planes[c].stride;
    if (space == SJT_PIXELS_RGB) {
      for (int x = 0; x < width; x++) d[0][x] = s[3 * x], d[1][x] = s[3 * x + 1], d[2][x] = s[3 * x + 2];
      continue;
    }
    if (space == SJT_PIXELS_GRAY) {
      for (int x = 0; x < width; x++)
        d[0][x] = (unsigned char) ((ry * s[3 * x] + gy * s[3 * x + 1] + by * s[3 * x + 2] + (int) SJT_HALF) >> SJT_BITS);
      continue;
    }
    for (int x = 0; x < width; x++) {
      int r = s[3 * x], g = s[3 * x + 1], b = s[3 * x + 2];
      d[0][x] = (unsigned char) ((ry * r + gy * g + by * b + (int) SJT_HALF) >> SJT_BITS);
      d[1][x] = (unsigned char) ((half * b - rcb * r - gcb * g + offset) >> SJT_BITS);
      d[2][x] = (unsigned char) ((half * r - gcr * g - bcr * b + offset) >> SJT_BITS);
    }
  }
  sjt_pad_planes(count, width, height, planes);
}

void sjt_pad_planes(int count, int width, int height, const sjt_plane *planes) {
  for (int c = 0; c < count; c++) {
    const sjt_plane *p = &planes[c];
    for (int y = 0; y < height; y++) {
      unsigned char *row = p->data + (size_t) y * p->stride;
      memset(row + width, row[width - 1], (size_t) (p->width - width));
    }
    for (int y = height; y < p->height; y++)
      memcpy(p->data + (size_t) y * p->stride, p->data + (size_t) (height - 1) * p->stride, (size_t) p->width);
  }
}

void sjt_downsample(const sjt_plane *in, int rh, int rv, int rows, const sjt_plane *out) {
  int count = rh * rv;
  rows = sjt_min(rows, out->height);
  for (int y = 0; y < rows; y++) {
    unsigned char *d = out->data + (size_t) y * out->stride;
    const unsigned char *s = in->data + (size_t) y * rv * in->stride;
    if (rh == 1 && rv == 1) {
      memcpy(d, s, (size_t) out->width);
    } else if (rh == 2 && rv == 1) {
      // Rounding alternates 0, 1, 0, 1 along a row (h2v1_downsample).
      for (int x = 0; x < out->width; x++) d[x] = (unsigned char) ((s[2 * x] + s[2 * x + 1] + (x & 1)) >> 1);
    } else if (rh == 2 && rv == 2) {
      // Rounding alternates 1, 2, 1, 2 (h2v2_downsample).
      const unsigned char *t = s + in->stride;
      for (int x = 0; x < out->width; x++)
        d[x] = (unsigned char) ((s[2 * x] + s[2 * x + 1] + t[2 * x] + t[2 * x + 1] + 1 + (x & 1)) >> 2);
    } else {
      // The mean, rounded half up (int_downsample).
      for (int x = 0; x < out->width; x++) {
        int sum = 0;
        for (int v = 0; v < rv; v++)
          for (int h = 0; h < rh; h++) sum += s[(size_t) v * in->stride + (size_t) x * rh + h];
        d[x] = (unsigned char) ((sum + count / 2) / count);
      }
    }
  }
  for (int y = rows; y < out->height; y++)
    memcpy(out->data + (size_t) y * out->stride, out->data + (size_t) (rows - 1) * out->stride,
      (size_t) out->width);
}
