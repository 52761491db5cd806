// libFuzzer harness for the JPEG transplant's C (scripts/fuzz-jpeg): every input is written to a file and goes
// through what a job does with a JPEG base: the header, the restart-interval index, a span opened over every
// interval, a region decoded and encoded again, the span encoded and the file spliced; and, apart, the whole
// coefficients read, a region redrawn and the file written. Errors are expected; a crash, an address error or a
// hang is a bug.
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "JPEGTransplant.h"

static sjt_state *state;
static char in_path[512], out_path[512];

static void redraw(int width, int height, int block_w, int block_h) {
  char message[512];
  int w = width < block_w ? width : block_w;
  int h = height < block_h ? height : block_h;
  static unsigned char rgb[64 * 64 * 3];
  if (w > 64 || h > 64) return;
  if (sjt_decode_region(state, 0, 0, w, h, rgb, message, sizeof message)) return;
  for (int i = 0; i < w * h * 3; i += 7) rgb[i] ^= 0x5A;
  unsigned char mask[64];
  memset(mask, 1, sizeof mask);
  const unsigned char *masks[4] = {mask, mask, mask, mask};
  sjt_replace_blocks(state, 0, 0, w, h, rgb, masks, message, sizeof message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!state) {
    state = sjt_new();
    const char *tmp = getenv("STAMPCAM_FUZZ_TMP");
    snprintf(in_path, sizeof in_path, "%s/in-%d.jpg", tmp ? tmp : "/tmp", (int) getpid());
    snprintf(out_path, sizeof out_path, "%s/out-%d.jpg", tmp ? tmp : "/tmp", (int) getpid());
  }
  FILE *f = fopen(in_path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  char message[512];
  sjt_header header;
  for (int pass = 0; pass < 2; pass++) {
    int fd = open(in_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    int opened = sjt_open(state, fd, &header, message, sizeof message);
    close(fd);
    if (opened != 0) return 0;
    // Big pictures only make the run slow; the shapes that matter fit in a few thousand pixels.
    if ((long) header.width * header.height > 1 << 20) break;
    // What RenderPath.choose lets through to the transplant: baseline 8-bit YCbCr, luma 1x1, 2x1, 2x2 or 1x2 with
    // chroma 1x1, usable quantization tables.
    if (header.progressive || header.arithmetic || header.precision != 8 || header.color_space != SJT_YCBCR
        || header.components != 3 || !header.quantization_ok || header.h[0] > 2 || header.v[0] > 2
        || header.h[1] != 1 || header.v[1] != 1 || header.h[2] != 1 || header.v[2] != 1)
      break;
    int hmax = 1, vmax = 1;
    for (int c = 0; c < header.components; c++) {
      if (header.h[c] > hmax) hmax = header.h[c];
      if (header.v[c] > vmax) vmax = header.v[c];
    }
    if (pass == 0) {
      // Every interval: the count of MCUs over the interval length, rounded up.
      int interval = 0;
      long mcus = (long) ((header.width + 8 * hmax - 1) / (8 * hmax)) * ((header.height + 8 * vmax - 1) / (8 * vmax));
      if (sjt_restart_index(state, &interval, message, sizeof message) == 0
          && sjt_span_open(state, 0, (int) ((mcus + interval - 1) / interval), header.height, message, sizeof message)
               == 0) {
        redraw(header.width, header.height, 8 * hmax, 8 * vmax);
        if (sjt_span_encode(state, 6, message, sizeof message) == 0)
          sjt_write_spliced(state, out_path, message, sizeof message);
      }
    } else if (sjt_read_coefficients(state, message, sizeof message) == 0) {
      redraw(header.width, header.height, 8 * hmax, 8 * vmax);
      sjt_write(state, out_path, 3, message, sizeof message);
    }
    sjt_close(state);
  }
  sjt_close(state);
  return 0;
}
