#include "jpeg_splice.h"

#include <stdlib.h>
#include <string.h>

// The bit writer and copier of the splice. Copying is where a splice spends its time after the scan: the bits of
// the untouched MCUs are read eight bytes at a time and written shifted, byte stuffing undone and redone, and only
// bytes that are or become 0xFF go one at a time.

enum { SJP_ROOM = 32 };  // bytes a put may add: 8 bytes of bits, each with a stuffed 0x00

int sjp_init(sjp_writer *w, FILE *out, size_t capacity) {
  memset(w, 0, sizeof *w);
  w->out = out;
  w->cap = capacity < 4 * SJP_ROOM ? 4 * SJP_ROOM : capacity;
  w->buf = malloc(w->cap);
  if (!w->buf) {
    w->cap = 0;
    w->failed = 1;
    return -1;
  }
  return 0;
}

void sjp_free(sjp_writer *w) {
  free(w->buf);
  w->buf = NULL;
  w->cap = w->len = 0;
}

int sjp_flush(sjp_writer *w) {
  if (w->out && w->len && !w->failed && fwrite(w->buf, 1, w->len, w->out) != w->len) w->failed = 1;
  if (w->out) w->len = 0;
  return w->failed ? -1 : 0;
}

// Makes room for `n` more bytes: flushed to the stream, or the buffer grown. After a failure the bytes are dropped
// (the buffer is emptied, so that writes stay inside it) and the caller sees `failed`.
static inline int sjp_room(sjp_writer *w, size_t n) {
  if (w->cap - w->len >= n) return 1;
  if (!w->buf) return 0;
  if (w->out) {
    sjp_flush(w);
    if (w->cap - w->len >= n) return 1;
  } else if (!w->failed) {
    size_t cap = w->cap * 2;
    while (cap - w->len < n) cap *= 2;
    unsigned char *grown = realloc(w->buf, cap);
    if (grown) {
      w->buf = grown;
      w->cap = cap;
      return 1;
    }
    w->failed = 1;
  }
  w->len = 0;
  return w->cap >= n;
}

static inline void sjp_byte(sjp_writer *w, unsigned byte) {
  w->buf[w->len++] = (unsigned char) byte;
  if (byte == 0xFF) w->buf[w->len++] = 0;
}

void sjp_put(sjp_writer *w, uint64_t value, int n) {
  if (n <= 0 || !sjp_room(w, SJP_ROOM)) return;
  w->acc = w->acc << n | (value & ((UINT64_C(1) << n) - 1));
  w->bits += n;
  while (w->bits >= 8) {
    w->bits -= 8;
    sjp_byte(w, (unsigned) (w->acc >> w->bits) & 0xFF);
  }
  w->acc &= (UINT64_C(1) << w->bits) - 1;
}

void sjp_pad(sjp_writer *w) {
  if (w->bits) sjp_put(w, 0x7F, 8 - w->bits);
}

void sjp_bytes(sjp_writer *w, const void *bytes, size_t n) {
  const unsigned char *p = bytes;
  while (n) {
    if (!sjp_room(w, SJP_ROOM)) return;
    size_t k = w->cap - w->len < n ? w->cap - w->len : n;
    memcpy(w->buf + w->len, p, k);
    w->len += k;
    p += k;
    n -= k;
  }
}

// 1 when one of the eight bytes of `v` is 0xFF (a zero byte of ~v).
static inline int sjp_has_ff(uint64_t v) {
  uint64_t x = ~v;
  return ((x - UINT64_C(0x0101010101010101)) & ~x & UINT64_C(0x8080808080808080)) != 0;
}

static inline uint64_t sjp_load(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | p[i];
  return v;
}

// Puts 64 bits: eight bytes stored at once unless one of them is 0xFF.
static inline void sjp_put64(sjp_writer *w, uint64_t v) {
  if (!sjp_room(w, SJP_ROOM)) return;
  int p = w->bits;
  uint64_t out = p ? w->acc << (64 - p) | v >> p : v;
  w->acc = p ? v & ((UINT64_C(1) << p) - 1) : 0;
  if (!sjp_has_ff(out)) {
    for (int i = 0; i < 8; i++) w->buf[w->len + (size_t) i] = (unsigned char) (out >> (56 - 8 * i));
    w->len += 8;
  } else {
    for (int i = 0; i < 8; i++) sjp_byte(w, (unsigned) (out >> (56 - 8 * i)) & 0xFF);
  }
}

// The data byte after the one at i: past a stuffed 0x00, and past fill bytes (0xFF 0xFF ... 0x00 is one 0xFF).
static inline size_t sjp_next(const unsigned char *d, size_t n, size_t i) {
  if (d[i] != 0xFF) return i + 1;
  size_t q = i + 1;
  while (q < n && d[q] == 0xFF) q++;
  return q + 1;
}

// Copies the data bits [a, b) of d (file bit offsets, on data bytes) to the writer.
static void sjp_copy(sjp_writer *w, const unsigned char *d, size_t n, uint64_t a, uint64_t b) {
  if (b <= a) return;
  size_t i = (size_t) (a >> 3), last = (size_t) (b >> 3);
  int skip = (int) (a & 7), tail = (int) (b & 7);
  if (last > n || (tail && last >= n)) {
    w->failed = 1;  // not points of a scan of `d`
    return;
  }
  if (i == last) {
    sjp_put(w, d[i] >> (8 - tail), tail - skip);
    return;
  }
  sjp_put(w, d[i], 8 - skip);
  i = sjp_next(d, n, i);
  while (i < last) {
    if (last - i >= 8 && i + 8 <= n) {
      uint64_t v = sjp_load(d + i);
      if (!sjp_has_ff(v)) {
        sjp_put64(w, v);
        i += 8;
        continue;
      }
    }
    sjp_put(w, d[i], 8);
    i = sjp_next(d, n, i);
  }
  if (i != last) {
    w->failed = 1;
    return;
  }
  if (tail) sjp_put(w, d[last] >> (8 - tail), tail);
}

// The size category of a DC difference (bits of its magnitude).
static int sjp_category(int v) {
  unsigned m = v < 0 ? (unsigned) -(long) v : (unsigned) v;
  int n = 0;
  while (m) {
    n++;
    m >>= 1;
  }
  return n;
}

int sjp_recodes(const sjs_frame *f, const sjp_run *run, const int pred[4]) {
  if (run->end <= run->bit) return 0;
  for (int c = 0; c < f->nf; c++)
    if (pred[c] != run->dc_in[c]) return 1;
  return 0;
}

int sjp_put_run(sjp_writer *w, const sjs_frame *f, const sjp_run *run, const int pred[4], int whole) {
  if (!sjp_recodes(f, run, pred)) {
    if (whole) sjp_copy(w, run->data, run->length, run->bit, run->end);
    return 0;
  }
  // The first MCU decoded and written again symbol by symbol, the first DC difference of each component re-coded.
  sjs_reader r;
  sjs_seek(&r, run->data, run->length, run->bit);
  long dc[4] = {run->dc_in[0], run->dc_in[1], run->dc_in[2], run->dc_in[3]};
  int first[4] = {1, 1, 1, 1};
  for (int b = 0; b < f->count; b++) {
    int c = f->blocks[b];
    const sjs_table *dct = &f->tables[0][f->dc[c]], *act = &f->tables[1][f->ac[c]];
    int s = 0;
    unsigned bits = 0;
    if (sjs_decode(&r, dct, &s) || (s && sjs_take(&r, s, &bits))) return 2;
    long diff = !s ? 0 : (bits >> (s - 1)) ? (long) bits : (long) bits - (1L << s) + 1;
    long value = dc[c] + diff;
    dc[c] = value;
    if (first[c]) {
      first[c] = 0;
      diff = value - pred[c];
      if (diff > 2047 || diff < -2047) return 1;
      s = sjp_category((int) diff);
    }
    if (!dct->size[s]) return 1;
    sjp_put(w, dct->code[s], dct->size[s]);
    if (s) sjp_put(w, (uint64_t) (diff < 0 ? diff - 1 : diff), s);
    for (int k = 1; k < 64;) {
      int symbol = 0;
      if (sjs_decode(&r, act, &symbol)) return 2;
      int zeros = symbol >> 4, size = symbol & 15;
      sjp_put(w, act->code[symbol], act->size[symbol]);
      if (size) {
        if (k + zeros > 63 || sjs_take(&r, size, &bits)) return 2;
        sjp_put(w, bits, size);
        k += zeros + 1;
      } else if (zeros == 15) {
        k += 16;
        if (k > 64) return 2;
      } else {
        break;
      }
    }
  }
  uint64_t rest = sjs_position(&r);
  if (rest > run->end) return 2;
  if (whole) sjp_copy(w, run->data, run->length, rest, run->end);
  return 0;
}
