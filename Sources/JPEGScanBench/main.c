// The spliced bound of scripts/bench-bound: reads each JPEG, scans its entropy-coded data with the baseline scanner
// (JPEGScan.h) keeping every 64th MCU's start, and writes its bytes to a new file; or, in `copy` mode, the physical
// floor: the same reads and writes with no scan. Not part of the product: a bench's own tool.
//
// Usage: JPEGScanBench copy|scan OUTDIR FILE...
// Prints one line: files scanned whole, damaged, not handled (a progressive one, say), and the MCUs scanned.
// Exits 1 on a file it cannot read or write.

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "JPEGScan.h"

static int read_all(const char *path, unsigned char **data, size_t *length) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < 0) return close(fd), -1;
  size_t size = (size_t) st.st_size;
  unsigned char *buffer = malloc(size ? size : 1);
  if (!buffer) return close(fd), -1;
  size_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, buffer + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return free(buffer), close(fd), -1;
    done += (size_t) n;
  }
  close(fd);
  *data = buffer;
  *length = size;
  return 0;
}

static int write_all(const char *path, const unsigned char *data, size_t length) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < length) {
    ssize_t n = write(fd, data + done, length - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return close(fd), -1;
    done += (size_t) n;
  }
  return close(fd);
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "copy") != 0 && strcmp(argv[1], "scan") != 0)) {
    fprintf(stderr, "usage: JPEGScanBench copy|scan OUTDIR FILE...\n");
    return 2;
  }
  int scan = strcmp(argv[1], "scan") == 0;
  long whole = 0, damaged = 0, other = 0, mcus = 0;
  enum { STRIDE = 64 };
  for (int i = 3; i < argc; i++) {
    unsigned char *data = NULL;
    size_t length = 0;
    if (read_all(argv[i], &data, &length) != 0) {
      fprintf(stderr, "JPEGScanBench: cannot read %s: %s\n", argv[i], strerror(errno));
      return 1;
    }
    if (scan) {
      // At least 2 bits a block (a DC code and an EOB), so at most 4 MCUs a byte: a bound on the points needed.
      size_t capacity = length * 4 / STRIDE + 1;
      sjs_point *points = malloc(capacity * sizeof *points);
      sjs_result result;
      if (!points) return fprintf(stderr, "JPEGScanBench: out of memory\n"), 1;
      int status = sjs_scan(data, length, STRIDE, points, capacity, &result);
      whole += status == SJS_OK;
      damaged += status == SJS_DAMAGED;
      other += status == SJS_NOT_HANDLED;
      mcus += result.mcus_scanned;
      free(points);
    }
    const char *name = strrchr(argv[i], '/');
    char target[4096];
    snprintf(target, sizeof target, "%s/%d-%s", argv[2], i, name ? name + 1 : argv[i]);
    if (write_all(target, data, length) != 0) {
      fprintf(stderr, "JPEGScanBench: cannot write %s: %s\n", target, strerror(errno));
      return 1;
    }
    free(data);
  }
  printf("%ld %ld %ld %ld\n", whole, damaged, other, mcus);
  return 0;
}
