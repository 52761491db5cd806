#ifndef STAMPCAM_ICCPROFILE_H
#define STAMPCAM_ICCPROFILE_H

// The one check of an ICC profile before an output keeps it, for both paths (jpeg_icc.c).

#include <stddef.h>

/// 1 when `profile` (`length` bytes) is a well-formed ICC profile: its header's size field is its length, it has
/// the 'acsp' signature at offset 36, a tag table whose every tag lies inside it, and it is at most 1 MB. Anything
/// else (garbage, a fake profile carrying data) is not kept in an output.
int sjt_icc_well_formed(const unsigned char *profile, size_t length);

#endif
