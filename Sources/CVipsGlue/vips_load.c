#include "CVipsGlue.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vips/vips.h>

// Opening an input: its own descriptor, and only the loaders the policy allows.

void scv_allow_untrusted(int allow) {
  vips_block_untrusted_set(allow ? FALSE : TRUE);
  vips_operation_block_set("VipsForeignLoadSvgBuffer", FALSE);
  vips_operation_block_set("VipsForeignSaveJxl", FALSE);
}

// The loaders an input may use unless untrusted ones are allowed: the photo formats, with fuzzed decoders.
static const char *const scv_safe_loaders[] = {
  "VipsForeignLoadJpegSource", "VipsForeignLoadPngSource", "VipsForeignLoadWebpSource", "VipsForeignLoadTiffSource",
  "VipsForeignLoadNsgifSource", "VipsForeignLoadHeifSource", NULL};

// A descriptor of its own (own file offset) on the file `fd` is open on: libvips reads a source with read() and
// lseek(), and two sources on dup()ed descriptors would move each other's offset. Reopening through /proc gives
// the same file (the same inode even if its name now points elsewhere); without /proc, a dup from the start.
static int scv_own_descriptor(int fd) {
  char name[64];
  snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
  int copy = open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  struct stat a, b;
  if (copy >= 0 && fstat(fd, &a) == 0 && fstat(copy, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
    fcntl(copy, F_SETFL, fcntl(copy, F_GETFL) & ~O_NONBLOCK);
    return copy;
  }
  if (copy >= 0) close(copy);
  copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy >= 0) lseek(copy, 0, SEEK_SET);
  return copy;
}

// libvips' short name of a loader ("ppmload_source"), or its type name when it has none.
static const char *scv_loader_nickname(const char *loader) {
  const char *nickname = vips_nickname_find(g_type_from_name(loader));
  return nickname ? nickname : loader;
}

VipsImage *scv_load_descriptor(
  int fd, int sequential, int fail_on, int any_loader, int jpeg_shrink, scv_load_refusal *refusal, char *why,
  size_t why_size) {
  if (refusal) *refusal = SCV_LOAD_NOT_REFUSED;
  if (why && why_size > 0) why[0] = '\0';
  int own = scv_own_descriptor(fd);
  if (own < 0) {
    if (refusal) *refusal = SCV_LOAD_CANNOT_REOPEN;
    if (why && why_size > 0) g_snprintf(why, why_size, "cannot reopen the file: %s", g_strerror(errno));
    return NULL;
  }
  VipsSource *source = vips_source_new_from_descriptor(own);
  close(own);  // the source holds its own duplicate
  if (!source) return NULL;
  // Finding the loader only sniffs the first bytes; its "not a known format" goes to the caller alone.
  const char *loader = vips_foreign_find_load_source(source);
  if (!loader) {
    g_object_unref(source);
    if (refusal) *refusal = SCV_LOAD_UNKNOWN_FORMAT;
    if (why && why_size > 0) g_snprintf(why, why_size, "not an image in a known format");
    return NULL;
  }
  int allowed = any_loader;
  for (int i = 0; !allowed && scv_safe_loaders[i]; i++) allowed = strcmp(loader, scv_safe_loaders[i]) == 0;
  if (!allowed) {
    if (refusal) *refusal = SCV_LOAD_LOADER_NOT_ALLOWED;
    if (why && why_size > 0)
      g_snprintf(why, why_size, "format not allowed (%s; stampcam reads JPEG, PNG, WebP, TIFF, GIF "
        "and HEIF unless --allow-untrusted-loaders is given)", scv_loader_nickname(loader));
    g_object_unref(source);
    return NULL;
  }
  // libvips' JPEG loader takes libjpeg's corrupt-data warnings (bad Huffman codes, missing restart markers,
  // extraneous bytes) as errors only at "warning"; stampcam's "error" includes them, as its JPEG path does.
  if (fail_on == VIPS_FAIL_ON_ERROR && strcmp(loader, "VipsForeignLoadJpegSource") == 0) fail_on = VIPS_FAIL_ON_WARNING;
  // No option string: nothing in a file name is ever read as a loader option.
  VipsAccess access = sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM;
  VipsImage *image = jpeg_shrink > 1 && strcmp(loader, "VipsForeignLoadJpegSource") == 0
    ? vips_image_new_from_source(source, "", "access", access, "fail_on", fail_on, "shrink", jpeg_shrink, NULL)
    : vips_image_new_from_source(source, "", "access", access, "fail_on", fail_on, NULL);
  g_object_unref(source);
  return image;
}

