#include "CVipsGlue.h"

#include <string.h>

#include <vips/vips.h>

#include "ICCProfile.h"

// What an output of the libvips path keeps of its photo's metadata.

typedef struct {
  gchar **names;
  int count;
  int capacity;
  int keep_icc;
  int keep_orientation;
} scv_strip_list;

static void *scv_collect_field(VipsImage *image, const char *field, GValue *value, void *user) {
  scv_strip_list *list = (scv_strip_list *) user;
  (void) image;
  (void) value;
  if (list->keep_icc && strcmp(field, VIPS_META_ICC_NAME) == 0) return NULL;
  if (list->keep_orientation && strcmp(field, VIPS_META_ORIENTATION) == 0) return NULL;
  // Fields libvips itself needs to interpret the pixels are not metadata of the photo.
  if (strcmp(field, "width") == 0 || strcmp(field, "height") == 0 || strcmp(field, "bands") == 0
      || strcmp(field, "format") == 0 || strcmp(field, "coding") == 0 || strcmp(field, "interpretation") == 0
      || strcmp(field, "xoffset") == 0 || strcmp(field, "yoffset") == 0 || strcmp(field, "xres") == 0
      || strcmp(field, "yres") == 0 || strcmp(field, "filename") == 0)
    return NULL;
  if (list->count == list->capacity) {
    list->capacity = list->capacity ? list->capacity * 2 : 32;
    list->names = g_renew(gchar *, list->names, list->capacity);
  }
  list->names[list->count++] = g_strdup(field);
  return NULL;
}

int scv_strip_metadata(VipsImage *in, VipsImage **out, int keep_icc, int keep_orientation) {
  VipsImage *t = NULL;
  if (vips_copy(in, &t, NULL)) return -1;
  scv_strip_list list = {NULL, 0, 0, keep_icc, keep_orientation};
  vips_image_map(t, scv_collect_field, &list);
  for (int i = 0; i < list.count; i++) {
    vips_image_remove(t, list.names[i]);
    g_free(list.names[i]);
  }
  g_free(list.names);
  // A profile that is not a well-formed ICC profile is not kept either (it could carry anything).
  const void *icc = NULL;
  size_t icc_length = 0;
  if (keep_icc && vips_image_get_typeof(t, VIPS_META_ICC_NAME)
      && (vips_image_get_blob(t, VIPS_META_ICC_NAME, &icc, &icc_length)
        || !sjt_icc_well_formed((const unsigned char *) icc, icc_length)))
    vips_image_remove(t, VIPS_META_ICC_NAME);
  *out = t;
  return 0;
}

