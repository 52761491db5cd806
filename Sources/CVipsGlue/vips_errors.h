#ifndef STAMPCAM_VIPS_ERRORS_H
#define STAMPCAM_VIPS_ERRORS_H

// libvips' warnings, as vips_errors.c keeps them (not part of the module's interface).

#include <vips/vips.h>

/// The handler of libvips' log (installed by scv_init): counts failed tiles and keeps the warnings of a check.
void scv_log_warning(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data);

#endif
