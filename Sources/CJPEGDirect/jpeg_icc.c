#include "ICCProfile.h"

#include <stddef.h>
#include <stdint.h>

// Profiles larger than this are not colour descriptions of a photo (sRGB is 3 KB, Display P3 under 1 KB, the
// largest RGB camera profiles a few hundred KB): a way to carry data through the metadata stripping.
#define SJT_ICC_MAX ((size_t) 1 << 20)

static uint32_t sjt_be32(const unsigned char *p) {
  return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | (uint32_t) p[3];
}

int sjt_icc_well_formed(const unsigned char *profile, size_t length) {
  // The 128-byte header, then the tag count and the tag table (12 bytes a tag: signature, offset, size).
  if (!profile || length < 132 || length > SJT_ICC_MAX) return 0;
  if (sjt_be32(profile) != length) return 0;
  if (profile[36] != 'a' || profile[37] != 'c' || profile[38] != 's' || profile[39] != 'p') return 0;
  uint32_t tags = sjt_be32(profile + 128);
  if (tags == 0 || tags > (length - 132) / 12) return 0;
  for (uint32_t i = 0; i < tags; i++) {
    const unsigned char *tag = profile + 132 + 12 * (size_t) i;
    uint64_t offset = sjt_be32(tag + 4), size = sjt_be32(tag + 8);
    if (offset < 132 || size == 0 || offset + size > length) return 0;
  }
  return 1;
}
