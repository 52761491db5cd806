#include "CVipsGlue.h"

#include <malloc.h>
#include <pthread.h>

#include <vips/vips.h>
#include <vips/vector.h>

#include "vips_errors.h"

// libvips started once for the process, with the settings stampcam needs from it.

static pthread_once_t scv_once = PTHREAD_ONCE_INIT;
static int scv_init_result = -1;

// A composite in a pipeline makes libvips compute the whole photo in "small tiles" (the most restrictive operation's
// demand wins), 128 x 128 by default: on the libvips path (an explicit quality, other formats) a 12-megapixel photo
// went through its one worker thread and back tile by tile, 108,000 context switches for 48 jobs against 33,000 for
// the same photos decoded and encoded alone. Tiles 256 wide halve the hand-offs: 37 % fewer context switches and
// about 6 % less CPU (seven alternated pairs, medians 7.43 against 7.95 s), the same pixels. libvips has no call for
// it, only its command-line option, parsed here from a fixed argument list.
static void scv_widen_tiles(void) {
  GOptionContext *context = g_option_context_new(NULL);
  GOptionGroup *group = g_option_group_new("vips", "libvips", "libvips", NULL, NULL);
  vips_add_option_entries(group);
  g_option_context_set_main_group(context, group);  // the context owns the group
  gchar *arguments[] = {"stampcam", "--vips-tile-width=256", NULL};
  gchar **argv = arguments;
  gint argc = 2;
  g_option_context_parse(context, &argc, &argv, NULL);
  g_option_context_free(context);
}

static void scv_do_init(void) {
#ifdef M_ARENA_MAX
  // glibc gives each new thread its own malloc arena, and libvips starts worker threads for every pipeline:
  // over a long batch the arenas pile up (measured: peak RSS 67 -> 82 MB from 100 to 10,000 jobs; flat with a
  // cap). Two arenas rather than four also keep 12-megapixel batches under 300 MB at no measurable cost in time.
  mallopt(M_ARENA_MAX, 2);
  // Blocks of a megabyte or more (a photo's file, libvips' region buffers) are mapped and unmapped whole. glibc
  // would otherwise raise this threshold to the largest block freed (up to 32 MB) and serve such blocks from the
  // heap, where a large photo's leave holes the next jobs cut up: 121 wallpapers of mixed sizes peaked at 1.4 x
  // their largest job alone at --jobs 1, and at 1.13 x with this. (A malloc_trim after each job brought that to
  // 1.03 x but cost 9-10 % of the wall time of 12-megapixel batches, in page faults: not kept.)
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  // Setting that threshold also pins the trim threshold at glibc's 128 KB: each time a redrawn region's pipeline
  // went, the heap's free top was given back, and the next one's buffers (zeroed by libvips when allocated) faulted
  // in again page by page. 2 MB kept at the top covers most of them: page faults on the grain workload 240,000 ->
  // 90,000, system time 0.8 -> 0.35 s of 10.5 s. 8 MB saved 20,000 faults more but held the mixed wallpapers' peak
  // at 1.13-1.20 x the largest job alone, against 1.08-1.11 with 2 MB and 1.11-1.12 with 128 KB.
  mallopt(M_TRIM_THRESHOLD, 2 << 20);
#endif
  g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, scv_log_warning, NULL);
  scv_init_result = VIPS_INIT("stampcam");
  if (scv_init_result == 0) {
    scv_widen_tiles();
    // libvips 8.14 builds Orc programs for some uchar operations (vips_reducev among them) and frees them when the
    // pipeline goes; freeing Orc code from two threads at once corrupts the heap (seen: "malloc_consolidate():
    // unaligned fastbin chunk detected", and an ASan SEGV in orc_code_free, when two jobs in flight each shrank an
    // 8-bit stamp). Without Orc the same work runs in plain C.
    vips_vector_set_enabled(FALSE);
    // Stamps are few and small; the operation cache only holds memory in a batch of distinct photos.
    vips_cache_set_max(0);
    // Loaders libvips itself marks untrusted (ImageMagick, PDF, SVG, FITS, Matlab, CSV, raw...) are refused
    // unless the user opts back in (scv_allow_untrusted). The overlay draws its own SVG, made here, not read.
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoadSvgBuffer", FALSE);
    // libvips marks its whole JPEG XL module untrusted, the saver with the loader; the saver only encodes pixels
    // stampcam made, so it is let through (the loader, which would parse a file, stays blocked).
    vips_operation_block_set("VipsForeignSaveJxl", FALSE);
  }
}

int scv_share_cores(int jobs, int cores) {
  if (scv_init()) return -1;
  // VIPS_CONCURRENCY, when set, is the user's choice: libvips read it at start-up and it stays.
  if (g_getenv("VIPS_CONCURRENCY")) return vips_concurrency_get();
  if (jobs < 1) jobs = 1;
  if (cores < 1) cores = 1;
  int threads = (cores + jobs - 1) / jobs;
  // libvips reads its concurrency as each pipeline starts: pipelines already running keep theirs.
  if (threads != vips_concurrency_get()) vips_concurrency_set(threads);
  return threads;
}

int scv_init(void) {
  pthread_once(&scv_once, scv_do_init);
  return scv_init_result;
}

