#ifndef STAMPCAM_JPEG_RESTART_INDEX_H
#define STAMPCAM_JPEG_RESTART_INDEX_H

// Where the opened file's restart intervals lie (jpeg_restart_index.c), and the spans of them re-encoded so far
// (jpeg_restart_spans.c).

#include <stddef.h>

/// One run of re-encoded restart intervals: a whole JPEG written to memory, and where its intervals lie in it.
typedef struct {
  int first, count;     // interval indices in the photo
  unsigned char *data;  // the JPEG libjpeg wrote for the span
  size_t header;        // bytes before its entropy-coded data
  size_t sof_height;    // offset of its frame header's height field
  size_t *start, *end;  // interval i's entropy bytes: data[start[i] ..< end[i]], markers excluded
} sjt_span;

/// Where the opened file's restart intervals lie, and the spans re-encoded so far.
typedef struct {
  int indexed;          // 1 once sjt_restart_index succeeded for the opened file
  int count;            // intervals in the scan
  size_t header;        // bytes of the file before its entropy-coded data
  size_t sof_height;    // offset of the frame header's height field
  long photo_height;    // that field's value (after a span was opened, the decompressor holds the span's height)
  size_t *start, *end;  // interval k's entropy bytes in the file, markers excluded
  size_t capacity;      // entries allocated in start/end
  unsigned char *mini;  // the current span as a JPEG of its own (header + its intervals), read as the source
  size_t mini_length, mini_capacity;
  int span_first, span_count;  // the intervals of the span being edited
  sjt_span *spans;
  int span_total, span_capacity;
} sjt_restarts;

/// The big-endian 16-bit number at p (a segment's length, a frame's size).
static inline unsigned sjt_be16(const unsigned char *p) { return (unsigned) p[0] << 8 | p[1]; }

/// Walks the marker segments of a JPEG from SOI to the end of its first SOS segment. Sets *header to the offset
/// of the entropy-coded data, *sof to the offset of the frame header's height field, *components to the count of
/// components in the scan. Returns 0, or -1 when the structure is not a plain one.
int sjt_headers(const unsigned char *data, size_t length, size_t *header, size_t *sof, int *components);

/// Finds the intervals of the entropy-coded data that starts at `from`: up to `capacity` (start, end) pairs, the
/// markers between them checked to be RST0, RST1, ... in turn. Returns the count found before EOI, or -1 when
/// another marker (a second scan, DNL), a wrong RST number or the end of the data comes first.
int sjt_intervals(const unsigned char *data, size_t length, size_t from, size_t *start, size_t *end,
  size_t capacity);

/// True when every Huffman table the scan of `d` (a header read) uses codes every symbol baseline data can need (DC
/// categories 0-11; AC end-of-block, run-of-16 and each run 0-15 with each size 1-10), as the standard tables of
/// cameras and of libjpeg's defaults do, and none codes a symbol twice (libjpeg's encoder refuses that): then any edit
/// encodes with the photo's own tables. An optimized table may lack codes.
struct jpeg_decompress_struct;
int sjt_tables_complete(struct jpeg_decompress_struct *d);
/// True when every Huffman table the scan of `d` uses is defined and codes no symbol twice: libjpeg's encoder takes it
/// (it may still lack a code a given edit needs).
int sjt_tables_encodable(struct jpeg_decompress_struct *d);

/// Forgets the restart index and frees the re-encoded spans; buffers stay for the next file.
void sjt_restarts_clear(sjt_restarts *r);
/// Frees everything the restart index holds.
void sjt_restarts_free(sjt_restarts *r);

#endif
