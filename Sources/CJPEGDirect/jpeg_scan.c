#include "JPEGScan.h"
#include "jpeg_huffman.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// The baseline entropy scanner (JPEGScan.h). It decodes every Huffman symbol and skips the magnitude bits: no
// coefficient is stored. Where the data is damaged it stops where libjpeg would warn, so that "damaged" here means
// what a libjpeg warning means to the rest of stampcam. It is stricter in three places where libjpeg-turbo reads on
// without a warning: an AC run past coefficient 63 (its zigzag table has guard entries), a code not in the table
// met by its fast Huffman decoder (jdhuff.h's HUFF_DECODE_FAST makes it symbol 0; only its slow decoder, used near a
// marker, warns), and fill bytes inside the data (see sjs_fill). All are damage here.

static int sjs_not_handled(sjs_result *r, const char *reason) {
  r->status = SJS_NOT_HANDLED;
  r->reason = reason;
  return SJS_NOT_HANDLED;
}

static unsigned sjs_be16(const unsigned char *p) { return (unsigned) p[0] << 8 | p[1]; }

// Builds the decoding table of one DHT entry, as libjpeg does (jdhuff.c), and refuses what libjpeg refuses (an
// over-full code, a code of all ones) and what this scanner does not handle (symbols outside baseline's sizes).
static int sjs_build(sjs_table *t, const unsigned char *counts, const unsigned char *symbols, int total, int ac) {
  memset(t, 0, sizeof *t);
  memcpy(t->vals, symbols, (size_t) total);
  for (int i = 0; i < total; i++) {
    int s = symbols[i];
    if (!ac && s > 11) return -1;
    if (ac && (s & 15) == 0 && s != 0 && s != 0xF0) return -1;
    if (ac && (s & 15) > 10) return -1;
  }
  long code = 0;
  int k = 0;
  for (int len = 1; len <= 16; len++) {
    int n = counts[len - 1];
    // More codes of a length than it has (an over-full table, which libjpeg refuses too): refused before any of
    // them is written into the look-up tables, whose size is the lengths' own.
    if (code + n > 1L << len) return -1;
    if (n) {
      t->valoffset[len] = k - (int) code;
      for (int i = 0; i < n; i++, k++, code++) {
        if (!t->size[symbols[k]]) {
          t->code[symbols[k]] = (unsigned short) code;
          t->size[symbols[k]] = (unsigned char) len;
        }
        if (len <= SJS_LOOKAHEAD) {
          int shift = SJS_LOOKAHEAD - len;
          int sym = symbols[k], run = sym >> 4, size = sym & 15;
          int advance = sym == 0 ? SJS_EOB : (size ? run + 1 : 16);
          for (long j = code << shift; j < (code + 1) << shift; j++) {
            t->fast[j] = (unsigned short) (len << 8 | sym);
            if (ac) t->skip[j] = (unsigned short) ((len + size) | advance << 5);
          }
        }
      }
      t->maxcode[len] = code - 1;
    } else {
      t->maxcode[len] = -1;
    }
    if (code >= 1L << len) return -1;
    code <<= 1;
  }
  t->maxcode[17] = 0x7FFFFFFFL;
  t->defined = 1;
  if (ac) {
    for (unsigned prefix = 0; prefix < 1u << SJS_MULTI; prefix++) {
      int used = 0, advance = 0, eob = 0;
      while (!eob) {
        int len = 1, sym = -1;
        for (; used + len <= SJS_MULTI; len++) {
          long c = (long) (prefix >> (SJS_MULTI - used - len) & ((1u << len) - 1));
          if (c <= t->maxcode[len]) {
            sym = t->vals[t->valoffset[len] + c];
            break;
          }
        }
        if (sym < 0 || used + len + (sym & 15) > SJS_MULTI) break;
        int step = sym == 0 ? 0 : ((sym & 15) ? (sym >> 4) + 1 : 16);
        if (advance + step > 64) break;
        used += len + (sym & 15);
        advance += step;
        eob = sym == 0;
      }
      t->multi[prefix] = (unsigned short) (used | advance << 4 | eob << 11);
    }
  }
  return 0;
}

// Bytes kept before the next byte to load when a window moves on: the loaded bytes not yet used (at most 8, each
// perhaps with a stuffed zero) lie there, and sjs_position finds their offsets.
enum { SJS_KEEP = 64 };

size_t sjs_pread(int fd, unsigned char *into, size_t n, size_t at) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = pread(fd, into + got, n - got, (off_t) (at + got));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += (size_t) k;
  }
  return got;
}

// Moves a window reader's bytes on: drops the `drop` bytes before data[drop] and reads after what is left, as far as
// the window holds and the file goes. Returns the bytes added (0 in memory, at the file's end, in a full window, or
// when a read fails: then `win->failed` is set and the file is taken to end there).
static size_t sjs_move(sjs_reader *r, size_t drop) {
  sjs_window *w = r->win;
  if (!w || w->failed) return 0;
  if (drop > r->length) drop = r->length;
  memmove(w->buf, w->buf + drop, r->length - drop);
  r->origin += drop;
  r->pos -= drop < r->pos ? drop : r->pos;
  for (int i = 0; i < 16; i++) r->offsets[i] = r->offsets[i] >= drop ? r->offsets[i] - drop : 0;
  r->length -= drop;
  r->data = w->buf;
  size_t end = r->origin + r->length;
  if (end >= w->size || r->length >= w->cap) return 0;
  size_t want = w->cap - r->length < w->size - end ? w->cap - r->length : w->size - end;
  size_t got = sjs_pread(w->fd, w->buf + r->length, want, end);
  if (got < want) w->failed = 1;
  r->length += got;
  return w->failed ? 0 : got;
}

// A window reader out of bytes: the window moves on, keeping SJS_KEEP bytes before the next to load. 1 when it
// holds more bytes now.
static int sjs_slide(sjs_reader *r) {
  return r->win && sjs_move(r, r->pos > SJS_KEEP ? r->pos - SJS_KEEP : 0) > 0;
}

// Fill bytes (any number of 0xFF before a marker) may be longer than a window. A window reader whose run of 0xFF
// fills the whole window (it cannot move on: the run starts within SJS_KEEP of the window's start) finds the first byte
// after the run by reading on past the window, which stays as it is. Returns its file offset and sets *byte, or
// returns the file's size when the run goes on to the end of the file or a read fails (then `failed` is set).
static size_t sjs_past_run(const sjs_reader *r, unsigned *byte) {
  sjs_window *w = r->win;
  if (!w || w->failed || r->length < w->cap) return w ? w->size : 0;
  unsigned char piece[4096];
  for (size_t at = r->origin + r->length; at < w->size;) {
    size_t want = w->size - at < sizeof piece ? w->size - at : sizeof piece;
    size_t got = sjs_pread(w->fd, piece, want, at);
    for (size_t i = 0; i < got; i++)
      if (piece[i] != 0xFF) {
        *byte = piece[i];
        return at + i;
      }
    if (got < want) {
      w->failed = 1;
      break;
    }
    at += got;
  }
  return w->size;
}

static void sjs_reset(sjs_reader *r, size_t pos) {
  r->pos = pos;
  r->acc = 0;
  r->bits = 0;
  r->marker = 0;
  r->ended = 0;
  r->fill = 0;
  r->loaded = 0;
}

// Loads bytes until 57 or more bits are held, a marker comes or the buffer ends. 0xFF 0x00 is one data byte 0xFF;
// 0xFF followed by anything else starts a marker. Fill bytes before the zero (0xFF 0xFF ... 0x00) stop the loading
// as a marker does: libjpeg's slow decoder reads them as one data byte 0xFF, but libjpeg-turbo's fast one takes
// 0xFF 0xFF for a marker, decodes zeros after it, and leaves coefficients of those zeros in the MCU's blocks where
// its slow decoder, run again on that MCU, finds none; no warning either way. The MCU then holds what neither the
// data nor this scanner says, so the data is damage here and libjpeg's reading of it stands (a splice would copy
// the bits as they are coded).
static void sjs_fill(sjs_reader *r) {
  while (r->bits <= 56 && !r->marker && !r->ended) {
    if (r->pos >= r->length) {
      if (sjs_slide(r)) continue;
      r->ended = 1;
      break;
    }
    size_t at = r->pos;
    unsigned c = r->data[at];
    if (c == 0xFF) {
      size_t q = at + 1;
      while (q < r->length && r->data[q] == 0xFF) q++;
      if (q >= r->length) {
        // Positions move with the window: this byte is looked at again.
        if (sjs_slide(r)) continue;
        // Or fill bytes past a full window (so more than one 0xFF): a marker, or fill inside the data before a zero.
        unsigned after = 0;
        if (r->win && sjs_past_run(r, &after) < r->win->size) {
          r->marker = 1;
          r->fill = after == 0;
          break;
        }
        r->ended = 1;
        break;
      }
      if (r->data[q] != 0 || q > at + 1) {
        r->marker = 1;
        r->fill = r->data[q] == 0;
        break;
      }
      r->pos = q + 1;
    } else {
      r->pos = at + 1;
    }
    r->acc = r->acc << 8 | c;
    r->bits += 8;
    r->offsets[r->loaded % 16] = at;
    r->loaded++;
  }
}

// The file bit offset of the next unused bit.
uint64_t sjs_position(const sjs_reader *r) {
  if (r->bits == 0) return (uint64_t) (r->origin + r->pos) * 8;
  size_t byte = r->loaded - (size_t) (r->bits + 7) / 8;
  return (uint64_t) (r->origin + r->offsets[byte % 16]) * 8 + (uint64_t) ((8 - r->bits % 8) % 8);
}

static int sjs_short(const sjs_reader *r) {
  return r->fill ? SJS_DAMAGE_FILL_IN_DATA : r->marker ? SJS_DAMAGE_HIT_MARKER : SJS_DAMAGE_ENDED;
}

void sjs_seek(sjs_reader *r, const unsigned char *data, size_t length, uint64_t bit) {
  r->data = data;
  r->length = length;
  r->origin = 0;
  r->win = NULL;
  sjs_reset(r, (size_t) (bit / 8));
  sjs_fill(r);
  int skip = (int) (bit % 8);
  r->bits = r->bits >= skip ? r->bits - skip : 0;
}

void sjs_seek_window(sjs_reader *r, sjs_window *w, uint64_t bit) {
  size_t byte = (size_t) (bit / 8);
  if (r->win != w || byte < r->origin || byte >= r->origin + r->length) {
    // The window starts at the byte, empty, and is read from there.
    r->win = w;
    r->data = w->buf;
    r->origin = byte;
    r->length = 0;
    r->pos = 0;
    sjs_move(r, 0);
  }
  sjs_reset(r, byte - r->origin);
  sjs_fill(r);
  int skip = (int) (bit % 8);
  r->bits = r->bits >= skip ? r->bits - skip : 0;
}

// Places a new reader at file bit `bit` of the file `source` holds, or reads through the reader's window `w`.
static void sjs_start(sjs_reader *r, const sjs_source *source, sjs_window *w, uint64_t bit) {
  if (source->fd < 0) {
    sjs_seek(r, source->data, source->length, bit);
  } else {
    r->win = NULL;
    sjs_seek_window(r, w, bit);
  }
}

// Places a reader at file bit `bit` of what it reads (memory or its window).
static void sjs_reseek(sjs_reader *r, uint64_t bit) {
  if (r->win) {
    sjs_seek_window(r, r->win, bit);
  } else {
    sjs_seek(r, r->data, r->length, bit);
  }
}

// Decodes one symbol into *symbol; 0, or a damage kind.
int sjs_decode(sjs_reader *r, const sjs_table *t, int *symbol) {
  if (r->bits < 16) sjs_fill(r);
  if (r->bits >= SJS_LOOKAHEAD) {
    unsigned e = t->fast[(r->acc >> (r->bits - SJS_LOOKAHEAD)) & ((1u << SJS_LOOKAHEAD) - 1)];
    if (e) {
      r->bits -= (int) (e >> 8);
      *symbol = (int) (e & 255);
      return 0;
    }
  }
  for (int len = 1; len <= 16; len++) {
    if (r->bits < len) return sjs_short(r);
    long code = (long) ((r->acc >> (r->bits - len)) & ((1u << len) - 1));
    if (code <= t->maxcode[len]) {
      r->bits -= len;
      *symbol = t->vals[t->valoffset[len] + code];
      return 0;
    }
  }
  return SJS_DAMAGE_BAD_CODE;
}

// Takes n (at most 16) magnitude bits into *value; 0, or a damage kind.
int sjs_take(sjs_reader *r, int n, unsigned *value) {
  if (r->bits < n) sjs_fill(r);
  if (r->bits < n) return sjs_short(r);
  r->bits -= n;
  *value = (unsigned) (r->acc >> r->bits) & ((1u << n) - 1);
  return 0;
}

// After an interval's or the scan's last MCU: the bits left in the last byte are padding, any whole byte before the
// marker is damage (libjpeg warns of extraneous bytes). Sets *marker to the offset of the marker's code byte in
// r->data, and *first to the file offset of the marker's first 0xFF.
static int sjs_to_marker(sjs_reader *r, size_t *marker, size_t *first) {
  if (r->bits >= 8) return SJS_DAMAGE_EXTRA_BYTES;
  for (;;) {
    if (r->pos >= r->length) {
      if (sjs_slide(r)) continue;
      return SJS_DAMAGE_ENDED;
    }
    if (r->data[r->pos] != 0xFF) return SJS_DAMAGE_EXTRA_BYTES;
    size_t q = r->pos + 1;
    while (q < r->length && r->data[q] == 0xFF) q++;
    if (q >= r->length) {
      if (sjs_slide(r)) continue;
      unsigned code = 0;
      size_t at = sjs_past_run(r, &code);
      if (!r->win || at >= r->win->size) return SJS_DAMAGE_ENDED;
      if (code == 0) return SJS_DAMAGE_EXTRA_BYTES;
      // Fill bytes longer than the window: it starts again at the marker's code byte.
      *first = r->origin + r->pos;
      r->origin = at;
      r->length = 0;
      sjs_reset(r, 0);
      if (sjs_move(r, 0) == 0) return SJS_DAMAGE_ENDED;  // a read that failed
      *marker = 0;
      return 0;
    }
    if (r->data[q] == 0) return SJS_DAMAGE_EXTRA_BYTES;
    *first = r->origin + r->pos;
    *marker = q;
    return 0;
  }
}


// Reads the markers from SOI to the end of the first SOS. 0 with *entropy set, or SJS_NOT_HANDLED.
static int sjs_headers(const unsigned char *d, size_t n, sjs_frame *f, size_t *entropy, sjs_result *res) {
  if (n < 4 || d[0] != 0xFF || d[1] != 0xD8) return sjs_not_handled(res, "no SOI marker");
  size_t p = 2;
  int seen_frame = 0;
  for (;;) {
    if (p >= n || d[p] != 0xFF) return sjs_not_handled(res, "data between header segments");
    while (p < n && d[p] == 0xFF) p++;
    if (p + 2 >= n) return sjs_not_handled(res, "header cut short");
    unsigned code = d[p++];
    if (code == 0xD8 || code == 0xD9 || (code >= 0xD0 && code <= 0xD7) || code == 0x01 || code == 0)
      return sjs_not_handled(res, "a marker without a segment before the scan");
    size_t len = sjs_be16(d + p);
    if (len < 2 || len > n - p) return sjs_not_handled(res, "header cut short");
    const unsigned char *s = d + p + 2;
    size_t body = len - 2;
    p += len;
    if (code == 0xC0 || code == 0xC1) {
      if (seen_frame) return sjs_not_handled(res, "two frame headers");
      seen_frame = 1;
      if (body < 6) return sjs_not_handled(res, "frame header too short");
      if (s[0] != 8) return sjs_not_handled(res, "not 8-bit samples");
      res->frame_size_at = (size_t) (s + 1 - d);
      f->height = (int) sjs_be16(s + 1);
      f->width = (int) sjs_be16(s + 3);
      f->nf = s[5];
      if (f->height == 0 || f->width == 0) return sjs_not_handled(res, "a size left to a DNL marker, or zero");
      if (f->nf < 1 || f->nf > 4) return sjs_not_handled(res, "not 1 to 4 components");
      if (body != 6 + 3 * (size_t) f->nf) return sjs_not_handled(res, "frame header of the wrong length");
      for (int i = 0; i < f->nf; i++) {
        f->id[i] = s[6 + 3 * i];
        f->h[i] = s[7 + 3 * i] >> 4;
        f->v[i] = s[7 + 3 * i] & 15;
        if (f->h[i] < 1 || f->h[i] > 4 || f->v[i] < 1 || f->v[i] > 4)
          return sjs_not_handled(res, "sampling factor outside 1-4");
        for (int j = 0; j < i; j++)
          if (f->id[j] == f->id[i]) return sjs_not_handled(res, "two components with one id");
      }
    } else if (code == 0xC4) {
      size_t q = 0;
      while (q < body) {
        if (body - q < 17) return sjs_not_handled(res, "Huffman table cut short");
        int tc = s[q] >> 4, th = s[q] & 15;
        if (tc > 1 || th > 3) return sjs_not_handled(res, "Huffman table class or slot out of range");
        int total = 0;
        for (int i = 0; i < 16; i++) total += s[q + 1 + i];
        if (total > 256 || (size_t) total > body - q - 17) return sjs_not_handled(res, "Huffman table cut short");
        if (sjs_build(&f->tables[tc][th], s + q + 1, s + q + 17, total, tc) != 0)
          return sjs_not_handled(res, "a Huffman table outside baseline's bounds");
        q += 17 + (size_t) total;
      }
    } else if (code == 0xDD) {
      if (body != 2) return sjs_not_handled(res, "restart interval segment of the wrong length");
      f->restart = (long) sjs_be16(s);
    } else if (code == 0xDA) {
      if (!seen_frame) return sjs_not_handled(res, "a scan before the frame header");
      if (body < 1) return sjs_not_handled(res, "scan header too short");
      f->ns = s[0];
      if (f->ns != f->nf) return sjs_not_handled(res, "a scan of some of the components (several scans)");
      if (body != 4 + 2 * (size_t) f->ns) return sjs_not_handled(res, "scan header of the wrong length");
      int used = 0;
      for (int i = 0; i < f->ns; i++) {
        int c = -1;
        for (int j = 0; j < f->nf; j++)
          if (f->id[j] == s[1 + 2 * i]) c = j;
        if (c < 0 || (used >> c & 1)) return sjs_not_handled(res, "a scan component not in the frame");
        used |= 1 << c;
        f->order[i] = c;
        f->dc[c] = s[2 + 2 * i] >> 4;
        f->ac[c] = s[2 + 2 * i] & 15;
        if (f->dc[c] > 3 || f->ac[c] > 3 || !f->tables[0][f->dc[c]].defined || !f->tables[1][f->ac[c]].defined)
          return sjs_not_handled(res, "a scan's Huffman table is not defined");
      }
      const unsigned char *t = s + 1 + 2 * f->ns;
      if (t[0] != 0 || t[1] != 63 || t[2] != 0) return sjs_not_handled(res, "not a sequential scan");
      *entropy = p;
      return 0;
    } else if (code == 0xDB || (code >= 0xE0 && code <= 0xEF) || code == 0xFE) {
      // Quantization tables, application data, comments: nothing the entropy data depends on.
    } else {
      return sjs_not_handled(res, "progressive, arithmetic, lossless or hierarchical coding");
    }
  }
}

// After the scan: restart markers and segments libjpeg reads and skips, up to EOI. SJS_OK, SJS_NOT_HANDLED (reason
// set), or a damage kind (never SJS_DAMAGE_RUN_PAST_END, whose value SJS_NOT_HANDLED shares).
static int sjs_trailer(const unsigned char *d, size_t n, size_t code_at, sjs_result *res) {
  size_t q = code_at;
  for (;;) {
    unsigned code = d[q];
    if (code == 0xD9) return SJS_OK;
    size_t next;
    if ((code >= 0xD0 && code <= 0xD7) || code == 0x01) {
      next = q + 1;
    } else if (code == 0xC4 || code == 0xDB || code == 0xDD || (code >= 0xE0 && code <= 0xEF) || code == 0xFE) {
      if (n - q < 3) return SJS_DAMAGE_ENDED;
      size_t len = sjs_be16(d + q + 1);
      if (len < 2 || len > n - q - 1) return SJS_DAMAGE_ENDED;
      next = q + 1 + len;
    } else {
      return sjs_not_handled(res, "another scan or frame after the first scan");
    }
    if (next >= n) return SJS_DAMAGE_ENDED;
    if (d[next] != 0xFF) return SJS_DAMAGE_EXTRA_BYTES;
    while (next < n && d[next] == 0xFF) next++;
    if (next >= n) return SJS_DAMAGE_ENDED;
    if (d[next] == 0) return SJS_DAMAGE_EXTRA_BYTES;
    q = next;
  }
}

// Decodes one MCU, adding its DC differences to dc; 0, or a damage kind.
static inline __attribute__((always_inline)) int sjs_mcu(sjs_reader *r, const sjs_frame *f, int dc[4]) {
  for (int b = 0; b < f->count; b++) {
    int c = f->blocks[b];
    int s = 0, bad;
    unsigned bits = 0;
    if ((bad = sjs_decode(r, &f->tables[0][f->dc[c]], &s)) != 0) return bad;
    if (s) {
      if ((bad = sjs_take(r, s, &bits)) != 0) return bad;
      int diff = (bits >> (s - 1)) ? (int) bits : (int) bits - (1 << s) + 1;
      dc[c] = (int) ((unsigned) dc[c] + (unsigned) diff);
    }
    const sjs_table *act = &f->tables[1][f->ac[c]];
    // The bit count in a local between fills: kept in memory (r is passed by address) it would put a store and a
    // load into every symbol's chain of dependent steps, about a third of the scan's time.
    uint64_t acc = r->acc;
    int held = r->bits;
    for (int k = 1; k < 64;) {
      if (held < 32) {
        r->bits = held;
        sjs_fill(r);
        acc = r->acc;
        held = r->bits;
      }
      if (held >= SJS_MULTI) {
        unsigned e = act->multi[(acc >> (held - SJS_MULTI)) & ((1u << SJS_MULTI) - 1)];
        int advance = (int) (e >> 4 & 127);
        // Only when the block cannot end among them: at index 64 the next bits are the next block's.
        if (e && k + advance < 64) {
          held -= (int) (e & 15);
          k += advance;
          if (e >> 11) break;
          continue;
        }
      }
      if (held >= SJS_LOOKAHEAD) {
        unsigned e = act->skip[(acc >> (held - SJS_LOOKAHEAD)) & ((1u << SJS_LOOKAHEAD) - 1)];
        if (e) {
          int used = (int) (e & 31), advance = (int) (e >> 5);
          if (used > held) return sjs_short(r);
          held -= used;
          if (advance == SJS_EOB) break;
          k += advance;
          if (k > 64) return SJS_DAMAGE_RUN_PAST_END;
          continue;
        }
      }
      r->bits = held;
      if ((bad = sjs_decode(r, act, &s)) != 0) return bad;
      int run = s >> 4, size = s & 15;
      if (size) {
        k += run;
        if (k > 63) return SJS_DAMAGE_RUN_PAST_END;
        if ((bad = sjs_take(r, size, &bits)) != 0) return bad;
        k++;
      } else if (run == 15) {
        k += 16;
        if (k > 64) return SJS_DAMAGE_RUN_PAST_END;
      } else {
        held = r->bits;
        break;
      }
      acc = r->acc;
      held = r->bits;
    }
    r->bits = held;
  }
  return 0;
}

static int sjs_damaged(sjs_result *res, int kind, long mcu, size_t offset) {
  res->status = SJS_DAMAGED;
  res->damage = kind;
  res->damage_mcu = mcu;
  res->damage_offset = offset;
  return SJS_DAMAGED;
}

typedef struct sjs_guess sjs_guess;
static int sjs_scan_core(const sjs_source *source, long stride, const unsigned char *rows, long row_count,
  sjs_point *points, size_t capacity, sjs_result *res, sjs_frame *frame, sjs_guess *guess);

int sjs_scan(const unsigned char *data, size_t length, long stride, sjs_point *points, size_t capacity,
  sjs_result *res) {
  memset(res, 0, sizeof *res);
  res->damage_mcu = -1;
  res->reason = "";
  if (!data || (capacity && !points) || stride < 1) return sjs_not_handled(res, "bad arguments");
  // The tables take 90 KB: on the heap, not on a caller's thread's stack.
  sjs_frame *frame = calloc(1, sizeof *frame);
  if (!frame) return sjs_not_handled(res, "out of memory");
  sjs_source source = {.data = data, .length = length, .fd = -1};
  int status = sjs_scan_core(&source, stride, NULL, 0, points, capacity, res, frame, NULL);
  free(frame);
  return status;
}

// The second half of a scan in two (sjs_scan_split): a thread that decodes MCUs from a byte in the middle of the data,
// its state there guessed (an MCU starts at that byte's first bit; every predictor 0), recording where each MCU it
// decodes starts. A wrong guess decodes garbage for a while: where that breaks a rule (a code not in the table, a
// run past the block's end) it guesses again from there. Huffman codes fall back into step with the true decoding
// within a few symbols, and then so does the MCU structure: the first thread, scanning from the start, stops at the
// first MCU it starts where a record of the second starts too (the same bit, so the same state from there on, the
// predictors apart by a constant) and takes the rest from the records.
enum { SJS_SPLIT_MINIMUM = 2 << 20 };  // entropy-coded bytes below which one thread scans

struct sjs_guess {
  const sjs_source *source;
  size_t start;
  sjs_window win;  // its own window, when the file is read through one
  const sjs_frame *f;
  sjs_point *rec;
  long capacity;
  _Atomic long published;  // records written
  _Atomic int done;  // the thread has ended
  _Atomic int cancel;  // the first thread no longer needs it
  long last_guess;  // the first record after the last guess made again
  long end;  // the record of where decoding stopped at a marker or the data's end (-1: stopped otherwise)
};

static void *sjs_guess_run(void *argument) {
  sjs_guess *g = argument;
  sjs_reader r;
  sjs_start(&r, g->source, &g->win, (uint64_t) g->start * 8);
  int dc[4] = {0, 0, 0, 0};
  long n = 0;
  g->end = -1;
  while (!atomic_load_explicit(&g->cancel, memory_order_relaxed) && n < g->capacity) {
    g->rec[n].bit = sjs_position(&r);
    memcpy(g->rec[n].dc, dc, sizeof dc);
    atomic_store_explicit(&g->published, ++n, memory_order_release);
    uint64_t before = g->rec[n - 1].bit;
    int bad = sjs_mcu(&r, g->f, dc);
    if (!bad) continue;
    if (bad == SJS_DAMAGE_HIT_MARKER || bad == SJS_DAMAGE_ENDED) {
      g->end = g->win.failed ? -1 : n - 1;  // a read that failed ends nothing
      break;
    }
    // Out of step: guess again from here (at least a bit further on, so that it ends).
    g->last_guess = n;
    memset(dc, 0, sizeof dc);
    if (sjs_position(&r) <= before) sjs_reseek(&r, before + 1);
  }
  atomic_store_explicit(&g->done, 1, memory_order_release);
  return NULL;
}

static int sjs_scan_mcus(const sjs_source *source, long stride, const unsigned char *rows, long row_count,
  sjs_point *points, size_t capacity, sjs_result *res, const sjs_frame *f, sjs_guess *g);

int sjs_scan_into(const unsigned char *data, size_t length, long stride, const unsigned char *rows, long row_count,
  sjs_point *points, size_t capacity, sjs_result *res, sjs_frame *frame) {
  sjs_source source = {.data = data, .length = length, .fd = -1};
  return sjs_scan_core(&source, stride, rows, row_count, points, capacity, res, frame, NULL);
}

int sjs_scan_split(const sjs_source *source, const unsigned char *rows, long row_count, sjs_point *points,
  size_t capacity, sjs_result *res, sjs_frame *frame, size_t split_at) {
  size_t size = source->fd >= 0 ? source->size : source->length;
  if (split_at == SIZE_MAX || !source->data || size < 4)
    return sjs_scan_core(source, 1, rows, row_count, points, capacity, res, frame, NULL);
  if (split_at == 0) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 2 || size < SJS_SPLIT_MINIMUM)
      return sjs_scan_core(source, 1, rows, row_count, points, capacity, res, frame, NULL);
    split_at = size / 2;
  }
  if (split_at >= size) return sjs_scan_core(source, 1, rows, row_count, points, capacity, res, frame, NULL);
  sjs_guess *g = calloc(1, sizeof *g);
  if (g && source->fd >= 0) {
    g->win = (sjs_window) {.fd = source->fd, .size = source->size, .cap = source->window};
    if (!(g->win.buf = malloc(source->window))) {
      free(g);
      g = NULL;
    }
  }
  if (!g) return sjs_scan_core(source, 1, rows, row_count, points, capacity, res, frame, NULL);
  g->source = source;
  g->start = split_at;
  g->f = frame;
  int status = sjs_scan_core(source, 1, rows, row_count, points, capacity, res, frame, g);
  free(g->win.buf);
  free(g->rec);
  free(g);
  return status;
}

// sjs_scan_split of `source` (a file read through windows when `file` is 1) into a frame of its own (the tables take
// 90 KB: on the heap, not on the caller's stack).
static int sjs_scan_source(const sjs_source *source, int file, const unsigned char *rows, long row_count,
  sjs_point *points, size_t capacity, size_t split_at, sjs_result *result) {
  memset(result, 0, sizeof *result);
  result->damage_mcu = -1;
  result->reason = "";
  if (file
      && (source->fd < 0 || !source->data || source->length > source->size || source->window < SJS_WINDOW_MINIMUM))
    return sjs_not_handled(result, "bad arguments");
  sjs_frame *frame = calloc(1, sizeof *frame);
  if (!frame) return sjs_not_handled(result, "out of memory");
  int status = sjs_scan_split(source, rows, row_count, points, capacity, result, frame, split_at);
  free(frame);
  return status;
}

int sjs_scan_marked(const unsigned char *data, size_t length, const unsigned char *rows, long row_count,
  sjs_point *points, size_t capacity, size_t split_at, sjs_result *result) {
  sjs_source source = {.data = data, .length = length, .fd = -1};
  return sjs_scan_source(&source, 0, rows, row_count, points, capacity, split_at, result);
}

int sjs_scan_file(const unsigned char *head, size_t head_length, int fd, size_t size, size_t window,
  const unsigned char *rows, long row_count, sjs_point *points, size_t capacity, size_t split_at,
  sjs_result *result) {
  sjs_source source = {.data = head, .length = head_length, .fd = fd, .size = size, .window = window};
  return sjs_scan_source(&source, 1, rows, row_count, points, capacity, split_at, result);
}

static int sjs_scan_core(const sjs_source *source, long stride, const unsigned char *rows, long row_count,
  sjs_point *points, size_t capacity, sjs_result *res, sjs_frame *frame, sjs_guess *guess) {
  memset(res, 0, sizeof *res);
  res->damage_mcu = -1;
  res->reason = "";
  if (!source->data || (capacity && !points) || stride < 1 || row_count < 0 || (row_count && !rows))
    return sjs_not_handled(res, "bad arguments");
  memset(frame, 0, sizeof *frame);
  sjs_frame *f = frame;
  size_t entropy = 0;
  if (sjs_headers(source->data, source->length, f, &entropy, res) != 0) return res->status;
  int hmax = 1, vmax = 1;
  for (int i = 0; i < f->nf; i++) {
    hmax = f->h[i] > hmax ? f->h[i] : hmax;
    vmax = f->v[i] > vmax ? f->v[i] : vmax;
    res->h[i] = f->h[i];
    res->v[i] = f->v[i];
  }
  // The blocks of one MCU, in coding order, by frame component.
  int *blocks = f->blocks, count = 0;
  long wide, high;
  if (f->ns == 1) {
    long cw = ((long) f->width * f->h[0] + hmax - 1) / hmax, ch = ((long) f->height * f->v[0] + vmax - 1) / vmax;
    wide = (cw + 7) / 8;
    high = (ch + 7) / 8;
    blocks[count++] = 0;
  } else {
    wide = (f->width + 8L * hmax - 1) / (8L * hmax);
    high = (f->height + 8L * vmax - 1) / (8L * vmax);
    for (int i = 0; i < f->ns; i++) {
      int c = f->order[i];
      if (count + f->h[c] * f->v[c] > 10) return sjs_not_handled(res, "more than 10 blocks an MCU");
      for (int b = 0; b < f->h[c] * f->v[c]; b++) blocks[count++] = c;
    }
  }
  res->width = f->width;
  res->height = f->height;
  res->components = f->nf;
  res->mcus_wide = wide;
  res->mcus_high = high;
  res->mcu_count = wide * high;
  res->restart_interval = f->restart;
  res->entropy_start = entropy;
  f->count = count;
  if (!guess || f->restart || guess->start <= entropy)
    return sjs_scan_mcus(source, stride, rows, row_count, points, capacity, res, f, NULL);
  // Records for the MCUs the second thread may decode: the photo's, and some for its guesses before it falls in
  // step (beyond them it stops, and the first thread scans on alone). Only what it writes is touched.
  guess->capacity = res->mcu_count + 4096;
  guess->rec = malloc((size_t) guess->capacity * sizeof *guess->rec);
  pthread_t thread;
  if (!guess->rec || pthread_create(&thread, NULL, sjs_guess_run, guess) != 0)
    return sjs_scan_mcus(source, stride, rows, row_count, points, capacity, res, f, NULL);
  int status = sjs_scan_mcus(source, stride, rows, row_count, points, capacity, res, f, guess);
  atomic_store_explicit(&guess->cancel, 1, memory_order_relaxed);
  pthread_join(thread, NULL);
  return status;
}

// Waits until the second thread has a record at or past `bit`, or has ended; the index of the first such record
// (its published count when none).
static long sjs_guess_find(sjs_guess *g, long from, uint64_t bit) {
  for (;;) {
    int done = atomic_load_explicit(&g->done, memory_order_acquire);
    long published = atomic_load_explicit(&g->published, memory_order_acquire);
    while (from < published && g->rec[from].bit < bit) from++;
    if (from < published || done) return from;
    sched_yield();
  }
}

// The scan of the MCUs and what follows them, its reader in memory or through a window of its own.
static int sjs_scan_body(sjs_reader *r, long stride, const unsigned char *rows,
  long row_count, sjs_point *points, size_t capacity, sjs_result *res, const sjs_frame *f, sjs_guess *g);

static int sjs_scan_mcus(const sjs_source *source, long stride, const unsigned char *rows, long row_count,
  sjs_point *points, size_t capacity, sjs_result *res, const sjs_frame *f, sjs_guess *g) {
  sjs_window w = {.fd = source->fd, .size = source->size, .cap = source->window};
  if (source->fd >= 0 && !(w.buf = malloc(source->window))) return sjs_not_handled(res, "out of memory");
  sjs_reader r;
  sjs_start(&r, source, &w, (uint64_t) res->entropy_start * 8);
  int status = sjs_scan_body(&r, stride, rows, row_count, points, capacity, res, f, g);
  free(w.buf);
  if (w.failed) {
    // What was read does not reach the size the file had: it was cut or changed under the scan.
    memset(res, 0, sizeof *res);
    res->damage_mcu = -1;
    return sjs_not_handled(res, "the file could not be read to its end");
  }
  return status;
}

static int sjs_scan_body(sjs_reader *rp, long stride, const unsigned char *rows,
  long row_count, sjs_point *points, size_t capacity, sjs_result *res, const sjs_frame *f, sjs_guess *g) {
  long wide = res->mcus_wide;
  sjs_reader r = *rp;
  int dc[4] = {0, 0, 0, 0};
  long ri = f->restart;
  long row_at = -1, marked = 0;  // with `rows`: where the current row's points go (-1: nowhere), rows marked so far
  // With a second thread (sjs_scan_split): the next of its records to compare, and once in step with it, the record
  // of MCU m is rec[base + m - from] and its predictors are apart from the true ones by `apart`.
  long next = 0, base = -1, from = 0;
  unsigned apart[4] = {0, 0, 0, 0};
  for (long m = 0; m < res->mcu_count; m++) {
    uint64_t here;
    if (base >= 0) {
      const sjs_point *q = &g->rec[base + m - from];
      here = q->bit;
      for (int c = 0; c < 4; c++) dc[c] = (int) ((unsigned) q->dc[c] + apart[c]);
    } else {
      here = sjs_position(&r);
    }
    // The point after the last MCU of a marked row: before a restart marker that may follow it.
    if (rows && m % wide == 0 && row_at >= 0) {
      sjs_point *pt = &points[row_at + wide];
      pt->bit = here;
      memcpy(pt->dc, dc, sizeof dc);
      res->points = (long) row_at + wide + 1;
    }
    if (ri > 0 && m > 0 && m % ri == 0) {
      size_t code_at = 0, first = 0;
      int bad = sjs_to_marker(&r, &code_at, &first);
      if (bad) return sjs_damaged(res, bad, m, r.origin + r.pos);
      if (r.data[code_at] != 0xD0 + (unsigned) ((m / ri - 1) & 7))
        return sjs_damaged(res, SJS_DAMAGE_WRONG_MARKER, m, r.origin + code_at);
      sjs_reset(&r, code_at + 1);
      memset(dc, 0, sizeof dc);
      here = sjs_position(&r);  // the MCU starts after the marker
    }
    if (rows) {
      if (m % wide == 0) {
        long y = m / wide;
        row_at = -1;
        if (y < row_count && rows[y]) {
          if ((size_t) (marked + 1) * (size_t) (wide + 1) <= capacity) row_at = marked * (wide + 1);
          marked++;
        }
      }
      if (row_at >= 0) {
        sjs_point *pt = &points[row_at + m % wide];
        pt->bit = here;
        memcpy(pt->dc, dc, sizeof dc);
      }
    } else if (m % stride == 0 && (size_t) (m / stride) < capacity) {
      sjs_point *pt = &points[m / stride];
      pt->bit = here;
      memcpy(pt->dc, dc, sizeof dc);
      res->points = m / stride + 1;
    }
    if (g && base < 0 && here >= (uint64_t) g->start * 8) {
      next = sjs_guess_find(g, next, here);
      if (next < atomic_load_explicit(&g->published, memory_order_acquire) && g->rec[next].bit == here) {
        // In step: the second thread decodes from here as this one would. Its records hold the rest when it
        // went on to the end without guessing again and stopped at the data's end after the right count.
        while (!atomic_load_explicit(&g->done, memory_order_acquire)) sched_yield();
        if (g->end >= 0 && g->last_guess <= next && g->end - next == res->mcu_count - m) {
          base = next;
          from = m;
          for (int c = 0; c < 4; c++) apart[c] = (unsigned) dc[c] - (unsigned) g->rec[next].dc[c];
        }
        g = base >= 0 ? g : NULL;
      } else if (atomic_load_explicit(&g->done, memory_order_acquire)
                 && next >= atomic_load_explicit(&g->published, memory_order_acquire)) {
        g = NULL;  // it ended without falling in step: this thread scans on alone
      }
    }
    if (base >= 0) {
      res->mcus_scanned = m + 1;
      continue;
    }
    int bad = sjs_mcu(&r, f, dc);
    if (bad) return sjs_damaged(res, bad, m, r.origin + r.pos);
    res->mcus_scanned = m + 1;
  }
  if (base >= 0) {
    const sjs_point *q = &g->rec[base + res->mcu_count - from];
    for (int c = 0; c < 4; c++) dc[c] = (int) ((unsigned) q->dc[c] + apart[c]);
    sjs_reseek(&r, q->bit);
  }
  res->end_bit = sjs_position(&r);
  memcpy(res->end_dc, dc, sizeof dc);
  if (rows && row_at >= 0) {
    sjs_point *pt = &points[row_at + wide];
    pt->bit = res->end_bit;
    memcpy(pt->dc, dc, sizeof dc);
    res->points = (long) row_at + wide + 1;
  }
  size_t code_at = 0, first = 0;
  int bad = sjs_to_marker(&r, &code_at, &first);
  if (bad) return sjs_damaged(res, bad, res->mcu_count, r.origin + r.pos);
  res->entropy_end = first;
  res->ends_at_eoi = r.data[code_at] == 0xD9;
  if (r.win) {
    // What follows the scan, in the window from the marker on: it must end there.
    size_t before = r.origin;
    sjs_move(&r, code_at);
    code_at -= r.origin - before;
    if (r.win->failed) return sjs_damaged(res, SJS_DAMAGE_ENDED, res->mcu_count, r.origin);  // (a failed read)
  }
  int end = sjs_trailer(r.data, r.length, code_at, res);
  // Cut short by the window's end, not the file's (bytes after EOI are never read, as libjpeg reads none).
  if (end == SJS_DAMAGE_ENDED && r.win && r.origin + r.length < r.win->size)
    return sjs_not_handled(res, "segments after the scan longer than a window");
  if (end == SJS_NOT_HANDLED) return end;
  if (end != SJS_OK) return sjs_damaged(res, end, res->mcu_count, r.origin + code_at);
  res->status = SJS_OK;
  return SJS_OK;
}
