// A row reader whose libvips image outlives the job's control: the control lets go of its stop flag before the
// image is read. The reader holds a reference of its own (JPEGStop.h), so the image decodes; built with
// AddressSanitizer by scripts/fuzz-jpeg, a reader that read the freed flag would stop the run with a report.
//
// Usage: stop-flag-check PHOTO.jpg   (exit 0: decoded; 1: the decode failed; 2: the reader could not be made)

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <vips/vips.h>

#include "CVipsGlue.h"
#include "JPEGStop.h"

int main(int argc, char **argv) {
  if (argc != 2 || VIPS_INIT(argv[0])) return fprintf(stderr, "usage: stop-flag-check PHOTO.jpg\n"), 2;
  int fd = open(argv[1], O_RDONLY);
  VipsImage *like = vips_image_new_from_file(argv[1], "access", VIPS_ACCESS_SEQUENTIAL, NULL);
  sjs_stop *flag = sjs_stop_create();
  scv_jpeg_stream *stream = fd >= 0 && like && flag ? scv_jpeg_stream_open(fd, like, (size_t) 1 << 30, flag) : NULL;
  VipsImage *image = NULL;
  if (!stream || scv_jpeg_stream_image(stream, like, &image)) return fprintf(stderr, "no reader for %s\n", argv[1]), 2;
  scv_jpeg_stream_release(stream);  // the image holds the stream
  sjs_stop_release(flag);           // and the job's control is gone
  size_t size = 0;
  void *pixels = vips_image_write_to_memory(image, &size);
  if (!pixels) return fprintf(stderr, "stop-flag-check: %s", vips_error_buffer()), 1;
  printf("stop-flag-check: %s decoded (%zu bytes) after its control let go of the stop flag\n", argv[1], size);
  g_free(pixels);
  g_object_unref(image);
  g_object_unref(like);
  close(fd);
  return 0;
}
