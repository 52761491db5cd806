#include "jpeg_output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SJT_OUTPUT_BUFFER (1 << 20)

FILE *sjt_output_open(char **buffer, int fd, char *message, size_t length) {
  FILE *f = NULL;
  if (!*buffer && !(*buffer = malloc(SJT_OUTPUT_BUFFER))) {
    errno = ENOMEM;
  } else {
    int copy = dup(fd);
    if (copy >= 0 && !(f = fdopen(copy, "wb"))) {
      int saved = errno;
      close(copy);
      errno = saved;
    }
  }
  if (!f) return snprintf(message, length, "%s", strerror(errno)), NULL;
  setvbuf(f, *buffer, _IOFBF, SJT_OUTPUT_BUFFER);
  return f;
}

int sjt_output_close(FILE *out, int failed, char *message, size_t length) {
  if (ferror(out)) failed = 1;
  if (fclose(out)) failed = 1;
  if (failed) return snprintf(message, length, "write error: %s", strerror(errno)), -1;
  return 0;
}
