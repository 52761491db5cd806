#include "jpeg_state.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>

#include "JPEGTransplant.h"
#include "jpeg_arrays.h"
#include "jpeg_direct.h"
#include "jpeg_errors.h"
#include "jpeg_restart_index.h"

// The state's life: made once, reused by one job after another, reset after a failure.

int sjt_damage(const sjt_state *s) { return s->error.damage; }

void *sjt_arrays_of(sjt_state *s) { return &s->arrays; }

void sjt_set_stop(sjt_state *s, const sjs_stop *stop) {
  const sjs_stop *held = s->error.stop;
  s->error.stop = sjs_stop_retain(stop);
  sjs_stop_release(held);
}

int sjt_set_direct(sjt_state *s, int on) {
  s->direct.enabled = on != 0;
  return s->direct.dct.usable != 0;
}

int sjt_direct_modules(const sjt_state *s) {
  return (s->direct.dct.usable && s->direct.dct.fwd_made ? SJT_DIRECT_DCT_MODULES : 0)
    | (s->direct.colour.usable ? SJT_DIRECT_COLOUR_MODULES : 0);
}

// After a longjmp: hands the message over and resets every object, so the state serves the next job.
int sjt_report(sjt_state *s, const char *text, char *message, size_t length) {
  snprintf(message, length, "%s", text);
  jpeg_abort_compress(&s->enc);
  jpeg_abort_compress(&s->dst);
  jpeg_abort_decompress(&s->aux);
  if (s->out) fclose(s->out);
  s->out = NULL;
  sjt_close(s);
  return -1;
}

sjt_state *sjt_new(void) {
  sjt_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  sjt_errors_init(&s->error);
  s->fd = -1;
  s->whole = 1;
  s->window = SJT_WINDOW_DEFAULT;
  sjt_direct_init(&s->direct);
  s->src.err = s->aux.err = s->enc.err = s->dst.err = &s->error.pub;
  if (setjmp(s->error.jump)) {
    sjt_free(s);
    return NULL;
  }
  jpeg_create_decompress(&s->src);
  jpeg_create_decompress(&s->aux);
  jpeg_create_compress(&s->enc);
  jpeg_create_compress(&s->dst);
  sjt_arrays_adopt(&s->arrays, (j_common_ptr) &s->src, 1);
  s->src.progress = s->aux.progress = &s->error.progress;
  s->enc.progress = s->dst.progress = &s->error.progress;
  // Both compressors write the photo's arrays: the output file, and the restart spans (jpeg_restart_spans.c).
  sjt_arrays_adopt(&s->arrays, (j_common_ptr) &s->dst, 0);
  sjt_arrays_adopt(&s->arrays, (j_common_ptr) &s->enc, 0);
  s->dst.in_color_space = JCS_RGB;
  s->dst.input_components = 3;
  jpeg_set_defaults(&s->dst);
  for (int i = 0; i < 2; i++) {
    s->standard_dc[i] = *s->dst.dc_huff_tbl_ptrs[i];
    s->standard_ac[i] = *s->dst.ac_huff_tbl_ptrs[i];
  }
  return s;
}

void sjt_free(sjt_state *s) {
  if (!s) return;
  sjt_let_go(s);  // the descriptor of a photo still open through the window
  jpeg_destroy_decompress(&s->src);
  jpeg_destroy_decompress(&s->aux);
  jpeg_destroy_compress(&s->enc);
  jpeg_destroy_compress(&s->dst);
  sjt_restarts_free(&s->restarts);
  sjt_splice_free(&s->splice);
  sjt_arrays_free(&s->arrays);
  sjt_direct_free(&s->direct);
  free(s->file);
  free(s->window_buf);
  free(s->mem);
  free(s->icc);
  free(s->out_buffer);
  sjs_stop_release(s->error.stop);
  free(s);
}

void sjt_close(sjt_state *s) {
  if (s->opened) jpeg_abort_decompress(&s->src);
  s->opened = 0;
  sjt_let_go(s);
  s->whole = 1;
  s->coefficients = NULL;
  sjt_restarts_clear(&s->restarts);
  sjt_splice_clear(&s->splice);
  s->reading_part = 0;
}

