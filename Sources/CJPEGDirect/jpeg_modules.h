#ifndef STAMPCAM_JPEG_MODULES_H
#define STAMPCAM_JPEG_MODULES_H

// libjpeg's internal module interface (jpegint.h: the DCT managers and colour converters, their jinit_* functions
// exported by the library), where the header is installed: Debian's libjpeg-dev installs it, libjpeg-turbo's own
// install does not. SJT_MODULES is 1 when it is there (and SJT_NO_MODULES was not defined to build without it).

#include <stdio.h>

#include <jpeglib.h>

#if defined(__has_include) && !defined(SJT_NO_MODULES)
#if __has_include(<jpegint.h>)
#include <jpegint.h>
#define SJT_MODULES 1
#endif
#endif
#ifndef SJT_MODULES
#define SJT_MODULES 0
#endif

#endif
