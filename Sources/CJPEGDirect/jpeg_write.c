#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"
#include "jpeg_coding.h"
#include "jpeg_output.h"
#include "jpeg_state.h"

// The whole edited photo, written in its own coding.

int sjt_write(sjt_state *s, int fd, int orientation, char *message, size_t length) {
  if (!s->coefficients) return snprintf(message, length, "no coefficients read"), -1;
  s->out = sjt_output_open(&s->out_buffer, fd, message, length);
  if (!s->out) return -1;
  if (setjmp(s->error.jump)) return sjt_report(s, s->error.text, message, length);
  sjt_keep_coding(s, &s->dst);
  // Fitted tables are made from the coefficients by a pass that refuses what no code carries; fixed ones are not.
  if (!s->dst.optimize_coding && !s->dst.progressive_mode && !s->dst.arith_code
      && !sjt_coefficients_codable(&s->src, s->coefficients, s->dst.restart_interval, NULL, NULL)) {
    FILE *out = s->out;
    s->out = NULL;
    fclose(out);
    return snprintf(message, length, "coefficients no baseline JPEG codes (a DC difference past 2047)"), -1;
  }
  jpeg_stdio_dest(&s->dst, s->out);
  jpeg_write_coefficients(&s->dst, s->coefficients);
  sjt_write_markers(s, &s->dst, orientation);
  jpeg_finish_compress(&s->dst);
  FILE *out = s->out;
  s->out = NULL;
  return sjt_output_close(out, 0, message, length);
}
