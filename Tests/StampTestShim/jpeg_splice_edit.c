#include "JPEGSpliceOracle.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "JPEGTransplant.h"

// Test support: one edit made both ways, spliced and on the whole photo's coefficients, for the oracle to compare.

static uint32_t sjo_hash(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  uint32_t h = 0x811C9DC5u;
  uint32_t words[4] = {a, b, c, d};
  for (int i = 0; i < 4; i++) {
    h ^= words[i];
    h *= 0x01000193u;
    h ^= h >> 15;
  }
  return h;
}

// A rectangle of `rects` in pixels of the photo: its MCUs, the last ones cut at the photo's right and bottom edges.
typedef struct {
  int x, y, width, height;
} sjo_area;

static sjo_area sjo_area_of(const int *rect, const sjt_header *header, int hmax, int vmax) {
  sjo_area a;
  a.x = rect[0] * 8 * hmax;
  a.y = rect[1] * 8 * vmax;
  long right = (long) (rect[0] + rect[2]) * 8 * hmax, bottom = (long) (rect[1] + rect[3]) * 8 * vmax;
  a.width = (int) ((right < header->width ? right : header->width) - a.x);
  a.height = (int) ((bottom < header->height ? bottom : header->height) - a.y);
  return a;
}

// The part of a rectangle's area an edit works on, as an offset (`*dx`, `*dy`) into it and a size: all of it, or
// with `inset` from its second MCU column and row where it has them.
static sjo_area sjo_region_of(sjo_area area, const int *rect, const sjo_edit *edit, int hmax, int vmax, int *dx,
  int *dy) {
  *dx = edit->inset && rect[2] > 1 ? 8 * hmax : 0;
  *dy = edit->inset && rect[3] > 1 ? 8 * vmax : 0;
  area.x += *dx;
  area.y += *dy;
  area.width -= *dx;
  area.height -= *dy;
  return area;
}

// The change of rectangle `k`'s pixels (`area`'s size, in its own coordinates).
static void sjo_change(unsigned char *rgb, sjo_area area, int k, const sjo_edit *edit, int hmax, int vmax) {
  unsigned char paint = (edit->seed & 1) ? 0 : 255;
  int mcu_w = 8 * hmax, mcu_h = 8 * vmax;
  int last_column = (area.width - 1) / mcu_w * mcu_w;
  for (int y = 0; y < area.height; y++)
    for (int x = 0; x < area.width; x++) {
      unsigned char *p = rgb + ((size_t) y * area.width + x) * 3;
      switch (edit->edit) {
        case SJO_EDIT_PATTERN:
          for (int i = 0; i < 3; i++)
            p[i] ^= (unsigned char) (sjo_hash(edit->seed, (uint32_t) k, (uint32_t) (y * area.width + x), (uint32_t) i)
                                     & 0x7F);
          break;
        case SJO_EDIT_RIGHT_COLUMN:
          if (x >= last_column) memset(p, paint, 3);
          break;
        case SJO_EDIT_FIRST_MCU:
          if (x < mcu_w && y < mcu_h) memset(p, paint, 3);
          break;
        default:
          break;
      }
    }
}

// The masks of rectangle `k` for sjt_replace_blocks: each component's blocks of the area, as it counts them.
typedef struct {
  unsigned char *mask[4];
  size_t lengths[4];
} sjo_masks;

static int sjo_masks_make(sjo_masks *m, sjo_area area, int k, const sjo_edit *edit, const sjt_header *header,
  int hmax, int vmax) {
  memset(m, 0, sizeof *m);
  for (int c = 0; c < header->components && c < 4; c++) {
    size_t wide = ((size_t) area.width * header->h[c] + 8 * hmax - 1) / (8 * hmax);
    size_t high = ((size_t) area.height * header->v[c] + 8 * vmax - 1) / (8 * vmax);
    m->lengths[c] = wide * high;
    m->mask[c] = malloc(m->lengths[c] ? m->lengths[c] : 1);
    if (!m->mask[c]) return -1;
    for (size_t i = 0; i < m->lengths[c]; i++)
      m->mask[c][i] = edit->mask == SJO_MASK_ALL    ? 1
                      : edit->mask == SJO_MASK_NONE ? 0
                                                    : (unsigned char) (sjo_hash(edit->seed, (uint32_t) k,
                                                                         (uint32_t) c, (uint32_t) i)
                                                                       >> 7
                                                                       & 1);
    // At least one block of each component, so that an edit of a rectangle of few blocks still changes one.
    if (edit->mask == SJO_MASK_SOME && m->lengths[c]) m->mask[c][0] = 1;
  }
  return 0;
}

static void sjo_masks_free(sjo_masks *m) {
  for (int c = 0; c < 4; c++) free(m->mask[c]);
}

// One rectangle's edit at (`x`, `y`) of whatever the state has open (the rectangle's own JPEG: (0, 0)); its pixels
// before the change are left in `rgb`, after it in `changed`. Returns 0, or the failing step's return (step named).
static int sjo_edit_area(sjt_state *s, int x, int y, sjo_area area, int k, const sjo_edit *edit,
  const sjt_header *header, int hmax, int vmax, unsigned char *rgb, unsigned char *changed, char *step,
  size_t step_length, char *message, size_t length) {
  int status = sjt_decode_region(s, x, y, area.width, area.height, rgb, message, length);
  if (status) return snprintf(step, step_length, "decode of rectangle %d", k), status;
  size_t bytes = (size_t) area.width * area.height * 3;
  memcpy(changed, rgb, bytes);
  sjo_change(changed, area, k, edit, hmax, vmax);
  sjo_masks masks;
  if (sjo_masks_make(&masks, area, k, edit, header, hmax, vmax)) {
    sjo_masks_free(&masks);
    snprintf(message, length, "out of memory");
    return snprintf(step, step_length, "masks of rectangle %d", k), -1;
  }
  const unsigned char *const masks_of[4] = {masks.mask[0], masks.mask[1], masks.mask[2], masks.mask[3]};
  status = sjt_replace_blocks(s, x, y, area.width, area.height, changed, masks_of, masks.lengths, header->components,
    message, length);
  sjo_masks_free(&masks);
  if (status) return snprintf(step, step_length, "replace in rectangle %d", k), status;
  return 0;
}

// True when the rectangles are what sjt_splice_index takes: whole MCUs inside the photo (`wide` x `high` MCUs), not
// overlapping, sorted by top then left.
// Grows the two pixel buffers to `bytes` when they are smaller; -1 when out of memory (both freed).
static int sjo_room(unsigned char **rgb, unsigned char **changed, size_t *largest, size_t bytes) {
  if (bytes <= *largest && *rgb && *changed) return 0;
  free(*rgb);
  free(*changed);
  *rgb = malloc(bytes);
  *changed = malloc(bytes);
  *largest = bytes;
  if (*rgb && *changed) return 0;
  free(*rgb);
  free(*changed);
  *rgb = *changed = NULL;
  *largest = 0;
  return -1;
}

static int sjo_rects_valid(const int *rects, int count, long wide, long high) {
  for (int k = 0; k < count; k++) {
    const int *r = rects + 4 * k;
    if (r[0] < 0 || r[1] < 0 || r[2] < 1 || r[3] < 1 || (long) r[0] + r[2] > wide || (long) r[1] + r[3] > high)
      return 0;
    if (k && (r[1] < r[-3] || (r[1] == r[-3] && r[0] <= r[-4]))) return 0;
    for (int j = 0; j < k; j++) {
      const int *q = rects + 4 * j;
      if (r[0] < q[0] + q[2] && q[0] < r[0] + r[2] && r[1] < q[1] + q[3] && q[1] < r[1] + r[3]) return 0;
    }
  }
  return 1;
}

// Opens `photo` on the state. 0, or sjt_open's return.
static int sjo_open(sjt_state *s, const char *photo, sjt_header *header, char *message, size_t length) {
  int fd = open(photo, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return snprintf(message, length, "%s: cannot open", photo), -1;
  int status = sjt_open(s, fd, (size_t) 1 << 30, header, message, length);
  close(fd);
  return status;
}

// Writes the output through a descriptor, as a job does. 0, or the write's return.
static int sjo_write(sjt_state *s, int spliced, const char *path, int orientation, char *message, size_t length) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return snprintf(message, length, "%s: cannot create", path), -1;
  int status = spliced ? sjt_splice_write(s, fd, orientation, message, length)
                       : sjt_write(s, fd, orientation, message, length);
  close(fd);
  return status;
}

int sjo_edit_both_ways(struct sjt_state *state, const char *photo, const int *rects, int count,
  const sjo_edit *edit, const char *spliced, const char *transcoded, sjo_outcome *outcome) {
  memset(outcome, 0, sizeof *outcome);
  outcome->index = outcome->spliced = outcome->transcoded = -1;
  char *tm = outcome->transcode_message, *sm = outcome->splice_message;
  size_t tl = sizeof outcome->transcode_message, sl = sizeof outcome->splice_message;
  unlink(spliced);
  unlink(transcoded);
  if (count < 0 || (count > 0 && !rects) || !edit) return snprintf(tm, tl, "bad arguments"), -1;
  sjt_state *s = state ? state : sjt_new();
  if (!s) return snprintf(tm, tl, "out of memory"), -1;
  int result = -1;
  unsigned char **decoded = NULL;  // each rectangle's pixels as the splice decoded them
  unsigned char *rgb = NULL, *changed = NULL;
  sjt_header header;
  if (sjo_open(s, photo, &header, tm, tl)) goto done;
  int hmax = 1, vmax = 1;
  for (int c = 0; c < header.components && c < 4; c++) {
    if (header.h[c] > hmax) hmax = header.h[c];
    if (header.v[c] > vmax) vmax = header.v[c];
  }
  // The pixel buffers grow to the largest rectangle met.
  size_t largest = 0;
  decoded = calloc(count > 0 ? (size_t) count : 1, sizeof *decoded);
  if (!decoded) goto out_of_memory;

  long wide = (header.width + 8L * hmax - 1) / (8L * hmax), high = (header.height + 8L * vmax - 1) / (8L * vmax);
  int valid = sjo_rects_valid(rects, count, wide, high);

  // Spliced.
  outcome->index = edit->whole_only ? -1 : sjt_splice_index(s, rects, count, sm, sl);
  if (edit->whole_only) {
    snprintf(outcome->splice_step, sizeof outcome->splice_step, "not asked");
  } else if (outcome->index == 0 && !valid) {
    // Rectangles the index should have refused: nothing is made of them.
    outcome->bad_rects_taken = 1;
    outcome->spliced = -1;
    snprintf(outcome->splice_step, sizeof outcome->splice_step, "index took bad rectangles");
  } else if (outcome->index) {
    outcome->spliced = outcome->index;
    snprintf(outcome->splice_step, sizeof outcome->splice_step, "index");
  } else {
    for (int k = 0; k < count; k++) {
      int dx, dy;
      sjo_area area = sjo_region_of(sjo_area_of(rects + 4 * k, &header, hmax, vmax), rects + 4 * k, edit, hmax, vmax,
        &dx, &dy);
      size_t bytes = (size_t) area.width * area.height * 3;
      if (sjo_room(&rgb, &changed, &largest, bytes)) goto out_of_memory;
      int status = sjt_splice_open(s, k, sm, sl);
      if (status) {
        outcome->spliced = status;
        snprintf(outcome->splice_step, sizeof outcome->splice_step, "open of rectangle %d", k);
        break;
      }
      status = sjo_edit_area(s, dx, dy, area, k, edit, &header, hmax, vmax, rgb, changed, outcome->splice_step,
        sizeof outcome->splice_step, sm, sl);
      if (status) {
        outcome->spliced = status;
        break;
      }
      decoded[k] = malloc(bytes);
      if (!decoded[k]) goto out_of_memory;
      memcpy(decoded[k], rgb, bytes);
      status = sjt_splice_encode(s, sm, sl);
      if (status) {
        outcome->spliced = status;
        snprintf(outcome->splice_step, sizeof outcome->splice_step, "encode of rectangle %d", k);
        break;
      }
    }
    if (!outcome->splice_step[0]) {
      outcome->spliced = sjo_write(s, 1, spliced, edit->orientation, sm, sl);
      if (outcome->spliced) snprintf(outcome->splice_step, sizeof outcome->splice_step, "write");
    }
  }
  if (outcome->spliced) unlink(spliced);

  // On the whole photo's coefficients: after a refusal (the index's, or a step's 1) on the same opened file, as the
  // product does; else anew.
  outcome->same_open =
    !edit->whole_only && (outcome->index != 0 || outcome->spliced == 1 || edit->whole_after_splice);
  if (!edit->whole_only && !outcome->same_open) {
    sjt_close(s);
    int status = sjo_open(s, photo, &header, tm, tl);
    if (status) {
      outcome->transcoded = status;
      snprintf(outcome->transcode_step, sizeof outcome->transcode_step, "open");
      result = 0;
      goto done;
    }
  }
  outcome->transcoded = sjt_read_coefficients(s, tm, tl);
  if (outcome->transcoded) {
    snprintf(outcome->transcode_step, sizeof outcome->transcode_step, "read");
    result = 0;
    goto done;
  }
  for (int k = 0; k < count; k++) {
    // Only rectangles inside the photo: the region calls would refuse the others, overlapping ones are fine.
    const int *r = rects + 4 * k;
    if (r[0] < 0 || r[1] < 0 || r[2] < 1 || r[3] < 1 || (long) r[0] + r[2] > wide || (long) r[1] + r[3] > high) {
      outcome->transcoded = -1;
      snprintf(outcome->transcode_step, sizeof outcome->transcode_step, "rectangle %d", k);
      snprintf(tm, tl, "rectangle %d is not inside the photo", k);
      result = 0;
      goto done;
    }
    int dx, dy;
    sjo_area area = sjo_region_of(sjo_area_of(r, &header, hmax, vmax), r, edit, hmax, vmax, &dx, &dy);
    size_t bytes = (size_t) area.width * area.height * 3;
    if (sjo_room(&rgb, &changed, &largest, bytes)) goto out_of_memory;
    int status = sjo_edit_area(s, area.x, area.y, area, k, edit, &header, hmax, vmax, rgb, changed,
      outcome->transcode_step, sizeof outcome->transcode_step, tm, tl);
    if (status) {
      outcome->transcoded = status;
      result = 0;
      goto done;
    }
    if (decoded[k])
      for (size_t i = 0; i < bytes; i++) outcome->pixels_differ += decoded[k][i] != rgb[i];
  }
  outcome->transcoded = sjo_write(s, 0, transcoded, edit->orientation, tm, tl);
  if (outcome->transcoded) snprintf(outcome->transcode_step, sizeof outcome->transcode_step, "write");
  result = 0;
  goto done;
out_of_memory:
  snprintf(tm, tl, "out of memory");
  result = -1;
done:
  if (outcome->transcoded) unlink(transcoded);
  if (decoded)
    for (int k = 0; k < count; k++) free(decoded[k]);
  free(decoded);
  free(rgb);
  free(changed);
  sjt_close(s);
  if (!state) sjt_free(s);
  return result;
}
